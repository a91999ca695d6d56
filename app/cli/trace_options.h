// SPDX-License-Identifier: Apache-2.0
//
// The options the `wakesim trace` subcommands share: the machine the trace
// was recorded on (--topology, --sysfs, --lscpu) and the tasks to select
// (--comm, --pid). `command` ("trace import") names the subcommand in
// messages; `usage` is its usage text, shown when the machine is missing.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "topology/machine.h"
#include "trace/trace_report.h"

namespace wb::cli {

// Exactly one of --topology MACHINE, --sysfs [ROOT], --lscpu FILE.
Machine trace_machine_of(const Args& args, const std::string& command, const std::string& usage);

// "1200,1300-1310": inclusive ranges.
std::vector<std::pair<int, int>> parse_pids(const std::string& text, const std::string& command);

// --comm REGEX and --pid LIST as a TaskFilter (inactive when neither is given).
TaskFilter task_filter_of(const Args& args, const std::string& command);

}  // namespace wb::cli
