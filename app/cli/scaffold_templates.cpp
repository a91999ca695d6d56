// SPDX-License-Identifier: Apache-2.0
#include "cli/scaffold_templates.h"

#include <array>

namespace wb::cli {

const std::string_view kScaffoldCmake = R"wb(# @NAME@: a Wakebench placement policy, built as a plugin.
cmake_minimum_required(VERSION 3.25)
project(@NAME@ LANGUAGES CXX)

# The SDK: `cmake --install <wakebench build> --prefix <dir>`, then
# configure this project with -DCMAKE_PREFIX_PATH=<dir>.
find_package(Wakebench CONFIG REQUIRED)

# A plugin runs in the simulator's hot path: optimise it unless told otherwise.
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()

# build/lib@NAME@.so: wakesim --plugin build/lib@NAME@.so list policies
wakebench_add_policy(@NAME@ SOURCES @STEM@.cpp)

# The hook called on machine states built by hand (wakebench/testing.h).
enable_testing()
add_executable(@NAME@-test @STEM@_test.cpp @STEM@.cpp)
target_link_libraries(@NAME@-test PRIVATE Wakebench::sdk)
add_test(NAME @NAME@-test COMMAND @NAME@-test)
)wb";

const std::string_view kScaffoldHeader = R"wb(// @NAME@: describe the idea in one line here.
//
// Why: what the kernel does today that this changes, and for which workload.
// Where: @HOOK@ (wakesim list hooks).
#pragma once

#include <wakebench/policy.h>

class @CLASS@ final : public wakebench::Policy {
public:
    enum Switch { @SWITCH_ENUM@ };
    static const wakebench::PolicyInfo& info();
    explicit @CLASS@(std::vector<bool> on) : Policy(info(), std::move(on)) {}

@DECLARATION@
};
)wb";

const std::string_view kScaffoldSource = R"wb(#include "@STEM@.h"

#include <string>

const wakebench::PolicyInfo& @CLASS@::info()
{
    static const wakebench::PolicyInfo kInfo{
        "@NAME@",
        "one line: what the policy does",
        "@HOOK@ (wakesim list hooks)",
        "where the idea comes from: a thread, a patch, a measurement",
        {
            {"@SWITCH@", true, "@SWITCH_MEANING@"},
        },
    };
    return kInfo;
}

@DEFINITION@
WAKEBENCH_PLUGIN(@CLASS@)
)wb";

const std::string_view kScaffoldTest = R"wb(// @NAME@'s hook on machine states built by hand: each case sets what the
// kernel would see and checks the CPU (or answer) the hook gives.
#include <cstdio>
#include <cstdlib>

#include <wakebench/testing.h>

#include "@STEM@.h"

namespace {

int failures = 0;

void expect(bool ok, const char* what)
{
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
}

}  // namespace

int main()
{
    const @CLASS@ policy(std::vector<bool>{true});
    const @CLASS@ ablated(std::vector<bool>{false});
@TEST@
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
)wb";

const std::string_view kScaffoldReadme = R"wb(# @NAME@

A placement policy for Wakebench, at the hook `@HOOK@`.

    cmake -S . -B build -DCMAKE_PREFIX_PATH=<the SDK's prefix>
    cmake --build build
    ctest --test-dir build
    wakesim --plugin build/lib@NAME@.so compare --topology ampere-altra-80 \
        --workload pipe:loops=100000 --policies baseline,@NAME@
    wakebench --plugin build/lib@NAME@.so     # Ctrl+R reloads it after a rebuild

docs/writing-a-policy.md in Wakebench says what each hook may read and how
to record the steps the window lights.
)wb";

// The placement hooks share one idea, to be replaced by the user's: keep p
// on prev when prev is idle and shares the LLC with the reference CPU (the
// waker's, or the CPU the search found).
const std::string_view kChooseDeclaration = R"wb(
private:
    int choose(const wakebench::SchedView& v, int prev, int near, wakebench::Trace* trace) const;)wb";

const std::string_view kChooseDefinition = R"wb(// The idea: prev, when it is idle and (switch same_llc) shares the LLC with `near`.
int @CLASS@::choose(const wakebench::SchedView& v, int prev, int near, wakebench::Trace* trace) const
{
    if (on(@SWITCH_ENUM@) && !v.cpus_share_cache(prev, near)) {
        if (trace)
            trace->declined("prev cpu " + std::to_string(prev) + " does not share the LLC of cpu " +
                            std::to_string(near));
        return wakebench::kNoCpu;
    }
    if (!v.available_idle_cpu(prev)) {
        if (trace)
            trace->declined("prev cpu " + std::to_string(prev) + " is busy (nr_running " +
                            std::to_string(v.nr_running(prev)) + ")");
        return wakebench::kNoCpu;
    }
    if (trace)
        trace->step("prev idle", "prev cpu " + std::to_string(prev) + " idle" + (on(@SWITCH_ENUM@) ? ", same LLC" : ""), prev);
    return prev;
})wb";

