// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_check_report.h"

#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "kernel/kernel_check.h"
#include "kernel/placement_figures.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

constexpr std::size_t kDifferencesListed = 20;

std::string format(const char* fmt, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

std::string accel_name(Accel a)
{
    return a == Accel::Kvm ? "KVM" : "TCG (software emulation)";
}

// "38.2 s (up 7.9 s, workload 6.1 s, trace sent 21.0 s)"
std::string boot_timing(const BootResult& b)
{
    std::string out = format("%.1f s", b.total_s);
    if (b.up_s >= 0 && b.workload_start_s >= 0 && b.workload_end_s >= 0)
        out += format(" (boot to /init %.1f s, workload %.1f s, sending back %.1f s)", b.up_s,
                      b.workload_end_s - b.workload_start_s, b.total_s - b.workload_end_s);
    return out;
}

// A figure over runs: "12.3%" for one, "12.3% [11.9-12.8]" for several
// whose lowest and highest differ as printed.
std::string cell(const std::vector<double>& values, const char* fmt, const char* unit)
{
    const Spread s = spread_of(values);
    std::string out = format(fmt, s.mean) + unit;
    const std::string lo = format(fmt, s.min), hi = format(fmt, s.max);
    if (s.n > 1 && lo != hi)
        out += " [" + lo + "-" + hi + "]";
    return out;
}

std::string row(const std::string& label, const std::string& kernel, const std::string& model)
{
    return format("  %-36s %-24s %s\n", label.c_str(), kernel.c_str(), model.c_str());
}

std::string flag_list(unsigned flags)
{
    std::string out;
    for (std::string_view name : sd_flag_names(flags))
        out += (out.empty() ? "" : " ") + std::string(name.substr(3));
    return out;
}

}  // namespace

std::string format_domain_comparison(const KernelCheckResult& r)
{
    const SchedDomains model = SchedDomains::build(r.machine);
    std::string out;
    const KernelBoot& first = r.boots.front();
    std::set<std::string> seen;
    std::vector<std::string> all;
    for (const KernelBoot& b : r.boots)
        for (const DomainDifference& d : b.domain_differences) {
            std::string line = d.cpu == kNoCpu ? d.what
                               : d.level < 0   ? format("cpu%d %s", d.cpu, d.what.c_str())
                                               : format("cpu%d domain%d: %s", d.cpu, d.level, d.what.c_str());
            if (seen.insert(line).second)
                all.push_back(line);
        }
    if (all.empty())
        out += format("sched domains: the guest's are the model's (%d CPUs, by span and by flag meaning%s)\n",
                      model.nr_cpus(), first.domains.from_debugfs ? "" : "; spans only: no debugfs domains");
    else
        out += format(
            "sched domains: %zu differences between the guest's and the model's (read them before the "
            "placement: the model's figures are for its domains)\n",
            all.size());
    for (std::size_t i = 0; i < all.size() && i < kDifferencesListed; ++i)
        out += "  " + all[i] + "\n";
    if (all.size() > kDifferencesListed)
        out += format("  ... and %zu more\n", all.size() - kDifferencesListed);

    // The model's levels, each with its spans and flags.
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::string>> spans;
    std::map<std::string, unsigned> flags;
    std::set<int> listed;
    for (CpuId c = 0; c < model.nr_cpus(); ++c)
        for (int id : model.domains_of(c)) {
            if (!listed.insert(id).second)
                continue;
            const SchedDomain& d = model.domain(id);
            if (!spans.count(d.name))
                order.push_back(d.name);
            spans[d.name].push_back(d.span.to_cpulist());
            flags[d.name] = d.flags;
        }
    out += format("  %-6s %-28s %s\n", "level", all.empty() ? "spans (guest = model)" : "spans (model)", "flags");
    for (const std::string& name : order) {
        std::string list;
        for (const std::string& s : spans[name])
            list += (list.empty() ? "" : " ") + s;
        out += format("  %-6s %-28s %s\n", name.c_str(), list.c_str(), flag_list(flags[name]).c_str());
    }
    return out;
}

