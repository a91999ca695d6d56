// SPDX-License-Identifier: Apache-2.0
//
// The engine tests' small machine: 2 LLCs x 2 cores x 2 threads with one
// shallow idle state (2 us exit), so that times in a test can be counted
// by hand.
#pragma once

#include "topology/machine.h"
#include "topology/synthetic.h"

namespace wb::test {

inline Machine quiet_machine()
{
    Machine m = parse_synthetic("llc=2,core=2,smt=2");
    m.idle_states = {{"C1", 2000, 4000}};
    return m;
}

}  // namespace wb::test
