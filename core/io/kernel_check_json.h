// SPDX-License-Identifier: Apache-2.0
//
// `wakesim kernel run --json`: everything the text shows. The kernel, QEMU
// (its command line too) and the model's switches; per boot its timing,
// trace size, features, domain differences, placement figures and the
// replay's agreement; per model run its placement figures; and each
// placement figure's mean, min and max over boots and over model runs.
#pragma once

#include <string>

namespace wb {

struct KernelCheckResult;

std::string kernel_check_to_json(const KernelCheckResult& result);

}  // namespace wb