std::string format_kernel_check(const KernelCheckResult& r)
{
    const KernelBoot& first = r.boots.front();
    std::string out;
    out += format("kernel check        %s (%d CPUs), %s, %zu boot%s\n", r.machine_spec.c_str(), r.machine.nr_cpus(),
                  r.workload_spec.c_str(), r.boots.size(), r.boots.size() == 1 ? "" : "s");
    out += "kernel              " + first.release + ": " + r.kernel_description + "\n";
    out += "qemu                -smp " + r.topology.smp();
    if (r.topology.nodes() > 1)
        out += format(", %d NUMA nodes", r.topology.nodes());
    out += ", " + accel_name(first.boot.accel);
    if (!first.boot.accel_note.empty())
        out += " (" + first.boot.accel_note + ")";
    if (r.topology.renumbered())
        out += "\ncpus                renumbered as QEMU numbers them (socket, die, core, thread), machine->guest: " +
               qemu_numbering(r.topology) + "; the figures use the guest's numbers";
    out += "\nguest topology      " + first.guest_machine + "\n";
    out += "kernel's features   " + first.features + "\n";
    const auto join = [](const std::vector<std::string>& words) {
        std::string list;
        for (const std::string& w : words)
            list += (list.empty() ? "" : ",") + w;
        return list;
    };
    std::string switches = "baseline";
    if (!r.personality.absent.empty())
        switches += ", " + join(r.personality.absent) + " (not in this kernel)";
    if (!r.personality.as_kernel.empty())
        switches += ", " + join(r.personality.as_kernel) + " (as the kernel runs)";
    if (r.personality.absent.empty() && r.personality.as_kernel.empty())
        switches += ", the default features";
    out += "model               " + switches +
           (r.model.size() == 1 ? format("; seed %llu\n", static_cast<unsigned long long>(r.model.front().seed))
                                : format("; seeds %llu-%llu\n", static_cast<unsigned long long>(r.model.front().seed),
                                         static_cast<unsigned long long>(r.model.back().seed)));
    for (std::size_t i = 0; i < r.boots.size(); ++i) {
        const KernelBoot& b = r.boots[i];
        // A boot that lost events stopped the check before this report.
        out += format("boot %-14zu %s; %llu trace events, none lost\n", i + 1, boot_timing(b.boot).c_str(),
                      static_cast<unsigned long long>(b.trace_events));
    }
    out += "\n" + format_domain_comparison(r) + "\n";

    std::vector<PlacementFigures> kernel, model;
    for (const KernelBoot& b : r.boots)
        kernel.push_back(placement_figures(b.kernel));
    for (const ModelRun& m : r.model)
        model.push_back(placement_figures(m.metrics));
    const auto pick = [](const std::vector<PlacementFigures>& runs,
                         const std::function<double(const PlacementFigures&)>& f) {
        std::vector<double> values;
        for (const PlacementFigures& p : runs)
            values.push_back(f(p));
        return values;
    };
    const auto line = [&](const std::string& label, const std::function<double(const PlacementFigures&)>& f,
                          const char* fmt, const char* unit) {
        out += row(label, cell(pick(kernel, f), fmt, unit), cell(pick(model, f), fmt, unit));
    };
    out += row("placement of the workload's wakeups", "kernel " + first.release.substr(0, first.release.find('+')),
               "model");
    line(
        "wakeups", [](const PlacementFigures& p) { return p.wakeups; }, "%.0f", "");
    line(
        "chosen = prev", [](const PlacementFigures& p) { return p.chosen_prev_pct; }, "%.1f", "%");
    line(
        "chosen = waker's CPU", [](const PlacementFigures& p) { return p.chosen_waker_pct; }, "%.1f", "%");
    for (std::size_t c = 1; c < kDistanceClassCount; ++c) {
        bool any = false;
        for (const auto* runs : {&kernel, &model})
            for (const PlacementFigures& p : *runs)
                any = any || p.from_waker_pct[c] > 0;
        if (any)
            line(
                "from the waker: " + std::string(kDistanceClassNames[c]),
                [c](const PlacementFigures& p) { return p.from_waker_pct[c]; }, "%.1f", "%");
    }
    if (r.machine.nr_nodes() > 1)
        line(
            "cross-node wakeups", [](const PlacementFigures& p) { return p.cross_node_pct; }, "%.1f", "%");
    line(
        "migrations", [](const PlacementFigures& p) { return p.migrations; }, "%.0f", "");
    if (r.machine.nr_nodes() > 1)
        line(
            "cross-node migrations", [](const PlacementFigures& p) { return p.migrations_cross_node; }, "%.0f", "");

    std::vector<double> same_cpu, same_cpu_no_sync, same_class, kept_prev, replayed;
    for (const KernelBoot& b : r.boots) {
        const auto pct = [](std::uint64_t part, std::uint64_t whole) {
            return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
        };
        const ReplayFigures& s = b.replay.sync_inferred;
        same_cpu.push_back(pct(s.same_cpu, s.wakeups));
        same_class.push_back(pct(s.same_class, s.wakeups));
        kept_prev.push_back(pct(s.differ_kernel_kept_prev, s.wakeups));
        same_cpu_no_sync.push_back(pct(b.replay.no_sync.same_cpu, b.replay.no_sync.wakeups));
        replayed.push_back(static_cast<double>(b.replayed));
    }
    out += format("\ndecision replay: the model's baseline asked at each of the kernel's wakeups (%s replayed)\n",
                  cell(replayed, "%.0f", "").c_str());
    out += row("the kernel's CPU", cell(same_cpu, "%.2f", "%"),
               "(no WF_SYNC inferred: " + cell(same_cpu_no_sync, "%.2f", "%") + ")");
    out += row("the kernel's distance class", cell(same_class, "%.2f", "%"), "");
    out += row("elsewhere while the kernel kept prev", cell(kept_prev, "%.2f", "%"),
               "(as a wakeup done in place looks: docs/traces.md)");

    out += "\nwhat differs and no switch changes:\n";
    for (const std::string& note : r.personality.notes)
        out += "  - " + note + "\n";
    if (first.boot.accel == Accel::Tcg)
        out += "  - timing inside the guest means nothing under TCG; these are placement figures only.\n";
    return out;
}

}  // namespace wb
