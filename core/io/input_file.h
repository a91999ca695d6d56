// SPDX-License-Identifier: Apache-2.0
//
// What every reader of a user's file does the same way: read it whole,
// saying clearly why it could not be read, and report the problems found in
// it in reading order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/input_error.h"

namespace wb {

// The text of `path`. Throws InputError: "is a directory; expected a
// <what>", "cannot open: <reason>; expected a readable <what>", "cannot
// read: <reason>".
std::string read_input_file(const std::string& path, std::string_view what);

// Throws the diagnostics sorted by line and column (stable for ties).
[[noreturn]] void throw_in_reading_order(std::vector<Diagnostic> diagnostics);

// strerror(errno), for messages about files.
std::string errno_text();

}  // namespace wb
