// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_graph.h"

namespace wb::decision_graph {

const std::vector<Node>& nodes()
{
    // One row per node, in the order a record can visit them, so that the
    // lit path reads top to bottom; the slow path sits between the domain
    // walk and the fast path because that is where select_task_rq_fair()
    // branches to it.
    static const std::vector<Node> table{
        {"ttwu_runnable", "ttwu_runnable", "delayed task woken in place: no selection", 0},
        {"select_task_rq", "select_task_rq", "nr_cpus_allowed == 1: no selection", 0},
        {kEntry, "select_task_rq_fair", "sd_flag = wake_flags & 0xF", 0, true},
        {"current_cpu", "WF_CURRENT_CPU", "the caller asks for the waker's CPU", 1},
        {"energy", "find_energy_efficient_cpu", "EAS, root domain not overutilized", 1},
        {"wake_wide", "record_wakee / wake_wide", "wakee_flips against sd_llc_size", 1},
        {"domain_walk", "for_each_domain(waker)", "want_affine, SD_WAKE_AFFINE, prev in span", 1},
        {"wake_affine_idle", "wake_affine_idle", "WA_IDLE: idle waker or prev, sync", 2},
        {"wake_affine_weight", "wake_affine_weight", "WA_WEIGHT: effective loads, WA_BIAS", 2},
        {"wake_affine", "wake_affine", "target = waker cpu or prev", 1},
        {"slow_path", "sd_flag domain", "fork/exec: highest domain with the flag", 1},
        {"find_dst_group", "sched_balance_find_dst_group", "idlest group against the local one", 2},
        {"find_dst_group_cpu", "sched_balance_find_dst_group_cpu", "shallowest idle, least loaded", 2},
        {"find_dst_cpu", "sched_balance_find_dst_cpu", "down the domains to one cpu", 2},
        {"no_balance_domain", "no balance domain", "fork/exec, no domain has the flag", 1},
        {kIdleSibling, "select_idle_sibling", "the fast path: early returns in order", 1, true},
        {"sis_target", "target idle", "1. choose_idle_cpu(target)", 2},
        {"sis_prev", "prev idle", "2. prev idle and cpus_share_cache", 2},
        {"sis_kthread", "per-cpu kthread", "3. kthread waker on prev, nr_running <= 1", 2},
        {"sis_recent", "recent_used_cpu", "4. idle and shares the cache", 2},
        {"sis_asym", "select_idle_capacity", "5. asym capacity: pick by fit", 2},
        {"sis_no_llc", "no sd_llc", "6. target shares no cache", 2},
        {"sis_idle_cores", "test_idle_cores", "7. has_idle_cores hint", 2},
        {"sis_smt", "select_idle_smt", "7. an idle SMT sibling of prev", 3},
        {"sis_budget", "select_idle_cpu", "8. SIS_UTIL: nr_idle_scan budget", 2},
        {"sis_core", "select_idle_core", "a whole idle core", 3},
        {"sis_scan", "select_idle_cpu", "an idle cpu, from target + 1", 3},
        {"sis_fallback", "fallbacks", "10. prev_aff, recent_used_cpu; 11. target", 2},
        {"fallback_rq", "select_fallback_rq", "the choice is not allowed", 0},
        {kChosen, "chosen CPU", "", 0, true},
    };
    return table;
}

const std::vector<Branch>& branches()
{
    static const std::vector<Branch> table{
        {"ttwu_runnable", "delayed task requeued in place", "ttwu_runnable"},
        {"select_task_rq", "one allowed cpu", "select_task_rq"},
        {"select_task_rq", "select_fallback_rq", "fallback_rq"},
        {"select_task_rq_fair", "WF_CURRENT_CPU", "current_cpu"},
        {"select_task_rq_fair", "WF_CURRENT_CPU not allowed", "current_cpu"},
        {"find_energy_efficient_cpu", "no energy model", "energy"},
        {"wake_wide", "wide", "wake_wide"},
        {"wake_wide", "not wide", "wake_wide"},
        {"select_task_rq_fair", "waker cpu not allowed", "domain_walk"},
        {"select_task_rq_fair", "affine domain", "domain_walk"},
        {"select_task_rq_fair", "no affine domain", "domain_walk"},
        {"wake_affine_idle", "waker and prev idle", "wake_affine_idle"},
        {"wake_affine_idle", "waker idle, shares cache", "wake_affine_idle"},
        {"wake_affine_idle", "sync, waker alone", "wake_affine_idle"},
        {"wake_affine_idle", "prev idle", "wake_affine_idle"},
        {"wake_affine_idle", "no idle choice", "wake_affine_idle"},
        {"wake_affine_weight", "sync, waker carries the load", "wake_affine_weight"},
        {"wake_affine_weight", "waker lighter", "wake_affine_weight"},
        {"wake_affine_weight", "prev lighter", "wake_affine_weight"},
        {"wake_affine", "waker cpu", "wake_affine"},
        {"wake_affine", "prev", "wake_affine"},
        {"select_task_rq_fair", "slow path", "slow_path"},
        {"sched_balance_find_dst_group", "no idlest group", "find_dst_group"},
        {"sched_balance_find_dst_group", "local group not allowed", "find_dst_group"},
        {"sched_balance_find_dst_group", "local less busy", "find_dst_group"},
        {"sched_balance_find_dst_group", "idlest less busy", "find_dst_group"},
        {"sched_balance_find_dst_group", "numa: local within margin", "find_dst_group"},
        {"sched_balance_find_dst_group", "local within margin", "find_dst_group"},
        {"sched_balance_find_dst_group", "local within imbalance_pct", "find_dst_group"},
        {"sched_balance_find_dst_group", "idlest lighter", "find_dst_group"},
        {"sched_balance_find_dst_group", "local as big", "find_dst_group"},
        {"sched_balance_find_dst_group", "idlest bigger", "find_dst_group"},
        {"sched_balance_find_dst_group", "numa imbalance allowed", "find_dst_group"},
        {"sched_balance_find_dst_group", "local has as many idle", "find_dst_group"},
        {"sched_balance_find_dst_group", "idlest has more idle", "find_dst_group"},
        {"sched_balance_find_dst_group", "type not used here", "find_dst_group"},
        {"sched_balance_find_dst_group_cpu", "single cpu", "find_dst_group_cpu"},
        {"sched_balance_find_dst_group_cpu", "sched_idle cpu", "find_dst_group_cpu"},
        {"sched_balance_find_dst_group_cpu", "shallowest idle", "find_dst_group_cpu"},
        {"sched_balance_find_dst_group_cpu", "least loaded", "find_dst_group_cpu"},
        {"sched_balance_find_dst_cpu", "no allowed cpu", "find_dst_cpu"},
        {"sched_balance_find_dst_cpu", "chosen", "find_dst_cpu"},
        {"select_task_rq_fair", "no balance domain", "no_balance_domain"},
        {"select_idle_sibling", "target idle", "sis_target"},
        {"select_idle_sibling", "target not idle", "sis_target"},
        {"select_idle_sibling", "prev idle", "sis_prev"},
        {"select_idle_sibling", "prev idle, other cluster", "sis_prev"},
        {"select_idle_sibling", "prev not usable", "sis_prev"},
        {"select_idle_sibling", "per-cpu kthread waker", "sis_kthread"},
        {"select_idle_sibling", "recent_used_cpu idle", "sis_recent"},
        {"select_idle_sibling", "recent_used_cpu idle, other cluster", "sis_recent"},
        {"select_idle_sibling", "recent_used_cpu not usable", "sis_recent"},
        {"select_idle_capacity", "no scan budget", "sis_asym"},
        {"select_idle_capacity", "idle-core mode", "sis_asym"},
        {"select_idle_capacity", "thread mode", "sis_asym"},
        {"select_idle_capacity", "budget spent", "sis_asym"},
        {"select_idle_capacity", "fits", "sis_asym"},
        {"select_idle_capacity", "best misfit", "sis_asym"},
        {"select_idle_capacity", "none idle", "sis_asym"},
        {"select_idle_sibling", "asym: nothing idle", "sis_asym"},
        {"select_idle_sibling", "no LLC domain", "sis_no_llc"},
        {"select_idle_sibling", "idle-cores hint set", "sis_idle_cores"},
        {"select_idle_sibling", "idle-cores hint clear", "sis_idle_cores"},
        {"select_idle_smt", "idle sibling of prev", "sis_smt"},
        {"select_idle_smt", "no idle sibling", "sis_smt"},
        {"select_idle_cpu", "scan budget", "sis_budget"},
        {"select_idle_cpu", "no scan budget", "sis_budget"},
        {"select_idle_core", "idle core", "sis_core"},
        {"select_idle_cpu", "no allowed CPU", "sis_scan"},
        {"select_idle_cpu", "idle cpu in cluster", "sis_scan"},
        {"select_idle_cpu", "idle cpu", "sis_scan"},
        {"select_idle_cpu", "no idle core", "sis_scan"},
        {"select_idle_cpu", "budget spent", "sis_scan"},
        {"select_idle_cpu", "none idle", "sis_scan"},
        {"select_idle_sibling", "prev fallback", "sis_fallback"},
        {"select_idle_sibling", "recent fallback", "sis_fallback"},
        {"select_idle_sibling", "target fallback", "sis_fallback"},
    };
    return table;
}

const std::vector<std::pair<std::string_view, std::string_view>>& edges()
{
    // Only the flow between decisions: the return to "chosen" from each
    // node is drawn when taken, so the untaken ones do not fan over the
    // diagram.
    static const std::vector<std::pair<std::string_view, std::string_view>> table{
        {kEntry, "current_cpu"},
        {kEntry, "energy"},
        {kEntry, "wake_wide"},
        {kEntry, "domain_walk"},
        {"current_cpu", "energy"},
        {"current_cpu", "wake_wide"},
        {"energy", "wake_wide"},
        {"wake_wide", "domain_walk"},
        {"domain_walk", "wake_affine_idle"},
        {"domain_walk", "wake_affine_weight"},
        {"domain_walk", "slow_path"},
        {"domain_walk", "no_balance_domain"},
        {"domain_walk", kIdleSibling},
        {"wake_affine_idle", "wake_affine_weight"},
        {"wake_affine_idle", "wake_affine"},
        {"wake_affine_weight", "wake_affine"},
        {"wake_affine", kIdleSibling},
        {"slow_path", "find_dst_group"},
        {"find_dst_group", "find_dst_group_cpu"},
        {"find_dst_group_cpu", "find_dst_cpu"},
        {kIdleSibling, "sis_target"},
        {"sis_target", "sis_prev"},
        {"sis_target", "sis_kthread"},
        {"sis_target", "sis_recent"},
        {"sis_prev", "sis_kthread"},
        {"sis_prev", "sis_recent"},
        {"sis_kthread", "sis_recent"},
        {"sis_recent", "sis_asym"},
        {"sis_recent", "sis_no_llc"},
        {"sis_recent", "sis_idle_cores"},
        {"sis_recent", "sis_budget"},
        {"sis_idle_cores", "sis_smt"},
        {"sis_idle_cores", "sis_budget"},
        {"sis_smt", "sis_budget"},
        {"sis_budget", "sis_core"},
        {"sis_budget", "sis_scan"},
        {"sis_budget", "sis_fallback"},
        {"sis_core", "sis_scan"},
        {"sis_scan", "sis_fallback"},
    };
    return table;
}

std::string_view node_of(std::string_view function, std::string_view branch)
{
    std::string_view any;
    for (const Branch& b : branches()) {
        if (b.function != function)
            continue;
        if (b.branch == branch)
            return b.node;
        if (any.empty())
            any = b.node;
    }
    return any;
}

std::string_view header_of(std::string_view node)
{
    if (node.starts_with("sis_"))
        return kIdleSibling;
    for (const Node& n : nodes())
        if (n.key == node)
            return n.indent >= 1 ? kEntry : std::string_view{};
    return {};
}

}  // namespace wb::decision_graph
