// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_workload.h"

#include "io/input_error.h"
#include "workload/unix_skb.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

std::string micros(const WorkloadParams& p, const std::string& name)
{
    const Time t = p.duration(name);
    if (t.ns() % 1000 != 0)
        p.fail(name + "=" + p.text(name) + ": the guest program takes whole microseconds");
    return std::to_string(t.ns() / 1000);
}

void add_cpus(const WorkloadParams& p, GuestWorkload& g)
{
    if (!p.text("cpus").empty())
        g.args.insert(g.args.end(), {"-c", p.text("cpus")});
}

}  // namespace

std::string GuestWorkload::command_line() const
{
    std::string out = program;
    for (const std::string& a : args)
        out += "@" + a;
    return out;
}

GuestWorkload guest_workload(const std::string& spec)
{
    const WorkloadParams p = workload_params(spec);
    const std::string name = spec.substr(0, spec.find(':'));
    GuestWorkload g;
    if (name == "pipe") {
        g.program = "pipe";
        g.args = {"-l", std::to_string(p.count("loops", 1, UINT64_MAX))};
        if (p.flag("threads"))
            g.args.push_back("-T");
        add_cpus(p, g);
    } else if (name == "hackbench") {
        g.program = "messaging";
        g.args = {"-g", std::to_string(p.count("groups", 1, 100000)),
                  "-f", std::to_string(p.count("fds", 1, 100000)),
                  "-l", std::to_string(p.count("loops", 1, UINT64_MAX)),
                  "-s", std::to_string(p.count("datasize", 1, 64 * 1024 * 1024))};
        if (p.choice("mode", {"socket", "pipe"}) == "pipe")
            g.args.push_back("-p");
        if (p.flag("threads"))
            g.args.push_back("-T");
        if (p.count("sndbuf", 0, UINT64_MAX) != unix_skb::kSkWmemMax)
            p.fail("sndbuf=" + p.text("sndbuf") +
                   ": the guest runs with the kernel's default (net.core.wmem_default, " +
                   std::to_string(unix_skb::kSkWmemMax) + ")");
        add_cpus(p, g);
    } else if (name == "schbench") {
        g.program = "schbench";
        g.args = {"-m", std::to_string(p.count("message_threads", 1, 100000)),
                  "-t", std::to_string(p.count("threads", 1, 100000)),
                  "-r", micros(p, "runtime"),
                  "-n", micros(p, "work"),
                  "-s", micros(p, "sleep"),
                  "-w", micros(p, "warmup")};
    } else {
        throw InputError(Diagnostic{"workload '" + spec + "'", 0, 0, "",
                                    name + " has no guest program: a kernel check runs pipe, hackbench or schbench, "
                                           "whose real programs the guest carries (guest/)"});
    }
    return g;
}

}  // namespace wb
