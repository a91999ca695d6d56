// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_asym_packing.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "io/topology_json.h"
#include "policies/registry.h"
#include "sched/eevdf.h"
#include "sched/load_balance.h"

#include "policy_world.h"

namespace wb::test {
namespace {

// Thread-major SMT-2, one LLC: cores {0,4} {1,5} {2,6} {3,7}. Only core
// {1,5} is idle; p last ran on 4, whose sibling 0 is busy.
struct PackWorld {
    World w;
    TaskId p = kNoTask;
    explicit PackWorld(std::string_view spec) : w(spec)
    {
        w.run_on_all_but({1, 5});
        p = w.add_task(4);
    }
    CpuId sis(std::string_view spec, DecisionRecord* rec = nullptr, WakePath* path = nullptr)
    {
        return w.sis_under(spec, irq_on(4), p, 4, 4, false, rec, path);
    }
};

constexpr std::string_view kPrio = "core=4,smt=2,numbering=thread-major,asym_prio=2/1";
constexpr std::string_view kSpeed = "core=4,smt=2,numbering=thread-major,smt_speed=1/0.8";

// The defaults are the posted idea: SD_ASYM_PACKING on the SMT level for the
// load balancer, and no wakeup-time redirect. The tests of the redirects
// turn their extension switches on.
constexpr std::string_view kLlc = "smt-asym-packing:llc_scan=on";

TEST(SmtAsymPacking, DefaultDoesNotRedirectAWakeup)
{
    PackWorld x(kPrio);
    WakePath base_path = WakePath::Count;
    const CpuId baseline = x.sis("baseline", nullptr, &base_path);
    ASSERT_EQ(baseline, 5);
    ASSERT_EQ(base_path, WakePath::LlcScan);
    // llc_scan=on would take the idle core's higher-priority thread 1 ...
    ASSERT_EQ(x.sis(kLlc), 1);
    // ... the posted mechanism keeps the baseline decision and its path.
    DecisionRecord rec;
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.sis("smt-asym-packing", &rec, &path), baseline);
    EXPECT_EQ(path, base_path);
    EXPECT_TRUE(policy_steps(rec).empty());
    const std::vector<DecisionStep> declined = declined_steps(rec);
    ASSERT_FALSE(declined.empty());
    EXPECT_EQ(declined[0].detail, "switch llc_scan off");
    // The default still gives the SMT level SD_ASYM_PACKING.
    DomainOptions opt;
    make_policy("smt-asym-packing")->adjust_domain_options(opt);
    EXPECT_TRUE(opt.smt_asym_packing);
}

TEST(SmtAsymPacking, ExtensionsAreOffByDefaultAndMarked)
{
    const std::unique_ptr<PlacementPolicy> p = make_policy("smt-asym-packing");
    EXPECT_TRUE(p->switch_on("sd_flag"));
    for (const PolicySwitch& sw : p->switches()) {
        const bool extension = sw.name != "sd_flag";
        EXPECT_EQ(p->switch_on(sw.name), !extension) << sw.name;
        EXPECT_EQ(sw.meaning.find("(extension beyond the posted idea)") != std::string_view::npos, extension)
            << sw.name;
    }
    EXPECT_EQ(make_policy("smt-asym-packing:llc_scan=on,capacity_scan=on,speed=on")->spec(),
              "smt-asym-packing:llc_scan=on,capacity_scan=on,speed=on");
}

TEST(SmtAsymPacking, LlcScanPrefersTheHigherPrioritySibling)
{
    PackWorld x(kPrio);
    WakePath path = WakePath::Count;
    EXPECT_EQ(x.sis("baseline", nullptr, &path), 5);  // the scan starts at target + 1
    EXPECT_EQ(path, WakePath::LlcScan);

    DecisionRecord rec;
    EXPECT_EQ(x.sis(kLlc, &rec, &path), 1);
    EXPECT_EQ(path, WakePath::Policy);
    const std::vector<DecisionStep> steps = policy_steps(rec);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].function, "smt-asym-packing");
    EXPECT_EQ(steps[0].branch, "higher-priority idle sibling");
    EXPECT_NE(steps[0].detail.find("asym_prio 2 vs 1"), std::string::npos) << steps[0].detail;
    EXPECT_EQ(steps[0].result, 1);
}

