// SPDX-License-Identifier: Apache-2.0
//
// A run written as a trace, for the front ends: `wakesim run --trace` and
// the window's Results ▸ Export trace. The file's extension picks the
// format: .txt for ftrace text (what /sys/kernel/tracing/trace prints, read
// back by `wakesim trace import`), .json for Chrome trace events (Perfetto,
// chrome://tracing). docs/traces.md, "Export".
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "base/sim_time.h"
#include "engine/batch.h"
#include "io/trace_limit.h"
#include "topology/machine.h"

namespace wb {

enum class TraceFileFormat { FtraceText, TraceEventJson };

// The format `path`'s extension asks for; nullopt for any other.
std::optional<TraceFileFormat> trace_file_format(std::string_view path);

struct TraceExport {
    std::uint64_t events = 0;  // written
    bool cut = false;          // the limit stopped the trace; the run went on
    Time ran_to;               // where the run stopped: `until`, or its end
};

// Runs `request` on `machine` from the start, as run_one() and `wakesim run`
// build it, to simulated time `until` (or its end), writing its tracepoints
// to `out` within `limit`. `what` names the run in the file's header.
// Throws InputError for a bad spec.
TraceExport export_run_trace(const Machine& machine, const RunRequest& request, std::optional<Time> until,
                             TraceFileFormat format, std::ostream& out, const TraceLimit& limit,
                             const std::string& what);

}  // namespace wb
