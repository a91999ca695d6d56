// SPDX-License-Identifier: Apache-2.0
#include "io/trace_event_json_writer.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "io/results_json.h"
#include "sched/decision.h"
#include "topology/sd_flags.h"
#include "topology/distance.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Microseconds with three decimals: the format's unit, every nanosecond kept.
std::string micros(Time t)
{
    char buf[32];
    const long long ns = t.ns();
    std::snprintf(buf, sizeof buf, "%lld.%03lld", ns / 1000, ns % 1000);
    return buf;
}

std::string quoted(std::string_view s)
{
    return Json(std::string(s)).dump();
}

std::string cpu_value(CpuId cpu)
{
    return cpu == kNoCpu ? "null" : std::to_string(cpu);
}

}  // namespace

TraceEventJsonWriter::TraceEventJsonWriter(std::ostream& out, int nr_cpus, TraceLimit limit, std::string what)
    : out_(out), what_(std::move(what)), gate_(limit), running_(static_cast<std::size_t>(nr_cpus))
{
    out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    begin_event();
    out_ << R"({"name":"process_name","ph":"M","pid":)" << kMachinePid << R"(,"tid":0,"args":{"name":)"
         << quoted("wakesim: " + what_) << "}}";
    for (int cpu = 0; cpu < nr_cpus; ++cpu) {
        begin_event();
        out_ << R"({"name":"thread_name","ph":"M","pid":)" << kMachinePid << ",\"tid\":" << cpu
             << R"(,"args":{"name":"CPU )" << cpu << "\"}}";
        // Tracks in CPU order, not in order of first appearance.
        begin_event();
        out_ << R"({"name":"thread_sort_index","ph":"M","pid":)" << kMachinePid << ",\"tid\":" << cpu
             << R"(,"args":{"sort_index":)" << cpu << "}}";
    }
}

void TraceEventJsonWriter::begin_event()
{
    if (!first_)
        out_ << ",\n";
    first_ = false;
}

void TraceEventJsonWriter::task_created(TaskId id, std::string_view name, int nice)
{
    names_.add(id, name, nice);
    if (static_cast<std::size_t>(id) >= flow_to_.size())
        flow_to_.resize(static_cast<std::size_t>(id) + 1, 0);
}

// The slice of the task that ran on `cpu` until `end`, if one did.
void TraceEventJsonWriter::close_slice(CpuId cpu, Time end)
{
    Running& r = running_[static_cast<std::size_t>(cpu)];
    if (r.task == kNoTask)
        return;
    begin_event();
    out_ << R"({"name":)" << quoted(names_.comm(r.task)) << R"(,"cat":"sched","ph":"X","ts":)" << micros(r.since)
         << ",\"dur\":" << micros(end - r.since) << ",\"pid\":" << kMachinePid << ",\"tid\":" << cpu
         << R"(,"args":{"pid":)" << trace_pid(r.task) << "}}";
    r.task = kNoTask;
}

void TraceEventJsonWriter::event(const SchedEvent& e)
{
    // Only switches make slices; the wakeups are drawn from their records.
    if (e.kind != SchedEventKind::Switch || !gate_.admit(e.time))
        return;
    close_slice(e.cpu, e.time);
    if (e.p == kNoTask)
        return;
    running_[static_cast<std::size_t>(e.cpu)] = {e.p, e.time};
    std::uint64_t& flow = flow_to_[static_cast<std::size_t>(e.p)];
    if (flow == 0)
        return;
    begin_event();
    out_ << R"({"name":"wakeup","cat":"wakeup","ph":"f","bp":"e","id":)" << flow << ",\"ts\":" << micros(e.time)
         << ",\"pid\":" << kMachinePid << ",\"tid\":" << e.cpu << "}";
    flow = 0;
}

void TraceEventJsonWriter::decision(const DecisionRecord& rec)
{
    if (!gate_.admit(rec.time))
        return;
    const bool fork = rec.wake_flags & WF_FORK;
    const std::string wakee = names_.comm(rec.wakee);
    begin_event();
    out_ << R"({"name":)" << quoted((fork ? "fork " : "wakeup ") + wakee) << R"(,"cat":"wakeup","ph":"i","s":"t","ts":)"
         << micros(rec.time) << ",\"pid\":" << kMachinePid << ",\"tid\":" << rec.waker_cpu << R"(,"args":{"wakee":)"
         << quoted(wakee) << ",\"wakee_pid\":" << trace_pid(rec.wakee) << ",\"path\":"
         << quoted(wake_path_name(rec.path)) << ",\"waker_cpu\":" << rec.waker_cpu
         << ",\"prev_cpu\":" << cpu_value(rec.prev_cpu) << ",\"target\":" << cpu_value(rec.target)
         << ",\"chosen\":" << cpu_value(rec.chosen)
         << ",\"from_waker\":" << quoted(kDistanceClassNames[static_cast<std::size_t>(rec.from_waker)])
         << ",\"from_prev\":" << quoted(kDistanceClassNames[static_cast<std::size_t>(rec.from_prev)])
         << ",\"record\":" << decision_record_to_json(rec) << "}}";
    // The arrow leaves the waker's slice; from an idle CPU (an interrupt)
    // there is no slice to leave from.
    if (running_[static_cast<std::size_t>(rec.waker_cpu)].task == kNoTask)
        return;
    const std::uint64_t id = next_flow_++;
    flow_to_[static_cast<std::size_t>(rec.wakee)] = id;
    begin_event();
    out_ << R"({"name":"wakeup","cat":"wakeup","ph":"s","id":)" << id << ",\"ts\":" << micros(rec.time)
         << ",\"pid\":" << kMachinePid << ",\"tid\":" << rec.waker_cpu << "}";
}

void TraceEventJsonWriter::finish(Time end)
{
    const Time last = gate_.stopped() ? gate_.stopped_at() : end;
    for (std::size_t cpu = 0; cpu < running_.size(); ++cpu)
        close_slice(static_cast<CpuId>(cpu), last);
    out_ << "\n],\"otherData\":{\"generator\":\"wakesim\",\"run\":" << quoted(what_)
         << ",\"trace_clock\":\"mono\",\"events\":" << gate_.written() << ",\"truncated\":"
         << (gate_.stopped() ? "true" : "false");
    if (gate_.stopped())
        out_ << ",\"trace_limit\":" << quoted(gate_.limit().describe())
             << ",\"stopped_at_us\":" << micros(gate_.stopped_at());
    out_ << "}}\n";
    out_.flush();
}

}  // namespace wb
