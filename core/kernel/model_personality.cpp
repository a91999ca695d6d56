// SPDX-License-Identifier: Apache-2.0
#include "kernel/model_personality.h"

#include <map>
#include <sstream>

namespace wb {

namespace {

// What Debian 12's kernels do otherwise than the model, read in their
// sources (linux-source-6.12 6.12.118-1~deb12u1, linux-source-6.1
// 6.1.192-3) against wakeup-path.md; docs/model.md gives the detail.
const char* const kCfsNote =
    "CFS, not EEVDF: a wakee preempts the running task when its vruntime is more than wakeup_granularity "
    "(1 ms x (1 + log2 of the CPUs, at most 8)) behind, and a waking sleeper is placed up to half of "
    "sched_latency (6 ms, scaled alike) before min_vruntime (GENTLE_FAIR_SLEEPERS). The model keeps EEVDF's "
    "eligibility and deadlines with the switches above off; whether a wakee stacked on a busy CPU runs at once, "
    "and so which CPUs the next wakeups find idle, follows another rule. No switch gives CFS.";
const char* const k612Note =
    "6.12: the wakeup path (select_task_rq_fair, wake_affine, select_idle_sibling, the LLC scan) decides as the "
    "model's on a symmetric machine, the stable updates included (the delayed-task discount in wake_affine_idle, "
    "NI_RANDOM); RUN_TO_PARITY protects the whole slice where the model protects up to the shortest queued slice, "
    "the same for tasks of one slice, as the guest programs' are.";
const char* const k61Note =
    "6.1: the wakeup path decides as the model's on a symmetric machine once DELAY_DEQUEUE is off (no task is "
    "ever woken in place there); its stable updates carry NI_RANDOM.";
const char* const kUnreadNote =
    "this kernel's sources were not compared with the model: only its features line sets the switches.";

}  // namespace

ModelPersonality model_personality(std::string_view features_line, std::string_view release)
{
    ModelPersonality p;
    std::map<std::string, bool> kernel;  // feature -> on
    std::istringstream words{std::string(features_line)};
    for (std::string w; words >> w;) {
        if (w.starts_with("NO_"))
            kernel[w.substr(3)] = false;
        else
            kernel[w] = true;
    }
    p.cfs = kernel.count("GENTLE_FAIR_SLEEPERS") != 0 || kernel.count("START_DEBIT") != 0;
    for (std::size_t i = 0; i < kFeatCount; ++i) {
        const FeatInfo& info = kFeatInfo[i];
        const std::string name(info.name);
        const auto it = kernel.find(name);
        const bool on = it != kernel.end() && it->second;
        p.features.set(static_cast<Feat>(i), on);
        if (on == info.default_on)
            continue;
        (it == kernel.end() ? p.absent : p.as_kernel).push_back((on ? "" : "NO_") + name);
    }
    if (p.cfs)
        p.notes.push_back(kCfsNote);
    if (release.starts_with("6.12."))
        p.notes.push_back(k612Note);
    else if (release.starts_with("6.1.") || release.starts_with("6.1-"))
        p.notes.push_back(k61Note);
    else
        p.notes.push_back(kUnreadNote);
    return p;
}

}  // namespace wb
