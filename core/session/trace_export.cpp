// SPDX-License-Identifier: Apache-2.0
#include "session/trace_export.h"

#include <ostream>

#include "engine/simulator.h"
#include "io/ftrace_text_writer.h"
#include "io/trace_event_json_writer.h"

namespace wb {

std::optional<TraceFileFormat> trace_file_format(std::string_view path)
{
    if (path.ends_with(".txt"))
        return TraceFileFormat::FtraceText;
    if (path.ends_with(".json"))
        return TraceFileFormat::TraceEventJson;
    return std::nullopt;
}

TraceExport export_run_trace(const Machine& machine, const RunRequest& request, std::optional<Time> until,
                             TraceFileFormat format, std::ostream& out, const TraceLimit& limit,
                             const std::string& what)
{
    PreparedRun run = prepare_run(machine, request);
    Simulator& sim = *run.sim;
    TraceExport result;
    auto go = [&](auto& writer) {
        sim.set_event_sink(&writer);
        if (until)
            sim.run_until(*until);
        else
            sim.run();
        result.ran_to = until ? sim.now() : sim.elapsed();
        result.events = writer.written();
        result.cut = writer.truncated();
    };
    if (format == TraceFileFormat::FtraceText) {
        FtraceTextWriter writer(out, machine.nr_cpus(), limit, what);
        go(writer);
        writer.finish();
    } else {
        TraceEventJsonWriter writer(out, machine.nr_cpus(), limit, what);
        go(writer);
        writer.finish(result.ran_to);
    }
    return result;
}

}  // namespace wb
