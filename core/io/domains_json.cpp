// SPDX-License-Identifier: Apache-2.0
#include "io/domains_json.h"

#include <nlohmann/json.hpp>

#include "topology/machine.h"
#include "topology/sched_domains.h"

namespace wb {

namespace {

nlohmann::json domain_json(const SchedDomains& d, int id)
{
    const SchedDomain& sd = d.domain(id);
    nlohmann::json flags = nlohmann::json::array();
    for (std::string_view f : sd_flag_names(sd.flags))
        flags.push_back(std::string(f));
    nlohmann::json groups = nlohmann::json::array();
    for (int g : sd.groups)
        groups.push_back(d.group(g).span.to_cpulist());
    nlohmann::json j{{"name", sd.name},
                     {"level", sd.level},
                     {"flags", flags},
                     {"span", sd.span.to_cpulist()},
                     {"span_weight", sd.span_weight},
                     {"groups", groups},
                     {"imbalance_pct", sd.imbalance_pct},
                     {"cache_nice_tries", sd.cache_nice_tries},
                     {"busy_factor", sd.busy_factor},
                     {"min_interval", sd.min_interval},
                     {"max_interval", sd.max_interval},
                     {"balance_interval", sd.balance_interval},
                     {"imb_numa_nr", sd.imb_numa_nr}};
    if (sd.numa_distance > 0)
        j["numa_distance"] = sd.numa_distance;
    return j;
}

nlohmann::json domain_ref(const SchedDomains& d, int id)
{
    if (id < 0)
        return nullptr;
    return {{"name", d.domain(id).name}, {"span", d.domain(id).span.to_cpulist()}};
}

}  // namespace

std::string domains_to_json(const Machine& m, const SchedDomains& d, const CpuMask& cpus)
{
    nlohmann::json out;
    out["schema_version"] = 1;
    out["machine"] = {{"name", m.name},
                      {"description", m.description},
                      {"source", m.source},
                      {"arch", std::string(arch_name(m.arch))},
                      {"nr_cpus", m.nr_cpus()},
                      {"nr_nodes", m.nr_nodes()},
                      {"nr_packages", m.nr_packages()},
                      {"nr_llcs", m.nr_llcs()},
                      {"nr_cores", m.nr_cores()}};
    out["sched_smt_active"] = d.sched_smt_active();
    out["sched_asym_cpucapacity"] = d.sched_asym_cpucapacity();
    out["sched_cluster_active"] = d.sched_cluster_active();
    nlohmann::json list = nlohmann::json::array();
    cpus.for_each([&](CpuId cpu) {
        const CpuTopo& c = m.cpus[static_cast<std::size_t>(cpu)];
        const CpuShortcuts& s = d.shortcuts(cpu);
        nlohmann::json domains = nlohmann::json::array();
        for (int id : d.domains_of(cpu))
            domains.push_back(domain_json(d, id));
        list.push_back({{"cpu", cpu},
                        {"node", c.node},
                        {"package", c.package},
                        {"llc", c.llc},
                        {"cluster", c.cluster},
                        {"core", c.core},
                        {"thread", c.thread},
                        {"capacity", c.capacity},
                        {"speed", c.speed},
                        {"asym_prio", c.asym_prio},
                        {"smt_siblings", m.smt_mask(cpu).to_cpulist()},
                        {"domains", domains},
                        {"sd_llc", domain_ref(d, s.sd_llc)},
                        {"sd_llc_size", s.sd_llc_size},
                        {"sd_llc_id", s.sd_llc_id},
                        {"sd_share_id", s.sd_share_id},
                        {"sd_numa", domain_ref(d, s.sd_numa)},
                        {"sd_asym_packing", domain_ref(d, s.sd_asym_packing)},
                        {"sd_asym_cpucapacity", domain_ref(d, s.sd_asym_cpucapacity)}});
    });
    out["cpus"] = std::move(list);
    return out.dump(2) + "\n";
}

}  // namespace wb
