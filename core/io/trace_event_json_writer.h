// SPDX-License-Identifier: Apache-2.0
//
// TraceEventJsonWriter: a simulated run in the Chrome trace-event format
// ("Trace Event Format", the JSON that chrome://tracing and Perfetto's UI
// open): one process for the machine, one thread track per CPU ("CPU n",
// tid = cpu) holding a complete ("X") slice per stretch a task ran there;
// per wakeup or fork an instant ("i", thread scope) on the waker's CPU
// whose args carry the decision record (path, the CPUs, the steps with
// their deciding values), and a flow arrow ("s" -> "f", bp "e") from the
// waker's slice to the wakee's next slice. Stamps in microseconds with
// three decimals (every nanosecond). Events are streamed as they happen;
// a slice is written when it ends, so the array is not in time order,
// which the format allows.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/sched_event_sink.h"
#include "io/trace_limit.h"
#include "io/trace_naming.h"

namespace wb {

class TraceEventJsonWriter final : public SchedEventSink {
public:
    static constexpr int kMachinePid = 1;

    // Writes the opening and the tracks' metadata now. `out` must outlive the writer.
    TraceEventJsonWriter(std::ostream& out, int nr_cpus, TraceLimit limit, std::string what);

    void task_created(TaskId id, std::string_view name, int nice) override;
    void event(const SchedEvent& e) override;
    void decision(const DecisionRecord& rec) override;

    // Closes the slices still open at `end` (or where the limit stopped
    // the trace) and the document; its otherData says whether it was cut.
    void finish(Time end);
    bool truncated() const { return gate_.stopped(); }
    std::uint64_t written() const { return gate_.written(); }

private:
    struct Running {
        TaskId task = kNoTask;
        Time since;
    };
    void begin_event();
    void close_slice(CpuId cpu, Time end);

    std::ostream& out_;
    std::string what_;
    TraceLimitGate gate_;
    TraceTaskNames names_;
    std::vector<Running> running_;        // per CPU: the slice open there
    std::vector<std::uint64_t> flow_to_;  // per task: the flow waiting for its next slice (0: none)
    std::uint64_t next_flow_ = 1;
    bool first_ = true;
};

}  // namespace wb
