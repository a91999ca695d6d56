// SPDX-License-Identifier: Apache-2.0
//
// Every machine file under topologies/ must give the sched domains the kernel
// builds on that hardware. The expected values are facts about the real
// machines and kernel/sched/topology.c (v7.0), written down by hand with the
// reason next to each machine; docs/machines.md explains them at length.
// Adding a machine is one entry in kMachines.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "io/input_error.h"
#include "io/topology_json.h"
#include "topology/costs.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"

namespace wb {
namespace {

namespace fs = std::filesystem;
using Flags = std::vector<std::string_view>;

// sd_init() results, in bit order as sd_flag_names() lists them.
const Flags kSmtFlags{"SD_BALANCE_NEWIDLE",   "SD_BALANCE_EXEC", "SD_BALANCE_FORK",  "SD_WAKE_AFFINE",
                      "SD_SHARE_CPUCAPACITY", "SD_SHARE_LLC",    "SD_PREFER_SIBLING"};
// SMT directly below an asymmetric-capacity level loses SD_PREFER_SIBLING.
const Flags kSmtUnderAsymFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC",      "SD_BALANCE_FORK",
                               "SD_WAKE_AFFINE",     "SD_SHARE_CPUCAPACITY", "SD_SHARE_LLC"};
const Flags kClsFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK",  "SD_WAKE_AFFINE",
                      "SD_CLUSTER",         "SD_SHARE_LLC",    "SD_PREFER_SIBLING"};
const Flags kClsItmtFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_WAKE_AFFINE",
                          "SD_CLUSTER",         "SD_SHARE_LLC",    "SD_ASYM_PACKING", "SD_PREFER_SIBLING"};
const Flags kMcFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK",
                     "SD_WAKE_AFFINE",     "SD_SHARE_LLC",    "SD_PREFER_SIBLING"};
const Flags kMcItmtFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK",  "SD_WAKE_AFFINE",
                         "SD_SHARE_LLC",       "SD_ASYM_PACKING", "SD_PREFER_SIBLING"};
const Flags kMcAsymFlags{"SD_BALANCE_NEWIDLE",  "SD_BALANCE_EXEC",          "SD_BALANCE_FORK", "SD_WAKE_AFFINE",
                         "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL", "SD_SHARE_LLC",    "SD_PREFER_SIBLING"};
// A level with no topology flag: PKG, and powerpc's MC (core group).
const Flags kPlainFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_WAKE_AFFINE",
                        "SD_PREFER_SIBLING"};
// A NUMA level within node_reclaim_distance.
const Flags kNearNumaFlags{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK",
                           "SD_WAKE_AFFINE",     "SD_SERIALIZE",    "SD_NUMA"};
const Flags kFarNumaFlags{"SD_BALANCE_NEWIDLE", "SD_SERIALIZE", "SD_NUMA"};

struct LevelFact {
    std::string name;
    int weight = 0;
    std::string span;
    Flags flags;
    int imbalance_pct = 117;
    int cache_nice_tries = 1;
    int imb_numa_nr = -1;  // -1: not characteristic here, not checked
};

LevelFact smt(int weight, std::string span, const Flags& flags = kSmtFlags)
{
    return {"SMT", weight, std::move(span), flags, 110, 0};
}
LevelFact cls(int weight, std::string span, const Flags& flags = kClsFlags)
{
    return {"CLS", weight, std::move(span), flags};
}
LevelFact mc(int weight, std::string span, const Flags& flags = kMcFlags, int imb = -1)
{
    return {"MC", weight, std::move(span), flags, 117, 1, imb};
}
LevelFact pkg(int weight, std::string span, int imb = -1)
{
    return {"PKG", weight, std::move(span), kPlainFlags, 117, 1, imb};
}
LevelFact numa(int weight, std::string span, int imb, const Flags& flags = kNearNumaFlags)
{
    return {"NUMA", weight, std::move(span), flags, 117, 2, imb};
}

struct CpuFact {
    CpuId cpu = 0;
    std::string smt_siblings;       // how the real machine numbers this CPU's siblings
    std::vector<LevelFact> levels;  // bottom-up, after degeneration
    int llc_size = 1;
    CpuId llc_id = 0;
    CpuId share_id = 0;
};

