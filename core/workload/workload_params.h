// SPDX-License-Identifier: Apache-2.0
//
// WorkloadParams: the name=value parameters of a workload spec, read with
// typed getters that report a bad value against the spec, naming the
// parameter and what was expected.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/sim_time.h"

namespace wb {

class Workload;

struct WorkloadParam {
    std::string name;
    std::string default_value;
    std::string doc;
};

struct WorkloadInfo {
    std::string name;
    std::string summary;
    std::vector<WorkloadParam> params;
};

class WorkloadParams {
public:
    // `columns`: where each parameter the spec gives starts in it (1-based),
    // for messages; parameters left at their defaults have none.
    WorkloadParams(std::string spec, std::map<std::string, std::string> values,
                   std::map<std::string, std::size_t> columns = {})
        : spec_(std::move(spec)), values_(std::move(values)), columns_(std::move(columns))
    {
    }

    const std::string& spec() const { return spec_; }
    std::string text(const std::string& name) const { return values_.at(name); }
    std::uint64_t count(const std::string& name, std::uint64_t min, std::uint64_t max) const;
    bool flag(const std::string& name) const;  // 0/1, on/off, yes/no
    double number(const std::string& name, double min, double max) const;
    Time duration(const std::string& name) const;  // "500us", "2ms"
    // One of `choices`; the error lists them.
    std::string choice(const std::string& name, const std::vector<std::string>& choices) const;
    [[noreturn]] void fail(const std::string& message) const;

private:
    // The InputError about parameter `name`, at its column if the spec gives it.
    [[noreturn]] void fail_at(const std::string& name, const std::string& message) const;

    std::string spec_;
    std::map<std::string, std::string> values_;
    std::map<std::string, std::size_t> columns_;
};

// A workload the catalog can build: its documentation and its factory.
struct WorkloadEntry {
    WorkloadInfo info;
    std::unique_ptr<Workload> (*make)(const WorkloadParams& params);
};

// The catalog is assembled from groups, each kept with its workloads.
void add_pipe_workloads(std::vector<WorkloadEntry>& catalog);
void add_messaging_workloads(std::vector<WorkloadEntry>& catalog);  // hackbench, schbench, tee
void add_service_workloads(std::vector<WorkloadEntry>& catalog);    // io-uring, gemm, web, json

}  // namespace wb
