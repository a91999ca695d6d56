// SPDX-License-Identifier: Apache-2.0
//
// This process's memory, as the kernel accounts it: resident now
// (/proc/self/statm) and the peak so far (VmHWM in /proc/self/status).
// Linux only; 0 where the files cannot be read.
#pragma once

#include <cstdint>

namespace wb::host {

std::uint64_t resident_bytes();
std::uint64_t peak_resident_bytes();

}  // namespace wb::host
