// SPDX-License-Identifier: Apache-2.0
//
// `wakesim kernel run`: boot a real kernel under QEMU on a machine's
// topology, run the workload's real program in it, trace every wakeup and
// print the kernel's placement beside the model's (core/kernel/).
// `wakesim kernel qemu-command`: the QEMU command line a machine gets, or
// why QEMU cannot give it, without booting anything.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int kernel_command(const std::vector<std::string>& args);

}  // namespace wb::cli