TEST(SmtAsymPacking, IdleCoreScanPrefersTheHigherPrioritySibling)
{
    PackWorld x(kPrio);
    x.w.set_idle_cores_hint(4, true);
    EXPECT_EQ(x.sis("baseline"), 5);
    EXPECT_EQ(x.sis(kLlc), 1);
}

TEST(SmtAsymPacking, LlcScanSwitch)
{
    PackWorld x(kPrio);
    EXPECT_EQ(x.sis("smt-asym-packing:llc_scan=off"), 5);
    EXPECT_EQ(x.sis("smt-asym-packing"), 5);  // off is the default
    x.w.set_idle_cores_hint(4, true);
    EXPECT_EQ(x.sis("smt-asym-packing:llc_scan=off"), 5);
    EXPECT_EQ(x.sis(kLlc), 1);
}

TEST(SmtAsymPacking, SpeedSwitch)
{
    // Equal asym_prio, thread 0 faster: both the raise and speed take it.
    PackWorld x(kSpeed);
    EXPECT_EQ(x.sis("baseline"), 5);
    DecisionRecord rec;
    EXPECT_EQ(x.sis("smt-asym-packing:llc_scan=on,speed=on", &rec), 1);
    EXPECT_NE(policy_steps(rec).at(0).detail.find("faster thread"), std::string::npos);
    DecisionRecord raised;
    EXPECT_EQ(x.sis(kLlc, &raised), 1);  // speed is off by default: the first-sibling raise
    EXPECT_NE(policy_steps(raised).at(0).detail.find("priority 7 vs 6"), std::string::npos)
        << policy_steps(raised).at(0).detail;

    // Thread 1 faster: speed ranks it above the raise; without speed the
    // first sibling still wins.
    PackWorld slow_first("core=4,smt=2,numbering=thread-major,smt_speed=0.8/1");
    EXPECT_EQ(slow_first.sis("smt-asym-packing:llc_scan=on,speed=on"), 5);
    EXPECT_EQ(slow_first.sis(kLlc), 1);
}

TEST(SmtAsymPacking, RaiseRedirectsEqualThreadsButNotToABusyCore)
{
    // No asym_prio, equal speed: the raise alone ranks thread 0 first.
    PackWorld same("core=4,smt=2,numbering=thread-major");
    EXPECT_EQ(same.sis("baseline"), 5);
    EXPECT_EQ(same.sis(kLlc), 1);

    // Sibling 1 busy: 5 is the only idle thread, kept.
    PackWorld busy(kPrio);
    busy.w.run_on(1);
    DecisionRecord rec;
    EXPECT_EQ(busy.sis("baseline"), busy.sis(kLlc, &rec));
    EXPECT_TRUE(policy_steps(rec).empty());
}

TEST(SmtAsymPacking, CapacityScanPrefersTheHigherPrioritySibling)
{
    // Asymmetric thread-major machine, all idle: the capacity scan from 5
    // returns thread 1 (6) of the big core {2,6}.
    World w("core=4,smt=2,numbering=thread-major,capacity=446x2/1024x2,asym_prio=2/1");
    const TaskId p = w.add_task(5);
    w.s.task(p).se.avg.util_avg = 600;
    WakePath path = WakePath::Count;
    EXPECT_EQ(w.sis_under("baseline", irq_on(5), p, 5, 5, false, nullptr, &path), 6);
    EXPECT_EQ(path, WakePath::AsymCapacity);
    EXPECT_EQ(w.sis_under("smt-asym-packing:capacity_scan=on", irq_on(5), p, 5, 5, false, nullptr, &path), 2);
    EXPECT_EQ(path, WakePath::Policy);
    EXPECT_EQ(w.sis_under("smt-asym-packing:capacity_scan=off", irq_on(5), p, 5, 5, false), 6);
    EXPECT_EQ(w.sis_under("smt-asym-packing", irq_on(5), p, 5, 5, false), 6);  // off is the default
}

