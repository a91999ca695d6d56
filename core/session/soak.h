// SPDX-License-Identifier: Apache-2.0
//
// The soak: a long run of the engine with its invariants checked after every
// event (SimOptions::check: the event's CPU's runqueue after each event,
// every runqueue and task every 4096), in legs that cycle through machines,
// workloads and policies, watching this process's memory. A leg is one run:
// one machine, one workload with its defaults, one policy, its own seed, up
// to a budget of events. A broken invariant ends its leg, is reported with
// the event it broke at and the `wakesim run ... --check` that reproduces
// it, and the soak goes on with the next leg.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb {

struct SoakOptions {
    std::uint64_t events = 100'000'000;    // in all
    std::uint64_t leg_events = 1'000'000;  // at most, per leg
    // Empty: every shipped machine; every workload of the catalog that runs
    // with its defaults; every policy of the catalog.
    std::vector<std::string> machines;
    std::vector<std::string> workloads;
    std::vector<std::string> policies;
};

struct SoakLeg {
    int index = 0;
    std::string machine, workload, policy;
    std::uint64_t seed = 1;
    std::uint64_t events = 0;
    bool finished = false;             // the workload ended before the budget
    std::uint64_t resident_bytes = 0;  // when it ended
};

struct SoakViolation {
    SoakLeg leg;
    std::uint64_t event = 0;  // of the soak, counted over the legs before
    std::string what;
    std::string reproducer;  // a wakesim command that breaks the same way
};

struct SoakResult {
    std::uint64_t events = 0;
    std::vector<SoakLeg> legs;
    std::vector<SoakViolation> violations;
    std::vector<std::string> skipped;  // "json: ..." what could not be built with its defaults, and why
    double wall_seconds = 0;
    std::uint64_t resident_start = 0, resident_final = 0, resident_peak = 0;
    // The largest resident size at the end of a leg in the first half of
    // the legs, and in the second: a leak grows the second.
    std::uint64_t first_half_peak = 0, second_half_peak = 0;
    bool memory_judged = false;  // at least two legs
    bool memory_flat = true;
};

// The slack a leg's resident size may gain over the first half's without
// counting as growth: allocator pools and the largest machine's state
// stay mapped after their leg.
inline constexpr std::uint64_t kSoakMemorySlackBytes = 16u << 20;

// Called after each leg.
using SoakProgress = std::function<void(const SoakLeg&, std::uint64_t events_so_far)>;

// Throws InputError for a machine, workload or policy that does not load.
SoakResult run_soak(const SoakOptions& options, const SoakProgress& progress = {});

// The report `wakesim soak` prints.
std::string format_soak(const SoakResult& result, const SoakOptions& options);

}  // namespace wb
