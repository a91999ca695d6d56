// SPDX-License-Identifier: Apache-2.0
//
// Where a kernel check keeps what it fetches and builds (Debian kernel
// packages unpacked, the guest programs, initramfs images): the user's cache
// folder, as the XDG base directory specification names it, never the
// checkout.
#pragma once

#include <string>

namespace wb {

// $XDG_CACHE_HOME/wakebench when that is an absolute path, else
// $HOME/.cache/wakebench. Either argument may be null (unset). Throws
// KernelCheckError when neither gives a place.
std::string wakebench_cache_dir(const char* xdg_cache_home, const char* home);

// The same, from this process's environment.
std::string wakebench_cache_dir();

}  // namespace wb
