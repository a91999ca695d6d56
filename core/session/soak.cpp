// SPDX-License-Identifier: Apache-2.0
#include "session/soak.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include "engine/simulator.h"
#include "host/process_memory.h"
#include "io/input_error.h"
#include "io/topology_library.h"
#include "policies/registry.h"
#include "sched/placement_policy.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

std::vector<std::string> shipped_machines()
{
    std::vector<std::string> out;
    for (const ShippedTopology& t : list_shipped_topologies())
        out.push_back(t.name);
    return out;
}

// Every workload of the catalog by its name alone (its defaults); those
// that need a parameter (json's file) are skipped, with why.
std::vector<std::string> default_workloads(std::vector<std::string>& skipped)
{
    std::vector<std::string> out;
    for (const WorkloadInfo& w : workload_catalog()) {
        try {
            make_workload(w.name);
            out.push_back(w.name);
        } catch (const InputError& e) {
            skipped.push_back(w.name + ": " + e.what());
        }
    }
    return out;
}

std::vector<std::string> catalog_policies()
{
    std::vector<std::string> out;
    for (const PolicyInfo* p : policy_catalog())
        out.emplace_back(p->name);
    return out;
}

// The run that breaks the same way: the leg is deterministic from its seed.
std::string reproducer(const SoakLeg& leg)
{
    std::string out = "wakesim";
    for (const std::string& plugin : policy_plugins({leg.policy}))
        out += " --plugin " + plugin;
    return out + " run --topology " + leg.machine + " --workload " + leg.workload + " --policy " + leg.policy +
           " --seed " + std::to_string(leg.seed) + " --check";
}

// One leg: about `budget` events, in slices of simulated time sized from
// the rate so far to at most half of what is left (and at most
// kSliceEvents), so that the last slice overshoots the budget by little.
void run_leg(Simulator& sim, std::uint64_t budget)
{
    constexpr double kSliceEvents = 50'000;
    Time slice = Time::us(10);
    while (sim.metrics().events < budget) {
        const std::uint64_t before = sim.metrics().events;
        if (!sim.run_until(sim.now() + slice))
            return;
        const double done = static_cast<double>(sim.metrics().events - before);
        const double left = static_cast<double>(budget) - static_cast<double>(sim.metrics().events);
        const double want = std::clamp(left / 2, 100.0, kSliceEvents);
        // From the rate of this slice, within a factor of 4 a step.
        const double scale = done > 0 ? std::clamp(want / done, 0.25, 4.0) : 4.0;
        slice = std::max(Time::ns(static_cast<std::int64_t>(static_cast<double>(slice.ns()) * scale)), Time::ns(100));
    }
}

}  // namespace

