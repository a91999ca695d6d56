// SPDX-License-Identifier: Apache-2.0
//
// What a sweep's result holds, from the command line: `wakesim sweep curves`
// prints the curves Results > Sweep plots (mean and 95% interval over the
// seeds, per policy, along a swept parameter); `wakesim sweep csv` writes
// the points as the window's CSV export does.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int sweep_curves_command(const std::vector<std::string>& args);
int sweep_csv_command(const std::vector<std::string>& args);

}  // namespace wb::cli
