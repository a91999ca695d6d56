// SPDX-License-Identifier: Apache-2.0
//
// The text `wakesim trace replay` prints.
#include <cstdio>
#include <string>

#include "trace/report_text.h"
#include "trace/trace_replay.h"

namespace wb {

namespace {

using report_text::line;
using report_text::ull;

double pct(std::uint64_t part, std::uint64_t whole)
{
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string by_path(const PathCounts& counts)
{
    std::string out;
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i]) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%s %llu", out.empty() ? "" : ", ",
                          std::string(wake_path_name(static_cast<WakePath>(i))).c_str(), ull(counts[i]));
            out += buf;
        }
    return out.empty() ? "none" : out;
}

void figures_row(std::string& out, const char* label, const ReplayFigures& a, const ReplayFigures& b,
                 std::uint64_t ReplayFigures::*field)
{
    line(out, "    %-26s %6.2f%% %6llu    %6.2f%% %6llu\n", label, pct(a.*field, a.wakeups), ull(a.*field),
         pct(b.*field, b.wakeups), ull(b.*field));
}

}  // namespace

std::string format_replay(const ReplayResult& r, const ReplayOptions& options)
{
    std::string out;
    if (r.cancelled)
        out += "cancelled           the figures cover the events before the replay was stopped\n";
    line(out, "wakeups             %llu went through select_task_rq(); %llu replayed", ull(r.wakeups_selected),
         ull(r.replayed));
    std::string skipped;
    const auto skip = [&](std::uint64_t n, const char* what) {
        if (n)
            skipped += (skipped.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    skip(r.skipped_pinned, "per-CPU kthreads (one allowed CPU)");
    skip(r.skipped_no_outcome, "without a sched_wakeup");
    skip(r.skipped_unknown, "with prev or the waker's CPU unknown");
    if (!skipped.empty())
        out += "; not replayed: " + skipped;
    out += "\n";
    line(out, "also                %llu wakeups of tasks still queued (no selection); %llu forks (slow path, not "
              "replayed)\n",
         ull(r.not_selected), ull(r.forks));
    if (r.times)
        line(out, "wf_sync             inferred for %llu of %llu (the waker blocked within %lld us of its "
                  "sched_waking)\n",
             ull(r.sync_inferred), ull(r.replayed), static_cast<long long>(options.sync_window_ns / 1000));
    else
        out += "wf_sync             not inferred: the stamps are not times; PELT signals are empty too\n";
    out += "kernel placed       ";
    for (std::size_t i = 0; i < r.kernel_placed.size(); ++i)
        line(out, "%s%s %.1f%%", i ? ", " : "", std::string(kPlacedAtNames[i]).c_str(),
             pct(r.kernel_placed[i], r.replayed));
    out += "\n";

    for (std::size_t k = 0; k < r.policies.size(); ++k) {
        const PolicyReplay& p = r.policies[k];
        const ReplayFigures& a = p.sync_inferred;
        const ReplayFigures& b = p.no_sync;
        line(out, "\n%s%s\n  against the kernel           sync inferred        no sync\n", p.spec.c_str(),
             k == 0 ? " (the reference)" : "");
        figures_row(out, "same cpu", a, b, &ReplayFigures::same_cpu);
        figures_row(out, "same distance from waker", a, b, &ReplayFigures::same_class);
        figures_row(out, "same placement class", a, b, &ReplayFigures::same_placed);
        line(out, "    model path               %s\n", by_path(a.by_path).c_str());
        line(out, "    other cpu than kernel's  %s\n", by_path(a.differ_by_path).c_str());
        if (a.differ_kernel_kept_prev)
            line(out, "      the kernel kept prev   %llu (%.2f%% of wakeups)%s\n", ull(a.differ_kernel_kept_prev),
                 pct(a.differ_kernel_kept_prev, a.wakeups),
                 k == 0 ? ", as a task woken in place (ttwu_runnable() after DELAY_DEQUEUE) also looks" : "");
        if (k > 0) {
            line(out, "  against %s\n", r.policies[0].spec.c_str());
            figures_row(out, "other cpu", a, b, &ReplayFigures::differ_from_baseline);
            line(out, "    by this policy's path    %s\n", by_path(a.differ_from_baseline_by_path).c_str());
        }
    }

    if (!r.policies.empty() && !r.policies[0].sync_inferred.first.empty()) {
        const PolicyReplay& ref = r.policies[0];
        line(out, "\nfirst %zu of %s's choices that are not the kernel's (sync inferred)\n",
             ref.sync_inferred.first.size(), ref.spec.c_str());
        line(out, "  %-8s %6s  %-16s %-4s  %5s %5s %7s %6s  %s\n", "line", "pid", "comm", "sync", "waker", "prev",
             "kernel", "model", "path");
        for (const ReplayDifference& d : ref.sync_inferred.first)
            line(out, "  %-8d %6d  %-16s %-4s  %5d %5d %7d %6d  %s\n", d.line, d.pid, d.comm.c_str(),
                 d.sync ? "yes" : "no", d.waker_cpu, d.prev_cpu, d.kernel_cpu, d.model_cpu,
                 std::string(wake_path_name(d.path)).c_str());
    }

    out += "\nnot rebuilt         PELT is estimated from the traced schedule at full capacity and frequency, nice "
           "0 weights, no cgroups, empty at the trace's start (docs/traces.md); nr_idle_scan is refreshed per LLC "
           "balance interval, not at the kernel's balances; WF_SYNC is inferred; the race between a wakeup and "
           "other CPUs' events inside the same microsecond is not seen.\n";
    if (r.anomalies.lost_markers)
        line(out, "lost events         %llu markers: the state after each is partly unknown\n",
             ull(r.anomalies.lost_markers));
    return out;
}

}  // namespace wb