SoakResult run_soak(const SoakOptions& options, const SoakProgress& progress)
{
    SoakResult r;
    const auto start = std::chrono::steady_clock::now();
    r.resident_start = host::resident_bytes();
    const std::vector<std::string> machines = options.machines.empty() ? shipped_machines() : options.machines;
    const std::vector<std::string> workloads =
        options.workloads.empty() ? default_workloads(r.skipped) : options.workloads;
    const std::vector<std::string> policies = options.policies.empty() ? catalog_policies() : options.policies;
    if (machines.empty() || workloads.empty() || policies.empty())
        throw std::invalid_argument("soak: nothing to run");
    // Each named once up front, so that a bad name fails before any leg.
    for (const std::string& m : options.machines)
        resolve_machine(m);
    for (const std::string& w : options.workloads)
        make_workload(w);
    for (const std::string& p : options.policies)
        make_policy(p, "--policy");

    for (int i = 0; r.events < options.events; ++i) {
        SoakLeg leg;
        leg.index = i;
        // Every machine in turn; the workload moves on after each round of
        // machines; the policy every leg, and one further each round of
        // machines and each round of workloads, so that every machine meets
        // every workload under every policy in turn (whatever the counts).
        const auto m = machines.size();
        const auto mw = m * workloads.size();
        const auto k = static_cast<std::size_t>(i);
        leg.machine = machines[k % m];
        leg.workload = workloads[(k / m) % workloads.size()];
        leg.policy = policies[(k + k / m + k / mw) % policies.size()];
        leg.seed = static_cast<std::uint64_t>(i) + 1;
        const std::uint64_t budget = std::min(options.leg_events, options.events - r.events);
        std::optional<std::string> broke;
        try {
            const std::unique_ptr<PlacementPolicy> policy = make_policy(leg.policy, "--policy");
            SimOptions o;
            o.seed = leg.seed;
            o.check = true;
            o.policy = policy.get();
            Simulator sim(resolve_machine(leg.machine), make_workload(leg.workload), o);
            try {
                run_leg(sim, budget);
            } catch (const InputError&) {
                throw;  // the workload checks its parameters against the machine as it starts
            } catch (const std::exception& e) {
                broke = e.what();
            }
            leg.events = sim.metrics().events;
            leg.finished = !broke && sim.finished();
        } catch (const InputError& e) {
            // This workload's defaults do not fit this machine (a pinned CPU
            // it lacks): nothing ran, and the next leg takes another.
            r.skipped.push_back(leg.workload + " on " + leg.machine + ": " + e.what());
            if (r.legs.empty() && r.skipped.size() > machines.size() * workloads.size())
                throw;  // nothing runs at all
            continue;
        }
        leg.resident_bytes = host::resident_bytes();
        r.events += std::max<std::uint64_t>(leg.events, 1);  // a leg that broke at once still moves the soak on
        if (broke)
            r.violations.push_back({leg, r.events, *broke, reproducer(leg)});
        r.legs.push_back(leg);
        if (progress)
            progress(leg, r.events);
    }

    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.resident_final = host::resident_bytes();
    r.resident_peak = host::peak_resident_bytes();
    const std::size_t half = r.legs.size() / 2;
    for (std::size_t i = 0; i < r.legs.size(); ++i)
        (i < half ? r.first_half_peak : r.second_half_peak) =
            std::max(i < half ? r.first_half_peak : r.second_half_peak, r.legs[i].resident_bytes);
    r.memory_judged = r.legs.size() >= 2;
    r.memory_flat = !r.memory_judged || r.second_half_peak <= r.first_half_peak + kSoakMemorySlackBytes;
    return r;
}

std::string format_soak(const SoakResult& r, const SoakOptions& options)
{
    auto mb = [](std::uint64_t b) { return static_cast<double>(b) / (1 << 20); };
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "soak                %llu events in %zu legs of at most %llu, invariants checked after every event\n",
                  static_cast<unsigned long long>(r.events), r.legs.size(),
                  static_cast<unsigned long long>(options.leg_events));
    out += buf;
    std::snprintf(buf, sizeof buf, "wall time           %.1f s (%.2f M events/s)\n", r.wall_seconds,
                  r.wall_seconds > 0 ? static_cast<double>(r.events) / r.wall_seconds / 1e6 : 0.0);
    out += buf;
    std::snprintf(buf, sizeof buf,
                  "memory              resident %.1f MB at the start, %.1f MB at the end, peak %.1f MB\n",
                  mb(r.resident_start), mb(r.resident_final), mb(r.resident_peak));
    out += buf;
    if (r.memory_judged)
        std::snprintf(buf, sizeof buf,
                      "                    %s: the second half's legs ended at most at %.1f MB, the first half's at "
                      "%.1f MB (+%.0f MB allowed)\n",
                      r.memory_flat ? "flat" : "GROWING", mb(r.second_half_peak), mb(r.first_half_peak),
                      mb(kSoakMemorySlackBytes));
    else
        std::snprintf(buf, sizeof buf, "                    one leg: too few to judge growth\n");
    out += buf;
    if (r.violations.empty()) {
        out += "violations          none\n";
    } else {
        std::snprintf(buf, sizeof buf, "violations          %zu\n", r.violations.size());
        out += buf;
        for (const SoakViolation& v : r.violations) {
            std::snprintf(buf, sizeof buf, "  leg %d (%s, %s, %s, seed %llu), event %llu of the soak: ", v.leg.index,
                          v.leg.machine.c_str(), v.leg.workload.c_str(), v.leg.policy.c_str(),
                          static_cast<unsigned long long>(v.leg.seed), static_cast<unsigned long long>(v.event));
            out += buf + v.what + "\n    reproduce: " + v.reproducer + "\n";
        }
    }
    for (const std::string& s : r.skipped)
        out += "skipped             " + s + "\n";
    return out;
}

}  // namespace wb
