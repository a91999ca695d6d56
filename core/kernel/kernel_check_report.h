// SPDX-License-Identifier: Apache-2.0
//
// The text `wakesim kernel run` prints: the kernel, QEMU and the switches
// the model ran with; the guest's sched domains against the model's (every
// difference first); the kernel's placement beside the model's (with the
// spread over boots when there were several) and the decision replay's
// agreement; then what differs and no switch can change.
#pragma once

#include <string>

namespace wb {

struct KernelCheckResult;

std::string format_kernel_check(const KernelCheckResult& result);

// Only the domains section, for a user who wants to see them first.
std::string format_domain_comparison(const KernelCheckResult& result);

}  // namespace wb
