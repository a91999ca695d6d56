// SPDX-License-Identifier: Apache-2.0
//
// Importing a machine from `lscpu -p` output, for when all a user can send
// is the text of one command: it names each CPU's core, socket, node and
// caches, though not clusters, capacities or node distances, which stay at
// their defaults with a warning each.
#pragma once

#include <string>
#include <string_view>

#include "io/sysfs_import.h"

namespace wb {

// Reads the output of `lscpu -p` or `lscpu -p=CPU,Core,Socket,Node,Cache,...`.
// The last '#' line before the data names the columns. Both of lscpu's cache
// forms are understood: the default one, where an empty column is followed by
// one column per cache ("# CPU,Core,Socket,Node,,L1d,L1i,L2,L3"), and the
// one of an explicit column list, one column of colon-separated ids
// ("L1d:L1i:L2:L3", data "0:0:0:0"). "Cluster" without "Socket" is taken for
// the socket, as lscpu prints it on arm64 boards without ACPI PPTT. Rows with
// Online "N" are skipped. Throws InputError naming path:line:column.
ImportResult import_lscpu(const std::string& path);

// The same from the text; `label` names it in messages and the machine.
ImportResult import_lscpu_text(std::string_view text, const std::string& label);

}  // namespace wb