// The cases every placement hook's test runs: 8 CPUs in two LLCs of 4, the
// waker alone on CPU 1, p (task 7) last ran on CPU 2. @CALL@ calls the hook
// and gives the CPU it returned.
const std::string_view kChooseTest = R"wb(    wakebench::FakeSchedView m(8, 1, 4);
    m.set_running(1, 1);
    wakebench::Wakeup w;
    w.p = 7;
    w.this_cpu = 1;
    w.current = 3;
    w.sync = true;
    w.prev_cpu = 2;
    m.task(7).cpu = 2;
    expect(@CALL@ == 2, "idle prev in the waker's LLC: prev");
    m.set_running(2, 1);
    expect(@CALL@ == wakebench::kNoCpu, "busy prev: mainline decides");
    w.prev_cpu = 5;
    m.task(7).cpu = 5;
    expect(@CALL@ == wakebench::kNoCpu, "idle prev in another LLC: mainline decides");
    expect(@ABLATED_CALL@ == 5, "same_llc off: any idle prev");
)wb";

const HookTemplate* hook_template(std::string_view hook)
{
    static const std::array kTemplates{
        HookTemplate{"before_wake_affine",
                     R"wb(    int before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int sd,
                           wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int,
                                 wakebench::Trace* trace) const
{
    return choose(v, w.prev_cpu, w.this_cpu, trace);
}
)wb",
                     "@P@.before_wake_affine(m, w, 0, nullptr)", "same_llc",
                     "require prev to share the waker's LLC; off: any idle prev", {}},
        HookTemplate{"after_wake_affine",
                     R"wb(    int after_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int sd, int target,
                          wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::after_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int, int target,
                                wakebench::Trace* trace) const
{
    return choose(v, w.prev_cpu, target, trace);
}
)wb",
                     "@P@.after_wake_affine(m, w, 0, w.this_cpu, nullptr)", "same_llc",
                     "require prev to share wake_affine()'s target's LLC; off: any idle prev", {}},
        HookTemplate{"before_select_idle_sibling",
                     R"wb(    int before_select_idle_sibling(const wakebench::SchedView& v, const wakebench::Wakeup& w, int target,
                                   wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::before_select_idle_sibling(const wakebench::SchedView& v, const wakebench::Wakeup& w,
                                         int target, wakebench::Trace* trace) const
{
    return choose(v, w.prev_cpu, target, trace);
}
)wb",
                     "@P@.before_select_idle_sibling(m, w, w.this_cpu, nullptr)", "same_llc",
                     "require prev to share the target's LLC; off: any idle prev", {}},
        HookTemplate{"select_idle_sibling_entry",
                     R"wb(    int select_idle_sibling_entry(const wakebench::SchedView& v, const wakebench::Wakeup& w, int target,
                                  wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::select_idle_sibling_entry(const wakebench::SchedView& v, const wakebench::Wakeup& w,
                                        int target, wakebench::Trace* trace) const
{
    return choose(v, w.prev_cpu, target, trace);
}
)wb",
                     "@P@.select_idle_sibling_entry(m, w, w.this_cpu, nullptr)", "same_llc",
                     "require prev to share the target's LLC; off: any idle prev", {}},
        HookTemplate{"after_recent_used_cpu",
                     R"wb(    wakebench::AfterRecentUsedCpu after_recent_used_cpu(const wakebench::SchedView& v,
                                                        const wakebench::Wakeup& w, int target,
                                                        wakebench::Trace* trace) const override;
)wb",
                     R"wb(wakebench::AfterRecentUsedCpu @CLASS@::after_recent_used_cpu(const wakebench::SchedView& v,
                                                              const wakebench::Wakeup& w, int target,
                                                              wakebench::Trace* trace) const
{
    return {choose(v, w.prev_cpu, target, trace), false};
}
)wb",
                     "@P@.after_recent_used_cpu(m, w, w.this_cpu, nullptr).cpu", "same_llc",
                     "require prev to share the target's LLC; off: any idle prev", {}},
        HookTemplate{"select_idle_core_busy",
                     R"wb(    int select_idle_core_busy(const wakebench::SchedView& v, const wakebench::Wakeup& w, int core,
                              const wakebench::CpuSet& cpus, wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::select_idle_core_busy(const wakebench::SchedView& v, const wakebench::Wakeup& w, int,
                                    const wakebench::CpuSet&, wakebench::Trace* trace) const
{
    return choose(v, w.prev_cpu, w.this_cpu, trace);
}
)wb",
                     "@P@.select_idle_core_busy(m, w, 0, m.sched_domain_span(m.sd_llc(1)), nullptr)", "same_llc",
                     "require prev to share the waker's LLC; off: any idle prev", {}},
        HookTemplate{"idle_search_return",
                     R"wb(    int idle_search_return(const wakebench::SchedView& v, int p, wakebench::IdleSearchReturn where, int cpu,
                           bool idle_core, const wakebench::CpuSet& cpus, wakebench::Trace* trace) const override;
)wb",
                     R"wb(int @CLASS@::idle_search_return(const wakebench::SchedView& v, int p, wakebench::IdleSearchReturn, int cpu,
                                 bool, const wakebench::CpuSet&, wakebench::Trace* trace) const
{
    return choose(v, v.task_cpu(p), cpu, trace);
}
)wb",
                     "@P@.idle_search_return(m, w.p, wakebench::IdleSearchReturn::SelectIdleCpu, 0, false, "
                     "m.sched_domain_span(m.sd_llc(1)), nullptr)",
                     "same_llc", "require prev to share the found CPU's LLC; off: any idle prev", {}},
        HookTemplate{"adjust_domain_options",
                     R"wb(    void adjust_domain_options(wakebench::DomainOptions& options) const override;
)wb",
                     R"wb(// The idea: SD_ASYM_PACKING on the SMT level, so the load balancer packs
