// SPDX-License-Identifier: Apache-2.0
#include "kernel/kernel_check.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include <unistd.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "io/sysfs_import.h"
#include "kernel/cache_dir.h"
#include "kernel/debian_kernel.h"
#include "kernel/guest_bundle.h"
#include "kernel/guest_image.h"
#include "kernel/guest_init.h"
#include "kernel/guest_workload.h"
#include "kernel/kernel_check_error.h"
#include "kernel/ring_buffer_stats.h"
#include "policies/registry.h"
#include "topology/sched_domains.h"
#include "trace/trace_parser.h"
#include "trace/trace_report.h"
#include "workload/workload_spec.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

// Guest RAM besides the trace buffers: the kernel, the initramfs unpacked,
// the workload's tasks.
constexpr int kGuestBaseMemoryMb = 320;

// Kernel parameters of every boot: the console on the first serial port; a
// panic ends QEMU at once (panic=-1 with -no-reboot), as does an oops; no
// Spectre mitigations (they slow every system call under TCG and change no
// placement); no lockup watchdog and no RCU stall reports (a TCG vCPU on a
// busy host can stall long enough to trip them), and no check that the
// emulated PIT ticks through the IO-APIC in time (on a busy host it fails
// under TCG and panics the boot: "IO-APIC + timer doesn't work!"); the TSC
// kept as clocksource (the trace clock reads it); sched_verbose makes the
// kernel publish its domains in debugfs.
const char* const kKernelParameters =
    "console=ttyS0 quiet panic=-1 oops=panic mitigations=off nowatchdog rcupdate.rcu_cpu_stall_suppress=1 "
    "no_timer_check tsc=reliable sched_verbose";

const int kConsoleLinesQuoted = 15;

