// SPDX-License-Identifier: Apache-2.0
//
// Trace text (trace/trace_parser.cpp), then what trace import builds from
// it on an 8-CPU machine (trace/trace_report.cpp): events in stamp order,
// each from a line of the text, or an InputError at a line.
#include "contract.h"
#include "fuzz_target.h"
#include "topology/synthetic.h"
#include "trace/trace_parser.h"
#include "trace/trace_report.h"

using namespace wb;

WB_FUZZ_TARGET(trace)
{
    static const Machine machine = parse_synthetic("llc=2,core=2,smt=2");
    ParsedTrace trace;
    try {
        trace = parse_trace(fuzz::text_of(data, size), "fuzz.trace");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
        return 0;
    }
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& ev = trace.events[i];
        fuzz::require(ev.line >= 1 && ev.line <= trace.lines, "an event from no line of the text");
        fuzz::require(ev.kind == TraceEventKind::LostEvents || ev.cpu <= trace.max_cpu,
                      "an event on a CPU above max_cpu");
        fuzz::require(i == 0 || trace.events[i - 1].ts <= ev.ts, "events out of stamp order");
    }
    try {
        build_trace_report(trace, machine, TaskFilter{}, "fuzz.trace");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
    }
    return 0;
}
