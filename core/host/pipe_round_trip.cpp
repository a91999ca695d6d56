// SPDX-License-Identifier: Apache-2.0
#include "host/pipe_round_trip.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/host_clock.h"

namespace wb::host {

namespace {

[[noreturn]] void fail(const std::string& what)
{
    throw std::runtime_error(what + ": " + std::strerror(errno));
}

// The second side: echo every int back until a negative one says stop.
// Only read, write and exit, so it is safe in a child forked from a
// multi-threaded process (the GUI).
int echo(int in, int out)
{
    int v = 0;
    for (;;) {
        if (read(in, &v, sizeof v) != sizeof v)
            return 1;
        if (v < 0)
            return 0;
        if (write(out, &v, sizeof v) != sizeof v)
            return 1;
    }
}

struct Pipes {
    int to_peer[2] = {-1, -1};
    int from_peer[2] = {-1, -1};
    Pipes()
    {
        if (pipe(to_peer) != 0 || pipe(from_peer) != 0)
            fail("pipe");
    }
    ~Pipes()
    {
        for (int fd : {to_peer[0], to_peer[1], from_peer[0], from_peer[1]})
            if (fd >= 0)
                close(fd);
    }
    Pipes(const Pipes&) = delete;
    Pipes& operator=(const Pipes&) = delete;
};

Sampled drive(Pipes& p, std::int64_t budget_ns)
{
    return sample_batches(
        [&](std::uint64_t n) {
            const std::int64_t t0 = now_ns();
            for (std::uint64_t i = 0; i < n; ++i) {
                int v = static_cast<int>(i & 0x3fffffff);
                if (write(p.to_peer[1], &v, sizeof v) != sizeof v)
                    fail("pipe write");
                if (read(p.from_peer[0], &v, sizeof v) != sizeof v)
                    throw std::runtime_error("pipe round trip: the peer stopped answering");
            }
            return now_ns() - t0;
        },
        budget_ns);
}

void stop(Pipes& p)
{
    const int v = -1;
    (void)!write(p.to_peer[1], &v, sizeof v);
}

}  // namespace

Sampled measure_pipe_round_trip(int cpu_a, int cpu_b, PipePeer peer, std::int64_t budget_ns)
{
    AffinityGuard keep;
    if (!pin_this_thread(cpu_a))
        fail("cannot pin to CPU " + std::to_string(cpu_a));
    Pipes p;
    if (peer == PipePeer::Thread) {
        bool pinned = true;
        std::thread t([&] {
            pinned = pin_this_thread(cpu_b);
            echo(p.to_peer[0], p.from_peer[1]);
        });
        Sampled s;
        try {
            s = drive(p, budget_ns);
        } catch (...) {
            stop(p);
            t.join();
            throw;
        }
        stop(p);
        t.join();
        if (!pinned)
            throw std::runtime_error("cannot pin the peer thread to CPU " + std::to_string(cpu_b));
        return s;
    }
    const pid_t child = fork();
    if (child < 0)
        fail("fork");
    if (child == 0)
        _exit(pin_this_thread(cpu_b) ? echo(p.to_peer[0], p.from_peer[1]) : 3);
    // The child holds its own copies; closing ours lets a dead child show as EOF.
    close(p.to_peer[0]);
    close(p.from_peer[1]);
    p.to_peer[0] = p.from_peer[1] = -1;
    Sampled s;
    try {
        s = drive(p, budget_ns);
    } catch (...) {
        stop(p);
        waitpid(child, nullptr, 0);
        throw;
    }
    stop(p);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("pipe round trip: the peer process on CPU " + std::to_string(cpu_b) + " failed");
    return s;
}

}  // namespace wb::host
