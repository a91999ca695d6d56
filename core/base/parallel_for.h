// SPDX-License-Identifier: Apache-2.0
//
// body(0) .. body(n - 1) on `jobs` threads (the caller's among them), each
// taking the next index as it becomes free. The first exception any body
// throws stops the handing out and is rethrown once every thread is done;
// so does `stop`, checked before each index, without an exception.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace wb {

void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& body,
                  const std::atomic<bool>* stop = nullptr);

}  // namespace wb
