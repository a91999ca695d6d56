// SPDX-License-Identifier: Apache-2.0
#include "kernel/ring_buffer_stats.h"

#include <sstream>

namespace wb {

std::uint64_t ring_buffer_losses(const std::string& stats, std::string& first_cpu)
{
    std::uint64_t lost = 0;
    std::istringstream lines(stats);
    for (std::string line; std::getline(lines, line);) {
        const std::string cpu = line.substr(0, line.find(' '));
        std::istringstream pairs(line.substr(cpu.size()));
        for (std::string pair; std::getline(pairs, pair, ';');) {
            const std::size_t colon = pair.find(':');
            if (colon == std::string::npos)
                continue;
            std::string key = pair.substr(0, colon);
            key.erase(0, key.find_first_not_of(' '));
            if (key != "overrun" && key != "commit overrun" && key != "dropped events")
                continue;
            const std::uint64_t n = std::stoull(pair.substr(colon + 1));
            if (n && first_cpu.empty())
                first_cpu = cpu;
            lost += n;
        }
    }
    return lost;
}

}  // namespace wb
