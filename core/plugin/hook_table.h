// SPDX-License-Identifier: Apache-2.0
//
// The hook points a policy can use, as `wakesim list hooks` prints them and
// docs/writing-a-policy.md tabulates them: each hook's name (a member of
// wakebench::Policy and of PlacementPolicy), the kernel function and the
// place in it where the wakeup path calls it, and the shipped policies that
// use it. `wakesim policy new --hook` takes these names.
#pragma once

#include <span>
#include <string_view>

namespace wb {

struct HookPoint {
    std::string_view name;      // "before_select_idle_sibling"
    std::string_view function;  // "select_task_rq_fair()"
    std::string_view place;     // "fast path, before select_idle_sibling(p, prev, target)"
    std::string_view used_by;   // "prev-cpu-hot"
    bool placement = true;      // decides a wakeup's CPU (false: domains and the load balancer)
};

std::span<const HookPoint> hook_points();

// The hook called `name`, or null.
const HookPoint* find_hook(std::string_view name);

}  // namespace wb
