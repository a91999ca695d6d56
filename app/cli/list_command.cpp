// SPDX-License-Identifier: Apache-2.0
#include "cli/list_command.h"

#include <algorithm>
#include <iostream>

#include "cli/args.h"
#include "io/topology_library.h"
#include "plugin/hook_table.h"
#include "policies/registry.h"
#include "sched/features.h"
#include "workload/workload_spec.h"

namespace wb::cli {

namespace {

void print_table(const std::vector<std::pair<std::string, std::string>>& rows)
{
    std::size_t width = 0;
    for (const auto& [name, text] : rows)
        width = std::max(width, name.size());
    for (const auto& [name, text] : rows)
        std::cout << name << std::string(width + 2 - name.size(), ' ') << text << "\n";
}

}  // namespace

int list_command(const std::vector<std::string>& args)
{
    const std::string what = args.empty() ? "" : args[0];
    parse_args({args.begin() + (args.empty() ? 0 : 1), args.end()}, {}, "list " + what);
    std::vector<std::pair<std::string, std::string>> rows;
    if (what == "topologies") {
        for (const ShippedTopology& t : list_shipped_topologies())
            rows.emplace_back(t.name, t.description);
    } else if (what == "workloads") {
        for (const WorkloadInfo& w : workload_catalog()) {
            rows.emplace_back(w.name, w.summary);
            for (const WorkloadParam& p : w.params)
                rows.emplace_back("  " + p.name + "=" + p.default_value, p.doc);
        }
    } else if (what == "policies") {
        for (const PolicyInfo* p : policy_catalog()) {
            rows.emplace_back(std::string(p->name), std::string(p->summary));
            if (const std::string plugin = policy_plugin(p->name); !plugin.empty())
                rows.emplace_back("  plugin", plugin);
            rows.emplace_back("  where", std::string(p->where));
            for (const PolicySwitch& sw : p->switches)
                rows.emplace_back("  " + std::string(sw.name) + (sw.default_on ? "=on" : "=off"),
                                  std::string(sw.meaning));
            rows.emplace_back("  discussion", std::string(p->discussion));
        }
    } else if (what == "hooks") {
        // The table docs/writing-a-policy.md shows: where each hook sits in
        // the kernel's code, and who uses it.
        for (const HookPoint& h : hook_points()) {
            rows.emplace_back(std::string(h.name), std::string(h.function) + ": " + std::string(h.place));
            rows.emplace_back("  used by", std::string(h.used_by));
        }
    } else if (what == "features") {
        for (const FeatInfo& f : kFeatInfo)
            rows.emplace_back(std::string(f.name), std::string(f.default_on ? "on   " : "off  ") + std::string(f.doc));
    } else {
        throw UsageError("list: expected what to list: topologies, workloads, features, policies or hooks");
    }
    print_table(rows);
    return 0;
}

}  // namespace wb::cli
