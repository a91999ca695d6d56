// SPDX-License-Identifier: Apache-2.0
//
// Reading the text of a recorded trace: what `cat /sys/kernel/tracing/trace`
// prints, what `trace-cmd report` prints, and what `perf script` prints for
// sched:* tracepoints. The three are told apart by their header and by the
// shape of their lines:
//
//   tracefs    "# tracer: nop" header; "comm-pid [cpu] flags stamp: event: key=value ..."
//   trace-cmd  "cpus=N" header; "comm-pid [cpu] stamp: event: ...", sched_switch and
//              sched_wakeup in its plugin's "comm:pid [prio] S ==> comm:pid [prio]" form
//   perf       no header; "comm pid [cpu] stamp: sched:event: key=value ..."
//
// Lines of other events are counted and skipped; a line of one of the five
// wakeup events whose fields cannot be read is an InputError naming the
// file, line and column and what was expected. A last line cut short (no
// newline at the end, as when a copy was interrupted) is left out with a
// note rather than failing the whole file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_event.h"

namespace wb {

enum class TraceFormat { Tracefs, TraceCmd, Perf };

std::string_view trace_format_name(TraceFormat format);  // "tracefs", "trace-cmd report", "perf script"

struct ParsedTrace {
    TraceFormat format = TraceFormat::Tracefs;
    // Seconds-with-fraction stamps (a nanosecond clock); false: whole-number
    // counts of a clock that is not in ns (counter, uptime, x86-tsc).
    bool stamps_in_ns = true;
    // In stamp order. The kernel merges the per-CPU buffers by stamp; a file
    // of concatenated per-CPU buffers is merged here the same way, events of
    // equal stamps kept in file order.
    std::vector<TraceEvent> events;
    int lines = 0;
    int header_cpus = 0;   // "#P:N" or "cpus=N"; 0 when the file does not say
    int max_cpu = -1;      // the highest CPU any event names, lost-event markers aside
    std::uint64_t other_events = 0;  // lines of events other than the five, skipped
    std::uint64_t overwritten = 0;   // tracefs: entries-written minus entries-in-buffer
    int cut_line = 0;      // the last line, cut short and left out; 0 if none
    std::vector<std::string> notes;
};

// `label` names the file in diagnostics.
ParsedTrace parse_trace(std::string_view text, const std::string& label);

}  // namespace wb
