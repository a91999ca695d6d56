// SPDX-License-Identifier: Apache-2.0
#include "workload/workload_spec.h"

#include <charconv>
#include <map>

#include "io/input_error.h"
#include "workload/pipe.h"

namespace wb {

const std::vector<WorkloadInfo>& workload_catalog()
{
    static const std::vector<WorkloadInfo> kCatalog = {
        {"pipe",
         "perf bench sched pipe: two tasks ping-pong a token over a pair of pipes (sync wakeups)",
         {{"loops", "1000000", "round trips (perf's -l)"},
          {"threads", "0", "1: two threads of one process (perf's -T); 0: two processes"},
          {"cpus", "", "cpulist both tasks are pinned to, as taskset -c (empty: all CPUs)"}}},
    };
    return kCatalog;
}

namespace {

[[noreturn]] void fail(std::string_view spec, const std::string& message)
{
    throw InputError(Diagnostic{"workload '" + std::string(spec) + "'", 0, 0, "", message});
}

std::map<std::string, std::string> parse_params(std::string_view spec, std::string_view body, const WorkloadInfo& info)
{
    std::map<std::string, std::string> params;
    for (const WorkloadParam& p : info.params)
        params[p.name] = p.default_value;
    std::size_t pos = 0;
    while (pos < body.size()) {
        // A value may itself hold commas (cpus=0-3,8): an item without '=' continues the previous value.
        std::size_t comma = body.find(',', pos);
        std::string_view item =
            body.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        pos = comma == std::string_view::npos ? body.size() : comma + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            fail(spec, "expected name=value, found '" + std::string(item) + "'");
        }
        const std::string name(item.substr(0, eq));
        if (!params.count(name)) {
            std::string valid;
            for (const WorkloadParam& p : info.params)
                valid += (valid.empty() ? "" : ", ") + p.name;
            fail(spec, "unknown parameter '" + name + "' of " + info.name + "; expected " + valid);
        }
        std::string value(item.substr(eq + 1));
        // cpus takes a cpulist, whose commas continue until the next name=.
        while (name == "cpus" && pos < body.size()) {
            std::size_t next = body.find(',', pos);
            std::string_view more =
                body.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
            if (more.find('=') != std::string_view::npos)
                break;
            value += "," + std::string(more);
            pos = next == std::string_view::npos ? body.size() : next + 1;
        }
        params[name] = value;
    }
    return params;
}

std::uint64_t parse_count(std::string_view spec, const std::string& name, const std::string& text, std::uint64_t min,
                          std::uint64_t max)
{
    std::uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || value < min || value > max)
        fail(spec, name + "=" + text + ": expected a whole number from " + std::to_string(min) + " to " +
                       std::to_string(max));
    return value;
}

}  // namespace

std::unique_ptr<Workload> make_workload(std::string_view spec)
{
    const std::size_t colon = spec.find(':');
    const std::string name(spec.substr(0, colon));
    const std::string_view body = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
    for (const WorkloadInfo& info : workload_catalog()) {
        if (info.name != name)
            continue;
        const auto params = parse_params(spec, body, info);
        if (name == "pipe") {
            PipeOptions o;
            o.loops = parse_count(spec, "loops", params.at("loops"), 1, 1'000'000'000'000ULL);
            o.threads = parse_count(spec, "threads", params.at("threads"), 0, 1) == 1;
            o.cpus = params.at("cpus");
            return std::make_unique<PipeWorkload>(o);
        }
    }
    std::string valid;
    for (const WorkloadInfo& info : workload_catalog())
        valid += (valid.empty() ? "" : ", ") + info.name;
    fail(spec, "unknown workload '" + name + "'; expected one of " + valid);
}

}  // namespace wb
