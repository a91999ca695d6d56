// SPDX-License-Identifier: Apache-2.0
//
// ModelPersonality: the model set up to run like a given kernel, as far as
// its switches go, and what still differs.
//
// The switches come from the kernel itself: its
// /sys/kernel/debug/sched/features line after --features was applied. Each
// model feature (sched/features.def) the kernel lists takes the kernel's
// state; each one the kernel does not have is switched off, since that
// kernel does not do it (Debian's 6.12 lacks NI_RATE; its 6.1 lacks the
// EEVDF features and DELAY_DEQUEUE). What no switch can give, read in the
// kernels' sources (docs/model.md, "Debian 12's kernels against the model"),
// is listed as notes to print beside each table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sched/features.h"

namespace wb {

struct ModelPersonality {
    FeatureSet features;                 // the model's switches for this kernel
    std::vector<std::string> absent;     // model features the kernel does not have, switched off: "NO_NI_RATE"
    std::vector<std::string> as_kernel;  // other changes from the defaults, as the kernel has them: "NO_WA_BIAS"
    std::vector<std::string> notes;      // what differs and cannot be switched
    bool cfs = false;                    // the kernel schedules with CFS, not EEVDF
};

// `features_line` is the kernel's features file ("PLACE_LAG NO_NEXT_BUDDY
// ..."); `release` its `uname -r` ("6.12.118+deb12-amd64").
ModelPersonality model_personality(std::string_view features_line, std::string_view release);

}  // namespace wb
