// SPDX-License-Identifier: Apache-2.0
#include "base/parallel_for.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace wb {

void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& body,
                  const std::atomic<bool>* stop)
{
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_lock;
    auto worker = [&] {
        while (!(stop && stop->load())) {
            const std::size_t i = next.fetch_add(1);
            if (i >= n)
                return;
            try {
                body(i);
            } catch (...) {
                std::lock_guard<std::mutex> hold(error_lock);
                if (!error)
                    error = std::current_exception();
                next = n;
            }
        }
    };
    std::vector<std::thread> pool;
    const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(std::max(1, jobs)), n);
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
}

}  // namespace wb
