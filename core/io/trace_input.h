// SPDX-License-Identifier: Apache-2.0
//
// The text of a recorded trace file, gzipped or not: traces are large, and
// people keep them compressed (the committed ones over 1 MB are).
#pragma once

#include <string>

namespace wb {

// The whole text, decompressed when the file is gzip. Throws InputError
// naming the path when it cannot be opened or is a damaged gzip file.
std::string read_trace_file(const std::string& path);

}  // namespace wb
