// SPDX-License-Identifier: Apache-2.0
#include "sweep/prepared_sweep.h"

#include "io/sweep_json.h"
#include "io/topology_library.h"

namespace wb {

PreparedSweep::PreparedSweep(const std::string& file, int jobs) : file_(file), spec_(load_sweep_file(file))
{
    grid_ = std::make_unique<SweepGrid>(spec_);
    for (const std::string& m : spec_.machines)
        machines_.push_back(resolve_machine(sweep_machine_spec(m, file)));
    costs_ = std::make_unique<SweepCosts>(*grid_, machines_, jobs);
}

double PreparedSweep::cpu_seconds(const std::vector<std::size_t>& points) const
{
    double total = 0;
    for (std::size_t i : points)
        total += costs_->at(i).cpu_seconds;
    return total;
}

}  // namespace wb
