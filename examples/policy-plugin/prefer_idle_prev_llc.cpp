// SPDX-License-Identifier: Apache-2.0
#include "prefer_idle_prev_llc.h"

#include <string>

const wakebench::PolicyInfo& PreferIdlePrevLlc::info()
{
    static const wakebench::PolicyInfo kInfo{
        "prefer-idle-prev-llc",
        "wake on prev when it is idle and shares the waker's LLC, before wake_affine() moves the target",
        "select_task_rq_fair(): affine domain found, before wake_affine(); returns prev",
        "the worked example of docs/writing-a-policy.md (examples/policy-plugin)",
        {
            {"same_llc", true, "require prev to share the waker's LLC; off: any idle prev"},
            {"sync", true, "also for WF_SYNC wakeups; off: sync wakeups are left to wake_affine()"},
        },
    };
    return kInfo;
}

int PreferIdlePrevLlc::before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int,
                                          wakebench::Trace* trace) const
{
    const int prev = w.prev_cpu;
    if (!on(kSync) && w.sync) {
        if (trace)
            trace->declined("WF_SYNC, and switch sync is off");
        return wakebench::kNoCpu;
    }
    if (on(kSameLlc) && !v.cpus_share_cache(prev, w.this_cpu)) {
        if (trace)
            trace->declined("prev cpu " + std::to_string(prev) + " is not in the LLC of waker cpu " +
                            std::to_string(w.this_cpu));
        return wakebench::kNoCpu;
    }
    if (!v.available_idle_cpu(prev)) {
        if (trace)
            trace->declined("prev cpu " + std::to_string(prev) + " is busy (nr_running " +
                            std::to_string(v.nr_running(prev)) + ")");
        return wakebench::kNoCpu;
    }
    if (trace)
        trace->step("prev idle, same LLC", "prev cpu " + std::to_string(prev) + " idle, shares the LLC of waker cpu " +
                                               std::to_string(w.this_cpu),
                    prev);
    return prev;
}

WAKEBENCH_PLUGIN(PreferIdlePrevLlc)
