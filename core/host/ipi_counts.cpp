// SPDX-License-Identifier: Apache-2.0
#include "host/ipi_counts.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace wb::host {

namespace {

bool is_scheduler_ipi(const std::string& line)
{
    return line.find("Rescheduling interrupts") != std::string::npos ||
           line.find("Function call interrupts") != std::string::npos ||
           line.find("Single function call interrupts") != std::string::npos;
}

}  // namespace

IpiCounts parse_ipi_counts(std::string_view text)
{
    IpiCounts out;
    std::istringstream in{std::string(text)};
    std::string line;
    std::vector<int> columns;  // kernel CPU of each count column
    if (std::getline(in, line)) {
        std::istringstream header(line);
        std::string word;
        while (header >> word)
            if (word.rfind("CPU", 0) == 0)
                columns.push_back(std::atoi(word.c_str() + 3));
    }
    int max_cpu = -1;
    for (int c : columns)
        max_cpu = std::max(max_cpu, c);
    out.per_cpu.assign(static_cast<std::size_t>(max_cpu + 1), 0);
    while (std::getline(in, line)) {
        if (!is_scheduler_ipi(line))
            continue;
        std::istringstream fields(line);
        std::string label;
        fields >> label;  // "RES:" or "IPI0:"
        for (int c : columns) {
            std::uint64_t n = 0;
            if (!(fields >> n))
                break;
            out.per_cpu[static_cast<std::size_t>(c)] += n;
        }
        out.found = true;
    }
    return out;
}

IpiCounts read_ipi_counts()
{
    std::ifstream in("/proc/interrupts");
    if (!in)
        return {};
    std::ostringstream s;
    s << in.rdbuf();
    return parse_ipi_counts(s.str());
}

}  // namespace wb::host
