// SPDX-License-Identifier: Apache-2.0
#include "host/cache_line_pingpong.h"

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/host_clock.h"

namespace wb::host {

namespace {

// The line both threads write, alone in its 64 bytes (128 on POWER would
// need more; a false-sharing neighbour would only add to the figure).
struct alignas(128) Line {
    std::atomic<std::uint64_t> turn{0};
};

void spin_until(const std::atomic<std::uint64_t>& a, std::uint64_t v)
{
    while (a.load(std::memory_order_acquire) != v) {
    }
}

}  // namespace

Sampled measure_cache_line_round_trip(int cpu_a, int cpu_b, std::int64_t budget_ns)
{
    AffinityGuard keep;
    if (!pin_this_thread(cpu_a))
        throw std::runtime_error("cannot pin to CPU " + std::to_string(cpu_a));
    Line line;
    // The peer answers every odd value with the next even one; a batch tells
    // it how far to go through `target`, and ~0 stops it.
    std::atomic<std::uint64_t> target{0};
    bool pinned = true;
    std::thread peer([&] {
        pinned = pin_this_thread(cpu_b);
        std::uint64_t v = 1;
        for (;;) {
            std::uint64_t t;
            while ((t = target.load(std::memory_order_acquire)) < v) {
            }
            if (t == ~std::uint64_t{0})
                return;
            for (; v <= t; v += 2) {
                spin_until(line.turn, v);
                line.turn.store(v + 1, std::memory_order_release);
            }
        }
    });
    std::uint64_t next = 1;  // the next odd value this side writes
    Sampled s = sample_batches(
        [&](std::uint64_t n) {
            const std::uint64_t last = next + 2 * (n - 1);
            target.store(last, std::memory_order_release);
            const std::int64_t t0 = now_ns();
            for (std::uint64_t i = 0; i < n; ++i, next += 2) {
                line.turn.store(next, std::memory_order_release);
                spin_until(line.turn, next + 1);
            }
            return now_ns() - t0;
        },
        budget_ns);
    target.store(~std::uint64_t{0}, std::memory_order_release);
    peer.join();
    if (!pinned)
        throw std::runtime_error("cannot pin the peer thread to CPU " + std::to_string(cpu_b));
    return s;
}

}  // namespace wb::host
