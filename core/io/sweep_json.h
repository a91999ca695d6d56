// SPDX-License-Identifier: Apache-2.0
//
// Sweep files (docs/sweep-format.md, resources/schema/sweep.schema.json):
// read with every problem reported at once, each with the file, line:column
// and JSON pointer; and written back in the canonical form a sweep result
// embeds, with every range expanded into its values.
#pragma once

#include <string>
#include <string_view>

#include "sweep/sweep_spec.h"

namespace wb {

enum class SweepChecks {
    Full,       // machines resolve, workloads, policies and features are valid: a sweep about to run
    Structure,  // only the form: the sweep a result file embeds, read where its machines may not exist
};

// Throws InputError with every problem found.
SweepSpec parse_sweep_json(std::string_view text, const std::string& file_label,
                           SweepChecks checks = SweepChecks::Full);
SweepSpec load_sweep_file(const std::string& path);

// The canonical form: one line of JSON, ranges expanded into lists. It is a
// valid sweep file, and parsing it gives the same SweepSpec.
std::string sweep_to_json(const SweepSpec& spec);

// 16 hex digits naming the sweep's canonical form (FNV-1a, 64 bits): the
// same grid gives the same fingerprint, so that a partial file, the shards
// and the merge can tell they belong together.
std::string sweep_fingerprint(const SweepSpec& spec);

// The machine as `resolve_machine()` takes it: a relative file path is taken
// from the sweep file's folder.
std::string sweep_machine_spec(const std::string& machine, const std::string& sweep_path);

}  // namespace wb
