// SPDX-License-Identifier: Apache-2.0
//
// What the guest's trace ring buffers lost, from tracefs's
// per_cpu/cpuN/stats as the guest's /init sends them (one CPU a line, the
// file's "key: value" lines joined by ';'):
//   overrun         events overwritten when the buffer was full
//   commit overrun  events lost to nested writes filling a page
//   dropped events  events refused when full (overwrite off)
// A kernel check needs every event; any loss fails it.
#pragma once

#include <cstdint>
#include <string>

namespace wb {

// The events lost on all CPUs; `first_cpu` is set to the first CPU that lost
// any ("cpu3"), if none was set before.
std::uint64_t ring_buffer_losses(const std::string& stats, std::string& first_cpu);

}  // namespace wb
