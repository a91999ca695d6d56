// SPDX-License-Identifier: Apache-2.0
#include "host/cpuidle_states.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace wb::host {
namespace {

namespace fs = std::filesystem;

TEST(CpuidlePolls, PollAndMwaitPollOthersDoNot)
{
    EXPECT_TRUE(idle_state_polls("POLL", "CPUIDLE CORE POLL IDLE"));
    EXPECT_TRUE(idle_state_polls("C1", "MWAIT 0x00"));           // intel_idle
    EXPECT_TRUE(idle_state_polls("C2", "ACPI FFH MWAIT 0x10"));  // acpi_idle, FFH
    EXPECT_FALSE(idle_state_polls("C1", "ACPI HLT"));
    EXPECT_FALSE(idle_state_polls("C2", "ACPI IOPORT 0x414"));
    EXPECT_FALSE(idle_state_polls("haltpoll", "haltpoll idle"));
    EXPECT_FALSE(idle_state_polls("WFI", "ARM WFI"));
    EXPECT_FALSE(idle_state_polls("cpu-sleep-0", "cpu-sleep"));  // a PSCI state
    std::string why;
    idle_state_polls("C1E", "MWAIT 0x01", &why);
    EXPECT_NE(why.find("MWAIT"), std::string::npos);
}

struct Tree {
    fs::path root =
        fs::temp_directory_path() / ("wb-cpuidle-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Tree() { fs::remove_all(root); }
    ~Tree() { fs::remove_all(root); }
    void write(const std::string& rel, const std::string& text)
    {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text << "\n";
    }
    void state(int k, const std::string& name, const std::string& desc, int latency, int residency, int disable = 0)
    {
        const std::string d = "sys/devices/system/cpu/cpu0/cpuidle/state" + std::to_string(k) + "/";
        write(d + "name", name);
        write(d + "desc", desc);
        write(d + "latency", std::to_string(latency));
        write(d + "residency", std::to_string(residency));
        write(d + "disable", std::to_string(disable));
    }
};

TEST(CpuidleRead, IntelIdleStatesInOrderWithPolling)
{
    Tree t;
    t.write("sys/devices/system/cpu/cpuidle/current_driver", "intel_idle");
    t.state(0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0);
    t.state(1, "C1", "MWAIT 0x00", 1, 1);
    t.state(10, "C6", "MWAIT 0x20", 290, 800, 1);  // "state10" after "state2": numeric order
    t.state(2, "C1E", "MWAIT 0x01", 2, 4);
    const CpuidleInfo info = read_cpuidle(t.root.string(), 0);
    EXPECT_EQ(info.driver, "intel_idle");
    ASSERT_EQ(info.states.size(), 4u);
    EXPECT_EQ(info.states[0].name, "POLL");
    EXPECT_EQ(info.states[2].name, "C1E");
    EXPECT_EQ(info.states[3].name, "C6");
    EXPECT_DOUBLE_EQ(info.states[3].exit_latency_us, 290);
    EXPECT_DOUBLE_EQ(info.states[3].target_residency_us, 800);
    EXPECT_TRUE(info.states[3].disabled);
    for (const CpuidleState& s : info.states)
        EXPECT_TRUE(s.polls) << s.name;
}

TEST(CpuidleRead, NoCpuidleSaysWhatTheIdleLoopDoes)
{
    Tree t;
    t.write("sys/devices/system/cpu/cpuidle/current_driver", "none");
    t.write("sys/devices/system/cpu/cpu0/topology/core_id", "0");
    const CpuidleInfo info = read_cpuidle(t.root.string(), 0);
    EXPECT_EQ(info.driver, "none");
    EXPECT_TRUE(info.states.empty());
    ASSERT_EQ(info.notes.size(), 1u);
    EXPECT_NE(info.notes[0].find("HLT"), std::string::npos);
}

}  // namespace
}  // namespace wb::host
