// SPDX-License-Identifier: Apache-2.0
//
// Policies that break the hook contract, each in its own way, for the
// tests of what the engine does then: the run stops with an error naming
// the policy, the hook and the wakeup.
#include <stdexcept>

#include <wakebench/policy.h>

namespace {

class ThrowsInHook final : public wakebench::Policy {
public:
    static const wakebench::PolicyInfo& info()
    {
        static const wakebench::PolicyInfo kInfo{"throws-in-hook", "throws from before_select_idle_sibling()",
                                                 "before_select_idle_sibling", "tests", {}};
        return kInfo;
    }
    explicit ThrowsInHook(std::vector<bool> on) : Policy(info(), std::move(on)) {}
    int before_select_idle_sibling(const wakebench::SchedView&, const wakebench::Wakeup&, int,
                                   wakebench::Trace*) const override
    {
        throw std::runtime_error("my idea is not finished");
    }
};

class ReturnsCpuOutside final : public wakebench::Policy {
public:
    static const wakebench::PolicyInfo& info()
    {
        static const wakebench::PolicyInfo kInfo{"returns-cpu-outside", "returns a CPU the machine does not have",
                                                 "before_select_idle_sibling", "tests", {}};
        return kInfo;
    }
    explicit ReturnsCpuOutside(std::vector<bool> on) : Policy(info(), std::move(on)) {}
    int before_select_idle_sibling(const wakebench::SchedView& v, const wakebench::Wakeup&, int,
                                   wakebench::Trace*) const override
    {
        return v.nr_cpu_ids();
    }
};

// The first CPU p may not run on, when p is pinned.
class ReturnsDisallowedCpu final : public wakebench::Policy {
public:
    static const wakebench::PolicyInfo& info()
    {
        static const wakebench::PolicyInfo kInfo{"returns-disallowed-cpu", "returns a CPU outside p's affinity",
                                                 "before_wake_affine", "tests", {}};
        return kInfo;
    }
    explicit ReturnsDisallowedCpu(std::vector<bool> on) : Policy(info(), std::move(on)) {}
    int before_wake_affine(const wakebench::SchedView& v, const wakebench::Wakeup& w, int,
                           wakebench::Trace*) const override
    {
        for (int cpu = 0; cpu < v.nr_cpu_ids(); ++cpu)
            if (!v.cpus_allowed(w.p, cpu))
                return cpu;
        return wakebench::kNoCpu;
    }
};

}  // namespace

WAKEBENCH_PLUGIN(ThrowsInHook, ReturnsCpuOutside, ReturnsDisallowedCpu)
