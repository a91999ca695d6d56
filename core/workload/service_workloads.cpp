// SPDX-License-Identifier: Apache-2.0
//
// The catalog group of service and compute workloads: io-uring, gemm, web, json.
#include <memory>

#include "io/workload_json.h"
#include "workload/gemm.h"
#include "workload/io_uring.h"
#include "workload/json_workload.h"
#include "workload/web.h"
#include "workload/workload_params.h"

namespace wb {

namespace {

constexpr std::uint64_t kMaxCount = 1'000'000'000'000ULL;

void add_io_uring(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"io-uring",
          "stress-ng --io-uring: each instance submits 15 opcodes one at a time on a tmpfs file and waits for each "
          "(iowait); 12 of them go to an io-wq worker thread of its process, woken with wake_up_process() and "
          "placed by the fair class, whose completion wakes the instance",
          {{"instances", "0", "stressor instances (stress-ng's --io-uring N); 0: one per CPU"},
           {"ops", "0", "stop each instance after this many bogo ops, one per request (--io-uring-ops); 0: no limit"},
           {"timeout", "1s", "stop after this much simulated time (--timeout)"},
           {"vfs_work", "300ns",
            "in-kernel work of one tmpfs file operation besides io_uring and the syscall (fd or dcache lookup, inode "
            "lock, attribute copy; estimate: lmbench lat_syscall stat class)"},
           {"page_work", "300ns", "allocating and zeroing, or freeing, one 4 KiB tmpfs page (estimate)"},
           {"fs", "tmpfs",
            "the temp dir's file system: tmpfs, or ramfs (no fallocate, no xattrs: stress-ng drops those opcodes)"},
           {"fork", "50us",
            "fork() of a stress-ng process: the parent forks the instances one by one, each forks its stressor "
            "child (estimate: lmbench lat_proc fork class, 60-100 us fork+exit+wait on 2020s x86 servers)"},
           {"worker_idle", "5s", "io-wq WORKER_IDLE_TIMEOUT: an idle worker's sleep before it checks whether to exit"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             IoUringOptions o;
             o.instances = p.count("instances", 0, 100000);
             o.ops = p.count("ops", 0, kMaxCount);
             o.timeout = p.duration("timeout");
             if (o.timeout <= Time())
                 p.fail("timeout=" + p.text("timeout") + ": expected a duration above 0");
             o.vfs_work = p.duration("vfs_work");
             o.page_work = p.duration("page_work");
             o.file = p.choice("fs", {"tmpfs", "ramfs"}) == "ramfs" ? kRamfsFile : kTmpfsFile;
             o.fork = p.duration("fork");
             o.worker_idle = p.duration("worker_idle");
             if (o.worker_idle <= Time())
                 p.fail("worker_idle=" + p.text("worker_idle") + ": expected a duration above 0");
             return std::make_unique<IoUringWorkload>(o);
         }});
}

void add_gemm(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"gemm",
          "multithreaded SGEMM: threads compute blocks and meet at an OpenMP barrier, where they spin (libomp: "
          "with sched_yield()), then sleep on a futex until the release wakes them",
          {{"threads", "0", "worker threads; 0: one per core"},
           {"blocks", "200", "blocks each thread computes"},
           {"block_flops", "33554432", "floating-point operations per block (2 x 256^3)"},
           {"flop_rate", "16", "flops per cycle per thread at nominal speed (times the machine's clock_rate)"},
           {"barrier", "1", "meet at a barrier every this many blocks"},
           {"runtime", "libgomp",
            "OpenMP runtime: libgomp (GNU; NVPL BLAS's threaded interface links -lgomp) or libomp (LLVM)"},
           {"wait_policy", "unset", "OMP_WAIT_POLICY: unset, active or passive"},
           {"spincount", "default",
            "libgomp GOMP_SPINCOUNT: polls before futex_wait; default: 300000, active 3e10, passive 0 (env.c)"},
           {"blocktime", "default",
            "libomp KMP_BLOCKTIME: spin time before sleeping; default: 200ms, active infinite, passive 0; "
            "'infinite' never sleeps"},
           {"spin_iter", "10ns", "one poll of the barrier flag (libgomp env.c: about 100000 spins per ms)"},
           {"imbalance", "0us", "extra work of the last thread before every barrier"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             GemmOptions o;
             o.threads = p.count("threads", 0, 100000);
             o.blocks = p.count("blocks", 1, kMaxCount);
             o.block_flops = p.number("block_flops", 1, 1e18);
             o.flop_rate = p.number("flop_rate", 0.001, 1e6);
             o.barrier = p.count("barrier", 1, kMaxCount);
             o.runtime =
                 p.choice("runtime", {"libgomp", "libomp"}) == "libomp" ? OmpRuntime::Libomp : OmpRuntime::Libgomp;
             const std::string policy = p.choice("wait_policy", {"unset", "active", "passive"});
             o.wait_policy = policy == "active"    ? WaitPolicy::Active
                             : policy == "passive" ? WaitPolicy::Passive
                                                   : WaitPolicy::Unset;
             if (p.text("spincount") != "default")
                 o.spincount = static_cast<std::int64_t>(p.count("spincount", 0, 30000000000ULL));
             const std::string bt = p.text("blocktime");
             if (bt == "infinite") {
                 o.blocktime = Time::max();
                 o.blocktime_set = true;
             } else if (bt != "default") {
                 o.blocktime = p.duration("blocktime");
                 o.blocktime_set = true;
             }
             o.spin_iter = p.duration("spin_iter");
             if (o.spin_iter <= Time())
                 p.fail("spin_iter=" + p.text("spin_iter") + ": expected a duration above 0");
             o.imbalance = p.duration("imbalance");
             return std::make_unique<GemmWorkload>(o);
         }});
}

