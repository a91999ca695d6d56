// SPDX-License-Identifier: Apache-2.0
//
// What every reader of a user's file does the same way: read it whole,
// saying clearly why it could not be read, and report the problems found in
// it in reading order.
//
// Only regular files are read: a FIFO would block the reader forever and a
// device such as /dev/zero never ends, so both are refused before anything
// opens them. A file is read up to a bound (docs/reliability.md), and one
// that is longer is refused, so that no input can take the memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/input_error.h"

namespace wb {

// The bound of a machine, scenario, workload or validation file, and of an
// lscpu listing: far above the largest real one (a 4096-CPU machine file is
// under 2 MB).
inline constexpr std::uintmax_t kMaxInputFileBytes = 64u << 20;
// The bound of a trace's text (after gunzip): about 4 million lines.
inline constexpr std::uintmax_t kMaxTraceFileBytes = 512u << 20;
// The bound of one sysfs or procfs attribute of an imported tree.
inline constexpr std::uintmax_t kMaxAttributeBytes = 1u << 20;

// Throws InputError naming `path` unless it is a regular file (symbolic
// links followed) or does not exist (opening it then says so): "is a
// directory", "is a FIFO", "is a character device" ...; expected a <what>.
void require_regular_file(const std::string& path, std::string_view what);

// The text of `path`, at most `max_bytes` of it. Throws InputError: not a
// regular file (above), "cannot open: <reason>; expected a readable
// <what>", "cannot read: <reason>", "is larger than N MB, the bound for a
// <what>".
std::string read_input_file(const std::string& path, std::string_view what,
                            std::uintmax_t max_bytes = kMaxInputFileBytes);

// The InputError of a file longer than its bound.
[[noreturn]] void throw_too_large(const std::string& path, std::string_view what, std::uintmax_t max_bytes);

// Throws the diagnostics sorted by line and column (stable for ties).
[[noreturn]] void throw_in_reading_order(std::vector<Diagnostic> diagnostics);

// strerror(errno), for messages about files.
std::string errno_text();

}  // namespace wb