// onto each core's higher-priority thread.
void @CLASS@::adjust_domain_options(wakebench::DomainOptions& options) const
{
    if (on(@SWITCH_ENUM@))
        options.smt_asym_packing = true;
}
)wb",
                     "", "smt_packing", "set SD_ASYM_PACKING on the SMT level; off: mainline's domains",
                     R"wb(    wakebench::DomainOptions options;
    policy.adjust_domain_options(options);
    expect(options.smt_asym_packing, "SD_ASYM_PACKING on the SMT level");
    wakebench::DomainOptions mainline;
    ablated.adjust_domain_options(mainline);
    expect(!mainline.smt_asym_packing, "smt_packing off: mainline's domains");
)wb"},
        HookTemplate{"imbalanced_active_balance_now",
                     R"wb(    bool imbalanced_active_balance_now(const wakebench::SchedView& v, int sd, int dst_cpu,
                                       int src_cpu) const override;
)wb",
                     R"wb(// The idea: an idle dst may pull from a src running two or more tasks at once,
// without waiting for nr_balance_failed.
bool @CLASS@::imbalanced_active_balance_now(const wakebench::SchedView& v, int, int dst_cpu, int src_cpu) const
{
    return on(@SWITCH_ENUM@) && v.idle_cpu(dst_cpu) && v.nr_running(src_cpu) >= 2;
}
)wb",
                     "", "at_once", "allow the active balance at once; off: mainline's wait",
                     R"wb(    wakebench::FakeSchedView m(4, 2);
    m.set_running(0, 2);
    expect(policy.imbalanced_active_balance_now(m, 0, 2, 0), "idle dst, src runs 2: at once");
    expect(!ablated.imbalanced_active_balance_now(m, 0, 2, 0), "at_once off: mainline waits");
    m.set_running(0, 1);
    expect(!policy.imbalanced_active_balance_now(m, 0, 2, 0), "src runs 1: mainline waits");
)wb"},
        HookTemplate{"sched_asym_prefer",
                     R"wb(    std::optional<bool> sched_asym_prefer(const wakebench::SchedView& v, int sd, int a, int b) const override;
)wb",
                     R"wb(// The idea: at asym-packing domains prefer the CPU of larger capacity.
std::optional<bool> @CLASS@::sched_asym_prefer(const wakebench::SchedView& v, int, int a, int b) const
{
    if (!on(@SWITCH_ENUM@))
        return std::nullopt;
    return v.capacity_of(a) > v.capacity_of(b);
}
)wb",
                     "", "by_capacity", "prefer the larger capacity; off: arch_asym_cpu_priority()",
                     R"wb(    wakebench::FakeSchedView m(4);
    m.set_capacity(1, 512);
    expect(policy.sched_asym_prefer(m, 0, 0, 1) == true, "capacity 1024 over 512");
    expect(policy.sched_asym_prefer(m, 0, 1, 0) == false, "not 512 over 1024");
    expect(!ablated.sched_asym_prefer(m, 0, 0, 1).has_value(), "by_capacity off: no opinion");
)wb"},
    };
    for (const HookTemplate& t : kTemplates)
        if (t.hook == hook)
            return &t;
    return nullptr;
}

}  // namespace wb::cli
