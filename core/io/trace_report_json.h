// SPDX-License-Identifier: Apache-2.0
//
// `wakesim trace import --json`: the trace's figures under the keys of
// `wakesim run --json` (placement, placement_from_prev, migrations,
// wakeup_latency_ns, run_delay_ns, context_switches, wakeups_by_path), so
// scripts that read a simulated run read a real one unchanged. Figures
// that need times are null when the stamps are not nanoseconds.
#pragma once

#include <string>

namespace wb {

struct ParsedTrace;
struct TraceReport;
struct TaskFilter;

struct TraceSource {
    std::string file;
    std::string machine;
    std::string clock;  // as --clock named it, or ""
};

std::string trace_report_to_json(const TraceSource& source, const ParsedTrace& trace, const TraceReport& report,
                                 const TaskFilter& filter);

}  // namespace wb
