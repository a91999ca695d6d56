// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_domains.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "kernel/kernel_check_error.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool is_hex_mask(std::string_view text)
{
    if (text.empty())
        return false;
    for (char c : text)
        if (c != ',' && hex_digit(c) < 0)
            return false;
    return true;
}

// "cpu12/domain1" -> {12, 1}; {-1, -1} if it is not that shape.
std::pair<int, int> cpu_and_level(const std::string& word)
{
    int cpu = -1, level = -1;
    char tail = 0;
    if (std::sscanf(word.c_str(), "cpu%d/domain%d%c", &cpu, &level, &tail) != 2)
        return {-1, -1};
    return {cpu, level};
}

GuestDomain& slot(GuestDomains& d, int cpu, int level, int nr_cpus)
{
    if (cpu < 0 || cpu >= nr_cpus || level < 0 || level > 64)
        throw KernelCheckError("the guest reported domain" + std::to_string(level) + " of CPU " + std::to_string(cpu) +
                               ", which the machine (" + std::to_string(nr_cpus) + " CPUs) does not have");
    auto& chain = d.per_cpu[static_cast<std::size_t>(cpu)];
    if (chain.size() <= static_cast<std::size_t>(level))
        chain.resize(static_cast<std::size_t>(level) + 1, GuestDomain{"", "", 0, false, {}, false, CpuMask(nr_cpus)});
    return chain[static_cast<std::size_t>(level)];
}

std::string flag_list(unsigned flags)
{
    std::string out;
    for (std::string_view name : sd_flag_names(flags))
        out += (out.empty() ? "" : " ") + std::string(name);
    return out;
}

}  // namespace

CpuMask parse_hex_cpumask(std::string_view text, int nr_cpus)
{
    CpuMask mask(nr_cpus);
    int bit = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
        if (text[i] == ',')
            continue;
        const int v = hex_digit(text[i]);
        for (int b = 0; b < 4; ++b, ++bit) {
            if (!(v & (1 << b)))
                continue;
            if (bit >= nr_cpus)
                throw KernelCheckError("the guest's cpumask " + std::string(text) + " names CPU " +
                                       std::to_string(bit) + ", beyond the machine's " + std::to_string(nr_cpus));
            mask.set(bit);
        }
    }
    return mask;
}

GuestDomains parse_guest_domains(std::string_view debugfs_lines, std::string_view schedstat, int nr_cpus)
{
    GuestDomains d;
    d.per_cpu.resize(static_cast<std::size_t>(nr_cpus));
    std::istringstream lines{std::string(debugfs_lines)};
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string where, name;
        if (!(words >> where >> name))
            continue;
        const auto [cpu, level] = cpu_and_level(where);
        if (cpu < 0)
            continue;
        GuestDomain& g = slot(d, cpu, level, nr_cpus);
        g.kernel_name = name;
        g.name = name == "DIE" ? "PKG" : name;
        g.flags_known = true;
        d.from_debugfs = true;
        for (std::string flag; words >> flag;) {
            if (flag == "SD_SHARE_PKG_RESOURCES")
                g.flags |= SD_SHARE_LLC;
            else if (flag == "SD_OVERLAP")
                g.overlap = true;
            else if (unsigned bit = sd_flag_by_name(flag))
                g.flags |= bit;
            else
                g.unknown_flags.push_back(flag);
        }
    }
    std::istringstream stat{std::string(schedstat)};
    int cpu = -1;
    for (std::string line; std::getline(stat, line);) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first.starts_with("cpu") && first.size() > 3 && std::isdigit(static_cast<unsigned char>(first[3]))) {
            cpu = std::stoi(first.substr(3));
            continue;
        }
        if (!first.starts_with("domain") || cpu < 0)
            continue;
        const int level = std::stoi(first.substr(6));
        std::string second, third;
        words >> second >> third;
        GuestDomain& g = slot(d, cpu, level, nr_cpus);
        // Version 17 puts the name before the mask.
        if (is_hex_mask(second)) {
            g.span = parse_hex_cpumask(second, nr_cpus);
        } else {
            g.span = parse_hex_cpumask(third, nr_cpus);
            if (g.kernel_name.empty()) {
                g.kernel_name = second;
                g.name = second == "DIE" ? "PKG" : second;
            }
        }
    }
    return d;
}

std::vector<DomainDifference> compare_domains(const GuestDomains& guest, const SchedDomains& model)
{
    std::vector<DomainDifference> out;
    for (CpuId cpu = 0; cpu < model.nr_cpus(); ++cpu) {
        const std::vector<int>& ids = model.domains_of(cpu);
        const std::vector<GuestDomain>& chain = guest.per_cpu[static_cast<std::size_t>(cpu)];
        const std::size_t levels = std::max(ids.size(), chain.size());
        for (std::size_t i = 0; i < levels; ++i) {
            const int level = static_cast<int>(i);
            if (i >= chain.size()) {
                const SchedDomain& m = model.domain(ids[i]);
                out.push_back(
                    {cpu, level, "the guest has no domain here; the model has " + m.name + " " + m.span.to_cpulist()});
                continue;
            }
            const GuestDomain& g = chain[i];
            if (i >= ids.size()) {
                out.push_back(
                    {cpu, level,
                     "the guest has " + g.kernel_name + " " + g.span.to_cpulist() + "; the model has no domain here"});
                continue;
            }
            const SchedDomain& m = model.domain(ids[i]);
            if (g.span != m.span || (!g.name.empty() && g.name != m.name)) {
                out.push_back({cpu, level,
                               "guest " + g.kernel_name + " " + g.span.to_cpulist() + ", model " + m.name + " " +
                                   m.span.to_cpulist()});
                continue;
            }
            if (!g.flags_known)
                continue;
            std::string what;
            if (const unsigned lacks = m.flags & ~g.flags)
                what += "the guest lacks " + flag_list(lacks);
            if (const unsigned extra = g.flags & ~m.flags)
                what += std::string(what.empty() ? "" : "; ") + "the guest adds " + flag_list(extra);
            const bool numa_level = m.name == "NUMA";
            if (g.overlap != numa_level)
                what += std::string(what.empty() ? "" : "; ") +
                        (g.overlap ? "the guest has SD_OVERLAP on a level the model builds without overlapping groups"
                                   : "the guest lacks SD_OVERLAP on a NUMA level");
            for (const std::string& unknown : g.unknown_flags)
                what += std::string(what.empty() ? "" : "; ") + "the guest has " + unknown +
                        ", which the model does not know";
            if (!what.empty())
                out.push_back({cpu, level, m.name + " " + m.span.to_cpulist() + " flags: " + what});
        }
    }
    return out;
}

}  // namespace wb