struct MachineFact {
    std::string file;  // topologies/<file>.json
    int nr_cpus = 0;
    int nr_nodes = 1;
    DomainOptions options;
    bool smt_active = false;
    bool asym_cpucapacity = false;
    bool cluster_active = false;
    std::string asym_cpucapacity_level;  // sd_asym_cpucapacity's level on every CPU, "" for none
    std::string asym_packing_level;      // sd_asym_packing's level on every CPU, "" for none
    std::vector<CpuFact> cpus;
    std::function<void(const Machine&)> more;  // per-CPU properties of the hardware
};

const std::vector<MachineFact>& machines()
{
    // clang-format off
    static const std::vector<MachineFact> kMachines = {
        // Pairs of cores form PPTT clusters; the firmware describes no
        // shared cache, so MC is the whole package and, as it spans every
        // CPU, the walk stops there: no PKG. No SMT level (one thread).
        {"ampere-altra-80", 80, 1, {}, false, false, true, "", "",
         {{0, "0", {cls(2, "0-1"), mc(80, "0-79")}, 80, 0, 0},
          {79, "79", {cls(2, "78-79"), mc(80, "0-79")}, 80, 0, 78}},
         {}},

        // SMT pairs are (n, n+192); a CCX of 8 cores is the LLC; CLS equals
        // SMT (L2 per core) and NODE equals PKG (NPS1), both dropped. The
        // first level above the LLC holds 12 LLCs: imb_numa_nr 12.
        {"amd-epyc-9654-2s", 384, 2, {}, true, false, false, "", "",
         {{0, "0,192",
           {smt(2, "0,192"), mc(16, "0-7,192-199"), pkg(192, "0-95,192-287", 12), numa(384, "0-383", 12)}, 16, 0, 0},
          {100, "100,292",
           {smt(2, "100,292"), mc(16, "96-103,288-295"), pkg(192, "96-191,288-383", 12), numa(384, "0-383", 12)},
           16, 96, 96},
          {200, "8,200",
           {smt(2, "8,200"), mc(16, "8-15,200-207"), pkg(192, "0-95,192-287", 12), numa(384, "0-383", 12)}, 16, 8,
           8}},
         {}},

        // Siblings (n, n+16); two CCX of 8 cores; PKG spans all 32 CPUs and
        // holds the 2 LLCs.
        {"amd-ryzen-7950x", 32, 1, {}, true, false, false, "", "",
         {{0, "0,16", {smt(2, "0,16"), mc(16, "0-7,16-23"), pkg(32, "0-31", 2)}, 16, 0, 0},
          {25, "9,25", {smt(2, "9,25"), mc(16, "8-15,24-31"), pkg(32, "0-31", 2)}, 16, 8, 8}},
         {}},

        // One L3 per socket: PKG and NODE equal MC and are dropped, so NUMA
        // sits right above MC; distance 21 keeps wake-affine. One LLC per
        // node: imb_numa_nr is 112 / 8 = 14.
        {"intel-spr-8480-2s", 224, 2, {}, true, false, false, "", "",
         {{0, "0,112", {smt(2, "0,112"), mc(112, "0-55,112-167"), numa(224, "0-223", 14)}, 112, 0, 0},
          {170, "58,170", {smt(2, "58,170"), mc(112, "56-111,168-223"), numa(224, "0-223", 14)}, 112, 56, 56}},
         {}},

        // As Sapphire Rapids with 64 cores per socket (SNC off): 128 / 8 = 16.
        {"intel-gnr-6768p-2s", 256, 2, {}, true, false, false, "", "",
         {{0, "0,128", {smt(2, "0,128"), mc(128, "0-63,128-191"), numa(256, "0-255", 16)}, 128, 0, 0},
          {200, "72,200", {smt(2, "72,200"), mc(128, "64-127,192-255"), numa(256, "0-255", 16)}, 128, 64, 64}},
         {}},

        // Adjacent siblings; MC holds two capacities, all of the machine's,
        // so it carries ASYM_CPUCAPACITY and _FULL and is sd_asym_cpucapacity.
        // sd_init() takes PREFER_SIBLING from MC's child, which is the CLS
        // level (equal to SMT, dropped later without the flag to hand down),
        // so SMT keeps it. MC spans everything: no PKG.
        {"nvidia-vera", 176, 1, {}, true, true, false, "MC", "",
         {{0, "0-1", {smt(2, "0-1"), mc(176, "0-175", kMcAsymFlags)}, 176, 0, 0},
          {7, "6-7", {smt(2, "6-7"), mc(176, "0-175", kMcAsymFlags)}, 176, 0, 0}},
         [](const Machine& m) {
             // Siblings report one capacity, but PE0 outruns PE1.
             EXPECT_EQ(m.cpus[0].capacity, 1024);
             EXPECT_EQ(m.cpus[1].capacity, 1024);
             EXPECT_GT(m.cpus[0].speed, m.cpus[1].speed);
             EXPECT_EQ(m.cpus[6].capacity, m.cpus[7].capacity);
             EXPECT_LT(m.cpus[6].capacity, 1024);
             EXPECT_GT(m.cpus[6].speed, m.cpus[7].speed);
         }},

        // Big cores are used as small cores: SMT is the 4 interleaved
        // threads of a small core, which also owns its L2/L3, so no CACHE
        // level survives and the LLC is those 4 CPUs. MC is the core group
        // (no SHARE_LLC), PKG the chip/node, NODE drops, NUMA at distance 20.
        // The first level above the LLC holds 8 small cores: imb_numa_nr 8.
        {"ibm-power10-smt8", 128, 2, {}, true, false, false, "", "",
         {{0, "0,2,4,6",
           {smt(4, "0,2,4,6"), LevelFact{"MC", 32, "0-31", kPlainFlags, 117, 1, 8}, pkg(64, "0-63", 8),
            numa(128, "0-127", 8)},
           4, 0, 0},
          {1, "1,3,5,7",
           {smt(4, "1,3,5,7"), LevelFact{"MC", 32, "0-31", kPlainFlags, 117, 1, 8}, pkg(64, "0-63", 8),
            numa(128, "0-127", 8)},
           4, 1, 1},
          {100, "96,98,100,102",
           {smt(4, "96,98,100,102"), LevelFact{"MC", 32, "96-127", kPlainFlags, 117, 1, 8}, pkg(64, "64-127", 8),
            numa(128, "0-127", 8)},
           4, 96, 96}},
         {}},

        // One DSU cluster: SMT and CLS are single CPUs and vanish; MC holds
        // all three capacities and is the only domain.
        {"arm-dynamiq-3cap", 8, 1, {}, false, true, false, "MC", "",
         {{0, "0", {mc(8, "0-7", kMcAsymFlags)}, 8, 0, 0}, {7, "7", {mc(8, "0-7", kMcAsymFlags)}, 8, 0, 0}},
         [](const Machine& m) {
             for (CpuId c = 0; c < 4; ++c)
                 EXPECT_EQ(m.cpus[c].capacity, 354) << "A510 CPU " << c;
             for (CpuId c = 4; c < 7; ++c)
                 EXPECT_EQ(m.cpus[c].capacity, 717) << "A710 CPU " << c;
             EXPECT_EQ(m.cpus[7].capacity, 1024);
         }},

        // P-core siblings are adjacent; a P-core's CLS equals its SMT and
        // drops, an E-core's SMT is one CPU and drops, so E-cores show CLS(4).
        // ITMT puts ASYM_PACKING on CLS and MC, never on SMT; MC spans all.
        {"intel-adl-hybrid", 24, 1, {}, true, false, true, "", "MC",
         {{0, "0-1", {smt(2, "0-1"), mc(24, "0-23", kMcItmtFlags)}, 24, 0, 0},
          {15, "14-15", {smt(2, "14-15"), mc(24, "0-23", kMcItmtFlags)}, 24, 0, 0},
          {18, "18", {cls(4, "16-19", kClsItmtFlags), mc(24, "0-23", kMcItmtFlags)}, 24, 0, 16},
          {23, "23", {cls(4, "20-23", kClsItmtFlags), mc(24, "0-23", kMcItmtFlags)}, 24, 0, 20}},
         [](const Machine& m) {
             // Since v6.5 both threads of a P-core carry the core's ITMT priority.
             for (CpuId c = 0; c < 16; ++c)
                 EXPECT_EQ(m.cpus[c].asym_prio, 64) << "P-core CPU " << c;
             for (CpuId c = 16; c < 24; ++c)
                 EXPECT_EQ(m.cpus[c].asym_prio, 38) << "E-core CPU " << c;
             for (const CpuTopo& c : m.cpus)
                 EXPECT_EQ(c.capacity, 1024) << "CPU " << c.cpu;
         }},

        // The picture in sched_domains.h: pairs, two LLCs, PKG over both.
        {"teaching-8", 8, 1, {}, true, false, false, "", "",
         {{0, "0-1", {smt(2, "0-1"), mc(4, "0-3"), pkg(8, "0-7", 2)}, 4, 0, 0},
          {5, "4-5", {smt(2, "4-5"), mc(4, "4-7"), pkg(8, "0-7", 2)}, 4, 4, 4}},
         {}},
    };
    // clang-format on
    return kMachines;
}

