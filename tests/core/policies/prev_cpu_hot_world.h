// SPDX-License-Identifier: Apache-2.0
//
// The state both prev-cpu-hot versions are tested in.
#pragma once

#include "policy_world.h"

namespace wb::test {

// SMT-2, two LLCs. The waker runs on 0; p's prev 9 is busy, its sibling 8 idle.
struct HotWorld {
    World w{"llc=2,core=4,smt=2"};
    TaskId p = kNoTask;
    HotWorld()
    {
        w.run_on(0);
        w.run_on(9);
        p = w.add_task(9);
    }
};

}  // namespace wb::test
