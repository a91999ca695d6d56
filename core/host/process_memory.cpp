// SPDX-License-Identifier: Apache-2.0
#include "host/process_memory.h"

#include <unistd.h>

#include <fstream>
#include <string>

namespace wb::host {

std::uint64_t resident_bytes()
{
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    if (!(statm >> size >> resident))
        return 0;
    return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t peak_resident_bytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoull(line.substr(6)) * 1024;  // "VmHWM:    7424 kB"
    return 0;
}

}  // namespace wb::host