// gtest prints a failing test's parameter; the file name says which machine.
void PrintTo(const MachineFact& fact, std::ostream* os)
{
    *os << fact.file;
}

std::string machine_path(const std::string& file)
{
    return (fs::path(WB_SOURCE_DIR) / "topologies" / (file + ".json")).string();
}

Machine load(const std::string& file)
{
    try {
        return load_machine_file(machine_path(file));
    } catch (const InputError& e) {
        ADD_FAILURE() << e.what();
    }
    return {};
}

std::string level_name(const SchedDomains& d, int id)
{
    return id >= 0 ? d.domain(id).name : std::string();
}

class ShippedMachine : public ::testing::TestWithParam<MachineFact> {};

TEST_P(ShippedMachine, BuildsTheKernelsSchedDomains)
{
    const MachineFact& fact = GetParam();
    const Machine m = load(fact.file);
    ASSERT_EQ(m.nr_cpus(), fact.nr_cpus);
    EXPECT_EQ(m.nr_nodes(), fact.nr_nodes);
    EXPECT_EQ(m.name, fact.file);

    const SchedDomains d = SchedDomains::build(m, fact.options);
    EXPECT_EQ(d.sched_smt_active(), fact.smt_active);
    EXPECT_EQ(d.sched_asym_cpucapacity(), fact.asym_cpucapacity);
    EXPECT_EQ(d.sched_cluster_active(), fact.cluster_active);

    for (CpuId cpu = 0; cpu < m.nr_cpus(); ++cpu) {
        const CpuShortcuts& s = d.shortcuts(cpu);
        EXPECT_EQ(level_name(d, s.sd_asym_cpucapacity), fact.asym_cpucapacity_level) << "CPU " << cpu;
        EXPECT_EQ(level_name(d, s.sd_asym_packing), fact.asym_packing_level) << "CPU " << cpu;
    }

    for (const CpuFact& c : fact.cpus) {
        SCOPED_TRACE("CPU " + std::to_string(c.cpu));
        EXPECT_EQ(m.smt_mask(c.cpu).to_cpulist(), c.smt_siblings);

        std::vector<std::string> names, expected_names;
        for (int id : d.domains_of(c.cpu))
            names.push_back(d.domain(id).name);
        for (const LevelFact& l : c.levels)
            expected_names.push_back(l.name);
        ASSERT_EQ(names, expected_names);

        for (std::size_t i = 0; i < c.levels.size(); ++i) {
            const LevelFact& want = c.levels[i];
            const SchedDomain& sd = d.domain(d.domains_of(c.cpu)[i]);
            SCOPED_TRACE(want.name);
            EXPECT_EQ(sd.span_weight, want.weight);
            EXPECT_EQ(sd.span.to_cpulist(), want.span);
            EXPECT_EQ(sd_flag_names(sd.flags), want.flags);
            EXPECT_EQ(sd.imbalance_pct, want.imbalance_pct);
            EXPECT_EQ(sd.cache_nice_tries, want.cache_nice_tries);
            if (want.imb_numa_nr >= 0) {
                EXPECT_EQ(sd.imb_numa_nr, want.imb_numa_nr);
            }
        }

        const CpuShortcuts& s = d.shortcuts(c.cpu);
        EXPECT_EQ(s.sd_llc_size, c.llc_size);
        EXPECT_EQ(s.sd_llc_id, c.llc_id);
        EXPECT_EQ(s.sd_share_id, c.share_id);
    }
    if (fact.more)
        fact.more(m);
}

