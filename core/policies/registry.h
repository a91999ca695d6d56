// SPDX-License-Identifier: Apache-2.0
//
// Every placement policy by name, and policies built from specs. The CLI
// (--policy, `wakesim list policies`), scenario files, batches and the GUI
// all go through make_policy().
//
// Spec grammar (no white space; names and switches are case-sensitive):
//
//   spec   = part *( "+" part )
//   part   = name [ ":" switch *( "," switch ) ]
//   switch = switch-name "=" ( "on" | "off" )
//
//   baseline                      mainline
//   sync-waker-v3:smt_check=off   one policy, one switch changed
//   baseline+sis-sync-stack       baseline changes nothing: same as sis-sync-stack
//   sis-sync-stack:stack=off,fits=off+prev-cpu-hot
//
// Parts apply in the order written: where two hook the same point, the
// earlier decides first. A policy may appear once in a spec, a switch once
// per part.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sched/placement_policy.h"

namespace wb {

// Every policy: the shipped ones, baseline first, in the order policies.md
// presents them, then the plugins' in the order they were loaded.
std::vector<const PolicyInfo*> policy_catalog();

// The plugin file a policy came from; empty for a shipped policy or an
// unknown name.
std::string policy_plugin(std::string_view name);

// The plugin files the specs' policies come from: every part of every spec
// ("a+b:x=off" has two parts), each file once, in the order met; shipped
// policies add nothing. The `--plugin` words of a command that runs them.
std::vector<std::string> policy_plugins(const std::vector<std::string>& specs);

// A policy a plugin provides (plugin/plugin_loader.cpp builds these).
struct PluginPolicyEntry {
    const PolicyInfo* info;  // lives as long as the process: plugins are never unloaded
    std::function<std::unique_ptr<PlacementPolicy>(std::vector<bool>)> make;
};

// Adds `plugin`'s policies to the catalog, replacing what the same file gave
// before (a rebuilt plugin loaded again). A name that a shipped policy or
// another plugin has is an InputError naming the plugin.
void register_plugin_policies(const std::string& plugin, std::vector<PluginPolicyEntry> policies);

// Builds the policy `spec` names. Throws InputError carrying every problem
// found, each naming `source` and the spec ("--policy 'x+y'"), the column,
// what was expected (the valid policies, or the policy's switches, or on/off)
// and what was found.
std::unique_ptr<PlacementPolicy> make_policy(std::string_view spec, std::string_view source = "policy");

}  // namespace wb
