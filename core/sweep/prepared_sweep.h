// SPDX-License-Identifier: Apache-2.0
//
// A sweep file made ready to run, plan or hand to a cluster: the sweep, its
// grid, its machines resolved, and each point's estimated cost (the pilots
// run here). What `wakesim sweep` and Results > Sweep start from.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sweep/point_cost.h"
#include "sweep/sweep_grid.h"
#include "topology/machine.h"

namespace wb {

class PreparedSweep {
public:
    // Throws InputError for a bad sweep file or a configuration no run can
    // be built from. The pilots run on `jobs` threads.
    PreparedSweep(const std::string& file, int jobs);
    PreparedSweep(const PreparedSweep&) = delete;
    PreparedSweep& operator=(const PreparedSweep&) = delete;

    const std::string& file() const { return file_; }
    const SweepSpec& spec() const { return spec_; }
    const SweepGrid& grid() const { return *grid_; }
    const std::vector<Machine>& machines() const { return machines_; }
    const SweepCosts& costs() const { return *costs_; }
    // The estimated CPU seconds of `points` on this host.
    double cpu_seconds(const std::vector<std::size_t>& points) const;

private:
    std::string file_;
    SweepSpec spec_;
    std::unique_ptr<SweepGrid> grid_;
    std::vector<Machine> machines_;
    std::unique_ptr<SweepCosts> costs_;
};

}  // namespace wb
