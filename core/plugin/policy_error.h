// SPDX-License-Identifier: Apache-2.0
//
// PolicyError: a policy's hook broke its contract during a run (it threw,
// or returned a CPU outside the machine or outside p's affinity). The run
// stops; the message names the policy, the hook and the wakeup. Front ends
// show it and carry on (the window) or exit with status 1 (wakesim).
#pragma once

#include <stdexcept>

namespace wb {

class PolicyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace wb
