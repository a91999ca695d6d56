// SPDX-License-Identifier: Apache-2.0
#include "workload/workload_spec.h"

#include "io/input_error.h"

namespace wb {

namespace {

const std::vector<WorkloadEntry>& entries()
{
    static const std::vector<WorkloadEntry> kEntries = [] {
        std::vector<WorkloadEntry> list;
        add_pipe_workloads(list);
        add_messaging_workloads(list);
        add_service_workloads(list);
        return list;
    }();
    return kEntries;
}

// Splits "a=1,cpus=0-3,8,b=2" into parameters. A value may hold commas (a
// cpulist does): an item without '=' continues the previous value, whose own
// check then reports it if it does not belong there. A parameter may be
// given once: "loops=1,loops=2" is a mistake, not a choice of the last.
WorkloadParams parse_params(std::string_view spec, std::size_t body_column, std::string_view body,
                            const WorkloadInfo& info)
{
    std::map<std::string, std::string> values;
    for (const WorkloadParam& p : info.params)
        values[p.name] = p.default_value;
    std::map<std::string, std::size_t> columns;  // of each parameter given
    std::string last;
    std::size_t pos = 0;
    auto fail = [&](std::size_t at, const std::string& message) {
        throw InputError(
            Diagnostic{"workload '" + std::string(spec) + "'", 1, static_cast<int>(body_column + at), "", message});
    };
    while (pos < body.size()) {
        const std::size_t comma = body.find(',', pos);
        const std::string_view item =
            body.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        const std::size_t at = pos;
        pos = comma == std::string_view::npos ? body.size() : comma + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            if (!last.empty()) {
                values[last] += "," + std::string(item);
                continue;
            }
            fail(at, "expected name=value, found '" + std::string(item) + "'");
        }
        const std::string name(item.substr(0, eq));
        if (!values.count(name)) {
            std::string valid;
            for (const WorkloadParam& p : info.params)
                valid += (valid.empty() ? "" : ", ") + p.name;
            fail(at, "unknown parameter '" + name + "' of " + info.name + "; expected " + valid);
        }
        if (auto [first, fresh] = columns.emplace(name, body_column + at); !fresh)
            fail(at, name + " is given twice (first at column " + std::to_string(first->second) +
                         "); expected each parameter once");
        values[name] = std::string(item.substr(eq + 1));
        last = name;
    }
    return WorkloadParams(std::string(spec), std::move(values), std::move(columns));
}

}  // namespace

WorkloadParams workload_params(std::string_view spec)
{
    const std::size_t colon = spec.find(':');
    const std::string name(spec.substr(0, colon));
    const std::string_view body = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
    for (const WorkloadEntry& e : entries())
        if (e.info.name == name)
            return parse_params(spec, name.size() + 2, body, e.info);
    std::string valid;
    for (const WorkloadEntry& e : entries())
        valid += (valid.empty() ? "" : ", ") + e.info.name;
    throw InputError(Diagnostic{"workload '" + std::string(spec) + "'", 1, 1, "",
                                "unknown workload '" + name + "'; expected one of " + valid});
}

const std::vector<WorkloadInfo>& workload_catalog()
{
    static const std::vector<WorkloadInfo> kCatalog = [] {
        std::vector<WorkloadInfo> list;
        for (const WorkloadEntry& e : entries())
            list.push_back(e.info);
        return list;
    }();
    return kCatalog;
}

std::unique_ptr<Workload> make_workload(std::string_view spec)
{
    const WorkloadParams params = workload_params(spec);  // an unknown name fails here
    const std::string name(spec.substr(0, spec.find(':')));
    for (const WorkloadEntry& e : entries())
        if (e.info.name == name)
            return e.make(params);
    return nullptr;
}

}  // namespace wb
