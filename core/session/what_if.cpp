// SPDX-License-Identifier: Apache-2.0
#include "session/what_if.h"

#include "io/input_error.h"
#include "policies/registry.h"
#include "sched/placement_policy.h"
#include "sched/sched_state.h"
#include "topology/machine.h"

namespace wb {

namespace {

DomainOptions domain_options_of(const PlacementPolicy* policy)
{
    DomainOptions out;
    if (policy)
        policy->adjust_domain_options(out);
    return out;
}

// The run's per-domain shared state (the idle-cores hint, nr_idle_scan) in
// the case's domains: a policy may build its domains otherwise (another
// level, another flag), so each of the case's domains takes the state of
// the run's domain at the same place in the same CPU's hierarchy with the
// same span. A domain with no such twin keeps a fresh domain's state.
void carry_shared(const SchedState& run, SchedState& c)
{
    const SchedDomains& from = *run.domains;
    const SchedDomains& to = *c.domains;
    for (CpuId cpu = 0; cpu < to.nr_cpus(); ++cpu) {
        const std::vector<int>& a = from.domains_of(cpu);
        const std::vector<int>& b = to.domains_of(cpu);
        for (std::size_t level = 0; level < a.size() && level < b.size(); ++level) {
            const int ra = a[level], rb = b[level];
            if (from.domain(ra).span == to.domain(rb).span)
                c.shared[static_cast<std::size_t>(rb)] = run.shared[static_cast<std::size_t>(ra)];
        }
    }
}

}  // namespace

WhatIf::WhatIf(const Machine& machine, const FeatureSet& run_features, const std::vector<WhatIfCase>& cases)
{
    cases_.reserve(cases.size());
    for (const WhatIfCase& wc : cases) {
        Case c;
        c.label = wc.label();
        c.policy = make_policy(wc.policy, "what if");
        c.feats = run_features;
        const std::string problem = c.feats.apply(wc.features);
        if (!problem.empty())
            throw InputError(Diagnostic{"what if", 0, 0, "", "'" + c.label + "': " + problem});
        c.domains = SchedDomains::build(machine, domain_options_of(c.policy.get()));
        c.fresh_shared = make_sched_state(machine, c.domains, c.feats).shared;
        cases_.push_back(std::move(c));
    }
}

WhatIf::~WhatIf() = default;

WhatIfChoices WhatIf::ask(const SchedState& s, const WakerContext& waker, TaskId p, CpuId prev,
                          unsigned int wake_flags) const
{
    WhatIfChoices out;
    out.reserve(cases_.size());
    for (const Case& c : cases_) {
        SchedState copy = s;
        copy.policy = c.policy.get();
        copy.feats = c.feats;
        copy.domains = &c.domains;
        copy.shared = c.fresh_shared;
        carry_shared(s, copy);
        copy.cpus_examined = 0;
        DecisionRecord rec;
        unsigned int flags = wake_flags;
        begin_record(rec, copy, waker, p, prev, flags);
        select_task_rq(copy, waker, p, prev, &flags, &rec);
        out.emplace_back(c.label, std::move(rec));
    }
    return out;
}

}  // namespace wb
