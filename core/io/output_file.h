// SPDX-License-Identifier: Apache-2.0
//
// Files a user asks results written to (--json, --record, --output, a saved
// scenario). A write that fails part-way, on a full disk or on /dev/full,
// must not pass for a success, and a stream only tells once it is flushed:
// so every output is closed through finish_output(), which checks it.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace wb {

// Flushes and closes `out`, which has been writing `path`. Throws InputError
// "PATH: cannot write: REASON" if any write to it failed.
void finish_output(std::ofstream& out, const std::string& path);

// Writes `text` to `path`. A regular file, or a new one, is written beside
// and renamed over the old, so that a failed write leaves the old file whole.
// Anything else (/dev/stdout, a FIFO, /dev/null) is written in place: a
// rename would replace the device itself. Throws InputError as above.
void write_output_file(const std::string& path, std::string_view text);

}  // namespace wb
