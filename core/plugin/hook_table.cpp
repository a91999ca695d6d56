// SPDX-License-Identifier: Apache-2.0
#include "plugin/hook_table.h"

#include <array>

namespace wb {
namespace {

// In the order the wakeup path reaches them, then the load balancer's.
// tests/core/plugin/hook_table_test.cpp checks that each shipped policy
// named here overrides the hook.
constexpr std::array kHooks{
    HookPoint{"before_wake_affine", "select_task_rq_fair()",
              "the affine domain is found (want_affine, SD_WAKE_AFFINE, prev in its span), before wake_affine(); a "
              "CPU returned skips wake_affine() and select_idle_sibling()",
              "sync-waker-v3"},
    HookPoint{"after_wake_affine", "select_task_rq_fair()",
              "wake_affine() has chosen target, before select_idle_sibling(); a CPU returned skips it",
              "sync-waker-v4"},
    HookPoint{"before_select_idle_sibling", "select_task_rq_fair()",
              "the fast path (a wakeup, no balance domain), before select_idle_sibling(p, prev, target)",
              "prev-cpu-hot"},
    HookPoint{"select_idle_sibling_entry", "select_idle_sibling()", "the top, before the \"target idle\" test",
              "prev-cpu-hot-v2"},
    HookPoint{"after_recent_used_cpu", "select_idle_sibling()",
              "after the recent_used_cpu step, before select_idle_capacity() and select_idle_cpu(); may also drop "
              "mainline's select_idle_smt() block",
              "sis-sync-stack"},
    HookPoint{"select_idle_core_busy", "select_idle_core()",
              "a thread of the scanned CPU's core is busy, before the core is passed over", "waker-idle-core"},
    HookPoint{"idle_search_return", "select_idle_core(), select_idle_cpu(), select_idle_capacity()",
              "each idle search's return of the CPU it found", "asym-stable-core, smt-asym-packing"},
    HookPoint{"adjust_domain_options", "build_sched_domains()", "before the run's sched domains are built",
              "smt-asym-packing", false},
    HookPoint{"imbalanced_active_balance_now", "imbalanced_active_balance()",
              "where the balancer tests nr_balance_failed > cache_nice_tries + 2", "smt-active-balance", false},
    HookPoint{"sched_asym_prefer", "sched_asym_prefer()",
              "at SD_ASYM_PACKING domains, in place of the arch_asym_cpu_priority() comparison", "smt-asym-packing",
              false},
};

}  // namespace

std::span<const HookPoint> hook_points()
{
    return kHooks;
}

const HookPoint* find_hook(std::string_view name)
{
    for (const HookPoint& h : kHooks)
        if (h.name == name)
            return &h;
    return nullptr;
}

}  // namespace wb