std::string indent(const std::string& text)
{
    std::string out = "    ";
    for (char c : text) {
        out += c;
        if (c == '\n')
            out += "    ";
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\n'))
        out.pop_back();
    return out;
}

// Why a boot gave no complete bundle, with the console's last lines.
[[noreturn]] void guest_failed(const BootResult& b, const GuestBundle& bundle, int timeout_s)
{
    const std::size_t err = b.console.find(kGuestErrorPrefix);
    if (err != std::string::npos) {
        const std::size_t start = err + std::string(kGuestErrorPrefix).size();
        const std::string message = b.console.substr(start, b.console.find('\n', start) - start);
        if (message.starts_with("the kernel has no sched feature"))
            throw InputError(Diagnostic{"--features", 0, 0, "", message});
        throw KernelCheckError("the guest gave up: " + message);
    }
    std::string what;
    if (b.timed_out)
        what = "the guest did not finish within " + std::to_string(timeout_s) + " s (--timeout) and was stopped";
    else if (b.console.find("Kernel panic") != std::string::npos)
        what = "the guest kernel panicked";
    else if (b.up_s < 0)
        what = "the guest never reached its /init (QEMU exit status " + std::to_string(b.qemu_status) + ")";
    else
        what = "the guest stopped before sending everything back (QEMU exit status " + std::to_string(b.qemu_status) +
               (bundle.cut_in.empty() ? "" : ", cut inside " + bundle.cut_in) + ")";
    std::string text =
        what + "; the guest console's last lines:\n" + indent(last_lines(b.console, kConsoleLinesQuoted));
    if (!b.qemu_stderr.empty())
        text += "\nQEMU said:\n" + indent(last_lines(b.qemu_stderr, 5));
    throw KernelCheckError(text);
}

const std::string& need(const GuestBundle& bundle, const std::string& name)
{
    const std::string* f = bundle.file(name);
    if (!f)
        throw KernelCheckError("the guest sent no " + name);
    return *f;
}

std::string trim(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// The topology the guest reported, read as `topology import --sysfs`
// would, and how it differs from the machine's.
std::string guest_topology(const GuestBundle& bundle, const Machine& machine, const fs::path& dir,
                           std::vector<DomainDifference>& differences)
{
    const fs::path root = dir / "guest-sysfs";
    std::error_code ec;
    fs::remove_all(root, ec);
    for (const auto& [name, text] : bundle.files) {
        if (!name.starts_with("sysfs/"))
            continue;
        const fs::path file = root / name.substr(6);
        fs::create_directories(file.parent_path(), ec);
        std::ofstream(file, std::ios::binary) << text;
    }
    try {
        const Machine guest = import_sysfs(root.string()).machine;
        std::ostringstream line;
        line << guest.nr_cpus() << " CPUs, " << guest.nr_nodes() << " node(s), " << guest.nr_packages()
             << " package(s), " << guest.nr_llcs() << " LLC(s), " << guest.nr_cores() << " cores";
        if (guest.nr_cpus() != machine.nr_cpus()) {
            differences.push_back({kNoCpu, 0, "the guest has " + std::to_string(guest.nr_cpus()) + " CPUs"});
            return line.str();
        }
        for (CpuId c = 0; c < machine.nr_cpus(); ++c) {
            const auto diff = [&](const char* what, const CpuMask& g, const CpuMask& m) {
                if (g != m)
                    differences.push_back(
                        {c, -1, std::string(what) + ": guest " + g.to_cpulist() + ", model " + m.to_cpulist()});
            };
            diff("SMT siblings", guest.smt_mask(c), machine.smt_mask(c));
            diff("LLC", guest.llc_mask(c), machine.llc_mask(c));
            diff("node", guest.node_mask(guest.cpus[static_cast<std::size_t>(c)].node),
                 machine.node_mask(machine.cpus[static_cast<std::size_t>(c)].node));
        }
        return line.str();
    } catch (const InputError& e) {
        return std::string("not readable: ") + e.what();
    }
}

}  // namespace

KernelBoot read_boot(const BootResult& b, const Machine& machine, const std::string& dir, int timeout_s,
                     int trace_buffer_mb)
{
    const GuestBundle bundle = parse_guest_bundle(b.output);
    if (!bundle.complete)
        guest_failed(b, bundle, timeout_s);
    KernelBoot k;
    k.boot = b;
    k.workload_output = need(bundle, "workload.out");
    const std::string status = trim(need(bundle, "workload.status"));
    if (status != "0")
        throw KernelCheckError("the workload program failed in the guest (exit status " + status + "):\n" +
                               indent(last_lines(k.workload_output, kConsoleLinesQuoted)));
    const std::string version = need(bundle, "version");
    k.release = version.substr(0, version.find('\n'));
    k.version_line = trim(version.substr(version.find('\n') + 1));
    k.features = trim(need(bundle, "features"));

    k.domains = parse_guest_domains(need(bundle, "domains"), need(bundle, "schedstat"), machine.nr_cpus());
    k.domain_differences = compare_domains(k.domains, SchedDomains::build(machine));
    k.guest_machine = guest_topology(bundle, machine, dir, k.domain_differences);

    const std::string& trace_text = need(bundle, "trace");
    const fs::path trace_path = fs::path(dir) / "trace.txt";
    std::ofstream(trace_path, std::ios::binary) << trace_text;
    const std::string label = trace_path.string();
    const ParsedTrace trace = parse_trace(trace_text, label);
    std::string where;
    const std::uint64_t ring = ring_buffer_losses(need(bundle, "ring-stats"), where);
    TaskFilter filter;
    filter.comm = std::regex(kGuestTaskComm);
    filter.comm_text = kGuestTaskComm;
    const TraceReport report = build_trace_report(trace, machine, filter, label);
    const std::uint64_t lost = std::max({ring, trace.overwritten, report.anomalies.lost_events});
    if (lost > 0 || report.anomalies.lost_markers > 0)
        throw KernelCheckError(
            "the guest's trace lost " + std::to_string(lost) + " events (" +
            (where.empty() ? std::string("LOST markers in the trace") : "the ring buffer of " + where) +
            " overflowed): give it more than " + std::to_string(trace_buffer_mb) +
            " MB per CPU with --trace-buffer, or run fewer loops");
    k.lost_events = lost;
    k.trace_events = trace.events.size();
    k.trace_lines = static_cast<std::uint64_t>(trace.lines);
    k.kernel = report.metrics;
    k.kernel_wakeups_selected = report.wakeups_selected;

    ReplayOptions replay;
    replay.filter = filter;
    replay.features = model_personality(k.features, k.release).features;
    const ReplayResult result = replay_trace(trace, machine, replay, label);
    k.replay = result.policies.front();
    k.replayed = result.replayed;
    return k;
}

namespace {

std::string kernel_command_line(const KernelCheckOptions& o, const GuestWorkload& w)
{
    std::string line = std::string(kKernelParameters) + " wb.run=" + w.command_line() +
                       " wb.buffer_kb=" + std::to_string(o.trace_buffer_mb * 1024);
    if (!o.features.empty())
        line += " wb.features=" + o.features;
    return line;
}

}  // namespace

Machine as_x86_guest(Machine machine)
{
    machine.arch = Arch::X86;
    return machine;
}

KernelCheckResult run_kernel_check(const KernelCheckOptions& o, std::ostream& log)
{
    KernelCheckResult r;
    r.machine_spec = o.machine_spec;
    r.machine = as_x86_guest(o.machine);
    r.workload_spec = o.workload_spec;
    r.trace_comm = kGuestTaskComm;

    r.topology = qemu_topology_for(r.machine, o.machine_spec);
    r.machine = numbered_as_qemu(r.machine, r.topology);
    const GuestWorkload workload = guest_workload(o.workload_spec);
    if (r.topology.renumbered() && std::find(workload.args.begin(), workload.args.end(), "-c") != workload.args.end())
        throw InputError(Diagnostic{"workload '" + o.workload_spec + "'", 0, 0, "",
                                    "cpus= names CPUs of " + o.machine_spec +
                                        ", which the guest numbers otherwise (as QEMU does: " +
                                        qemu_numbering(r.topology) + "); pin with the guest's numbers instead"});
    make_workload(o.workload_spec);  // the model's own checks, before anything is fetched
    for (char c : o.features)
        if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
              c == ','))
            throw InputError(
                Diagnostic{"--features '" + o.features + "'", 0, 0, "",
                           "expected sched feature names separated by commas, e.g. NO_DELAY_DEQUEUE,WA_BIAS"});

    const std::string cache = o.cache_dir.empty() ? wakebench_cache_dir() : o.cache_dir;
    const GuestKernel kernel = o.kernel.source == KernelSource::File ? user_kernel(o.kernel.path, o.modules_dir)
                                                                     : debian_kernel(o.kernel.source, cache, log);
    r.kernel_description = kernel.description;
    QemuOptions qemu;
    qemu.kernel = kernel.image;
    qemu.initrd = guest_initramfs(kernel, cache, log);
    qemu.memory_mb = kGuestBaseMemoryMb + r.machine.nr_cpus() * o.trace_buffer_mb;
    qemu.append = kernel_command_line(o, workload);

    for (int i = 0; i < o.runs; ++i) {
        const bool keep = !o.keep_dir.empty();
        const fs::path dir = keep ? fs::path(o.keep_dir) / ("boot-" + std::to_string(i + 1))
                                  : fs::path(cache) / "runs" / (std::to_string(::getpid()) + "-" + std::to_string(i));
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec)
            throw KernelCheckError("cannot create " + dir.string() + ": " + ec.message());
        log << "boot " << i + 1 << " of " << o.runs << ": " << r.topology.cpus() << " vCPUs, " << workload.program
            << " in the guest\n";
        const BootResult b =
            boot_guest(r.topology, qemu, o.accel, std::chrono::seconds(o.timeout_s), dir.string(), log);
        try {
            r.boots.push_back(read_boot(b, r.machine, dir.string(), o.timeout_s, o.trace_buffer_mb));
        } catch (...) {
            if (!keep)
                fs::remove_all(dir, ec);
            throw;
        }
        if (!keep)
            fs::remove_all(dir, ec);
    }
    r.personality = model_personality(r.boots.front().features, r.boots.front().release);

    const std::unique_ptr<PlacementPolicy> baseline = make_policy("baseline");
    for (int i = 0; i < o.runs; ++i) {
        SimOptions sim_options;
        sim_options.policy = baseline.get();
        sim_options.features = r.personality.features;
        sim_options.seed = o.seed + static_cast<std::uint64_t>(i);
        Simulator sim(r.machine, make_workload(o.workload_spec), sim_options);
        if (!sim.run())
            throw KernelCheckError("the model's run of " + o.workload_spec + " did not finish within its time limit");
        r.model.push_back({sim_options.seed, sim.metrics()});
    }
    return r;
}

}  // namespace wb
