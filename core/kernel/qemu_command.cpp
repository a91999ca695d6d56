// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_command.h"

#include <algorithm>

namespace wb {

namespace {

// Guest RAM is given in whole steps of this: QEMU aligns NUMA nodes' memory,
// and a node much smaller than the kernel's own needs would fail the boot.
constexpr int kNodeMemoryStepMb = 64;

std::string str(int v)
{
    return std::to_string(v);
}

// A value inside a QEMU option list, where a comma separates options
// unless doubled.
std::string option_value(const std::string& value)
{
    std::string out;
    for (char c : value) {
        out += c;
        if (c == ',')
            out += ',';
    }
    return out;
}

}  // namespace

std::vector<std::string> qemu_command(const QemuTopology& t, const QemuOptions& o)
{
    std::vector<std::string> argv{o.binary, "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot"};
    if (o.accel == Accel::Kvm) {
        // The host's own CPU model: KVM cannot run an instruction set it lacks.
        argv.insert(argv.end(), {"-accel", "kvm", "-cpu", "host"});
    } else {
        // One host thread per vCPU; an Intel vendor, so that leaf 4 says which
        // threads share the L3 (QEMU's AMD leaves give one L3 per socket).
        argv.insert(argv.end(), {"-accel", "tcg,thread=multi", "-cpu", "max,vendor=GenuineIntel"});
    }
    argv.insert(argv.end(), {"-smp", "cpus=" + str(t.cpus()) + "," + t.smp()});

    const int nodes = std::max(1, t.nodes());
    const int per_node = std::max(
        kNodeMemoryStepMb, (o.memory_mb / nodes + kNodeMemoryStepMb - 1) / kNodeMemoryStepMb * kNodeMemoryStepMb);
    argv.insert(argv.end(), {"-m", str(per_node * nodes) + "M"});
    for (int n = 0; n < t.nodes(); ++n) {
        const std::string mem = "mem" + str(n);
        argv.insert(argv.end(), {"-object", "memory-backend-ram,id=" + mem + ",size=" + str(per_node) + "M", "-numa",
                                 "node,nodeid=" + str(n) + ",memdev=" + mem});
    }
    for (int n = 0; n < t.nodes(); ++n)
        for (int socket : t.node_sockets[static_cast<std::size_t>(n)])
            argv.insert(argv.end(), {"-numa", "cpu,node-id=" + str(n) + ",socket-id=" + str(socket)});
    for (int a = 0; a < t.nodes(); ++a)
        for (int b = 0; b < t.nodes(); ++b)
            if (a != b)
                argv.insert(argv.end(),
                            {"-numa", "dist,src=" + str(a) + ",dst=" + str(b) + ",val=" +
                                          str(t.distance[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)])});

    argv.insert(argv.end(), {"-kernel", o.kernel, "-initrd", o.initrd, "-append", o.append});
    argv.insert(argv.end(),
                {"-chardev", "file,id=console,path=" + option_value(o.console_path), "-serial", "chardev:console"});
    argv.insert(argv.end(), {"-device", "virtio-serial-pci,id=vser", "-chardev",
                             "file,id=wbout,path=" + option_value(o.output_path), "-device",
                             "virtserialport,bus=vser.0,chardev=wbout,name=" + std::string(kGuestPortName)});
    return argv;
}

std::string shell_quote(const std::vector<std::string>& argv)
{
    std::string out;
    for (const std::string& word : argv) {
        if (!out.empty())
            out += ' ';
        const bool plain = !word.empty() && word.find_first_not_of(
                                                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789-_=,.:/+@%") == std::string::npos;
        if (plain) {
            out += word;
            continue;
        }
        out += '\'';
        for (char c : word) {
            if (c == '\'')
                out += "'\\''";
            else
                out += c;
        }
        out += '\'';
    }
    return out;
}

}  // namespace wb
