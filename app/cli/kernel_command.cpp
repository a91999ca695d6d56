// SPDX-License-Identifier: Apache-2.0
#include "cli/kernel_command.h"

#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "io/kernel_check_json.h"
#include "io/topology_library.h"
#include "kernel/kernel_check.h"
#include "kernel/kernel_check_error.h"
#include "kernel/kernel_check_report.h"
#include "kernel/qemu_command.h"
#include "kernel/qemu_topology.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kRunSpecs{
    {"topology", Value::Required, "MACHINE", "a shipped machine, a machine file or synthetic:... (what QEMU can give)"},
    {"workload", Value::Required, "SPEC", "pipe:..., hackbench:... or schbench:..., as wakesim run takes them"},
    {"kernel", Value::Required, "debian|debian-6.1|PATH",
     "Debian 12's 6.12 (default), its 6.1, or your own bzImage/vmlinuz"},
    {"modules", Value::Required, "DIR", "with --kernel PATH: its lib/modules/RELEASE, when virtio is built as modules"},
    {"runs", Value::Required, "N", "boots, and model runs on seeds SEED..SEED+N-1 (default 1)"},
    {"features", Value::Required, "LIST", "sched features set in the guest before the workload, e.g. NO_DELAY_DEQUEUE"},
    {"accel", Value::Required, "auto|kvm|tcg", "KVM where /dev/kvm works, else TCG (default auto)"},
    {"keep", Value::Required, "DIR", "keep each boot's trace.txt, console.log and QEMU command in DIR/boot-N"},
    {"json", Value::Required, "FILE", "write everything as JSON"},
    {"timeout", Value::Required, "SECONDS", "per boot, after which QEMU is stopped (default 900)"},
    {"trace-buffer", Value::Required, "MB", "trace ring buffer per CPU in the guest (default 32)"},
    {"seed", Value::Required, "N", "the model's first seed (default 1)"},
};

const std::vector<OptionSpec> kQemuSpecs{
    {"topology", Value::Required, "MACHINE", "a shipped machine, a machine file or synthetic:..."},
};

const char* const kUsage =
    "usage: wakesim kernel run --topology MACHINE --workload SPEC [--kernel debian|debian-6.1|PATH] [--modules DIR]\n"
    "                          [--runs N] [--features LIST] [--accel auto|kvm|tcg] [--keep DIR] [--json FILE]\n"
    "       wakesim kernel qemu-command --topology MACHINE\n";

AccelChoice accel_of(const std::string& text)
{
    if (text == "auto")
        return AccelChoice::Auto;
    if (text == "kvm")
        return AccelChoice::Kvm;
    if (text == "tcg")
        return AccelChoice::Tcg;
    throw UsageError("kernel run: --accel '" + text + "': expected auto, kvm or tcg");
}

int run(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << kUsage << describe_options(kRunSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kRunSpecs, "kernel run");
    if (!args.has("topology") || !args.has("workload") || !args.positionals.empty())
        throw UsageError(std::string("kernel run: expected --topology MACHINE and --workload SPEC\n") + kUsage +
                         describe_options(kRunSpecs));
    KernelCheckOptions o;
    o.machine_spec = *args.get("topology");
    o.workload_spec = *args.get("workload");
    o.kernel = parse_kernel_choice(args.get("kernel").value_or("debian"));
    if (args.has("modules")) {
        if (o.kernel.source != KernelSource::File)
            throw UsageError("kernel run: --modules goes with --kernel PATH (Debian's kernels bring their own)");
        o.modules_dir = *args.get("modules");
    }
    if (auto n = args.get("runs"))
        o.runs = static_cast<int>(parse_whole_number("kernel run", "runs", *n, 1, 100));
    o.features = args.get("features").value_or("");
    o.accel = accel_of(args.get("accel").value_or("auto"));
    o.keep_dir = args.get("keep").value_or("");
    if (auto t = args.get("timeout"))
        o.timeout_s = static_cast<int>(parse_whole_number("kernel run", "timeout", *t, 10, 86400));
    if (auto b = args.get("trace-buffer"))
        o.trace_buffer_mb = static_cast<int>(parse_whole_number("kernel run", "trace-buffer", *b, 1, 4096));
    if (auto s = args.get("seed"))
        o.seed = parse_whole_number("kernel run", "seed", *s, 0, UINT64_MAX - 100);
    std::ofstream json_out;
    if (auto path = args.get("json")) {
        json_out.open(*path);
        if (!json_out)
            throw UsageError("kernel run: --json '" + *path + "': cannot write this file");
    }
    o.machine = resolve_machine(o.machine_spec);

    try {
        const KernelCheckResult result = run_kernel_check(o, std::cerr);
        std::cout << format_kernel_check(result);
        if (json_out.is_open())
            json_out << kernel_check_to_json(result);
    } catch (const KernelCheckError& e) {
        std::cerr << "wakesim: kernel run: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

int qemu_command_line(const std::vector<std::string>& argv)
{
    const Args args = parse_args(argv, kQemuSpecs, "kernel qemu-command");
    if (!args.has("topology"))
        throw UsageError(std::string("kernel qemu-command: expected --topology MACHINE\n") + kUsage);
    const std::string spec = *args.get("topology");
    const QemuTopology topology = qemu_topology_for(as_x86_guest(resolve_machine(spec)), spec);
    QemuOptions o;
    o.kernel = "KERNEL";
    o.initrd = "INITRAMFS";
    o.append = "KERNEL-PARAMETERS";
    o.console_path = "console.log";
    o.output_path = "port.out";
    if (topology.renumbered())
        std::cout << "# the guest numbers the CPUs as QEMU does; machine->guest: " << qemu_numbering(topology) << "\n";
    std::cout << shell_quote(qemu_command(topology, o)) << "\n";
    return 0;
}

}  // namespace

int kernel_command(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError(std::string("kernel: expected a subcommand: run or qemu-command\n") + kUsage);
    if (argv[0] == "--help" || argv[0] == "help") {
        std::cout << kUsage << describe_options(kRunSpecs);
        return 0;
    }
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "run")
        return run(rest);
    if (argv[0] == "qemu-command")
        return qemu_command_line(rest);
    throw UsageError("kernel: unknown subcommand '" + argv[0] + "'; expected run or qemu-command\n" + kUsage);
}

}  // namespace wb::cli
