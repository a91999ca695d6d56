// SPDX-License-Identifier: Apache-2.0
//
// The guest's workload programs (guest/*.c: pipe, messaging, schbench),
// built with the host's C compiler as static executables, since the guest
// has no C library of its own. Each is built once per source text and kept
// in the cache folder under guest-bin/<hash>/.
#pragma once

#include <iosfwd>
#include <map>
#include <string>

namespace wb {

// $WAKEBENCH_GUEST, else share/wakebench/guest beside an installed wakesim,
// else the source tree's guest/.
std::string guest_source_dir();

// Program name -> its static executable's bytes, for every program of
// `guest_source_dir()`. KernelCheckError with the compiler's words when a
// build fails (no compiler, no static C library, ...).
std::map<std::string, std::string> build_guest_programs(const std::string& cache_dir, std::ostream& log);

}  // namespace wb
