// SPDX-License-Identifier: Apache-2.0
//
// `wakesim sweep`: a grid of runs from a sweep file (docs/sweep-format.md),
// run here (resumable, with progress), one shard of it, planned, merged
// from its shards, or handed to Slurm or Kubernetes as job files.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int sweep_command(const std::vector<std::string>& args);

}  // namespace wb::cli
