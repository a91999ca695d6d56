// SPDX-License-Identifier: Apache-2.0
//
// sync-waker-v3 written against the public SDK only, as a plugin: the proof
// that wakebench/*.h is enough for a shipped policy. It must decide exactly
// as core/policies/sync_waker_v3.cpp does (tests/core/plugin/
// plugin_policy_test.cpp runs both on the same scenario and compares).
#include <string>

#include <wakebench/policy.h>

namespace {

class SyncWakerV3Sdk final : public wakebench::Policy {
public:
    enum Switch { kSync, kSmtCheck, kReciprocal, kWakerAlone, kFits };

    static const wakebench::PolicyInfo& info()
    {
        static const wakebench::PolicyInfo kInfo{
            "sync-waker-v3-sdk",
            "sync-waker-v3 built as a plugin against the SDK",
            "select_task_rq_fair(): affine domain found, before wake_affine(); returns the waker CPU",
            "core/policies/sync_waker_v3.cpp, rewritten on wakebench/policy.h",
            {
                {"sync", true, "require WF_SYNC"},
                {"smt_check", true, "require sched_smt_active() false"},
                {"reciprocal", true, "require p->last_wakee == current"},
                {"waker_alone", true, "require exactly one runnable fair task on the waker CPU"},
                {"fits", true, "on asym-capacity systems require task_fits_cpu(p, waker cpu)"},
            },
        };
        return kInfo;
    }

    explicit SyncWakerV3Sdk(std::vector<bool> on) : Policy(info(), std::move(on)) {}

    int before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int,
                           wakebench::Trace* trace) const override
    {
        const char* failed = nullptr;
        if (on(kSync) && !w.sync)
            failed = "not WF_SYNC";
        else if (on(kSmtCheck) && v.sched_smt_active())
            failed = "SMT active";
        else if (on(kReciprocal) && (w.current == wakebench::kNoTask || v.last_wakee(w.p) != w.current))
            failed = "p's last_wakee is not current";
        else if (on(kWakerAlone) && v.h_nr_runnable(w.this_cpu) != 1)
            failed = "the waker cpu does not run exactly one fair task";
        else if (on(kFits) && v.sched_asym_cpucapacity() && !v.task_fits_cpu(w.p, w.this_cpu))
            failed = "p does not fit the waker cpu";
        if (failed) {
            if (trace)
                trace->declined(failed);
            return wakebench::kNoCpu;
        }
        if (trace)
            trace->step("reciprocal sync pair: waker cpu", "waker cpu " + std::to_string(w.this_cpu), w.this_cpu);
        return w.this_cpu;
    }
};

}  // namespace

WAKEBENCH_PLUGIN(SyncWakerV3Sdk)
