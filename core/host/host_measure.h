// SPDX-License-Identifier: Apache-2.0
//
// `wakesim topology import --sysfs --measure`: runs the host benchmarks on
// the machine just imported from sysfs and writes what they measured into
// it, the costs with "measured on ..." sources and the cpuidle states with
// whether each polls. Linux only; the machine must be the live host.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/cpuidle_states.h"
#include "host/measured_costs.h"
#include "io/machine_import.h"
#include "topology/machine.h"

namespace wb::host {

struct MeasureOptions {
    std::int64_t budget_ns = 30'000'000'000;           // all benchmarks together
    std::function<void(const std::string&)> progress;  // one line per step, may be empty
    // Asked between steps; true stops the measurement (measure_host throws
    // MeasureCancelled). May be empty.
    std::function<bool()> cancelled;
};

struct MeasureCancelled : std::runtime_error {
    MeasureCancelled() : std::runtime_error("the measurement was cancelled") {}
};

struct HostMeasurement {
    HostFigures figures;
    CpuidleInfo cpuidle;
    std::vector<std::string> notes;  // what could not be measured, in words
};

// Runs every benchmark the machine's distances allow. `machine` is the
// imported host: its CPU i is the i-th online kernel CPU. Throws
// std::runtime_error when a benchmark cannot run (pinning refused ...).
HostMeasurement measure_host(const Machine& machine, const MeasureOptions& options);

// Writes the measurement into `machine`: the mapped costs and the enabled
// idle states (with `polls`). Returns the notes of the measurement and the
// mapping, one sentence each, and a line per parameter left at its value.
std::vector<std::string> apply_host_measurement(Machine& machine, const HostMeasurement& measurement);

// Both steps on a fresh sysfs import of the live host: the importer's
// warning that the costs are the defaults is replaced by the notes.
void measure_imported_host(ImportResult& imported, const MeasureOptions& options);

}  // namespace wb::host
