// SPDX-License-Identifier: Apache-2.0
#include "plugin/plugin_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/input_error.h"
#include "io/scenario_json.h"
#include "policies/registry.h"

namespace wb {
namespace {

std::string load_error(const std::string& path)
{
    try {
        load_plugin(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(PluginLoader, APluginsPoliciesJoinTheCatalogAndBuildFromSpecs)
{
    const LoadedPlugin p = load_plugin(WB_PLUGIN_EXAMPLE);
    ASSERT_EQ(p.policies, std::vector<std::string>{"prefer-idle-prev-llc"});
    bool listed = false;
    for (const PolicyInfo* info : policy_catalog())
        listed = listed || info->name == "prefer-idle-prev-llc";
    EXPECT_TRUE(listed);
    EXPECT_EQ(policy_plugin("prefer-idle-prev-llc"), p.path);
    EXPECT_EQ(policy_plugin("baseline"), "");
    // Its switches parse like a shipped policy's, and the spec round-trips.
    EXPECT_EQ(make_policy("prefer-idle-prev-llc:sync=off")->spec(), "prefer-idle-prev-llc:sync=off");
    EXPECT_EQ(make_policy("prefer-idle-prev-llc")->name(), "prefer-idle-prev-llc");
}

TEST(PluginLoader, LoadingTheSameFileAgainReplacesItsPolicies)
{
    load_plugin(WB_PLUGIN_EXAMPLE);
    load_plugin(WB_PLUGIN_EXAMPLE);
    int copies = 0;
    for (const PolicyInfo* info : policy_catalog())
        copies += info->name == "prefer-idle-prev-llc";
    EXPECT_EQ(copies, 1);
    int plugins = 0;
    for (const LoadedPlugin& p : loaded_plugins())
        plugins += p.path == std::filesystem::path(WB_PLUGIN_EXAMPLE).lexically_normal().string();
    EXPECT_EQ(plugins, 1);
}

TEST(PluginLoader, AnAbiMismatchIsRefusedWithBothVersions)
{
    const std::string error = load_error(WB_PLUGIN_ABI_MISMATCH);
    EXPECT_NE(error.find("libabi-mismatch.so: the plugin was built for hook ABI version " +
                         std::to_string(hook_abi_version() + 98) + "; this build of wakebench has version " +
                         std::to_string(hook_abi_version())),
              std::string::npos)
        << error;
}

TEST(PluginLoader, AMissingFileOrANonPluginIsAnInputErrorNamingIt)
{
    EXPECT_NE(load_error("/no/such/plugin.so").find("/no/such/plugin.so: expected a policy plugin"), std::string::npos);
    const std::string text = (std::filesystem::temp_directory_path() / "not-a-plugin.so").string();
    std::ofstream(text) << "hello";
    EXPECT_NE(load_error(text).find("not-a-plugin.so: cannot load the plugin: "), std::string::npos) << load_error(text);
}

TEST(PluginLoader, AScenarioListsPluginsRelativeToItsFolder)
{
    const std::filesystem::path dir = std::filesystem::path(WB_PLUGIN_EXAMPLE).parent_path();
    const std::string file = (dir / "with-plugin.json").string();
    const std::string text = R"({"schema_version": 1, "name": "p", "machine": "ampere-altra-80",
        "cases": [{"workload": "pipe:loops=100"}],
        "plugins": ["libprefer-idle-prev-llc.so"],
        "policies": ["baseline", "prefer-idle-prev-llc"]})";
    const Scenario s = parse_scenario_json(text, file);
    EXPECT_EQ(s.plugins, std::vector<std::string>{"libprefer-idle-prev-llc.so"});
    EXPECT_EQ(s.policies.back(), "prefer-idle-prev-llc");
    // Saved as written, so the file still finds the plugin beside it.
    EXPECT_NE(scenario_to_json(s).find("\"plugins\": [\n    \"libprefer-idle-prev-llc.so\"\n  ]"), std::string::npos);

    const std::string missing = R"({"schema_version": 1, "name": "p", "machine": "ampere-altra-80",
        "cases": [{"workload": "pipe:loops=100"}], "plugins": ["nope.so"], "policies": ["baseline"]})";
    try {
        parse_scenario_json(missing, file);
        FAIL() << "a missing plugin was accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("with-plugin.json:2:"), std::string::npos) << what;
        EXPECT_NE(what.find("/plugins/0: "), std::string::npos) << what;
        EXPECT_NE(what.find("nope.so: expected a policy plugin"), std::string::npos) << what;
    }
}

TEST(PluginLoader, APluginMayNotTakeAShippedPolicysName)
{
    // register_plugin_policies() is what load_plugin() calls with the manifest.
    try {
        register_plugin_policies("fake.so", {{&PlacementPolicy::baseline_info(), nullptr}});
        FAIL() << "a plugin took baseline's name";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("fake.so: expected policies with names of their own; 'baseline' is a "
                                             "shipped policy's name"),
                  std::string::npos);
    }
}

// A rebuild of one plugin whose policy takes a name another plugin gives is
// refused, and the rebuild's earlier policies stay.
TEST(PluginLoader, ARebuildThatClashesKeepsItsEarlierBuild)
{
    static const PolicyInfo kFirst{"clash-first", "", "", "", {}};
    static const PolicyInfo kSecond{"clash-second", "", "", "", {}};
    register_plugin_policies("first.so", {{&kFirst, nullptr}});
    register_plugin_policies("second.so", {{&kSecond, nullptr}});
    try {
        register_plugin_policies("second.so", {{&kFirst, nullptr}});
        FAIL() << "second.so took first.so's policy name";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("second.so: expected policies with names of their own; 'clash-first' is "
                                             "already given by first.so"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(policy_plugin("clash-second"), "second.so");
    EXPECT_EQ(policy_plugin("clash-first"), "first.so");
}

}  // namespace
}  // namespace wb
