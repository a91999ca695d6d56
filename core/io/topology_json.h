// SPDX-License-Identifier: Apache-2.0
//
// Machine files: the JSON form of a Machine (docs/topology-format.md,
// resources/schema/machine.schema.json).
//
// A file describes the hardware as a tree (nodes > packages > LLCs >
// clusters > cores > threads) with "repeat" for identical siblings, so a
// 4096-CPU machine is a page and not 4096 entries. Reading checks the whole
// file and reports every problem at once, each with its line:column and JSON
// pointer; a user fixing a hand-written file should not have to rerun once per
// typo.
#pragma once

#include <string>
#include <string_view>

#include "topology/machine.h"

namespace wb {

// Reads and checks a machine file. Throws InputError listing every problem.
Machine load_machine_file(const std::string& path);

// The same from text; `file_label` names the file in messages.
Machine parse_machine_json(std::string_view text, const std::string& file_label);

// The machine as a machine file (2-space indent, trailing newline). Compact
// (repeat, implicit CPU ids) when that reads back equal, else with an explicit
// "cpu" on every thread; either way load(save(m)) == m. Throws InputError if
// the machine has no file form: it fails validate(), its name is not a file
// name, or its containers are not numbered depth-first as a file numbers them.
std::string machine_to_json(const Machine& machine);

// Writes machine_to_json() to `path` (through a temporary file, so a failed
// save leaves the old file whole). Throws InputError naming `path`.
void save_machine_file(const Machine& machine, const std::string& path);

}  // namespace wb
