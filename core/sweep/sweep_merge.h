// SPDX-License-Identifier: Apache-2.0
//
// `wakesim sweep merge`: the results of a sweep's shards put together into
// the result one unsharded run writes, byte for byte. The inputs must be of
// one sweep (one fingerprint), each shard at most once, and between them
// hold every point exactly once. Points are read one at a time and spooled
// to OUT.merging, so memory stays flat in the number of points.
#pragma once

#include <string>
#include <vector>

namespace wb {

// Throws InputError naming the file at fault, or what is missing.
void merge_sweep_results(const std::vector<std::string>& inputs, const std::string& out);

}  // namespace wb
