// SPDX-License-Identifier: Apache-2.0
//
// FtraceTextWriter: a simulated run as the text /sys/kernel/tracing/trace
// prints (the nop tracer's header, then one line per event), with the five
// sched events in their kernel format, so that `wakesim trace import` and
// Perfetto's ftrace text importer read it as a recorded trace. Stamps are
// the run's simulated time in seconds with nine decimals (tracefs prints
// six; the importer reads nine and keeps every nanosecond, so latencies
// come back exactly). docs/traces.md describes the mapping. No Qt.
#pragma once

#include <ostream>
#include <string>

#include "engine/sched_event_sink.h"
#include "io/trace_limit.h"
#include "io/trace_naming.h"

namespace wb {

class FtraceTextWriter final : public SchedEventSink {
public:
    // Writes the header now. `out` must outlive the writer.
    FtraceTextWriter(std::ostream& out, int nr_cpus, TraceLimit limit, std::string what);

    void task_created(TaskId id, std::string_view name, int nice) override;
    void event(const SchedEvent& e) override;

    // The last line: says so if the limit stopped the trace. On a seekable
    // stream (a file) it also fills in the header's entry counts.
    void finish();
    bool truncated() const { return gate_.stopped(); }
    std::uint64_t written() const { return gate_.written(); }

private:
    void context(const SchedEvent& e, std::string& line) const;
    std::string comm(TaskId id) const;
    std::string switch_comm(TaskId id, CpuId cpu) const;

    std::ostream& out_;
    int nr_cpus_;
    TraceLimitGate gate_;
    TraceTaskNames names_;
    std::streampos counts_at_ = -1;  // where the header's entry counts are
    std::string line_;
};

}  // namespace wb
