// SPDX-License-Identifier: Apache-2.0
#include "plugin/hook_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace wb {
namespace {

std::string read(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// "sync-waker-v3" -> core/policies/sync_waker_v3.h
std::string header_of(std::string policy)
{
    for (char& c : policy)
        c = c == '-' ? '_' : c;
    return std::string(WB_SOURCE_DIR) + "/core/policies/" + policy + ".h";
}

// The table says which shipped policy uses each hook: each must override it,
// and the public interface must offer every hook the engine calls.
TEST(HookTable, EachNamedUserOverridesTheHookAndTheSdkHasIt)
{
    const std::string sdk = read(std::string(WB_SOURCE_DIR) + "/sdk/include/wakebench/policy.h");
    const std::string engine = read(std::string(WB_SOURCE_DIR) + "/core/sched/placement_policy.h");
    for (const HookPoint& h : hook_points()) {
        EXPECT_NE(sdk.find(" " + std::string(h.name) + "("), std::string::npos) << h.name;
        EXPECT_NE(engine.find(" " + std::string(h.name) + "("), std::string::npos) << h.name;
        std::stringstream users{std::string(h.used_by)};
        for (std::string user; std::getline(users, user, ',');) {
            user.erase(0, user.find_first_not_of(' '));
            EXPECT_NE(read(header_of(user)).find(std::string(h.name) + "("), std::string::npos)
                << user << " does not override " << h.name;
        }
    }
    EXPECT_EQ(find_hook("before_select_idle_sibling")->function, "select_task_rq_fair()");
    EXPECT_EQ(find_hook("nope"), nullptr);
}

}  // namespace
}  // namespace wb
