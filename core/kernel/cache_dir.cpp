// SPDX-License-Identifier: Apache-2.0
#include "kernel/cache_dir.h"

#include <cstdlib>

#include "kernel/kernel_check_error.h"

namespace wb {

std::string wakebench_cache_dir(const char* xdg_cache_home, const char* home)
{
    // The specification ignores a relative XDG_CACHE_HOME.
    if (xdg_cache_home && xdg_cache_home[0] == '/')
        return std::string(xdg_cache_home) + "/wakebench";
    if (home && home[0] == '/')
        return std::string(home) + "/.cache/wakebench";
    throw KernelCheckError(
        "no cache folder: set XDG_CACHE_HOME or HOME to an absolute path (kernels and guest images are kept there)");
}

std::string wakebench_cache_dir()
{
    return wakebench_cache_dir(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

}  // namespace wb
