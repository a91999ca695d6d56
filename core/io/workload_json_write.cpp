// SPDX-License-Identifier: Apache-2.0
#include "io/workload_json_write.h"

#include <nlohmann/json.hpp>

namespace wb {

namespace {

std::string quoted(const std::string& s)
{
    return nlohmann::json(s).dump();
}

const char* policy_name(SchedPolicy p)
{
    switch (p) {
    case SchedPolicy::Batch:
        return "batch";
    case SchedPolicy::Idle:
        return "idle";
    case SchedPolicy::Normal:
        break;
    }
    return "normal";
}

std::string phase_text(const JsonPhase& ph)
{
    switch (ph.kind) {
    case JsonPhase::Kind::Run:
        return "{\"run\": " + quoted(exact_duration(ph.duration)) + "}";
    case JsonPhase::Kind::Sleep:
        return "{\"sleep\": " + quoted(exact_duration(ph.duration)) + "}";
    case JsonPhase::Kind::Timer:
        return "{\"timer\": " + quoted(exact_duration(ph.duration)) + "}";
    case JsonPhase::Kind::Wait:
        return "{\"wait\": " + quoted(ph.name) + "}";
    case JsonPhase::Kind::Signal:
        return "{\"signal\": " + quoted(ph.name) + (ph.sync ? ", \"sync\": true" : "") +
               (ph.broadcast ? ", \"broadcast\": true" : "") + "}";
    case JsonPhase::Kind::Yield:
        return "{\"yield\": true}";
    case JsonPhase::Kind::Barrier:
        return "{\"barrier\": " + quoted(ph.name) + "}";
    case JsonPhase::Kind::Fork:
        return "{\"fork\": " + quoted(ph.name) + "}";
    }
    return "{}";
}

}  // namespace

std::string exact_duration(Time t)
{
    const std::int64_t ns = t.ns();
    static constexpr struct {
        const char* unit;
        std::int64_t ns;
    } kUnits[] = {{"s", 1'000'000'000}, {"ms", 1'000'000}, {"us", 1'000}, {"ns", 1}};
    for (const auto& u : kUnits)
        if (ns % u.ns == 0)
            return std::to_string(ns / u.ns) + u.unit;
    return std::to_string(ns) + "ns";
}

std::string workload_to_json(const WorkloadFile& file)
{
    std::string out = "{\n  \"tasks\": [\n";
    for (std::size_t i = 0; i < file.tasks.size(); ++i) {
        const JsonTask& t = file.tasks[i];
        out += "    {\"name\": " + quoted(t.name);
        if (t.instances != 1)
            out += ", \"instances\": " + std::to_string(t.instances);
        if (!t.cpus.empty())
            out += ", \"cpus\": " + quoted(t.cpus);
        if (t.nice != 0)
            out += ", \"nice\": " + std::to_string(t.nice);
        if (t.policy != SchedPolicy::Normal)
            out += std::string(", \"policy\": \"") + policy_name(t.policy) + "\"";
        out += ", \"loop\": " + std::to_string(t.loop);
        if (!t.start)
            out += ", \"start\": false";
        out += ",\n     \"phases\": [\n";
        for (std::size_t j = 0; j < t.phases.size(); ++j)
            out += "      " + phase_text(t.phases[j]) + (j + 1 < t.phases.size() ? ",\n" : "\n");
        out += "     ]}";
        out += i + 1 < file.tasks.size() ? ",\n" : "\n";
    }
    out += "  ]\n}\n";
    return out;
}

}  // namespace wb