TEST(SmtAsymPacking, SdFlagSwitchGivesTheSmtLevelAsymPacking)
{
    auto smt_flags = [](std::string_view spec) {
        DomainOptions opt;
        make_policy(spec)->adjust_domain_options(opt);
        const World w(kPrio, opt);
        const SchedDomain& smt = w.d.domain(w.d.domains_of(1).front());
        EXPECT_EQ(smt.name, "SMT");
        return smt.flags;
    };
    EXPECT_EQ(smt_flags("baseline") & SD_ASYM_PACKING, 0u);
    EXPECT_NE(smt_flags("smt-asym-packing") & SD_ASYM_PACKING, 0u);
    EXPECT_EQ(smt_flags("smt-asym-packing:sd_flag=off") & SD_ASYM_PACKING, 0u);

    DomainOptions opt;
    opt.smt_asym_packing = true;
    const World w(kPrio, opt);
    EXPECT_EQ(w.d.shortcuts(1).sd_asym_packing, w.d.domains_of(1).front());
}

TEST(SmtAsymPacking, PriorityRaisesTheFirstSiblingWithoutReorderingTopologyPriorities)
{
    // Core-major SMT-2, thread 0 of each core at asym_prio 1, thread 1 at 2
    // (an ITMT-like file that prefers the second thread): the raise orders
    // only threads of equal asym_prio.
    const World w("core=2,smt=2,asym_prio=1/2");
    const Machine& m = *w.s.machine;
    constexpr int kRanks = SmtAsymPacking::kThreadRanks;
    EXPECT_EQ(SmtAsymPacking::asym_cpu_priority(m, 0), 1 * kRanks + kRanks - 1);
    EXPECT_EQ(SmtAsymPacking::asym_cpu_priority(m, 1), 2 * kRanks + kRanks - 2);
    const std::unique_ptr<PlacementPolicy> policy = make_policy("smt-asym-packing");
    const int smt = w.d.domains_of(0).front();
    const int mc = w.d.domains_of(0).back();
    ASSERT_NE(smt, mc);
    for (int sd : {smt, mc}) {
        // asym_prio 2 beats 1 whatever the thread, as in mainline.
        EXPECT_EQ(policy->sched_asym_prefer(w.s, sd, 1, 0), std::optional<bool>(true));
        EXPECT_EQ(policy->sched_asym_prefer(w.s, sd, 0, 1), std::optional<bool>(false));
    }
    // Equal asym_prio on two cores, both thread 0: no preference either way.
    EXPECT_EQ(policy->sched_asym_prefer(w.s, mc, 0, 2), std::optional<bool>(false));
    EXPECT_EQ(policy->sched_asym_prefer(w.s, mc, 2, 0), std::optional<bool>(false));

    // SMT-4: each thread ranks above the next, as the weak default -cpu
    // ranks a core's lower-numbered threads.
    const World four("core=2,smt=4");
    const int four_smt = four.d.domains_of(0).front();
    for (CpuId t = 0; t < 3; ++t) {
        EXPECT_EQ(policy->sched_asym_prefer(four.s, four_smt, t, t + 1), std::optional<bool>(true)) << t;
        EXPECT_EQ(policy->sched_asym_prefer(four.s, four_smt, t + 1, t), std::optional<bool>(false)) << t;
    }
}

