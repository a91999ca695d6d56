// SPDX-License-Identifier: Apache-2.0
#include "cli/trace_options.h"

#include "io/lscpu_import.h"
#include "io/sysfs_import.h"
#include "io/topology_library.h"

namespace wb::cli {

Machine trace_machine_of(const Args& args, const std::string& command, const std::string& usage)
{
    const int sources = args.has("topology") + args.has("sysfs") + args.has("lscpu");
    if (sources != 1)
        throw UsageError(command + ": expected exactly one of --topology MACHINE, --sysfs [ROOT] or "
                                   "--lscpu FILE: the machine the trace was recorded on\n" +
                         usage);
    if (auto spec = args.get("topology"))
        return resolve_machine(*spec);
    if (auto path = args.get("lscpu"))
        return import_lscpu(*path).machine;
    return import_sysfs(args.get("sysfs").value_or("")).machine;
}

std::vector<std::pair<int, int>> parse_pids(const std::string& text, const std::string& command)
{
    std::vector<std::pair<int, int>> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string item = text.substr(start, end - start);
        const std::size_t dash = item.find('-');
        const auto whole = [&](const std::string& s) { return parse_whole_number(command, "pid", s, 0, 0x3fffffff); };
        if (item.empty())
            throw UsageError(command + ": --pid '" + text + "': expected pids and ranges such as 1200,1300-1310");
        const int lo = static_cast<int>(whole(item.substr(0, dash)));
        const int hi = dash == std::string::npos ? lo : static_cast<int>(whole(item.substr(dash + 1)));
        if (hi < lo)
            throw UsageError(command + ": --pid '" + text + "': range " + item + " ends before it starts");
        out.emplace_back(lo, hi);
        start = end + 1;
    }
    return out;
}

TaskFilter task_filter_of(const Args& args, const std::string& command)
{
    TaskFilter filter;
    if (auto re = args.get("comm")) {
        try {
            filter.comm.emplace(*re, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw UsageError(command + ": --comm '" + *re + "': expected a regular expression (" + e.what() + ")");
        }
        filter.comm_text = *re;
    }
    if (auto list = args.get("pid"))
        filter.pids = parse_pids(*list, command);
    return filter;
}

}  // namespace wb::cli
