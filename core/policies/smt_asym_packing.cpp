// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_asym_packing.h"

#include <algorithm>
#include <string>

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& SmtAsymPacking::info()
{
    static const PolicyInfo kInfo{
        "smt-asym-packing",
        "SD_ASYM_PACKING on the SMT level and the first sibling's arch_asym_cpu_priority() raised: the load "
        "balancer packs onto the first sibling; switches add wakeup-time redirects to it (extensions)",
        "the SMT domain's flags and the load balancer's sched_asym_prefer(); as extensions, the "
        "return points of select_idle_core(), select_idle_cpu() and select_idle_capacity()",
        "follow-up idea by the NVIDIA engineer in the asym-stable-core thread (2026), after POWER7's ASYM_SMT",
        {
            {"llc_scan", false,
             "(extension beyond the posted idea) redirect the returns of select_idle_core() and select_idle_cpu() "
             "to the higher-priority idle sibling"},
            {"capacity_scan", false,
             "(extension beyond the posted idea) redirect the returns of select_idle_capacity() to the "
             "higher-priority idle sibling"},
            {"speed", false,
             "(extension beyond the posted idea) rank the threads of one core with equal asym_prio by their speed "
             "before the first-sibling raise; off: asym_prio, then the raise"},
            {"sd_flag", true,
             "give the SMT level SD_ASYM_PACKING (DomainOptions::smt_asym_packing) for the balancer, which prefers "
             "the first sibling (arch_asym_cpu_priority() raised by thread rank)"},
        },
    };
    return kInfo;
}

SmtAsymPacking::SmtAsymPacking(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

long long SmtAsymPacking::asym_cpu_priority(const Machine& m, CpuId cpu)
{
    const CpuTopo& t = m.cpus[static_cast<std::size_t>(cpu)];
    const int rank = std::min(t.thread, kThreadRanks - 1);
    return static_cast<long long>(t.asym_prio) * kThreadRanks + (kThreadRanks - 1 - rank);
}

bool SmtAsymPacking::higher(const SchedState& s, CpuId a, CpuId b) const
{
    const Machine& m = *s.machine;
    const CpuTopo& ta = m.cpus[static_cast<std::size_t>(a)];
    const CpuTopo& tb = m.cpus[static_cast<std::size_t>(b)];
    if (on(kSpeed) && ta.core == tb.core && ta.asym_prio == tb.asym_prio && ta.speed != tb.speed)
        return ta.speed > tb.speed;
    return asym_cpu_priority(m, a) > asym_cpu_priority(m, b);
}

CpuId SmtAsymPacking::idle_search_return(const SchedState& s, TaskId p, IdleSearchReturn where, CpuId cpu,
                                         bool idle_core, const CpuMask& cpus, DecisionRecord* rec) const
{
    const bool llc = where == IdleSearchReturn::SelectIdleCore || where == IdleSearchReturn::SelectIdleCpu;
    if (!on(llc ? kLlcScan : kCapacityScan)) {
        if (rec)
            note_declined(rec, name(), llc ? "switch llc_scan off" : "switch capacity_scan off");
        return kNoCpu;
    }
    // Both threads must be idle: a busy sibling's thread is no choice.
    if (!idle_core && !is_core_idle(s, cpu)) {
        if (rec)
            note_declined(rec, name(), cat("cpu ", cpu, "'s core not idle (is_core_idle false)"));
        return kNoCpu;
    }
    const Task& t = s.task(p);
    CpuId best = cpu;
    for (CpuId sibling : SmtSiblings(s, cpu)) {
        if (sibling == cpu || !cpus.test(sibling) || !choose_idle_cpu(s, sibling, t))
            continue;
        if (capacity_of(s, sibling) >= capacity_of(s, cpu) && higher(s, sibling, best))
            best = sibling;
    }
    if (best == cpu) {
        if (rec)
            note_declined(rec, name(),
                          cat("no idle sibling of cpu ", cpu, " ranks higher (priority ",
                              asym_cpu_priority(*s.machine, cpu), on(kSpeed) ? ", speed first)" : ")"));
        return kNoCpu;
    }
    if (rec) {
        const CpuTopo& from = s.machine->cpus[static_cast<std::size_t>(cpu)];
        const CpuTopo& to = s.machine->cpus[static_cast<std::size_t>(best)];
        const bool by_speed = on(kSpeed) && to.asym_prio == from.asym_prio && to.speed != from.speed;
        const std::string why = by_speed ? std::string("faster thread")
                                         : cat("priority ", asym_cpu_priority(*s.machine, best), " vs ",
                                               asym_cpu_priority(*s.machine, cpu));
        note(rec, name(), "higher-priority idle sibling",
             cat("core of cpu ", cpu, " idle; sibling ", best, " preferred (", why, "; asym_prio ", to.asym_prio,
                 " vs ", from.asym_prio, ", thread ", to.thread, " vs ", from.thread, ")"),
             best);
    }
    return best;
}

void SmtAsymPacking::adjust_domain_options(DomainOptions& options) const
{
    if (on(kSdFlag))
        options.smt_asym_packing = true;
}

std::optional<bool> SmtAsymPacking::sched_asym_prefer(const SchedState& s, int, CpuId a, CpuId b) const
{
    // One priority per CPU, as arch_asym_cpu_priority() has, whatever the
    // domain: different asym_prio keep mainline's order, and only CPUs of
    // equal asym_prio are ordered by thread rank.
    return higher(s, a, b);
}

}  // namespace wb
