// SPDX-License-Identifier: Apache-2.0
#include "cli/soak_command.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "session/soak.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"events", Value::Required, "N", "events in all (default 1e8; 1e6 and 100000000 are both taken)"},
    {"leg-events", Value::Required, "N", "events at most per leg, one machine, workload and policy (default 1e6)"},
    {"topology", Value::Required, "MACHINE", "only this machine (default: every shipped machine)", true},
    {"workload", Value::Required, "SPEC", "only this workload (default: every workload with its defaults)", true},
    {"policy", Value::Required, "SPEC", "only this policy (default: every policy)", true},
};

const char* const kUsage =
    "usage: wakesim soak [--events N] [--leg-events N] [--topology M]... [--workload W]... [--policy P]...\n";

// A count written as 100000000 or 1e8: a whole number from 1 to 1e12.
std::uint64_t parse_count(const std::string& option, const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 1 || v > 1e12 || v != std::floor(v))
        throw UsageError("soak: --" + option + " '" + text +
                         "': expected a whole number of events from 1 to 1e12, such as 1000000 or 1e8");
    return static_cast<std::uint64_t>(v);
}

}  // namespace

int soak_command(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << kUsage << describe_options(kSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kSpecs, "soak");
    if (!args.positionals.empty())
        throw UsageError("soak: unexpected '" + args.positionals.front() + "'\n" + kUsage + describe_options(kSpecs));
    SoakOptions o;
    o.events = parse_count("events", args.get("events").value_or("1e8"));
    o.leg_events = parse_count("leg-events", args.get("leg-events").value_or("1e6"));
    auto all = [&](const char* name) {
        const auto it = args.repeated.find(name);
        return it == args.repeated.end() ? std::vector<std::string>{} : it->second;
    };
    o.machines = all("topology");
    o.workloads = all("workload");
    o.policies = all("policy");

    const SoakResult r = run_soak(o, [&](const SoakLeg& leg, std::uint64_t events) {
        std::fprintf(stderr, "leg %d: %s %s %s seed %llu: %llu events%s, RSS %.1f MB (%.0f%% of the soak)\n", leg.index,
                     leg.machine.c_str(), leg.workload.c_str(), leg.policy.c_str(),
                     static_cast<unsigned long long>(leg.seed), static_cast<unsigned long long>(leg.events),
                     leg.finished ? " (the workload ended)" : "", static_cast<double>(leg.resident_bytes) / (1 << 20),
                     100.0 * static_cast<double>(events) / static_cast<double>(o.events));
    });
    std::cout << format_soak(r, o);
    // A broken invariant or memory that grows is the model's fault, not the input's.
    return r.violations.empty() && r.memory_flat ? 0 : 1;
}

}  // namespace wb::cli
