// SPDX-License-Identifier: Apache-2.0
#include "policies/smt_asym_packing.h"

#include <gtest/gtest.h>

#include <memory>

#include "policies/registry.h"

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
    PackWorld x(kSpeed);
    EXPECT_EQ(x.sis("baseline"), 5);
    DecisionRecord rec;
    EXPECT_EQ(x.sis("smt-asym-packing:llc_scan=on,speed=on", &rec), 1);
    EXPECT_NE(policy_steps(rec).at(0).detail.find("faster thread"), std::string::npos);
    EXPECT_EQ(x.sis("smt-asym-packing:llc_scan=on,speed=off"), 5);
    EXPECT_EQ(x.sis(kLlc), 5);  // speed is off by default
}

TEST(SmtAsymPacking, NoChangeWithEqualThreadsOrABusySibling)
{
    PackWorld same("core=4,smt=2,numbering=thread-major");
    DecisionRecord rec;
    EXPECT_EQ(same.sis("smt-asym-packing:llc_scan=on,speed=on", &rec), 5);
    EXPECT_TRUE(policy_steps(rec).empty());

    // Sibling 1 busy: 5 is the only idle thread, kept.
    PackWorld busy(kPrio);
    busy.w.run_on(1);
    EXPECT_EQ(busy.sis("baseline"), busy.sis(kLlc));
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

TEST(SmtAsymPacking, BalancerPrefersTheHigherPrioritySiblingAtSmtDomains)
{
    const World w(kSpeed);
    const int smt = w.d.domains_of(1).front();
    const int mc = w.d.domains_of(1).back();
    ASSERT_NE(smt, mc);
    // Equal asym_prio, thread 0 faster: only the speed extension ranks them.
    const std::unique_ptr<PlacementPolicy> policy = make_policy("smt-asym-packing:speed=on");
    EXPECT_EQ(policy->sched_asym_prefer(w.s, smt, 1, 5), std::optional<bool>(true));
    EXPECT_EQ(policy->sched_asym_prefer(w.s, smt, 5, 1), std::optional<bool>(false));
    EXPECT_EQ(policy->sched_asym_prefer(w.s, mc, 1, 2), std::nullopt);  // between cores: mainline's order
    EXPECT_EQ(make_policy("smt-asym-packing")->sched_asym_prefer(w.s, smt, 1, 5), std::optional<bool>(false));
    // By asym_prio (the posted priority), the default ranks thread 0 first.
    const World prio(kPrio);
    const int prio_smt = prio.d.domains_of(1).front();
    EXPECT_EQ(make_policy("smt-asym-packing")->sched_asym_prefer(prio.s, prio_smt, 1, 5), std::optional<bool>(true));
    EXPECT_EQ(make_policy("smt-asym-packing")->sched_asym_prefer(prio.s, prio_smt, 5, 1), std::optional<bool>(false));
    EXPECT_EQ(make_policy("baseline")->sched_asym_prefer(w.s, smt, 1, 5), std::nullopt);
}

}  // namespace
}  // namespace wb::test
