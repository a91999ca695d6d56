// SPDX-License-Identifier: Apache-2.0
//
// Debian 12's kernels, fetched with apt-get download and unpacked with
// dpkg-deb -x into the cache folder (cache_dir.h), once per package version:
//   6.12  linux-image-6.12.N+deb12-amd64-unsigned, from the security archive
//         (bookworm-security); the newest N apt knows is taken
//   6.1   the package linux-image-amd64 depends on (linux-image-6.1.0-N-amd64)
// Nothing is installed: the package is only unpacked, so no root is needed.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "kernel/guest_kernel.h"

namespace wb {

// The newest linux-image-6.12.N+deb12-amd64-unsigned in `apt-cache search`
// output (by N), or "" when there is none.
std::string newest_debian_612_package(std::string_view apt_cache_search);

// The linux-image-6.1.0-N-amd64 package `apt-cache depends linux-image-amd64`
// names, or "".
std::string debian_61_package(std::string_view apt_cache_depends);

// Whether apt's source lists (the text of sources.list and sources.list.d/*)
// name Debian's security archive.
bool sources_have_security_archive(std::string_view sources);

// Fetches (or finds in `cache_dir`) the kernel of `source` (Debian612 or
// Debian61), saying what it does on `log`. KernelCheckError when apt cannot
// give it, saying why and what to change.
GuestKernel debian_kernel(KernelSource source, const std::string& cache_dir, std::ostream& log);

}  // namespace wb