void add_web(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"web",
          "request/response service: network interrupts wake an acceptor, which hands requests to workers (sync), "
          "which call backends (sync) and wait for their replies",
          {{"rate", "0", "requests/s offered as Poisson arrivals; 0: closed loop at saturation"},
           {"clients", "64", "outstanding requests of the closed loop (rate=0)"},
           {"acceptors", "1", "accept threads"},
           {"workers", "0", "worker threads; 0: one per CPU"},
           {"backends", "2", "backend server threads"},
           {"accept_work", "5us", "acceptor work per request"},
           {"work", "200us", "worker work per request"},
           {"backend_work", "50us", "backend work per call"},
           {"duration", "1s", "requests are offered for this long (simulated time)"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             WebOptions o;
             o.rate = p.number("rate", 0, 1e9);
             o.clients = p.count("clients", 1, 1'000'000);
             o.acceptors = p.count("acceptors", 1, 100000);
             o.workers = p.count("workers", 0, 100000);
             o.backends = p.count("backends", 1, 100000);
             o.accept_work = p.duration("accept_work");
             o.work = p.duration("work");
             o.backend_work = p.duration("backend_work");
             o.duration = p.duration("duration");
             if (o.duration <= Time())
                 p.fail("duration=" + p.text("duration") + ": expected a duration above 0");
             return std::make_unique<WebWorkload>(o);
         }});
}

// The file is read when the spec is, so a bad file fails before the run.
void add_json(std::vector<WorkloadEntry>& catalog)
{
    catalog.push_back(
        {{"json",
          "rt-app-like workload from a JSON file: tasks looping through run, sleep, timer, wait, signal, yield, "
          "barrier and fork phases (docs/workload-json.md)",
          {{"file", "", "path of the workload JSON file"}}},
         [](const WorkloadParams& p) -> std::unique_ptr<Workload> {
             const std::string path = p.text("file");
             if (path.empty())
                 p.fail("file=: expected the path of a workload JSON file (json:file=PATH)");
             return std::make_unique<JsonWorkload>(load_workload_file(path));
         }});
}

}  // namespace

void add_service_workloads(std::vector<WorkloadEntry>& catalog)
{
    add_io_uring(catalog);
    add_gemm(catalog);
    add_web(catalog);
    add_json(catalog);
}

}  // namespace wb
