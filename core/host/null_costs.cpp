// SPDX-License-Identifier: Apache-2.0
#include "host/null_costs.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "host/host_clock.h"

namespace wb::host {

namespace {

void pin_or_throw(int cpu)
{
    if (!pin_this_thread(cpu))
        throw std::runtime_error("cannot pin to CPU " + std::to_string(cpu) + ": " + std::strerror(errno));
}

}  // namespace

Sampled measure_null_syscall(int cpu, std::int64_t budget_ns)
{
    AffinityGuard keep;
    pin_or_throw(cpu);
    return sample_batches(
        [](std::uint64_t n) {
            const std::int64_t t0 = now_ns();
            for (std::uint64_t i = 0; i < n; ++i)
                syscall(SYS_getppid);  // the raw call: glibc caches nothing here, but be explicit
            return now_ns() - t0;
        },
        budget_ns);
}

Sampled measure_pipe_write_read(int cpu, std::int64_t budget_ns)
{
    AffinityGuard keep;
    pin_or_throw(cpu);
    int p[2];
    if (pipe2(p, O_NONBLOCK) != 0)
        throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    const Sampled s = sample_batches(
        [&](std::uint64_t n) {
            int v = 1;
            const std::int64_t t0 = now_ns();
            for (std::uint64_t i = 0; i < n; ++i) {
                if (write(p[1], &v, sizeof v) != sizeof v || read(p[0], &v, sizeof v) != sizeof v)
                    throw std::runtime_error(std::string("pipe write/read: ") + std::strerror(errno));
            }
            return now_ns() - t0;
        },
        budget_ns);
    close(p[0]);
    close(p[1]);
    return s;
}

}  // namespace wb::host
