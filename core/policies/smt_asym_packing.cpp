// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_asym_packing.h"

#include "policies/policy_util.h"

namespace wb {

const PolicyInfo& SmtAsymPacking::info()
{
    static const PolicyInfo kInfo{
        "smt-asym-packing",
        "SD_ASYM_PACKING on the SMT level: the load balancer prefers the higher-priority sibling; switches add "
        "wakeup-time redirects to it (extensions)",
        "the SMT domain's flags and the load balancer's sched_asym_prefer() at SMT domains; as extensions, the "
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
             "(extension beyond the posted idea) rank threads of equal asym_prio by their speed; off: asym_prio "
             "only"},
            {"sd_flag", true, "give the SMT level SD_ASYM_PACKING (DomainOptions::smt_asym_packing) for the balancer"},
        },
    };
    return kInfo;
}

SmtAsymPacking::SmtAsymPacking(std::vector<bool> on) : PlacementPolicy(info(), std::move(on)) {}

bool SmtAsymPacking::higher(const SchedState& s, CpuId a, CpuId b) const
{
    const CpuTopo& ta = s.machine->cpus[static_cast<std::size_t>(a)];
    const CpuTopo& tb = s.machine->cpus[static_cast<std::size_t>(b)];
    if (ta.asym_prio != tb.asym_prio)
        return ta.asym_prio > tb.asym_prio;
    return on(kSpeed) && ta.speed > tb.speed;
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
            note_declined(
                rec, name(),
                cat("no idle sibling of cpu ", cpu, " ranks higher (asym_prio ",
                    s.machine->cpus[static_cast<std::size_t>(cpu)].asym_prio, on(kSpeed) ? ", then speed)" : ")"));
        return kNoCpu;
    }
    if (rec) {
        const CpuTopo& from = s.machine->cpus[static_cast<std::size_t>(cpu)];
        const CpuTopo& to = s.machine->cpus[static_cast<std::size_t>(best)];
        note(rec, name(), "higher-priority idle sibling",
             cat("core of cpu ", cpu, " idle; sibling ", best, " preferred (asym_prio ", to.asym_prio, " vs ",
                 from.asym_prio, to.asym_prio == from.asym_prio ? ", faster thread" : "", ")"),
             best);
    }
    return best;
}

void SmtAsymPacking::adjust_domain_options(DomainOptions& options) const
{
    if (on(kSdFlag))
        options.smt_asym_packing = true;
}

std::optional<bool> SmtAsymPacking::sched_asym_prefer(const SchedState& s, int sd, CpuId a, CpuId b) const
{
    // Between cores mainline's order stands; only the threads of one core
    // are ranked by this policy.
    if (!(s.domains->domain(sd).flags & SD_SHARE_CPUCAPACITY))
        return std::nullopt;
    return higher(s, a, b);
}

}  // namespace wb