TEST(SmtAsymPacking, BalancerPrefersTheFirstSibling)
{
    const World w(kSpeed);  // thread-major: core {1,5}, no asym_prio
    const int smt = w.d.domains_of(1).front();
    const int mc = w.d.domains_of(1).back();
    ASSERT_NE(smt, mc);
    // Equal asym_prio: the default's raise ranks thread 0 (cpu 1) first.
    const std::unique_ptr<PlacementPolicy> policy = make_policy("smt-asym-packing");
    EXPECT_EQ(policy->sched_asym_prefer(w.s, smt, 1, 5), std::optional<bool>(true));
    EXPECT_EQ(policy->sched_asym_prefer(w.s, smt, 5, 1), std::optional<bool>(false));
    // Between cores the same priority: thread 0 of one core over thread 1 of another.
    EXPECT_EQ(policy->sched_asym_prefer(w.s, mc, 2, 5), std::optional<bool>(true));
    EXPECT_EQ(policy->sched_asym_prefer(w.s, mc, 1, 2), std::optional<bool>(false));
    // By asym_prio (the topology's priority) thread 0 is first as well.
    const World prio(kPrio);
    const int prio_smt = prio.d.domains_of(1).front();
    EXPECT_EQ(policy->sched_asym_prefer(prio.s, prio_smt, 1, 5), std::optional<bool>(true));
    EXPECT_EQ(policy->sched_asym_prefer(prio.s, prio_smt, 5, 1), std::optional<bool>(false));
    // Mainline has no opinion of its own: Machine asym_prio decides.
    EXPECT_EQ(make_policy("baseline")->sched_asym_prefer(w.s, smt, 1, 5), std::nullopt);
}

// nvidia-vera (no asym_prio in its file; siblings 2k, 2k+1, PE0 first):
// a task runs alone on PE1 (cpu 1) while every other CPU is idle and
// tickless. Under the policy's defaults its busy tick kicks the nohz
// balancer, because idle PE0 (cpu 0) is preferred at the SMT domain
// (nohz_balancer_kick()'s sd_asym_packing test), and cpu 0's idle balance
// at SMT finds group {1} asym_packing, cannot pull the running task and
// asks the stopper to push it (asym_active_balance()).
struct VeraBalance {
    Machine m;
    std::unique_ptr<PlacementPolicy> policy;
    SchedDomains d;
    SchedState s;
    LoadBalanceState lb;
    TaskId p = kNoTask;

    static DomainOptions options_of(const PlacementPolicy* policy, bool smt_asym_packing)
    {
        DomainOptions opt;
        opt.smt_asym_packing = smt_asym_packing;
        if (policy)
            policy->adjust_domain_options(opt);
        return opt;
    }
    // `spec` empty: mainline, with SD_ASYM_PACKING on SMT if asked.
    explicit VeraBalance(std::string_view spec, bool smt_asym_packing = false)
        : m(load_machine_file((std::filesystem::path(WB_SOURCE_DIR) / "topologies" / "nvidia-vera.json").string())),
          policy(spec.empty() ? nullptr : make_policy(spec)),
          d(SchedDomains::build(m, options_of(policy.get(), smt_asym_packing)))
    {
        s = make_sched_state(m, d, FeatureSet());
        s.policy = policy.get();
        s.now = Time::ms(100);
        lb = make_load_balance_state(s);
        p = run_on(1);
        for (CpuId cpu = 0; cpu < m.nr_cpus(); ++cpu)
            if (cpu != 1)
                nohz_balance_enter_idle(s, lb, cpu);
    }
    VeraBalance(const VeraBalance&) = delete;
    VeraBalance& operator=(const VeraBalance&) = delete;

