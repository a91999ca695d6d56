// SPDX-License-Identifier: Apache-2.0
//
// The catalog group of message-passing workloads: hackbench, schbench, tee.
#include <memory>

#include "workload/hackbench.h"
#include "workload/schbench.h"
#include "workload/tee.h"
#include "workload/unix_skb.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

constexpr std::uint64_t kMaxCount = 1'000'000'000ULL;

void add_hackbench(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"hackbench",
          "hackbench: groups of senders each writing to every receiver of their group over pipes or unix sockets "
          "(sync wakeups, full buffers block the senders)",
          {{"groups", "10", "groups of senders and receivers (hackbench's -g)"},
           {"fds", "20", "senders, and receivers, per group (hackbench's -f)"},
           {"loops", "100", "messages each sender writes to each receiver (hackbench's -l)"},
           {"datasize", "100", "bytes per message (hackbench's -s)"},
           {"mode", "socket", "socket: socketpair(AF_UNIX, SOCK_STREAM); pipe: pipes (hackbench's -p)"},
           {"sndbuf", "212992",
            "socket mode: the writing socket's sk_sndbuf in bytes; a write waits while the truesize in flight "
            "to its receiver is at least this (net.core.wmem_default)"},
           {"threads", "0", "1: threads of one process (hackbench's -T); 0: processes (-P)"},
           {"cpus", "", "cpulist every task is pinned to, as taskset -c (empty: all CPUs)"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             HackbenchOptions o;
             o.groups = p.count("groups", 1, 100000);
             o.fds = p.count("fds", 1, 100000);
             o.loops = p.count("loops", 1, kMaxCount);
             o.datasize = p.count("datasize", 1, 64 * 1024 * 1024);
             o.pipe = p.choice("mode", {"socket", "pipe"}) == "pipe";
             // net.core.wmem_default's bounds (net/core/sysctl_net_core.c): SOCK_MIN_SNDBUF to INT_MAX.
             o.sndbuf = p.count("sndbuf", unix_skb::kSockMinSndbuf, 0x7fffffff);
             o.threads = p.flag("threads");
             o.cpus = p.text("cpus");
             return std::make_unique<HackbenchWorkload>(o);
         }});
}

void add_schbench(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"schbench",
          "schbench: message threads wake their worker threads (futex, not sync) for requests; reports wakeup and "
          "request latency percentiles and RPS",
          {{"message_threads", "2", "message threads (schbench's -m)"},
           {"threads", "16", "worker threads per message thread (schbench's -t)"},
           {"runtime", "1s", "measured run time, simulated (schbench's -r)"},
           {"work", "20us", "CPU work of one request at nominal speed (schbench's -n operations, as a time)"},
           {"sleep", "100us", "a message thread's sleep after waking its workers"},
           {"warmup", "0s", "time run before the statistics start (schbench's -w)"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             SchbenchOptions o;
             o.message_threads = p.count("message_threads", 1, 100000);
             o.workers = p.count("threads", 1, 100000);
             o.runtime = p.duration("runtime");
             o.work = p.duration("work");
             o.sleep = p.duration("sleep");
             o.warmup = p.duration("warmup");
             if (o.runtime <= Time())
                 p.fail("runtime=" + p.text("runtime") + ": expected a duration above 0");
             return std::make_unique<SchbenchWorkload>(o);
         }});
}

void add_tee(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"tee",
          "stress-ng tee: per instance a writer fills a pipe with 16-byte writes, the stressor tee()s it into a "
          "second pipe a reader drains 16 bytes a read, and splices the original to /dev/null",
          {{"instances", "0", "stressor instances (stress-ng's --tee N); 0: one per CPU"},
           {"size", "16",
            "bytes per write() and per read(): sizeof(stress_tee_t) in stress-tee.c; at most a page (4096), "
            "where one write is one merge or one new pipe buffer"},
           {"ops", "0", "bogo ops per instance to stop after (stress-ng's --tee-ops); 0: run until timeout"},
           {"timeout", "1s", "run time, simulated (stress-ng's --timeout)"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             TeeOptions o;
             o.instances = p.count("instances", 0, 100000);
             o.size = static_cast<std::uint32_t>(p.count("size", 1, kTeePageSize));
             o.ops = p.count("ops", 0, kMaxCount);
             o.timeout = p.duration("timeout");
             if (o.timeout <= Time())
                 p.fail("timeout=" + p.text("timeout") + ": expected a duration above 0");
             return std::make_unique<TeeWorkload>(o);
         }});
}

}  // namespace

void add_messaging_workloads(std::vector<WorkloadEntry>& catalog)
{
    add_hackbench(catalog);
    add_schbench(catalog);
    add_tee(catalog);
}

}  // namespace wb
