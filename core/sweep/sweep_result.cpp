// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_result.h"

#include "io/input_error.h"

namespace wb {

SweepResult::SweepResult(const std::string& path)
{
    read_sweep_result(
        path,
        [&](const SweepResultHead& head) {
            head_ = head;
            grid_ = std::make_unique<SweepGrid>(head_.spec);
        },
        [&](PointResult r) { points_.push_back(std::move(r)); });
    by_index_.assign(grid_->size(), nullptr);
    for (const PointResult& r : points_) {
        if (by_index_[r.index])
            throw InputError(Diagnostic{path, 0, 0, "/points", "point " + std::to_string(r.index) +
                                                                  " is given twice; expected each point once"});
        by_index_[r.index] = &r;
    }
}

}  // namespace wb