    TaskId run_on(CpuId cpu)
    {
        Task t;
        t.id = static_cast<TaskId>(s.tasks.size());
        t.name = "t" + std::to_string(t.id);
        t.cpus_allowed = m.all_cpus();
        t.nr_cpus_allowed = t.cpus_allowed.weight();
        t.se.slice = static_cast<std::uint64_t>(s.base_slice());
        set_load_weight(t);
        s.tasks.push_back(t);
        lb_task_created(lb, t.id);
        enqueue_task_fair(s, cpu, t.id, ENQUEUE_WAKEUP);
        s.task(t.id).state = TaskState::Runnable;
        lb_task_enqueued(s, lb, t.id);
        EXPECT_EQ(pick_next_task_fair(s, cpu), t.id);
        lb_task_picked(s, lb, cpu, t.id);
        return t.id;
    }
    bool kicks() { return (nohz_balancer_kick(s, lb, 1) & NOHZ_BALANCE_KICK) != 0; }
    // cpu 0's idle balance at its SMT domain.
    LbOutcome balance_smt_from_0()
    {
        bool more = true;
        LbOutcome out;
        EXPECT_EQ(sched_balance_rq(s, lb, 0, 0, CpuIdleType::Idle, &more, out), 0);
        return out;
    }
};

TEST(SmtAsymPacking, VeraBalancerPushesALoneTaskFromPe1ToPe0)
{
    VeraBalance x("smt-asym-packing");
    ASSERT_EQ(x.m.cpus[0].asym_prio, x.m.cpus[1].asym_prio);
    ASSERT_EQ(x.m.cpus[0].thread, 0);
    ASSERT_EQ(x.m.cpus[1].thread, 1);
    const SchedDomain& smt = x.d.domain(x.d.domains_of(0).front());
    ASSERT_EQ(smt.name, "SMT");
    ASSERT_NE(smt.flags & SD_ASYM_PACKING, 0u);
    EXPECT_TRUE(x.kicks());

    const LbOutcome out = x.balance_smt_from_0();
    EXPECT_TRUE(out.moved.empty());  // running: it cannot be pulled
    ASSERT_EQ(out.active.size(), 1u);
    EXPECT_EQ(out.active[0].busiest, 1);
    EXPECT_EQ(out.active[0].push_cpu, 0);
    // The stopper on cpu 1 pushes it to PE0.
    EXPECT_EQ(active_balance_pick(x.s, x.lb, 1, 0), x.p);
    EXPECT_TRUE(detach_task(x.s, x.lb, x.p, 0));
    EXPECT_EQ(pick_next_task_fair(x.s, 1), kNoTask);
    EXPECT_TRUE(attach_task(x.s, x.lb, x.p, 0));
    EXPECT_EQ(x.s.task(x.p).cpu, 0);

    // Once on PE0 nothing pulls it back: PE1 is not preferred.
    bool more = true;
    LbOutcome back;
    EXPECT_EQ(pick_next_task_fair(x.s, 0), x.p);
    lb_task_picked(x.s, x.lb, 0, x.p);
    EXPECT_EQ(sched_balance_rq(x.s, x.lb, 1, 0, CpuIdleType::Idle, &more, back), 0);
    EXPECT_TRUE(back.active.empty());
}

TEST(SmtAsymPacking, VeraBaselineAndTheFlagAloneLeaveTheTaskOnPe1)
{
    // Mainline: no SD_ASYM_PACKING on SMT, no kick, nothing to push.
    VeraBalance base("");
    EXPECT_FALSE(base.kicks());
    const LbOutcome out = base.balance_smt_from_0();
    EXPECT_TRUE(out.active.empty());
    EXPECT_TRUE(out.moved.empty());
    // The flag with mainline's priorities (asym_prio 0 everywhere): the
    // siblings tie, so the flag alone changes nothing; the raise acts.
    VeraBalance flag_only("", true);
    ASSERT_NE(flag_only.d.domain(flag_only.d.domains_of(0).front()).flags & SD_ASYM_PACKING, 0u);
    EXPECT_FALSE(flag_only.kicks());
    EXPECT_TRUE(flag_only.balance_smt_from_0().active.empty());
    // sd_flag=off: no flag, so the raise has nothing to act on.
    VeraBalance off("smt-asym-packing:sd_flag=off");
    EXPECT_FALSE(off.kicks());
    EXPECT_TRUE(off.balance_smt_from_0().active.empty());
}

}  // namespace
}  // namespace wb::test
