// SPDX-License-Identifier: Apache-2.0
//
// Where machines come from: the shipped machine files under topologies/, a
// file the user names, or a synthetic spec. One function turns any of those
// spellings into a Machine, so the CLI, the GUI and scenario files accept the
// same words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topology/machine.h"

namespace wb {

struct ShippedTopology {
    std::string name;         // file name without ".json", e.g. "ampere-altra-80"
    std::string description;  // the file's "description"
    std::string path;
};

// The folder of shipped machine files: $WAKEBENCH_TOPOLOGIES if set, else
// shipped_data_dir()'s: share/wakebench/topologies beside the installed
// program, or the source tree's from the build tree.
std::string topologies_dir();

// Every shipped machine, sorted by name.
std::vector<ShippedTopology> list_shipped_topologies();

// "synthetic:..." -> parse_synthetic(); a name of a shipped machine -> its
// file; anything else -> a machine file path. Throws InputError naming what was
// given and, for an unknown name, listing the shipped ones.
Machine resolve_machine(std::string_view spec);

}  // namespace wb