TEST_P(ShippedMachine, SaysWhereEveryFactComesFrom)
{
    const Machine m = load(GetParam().file);
    EXPECT_FALSE(m.description.empty());
    EXPECT_FALSE(m.source.empty());
    for (std::size_t i = 0; i < kCostCount; ++i)
        EXPECT_FALSE(m.costs.values[i].source.empty()) << "cost " << kCostInfo[i].name << " has no source";
    // cpuidle lists states shallowest first: a deeper state never wakes
    // faster, and no state pays off in less time than it takes to leave.
    ASSERT_FALSE(m.idle_states.empty());
    for (std::size_t i = 1; i < m.idle_states.size(); ++i) {
        EXPECT_GE(m.idle_states[i].exit_latency_ns, m.idle_states[i - 1].exit_latency_ns) << m.idle_states[i].name;
        EXPECT_GE(m.idle_states[i].target_residency_ns, m.idle_states[i].exit_latency_ns) << m.idle_states[i].name;
    }
}

INSTANTIATE_TEST_SUITE_P(Topologies, ShippedMachine, ::testing::ValuesIn(machines()),
                         [](const ::testing::TestParamInfo<MachineFact>& param) {
                             std::string name = param.param.file;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(ShippedMachines, EveryFileInTopologiesHasAnEntryAndTellsItsSource)
{
    std::set<std::string> files, described;
    for (const fs::directory_entry& e : fs::directory_iterator(fs::path(WB_SOURCE_DIR) / "topologies")) {
        if (e.path().extension() != ".json")
            continue;
        const std::string stem = e.path().stem().string();
        files.insert(stem);
        const Machine m = load(stem);
        EXPECT_FALSE(m.description.empty()) << stem;
        EXPECT_FALSE(m.source.empty()) << stem;
    }
    for (const MachineFact& f : machines())
        described.insert(f.file);
    EXPECT_EQ(files, described) << "a machine file without facts in this test, or facts without a file";
}

TEST(ShippedMachines, VeraSmtLosesPreferSiblingOnlyWithoutTheClusterLevel)
{
    // Without CONFIG_SCHED_CLUSTER, MC's child in the chain is SMT itself.
    const Machine m = load("nvidia-vera");
    ASSERT_EQ(m.nr_cpus(), 176);
    DomainOptions no_cluster;
    no_cluster.sched_cluster = false;
    const SchedDomains d = SchedDomains::build(m, no_cluster);
    ASSERT_EQ(d.domains_of(0).size(), 2u);
    EXPECT_EQ(sd_flag_names(d.domain(d.domains_of(0)[0]).flags), kSmtUnderAsymFlags);
}

TEST(ShippedMachines, EpycNumaLevelNeedsZensReclaimDistance)
{
    // The file carries Zen's node_reclaim_distance of 32. With the generic
    // 30 the 2P distance of 32 would be "far" and the NUMA level would lose
    // wake-affine, which is why the kernel raises the limit on Zen.
    const Machine m = load("amd-epyc-9654-2s");
    ASSERT_EQ(m.nr_cpus(), 384);
    EXPECT_EQ(m.node_reclaim_distance, 32);
    DomainOptions generic;
    generic.node_reclaim_distance = 30;
    const SchedDomains d = SchedDomains::build(m, generic);
    const SchedDomain& top = d.domain(d.domains_of(0).back());
    EXPECT_EQ(top.name, "NUMA");
    EXPECT_EQ(sd_flag_names(top.flags), kFarNumaFlags);
}

}  // namespace
}  // namespace wb
