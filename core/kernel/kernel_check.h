// SPDX-License-Identifier: Apache-2.0
//
// A kernel check: boot a real kernel under QEMU on a machine's topology,
// run a workload's real program in it while tracing every wakeup, and set
// what the kernel did beside what the model does on the same topology and
// workload with the kernel's features:
//   1. the machine as QEMU gives it (qemu_topology.h), or the reasons not;
//   2. the kernel (Debian's or the user's) and the guest's initramfs;
//   3. per boot: QEMU, the guest's bundle, its version and features, its
//      sched domains against the model's, the trace checked for lost events,
//      imported (trace/trace_report.h) and replayed against baseline
//      (trace/trace_replay.h);
//   4. the model run once per boot, seeds seed, seed + 1, ..., with the
//      kernel's features (model_personality.h).
// Every failure is a KernelCheckError (or an InputError for bad input)
// saying what happened, with the guest console's last lines when the guest
// is at fault.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "kernel/guest_domains.h"
#include "kernel/guest_kernel.h"
#include "kernel/model_personality.h"
#include "kernel/qemu_boot.h"
#include "kernel/qemu_topology.h"
#include "metrics/run_metrics.h"
#include "topology/machine.h"
#include "trace/trace_replay.h"

namespace wb {

struct KernelCheckOptions {
    std::string machine_spec;  // as given, for the report
    Machine machine;
    std::string workload_spec;
    KernelChoice kernel;
    std::string modules_dir;  // --modules, for KernelSource::File
    int runs = 1;
    std::string features;  // written to the guest's sched features before the workload
    AccelChoice accel = AccelChoice::Auto;
    std::string keep_dir;      // keep each boot's files (trace.txt, console.log, ...) here; "" = a temporary folder
    int timeout_s = 900;       // per boot
    int trace_buffer_mb = 32;  // ring buffer per CPU
    std::uint64_t seed = 1;
    std::string cache_dir;  // "" = wakebench_cache_dir()
};

// What one boot gave.
struct KernelBoot {
    BootResult boot;
    std::string release;       // uname -r
    std::string version_line;  // /proc/version
    std::string features;      // the sched features line the workload ran with
    GuestDomains domains;
    std::vector<DomainDifference> domain_differences;
    std::string guest_machine;  // the topology the guest reported, as `topology import --sysfs` reads it, one line
    std::uint64_t trace_events = 0;
    std::uint64_t lost_events = 0;  // what the ring buffers and the trace say was lost (a loss fails the check)
    std::uint64_t trace_lines = 0;
    RunMetrics kernel;  // the workload's tasks (wb_*), as `wakesim trace import` counts them
    std::uint64_t kernel_wakeups_selected = 0;
    PolicyReplay replay;  // baseline against the kernel
    std::uint64_t replayed = 0;
    std::string workload_output;
};

struct ModelRun {
    std::uint64_t seed = 0;
    RunMetrics metrics;
};

struct KernelCheckResult {
    std::string machine_spec;
    Machine machine;  // as the guest is built: x86's domain levels, CPUs numbered as QEMU numbers them
    std::string workload_spec;
    std::string kernel_description;
    QemuTopology topology;
    std::string trace_comm;  // the regex the workload's tasks were selected by
    ModelPersonality personality;
    std::vector<KernelBoot> boots;
    std::vector<ModelRun> model;
};

// Throws InputError for a machine QEMU cannot give (every reason), a
// workload with no guest program, or a feature the kernel lacks; a
// KernelCheckError for the rest. Progress goes to `log`.
KernelCheckResult run_kernel_check(const KernelCheckOptions& options, std::ostream& log);

// One boot's output read and checked, everything after QEMU: the bundle
// complete (else why not, with the console's last lines), the workload's
// status, the kernel's version and features, its domains against the
// model's for `machine`, its topology, the trace (written to dir/trace.txt)
// with no event lost, imported and replayed.
KernelBoot read_boot(const BootResult& boot, const Machine& machine, const std::string& dir, int timeout_s,
                     int trace_buffer_mb);

// The machine as the guest sees it: an x86 kernel builds x86's levels.
Machine as_x86_guest(Machine machine);

}  // namespace wb
