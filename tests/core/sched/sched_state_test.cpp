// SPDX-License-Identifier: Apache-2.0
#include "sched/sched_state.h"

#include <gtest/gtest.h>

#include "topology/synthetic.h"

namespace wb {
namespace {

// The fair class reads these copies instead of asking the machine; they must
// match it on machines of one word and of several words of CPUs.
TEST(MakeSchedState, CopiesTheMachinesCpuCount)
{
    for (const char* spec : {"core=2", "llc=2,core=2,smt=2", "node=2,llc=12,core=8,smt=2"}) {
        const Machine m = parse_synthetic(spec);
        const SchedDomains d = SchedDomains::build(m);
        const SchedState s = make_sched_state(m, d, FeatureSet());
        EXPECT_EQ(s.nr_cpus, m.nr_cpus()) << spec;
        EXPECT_EQ(s.rqs.size(), static_cast<std::size_t>(m.nr_cpus())) << spec;
    }
    const Machine m = parse_synthetic("node=2,llc=12,core=8,smt=2");
    EXPECT_EQ(m.nr_cpus(), 384);
}

}  // namespace
}  // namespace wb
