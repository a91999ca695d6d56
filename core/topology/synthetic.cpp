// SPDX-License-Identifier: Apache-2.0
#include "topology/synthetic.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <set>

#include "io/input_error.h"

namespace wb {

namespace {

const char* const kLabel = "synthetic spec";
constexpr int kMaxSmt = 8;  // threads per core

struct Item {
    std::string_view key;
    std::string_view value;
    std::size_t column;  // 1-based, of the key in the full spec
};

[[noreturn]] void fail(std::size_t column, const std::string& message)
{
    throw InputError(Diagnostic{kLabel, 1, static_cast<int>(column), "", message});
}

int parse_count(const Item& item, int min, int max)
{
    int value = 0;
    auto [ptr, ec] = std::from_chars(item.value.data(), item.value.data() + item.value.size(), value);
    if (ec != std::errc{} || ptr != item.value.data() + item.value.size() || value < min || value > max)
        fail(item.column, std::string(item.key) + "=" + std::string(item.value) + ": expected a whole number from " +
                              std::to_string(min) + " to " + std::to_string(max));
    return value;
}

// What the values of a '/' list may be.
struct ValueRule {
    bool whole;       // an integer, as written (512.7 is not a capacity)
    double min, max;  // inclusive, except min when `above_min`
    bool above_min;
    const char* expected;
};

constexpr ValueRule kCapacityRule{true, 1, 1024, false, "a whole capacity from 1 to 1024"};
constexpr ValueRule kSpeedRule{false, 0, 16, true, "a relative speed above 0 and at most 16 (1.0 = nominal)"};
constexpr ValueRule kPrioRule{true, INT_MIN, INT_MAX, false, "a whole priority from -2147483648 to 2147483647"};

// One value of a list, at `column` of the spec.
double parse_list_value(const Item& item, std::string_view text, std::size_t column, const ValueRule& rule)
{
    const char* const end = text.data() + text.size();
    double value = 0;
    bool ok = false;
    if (rule.whole) {
        long long whole = 0;
        auto [ptr, ec] = std::from_chars(text.data(), end, whole);
        ok = ec == std::errc{} && ptr == end;
        value = static_cast<double>(whole);
    } else {
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        ok = ec == std::errc{} && ptr == end;
    }
    // NaN fails both comparisons.
    ok = ok && (rule.above_min ? value > rule.min : value >= rule.min) && value <= rule.max;
    if (!ok)
        fail(column, std::string(item.key) + " value '" + std::string(text) + "': expected " + rule.expected);
    return value;
}

// "446x4/871x3/1024": values with optional repeat counts, '/' separated.
// More than `max_values` values are refused as soon as they are counted,
// before any is stored: "1x4096/1x4096/..." must not allocate its product.
std::vector<double> parse_value_list(const Item& item, std::size_t max_values, const char* per, const ValueRule& rule)
{
    std::vector<double> values;
    std::size_t count = 0;
    std::size_t at = 0;  // of the current part within the value
    const std::size_t value_column = item.column + item.key.size() + 1;
    while (true) {
        const std::size_t slash = item.value.find('/', at);
        const std::string_view part = item.value.substr(at, slash == std::string_view::npos ? slash : slash - at);
        const std::size_t column = value_column + at;
        const std::size_t x = part.find('x');
        const double value = parse_list_value(item, part.substr(0, x), column, rule);
        std::size_t repeat = 1;
        if (x != std::string_view::npos) {
            const std::string_view times = part.substr(x + 1);
            int n = 0;
            auto [ptr, ec] = std::from_chars(times.data(), times.data() + times.size(), n);
            if (ec != std::errc{} || ptr != times.data() + times.size() || n < 1 ||
                static_cast<std::size_t>(n) > max_values)
                fail(column + x + 1, std::string(item.key) + " repeat count '" + std::string(times) +
                                         "': expected a whole number from 1 to " + std::to_string(max_values));
            repeat = static_cast<std::size_t>(n);
        }
        count += repeat;
        if (count > max_values)
            fail(column, std::string(item.key) + " gives more than " + std::to_string(max_values) +
                             " values; expected one per " + per);
        values.insert(values.end(), repeat, value);
        if (slash == std::string_view::npos)
            break;
        at = slash + 1;
    }
    return values;
}

std::vector<Item> split_items(std::string_view spec, std::size_t offset)
{
    std::vector<Item> items;
    std::size_t pos = 0;
    while (pos <= spec.size()) {
        std::size_t comma = spec.find(',', pos);
        std::string_view item =
            spec.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0)
            fail(offset + pos + 1, "expected key=value, found '" + std::string(item) + "'");
        items.push_back({item.substr(0, eq), item.substr(eq + 1), offset + pos + 1});
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
    return items;
}

}  // namespace

Machine parse_synthetic(std::string_view spec)
{
    std::size_t offset = 0;
    if (spec.substr(0, kSyntheticPrefix.size()) == kSyntheticPrefix)
        offset = kSyntheticPrefix.size();
    std::string_view body = spec.substr(offset);
    if (body.empty())
        fail(offset + 1, "expected key=value items such as node=2,llc=4,core=8,smt=2");

    int nodes = 1, pkgs = 1, llcs = 1, clusters = 0, cores = 1, smt = 1, distance = 20;
    Machine m;
    std::vector<double> capacities, smt_speed, asym_prio;
    std::map<std::string_view, std::size_t> seen;
    for (const Item& item : split_items(body, offset)) {
        if (!seen.emplace(item.key, item.column).second)
            fail(item.column, std::string(item.key) + " is given twice");
        if (item.key == "node")
            nodes = parse_count(item, 1, 64);
        else if (item.key == "pkg")
            pkgs = parse_count(item, 1, 64);
        else if (item.key == "llc")
            llcs = parse_count(item, 1, kMaxCpus);
        else if (item.key == "cluster")
            clusters = parse_count(item, 1, kMaxCpus);
        else if (item.key == "core")
            cores = parse_count(item, 1, kMaxCpus);
        else if (item.key == "smt")
            smt = parse_count(item, 1, kMaxSmt);
        else if (item.key == "distance")
            distance = parse_count(item, 11, 254);
        else if (item.key == "asym_packing")
            m.asym_packing = parse_count(item, 0, 1) == 1;
        else if (item.key == "arch") {
            if (!arch_by_name(item.value, m.arch))
                fail(item.column, "arch=" + std::string(item.value) + ": expected generic, x86 or powerpc");
        } else if (item.key == "numbering") {
            if (item.value == "core-major")
                m.numbering = CpuNumbering::CoreMajor;
            else if (item.value == "thread-major")
                m.numbering = CpuNumbering::ThreadMajor;
            else
                fail(item.column, "numbering=" + std::string(item.value) + ": expected core-major or thread-major");
        } else if (item.key == "capacity")
            capacities = parse_value_list(item, kMaxCpus, "core", kCapacityRule);
        else if (item.key == "smt_speed")
            smt_speed = parse_value_list(item, kMaxSmt, "SMT thread", kSpeedRule);
        else if (item.key == "asym_prio")
            asym_prio = parse_value_list(item, kMaxSmt, "SMT thread", kPrioRule);
        else
            fail(item.column, "unknown key '" + std::string(item.key) +
                                  "'; expected node, pkg, llc, cluster, core, smt, arch, numbering, distance, "
                                  "asym_packing, capacity, smt_speed or asym_prio");
    }

    const int cluster_count = clusters == 0 ? cores : clusters;  // clusters per LLC
    const int cores_per_cluster = clusters == 0 ? 1 : cores;     // cores per cluster
    const long total_cores = 1L * nodes * pkgs * llcs * cluster_count * cores_per_cluster;
    const long total_cpus = total_cores * smt;
    if (total_cpus > kMaxCpus)
        fail(offset + 1, "this spec makes " + std::to_string(total_cpus) + " CPUs; a machine has at most " +
                             std::to_string(kMaxCpus));
    if (!capacities.empty() && static_cast<long>(capacities.size()) != total_cores)
        fail(seen["capacity"], "capacity gives " + std::to_string(capacities.size()) +
                                   " values; expected one per core (" + std::to_string(total_cores) + ")");
    if (!smt_speed.empty() && static_cast<int>(smt_speed.size()) != smt)
        fail(seen["smt_speed"], "smt_speed gives " + std::to_string(smt_speed.size()) +
                                    " values; expected one per SMT thread (" + std::to_string(smt) + ")");
    if (!asym_prio.empty() && static_cast<int>(asym_prio.size()) != smt)
        fail(seen["asym_prio"], "asym_prio gives " + std::to_string(asym_prio.size()) +
                                    " values; expected one per SMT thread (" + std::to_string(smt) + ")");

    m.name = "synthetic";
    m.description = std::string(kSyntheticPrefix) + std::string(body);
    m.source = "synthetic spec";
    m.node_distance.assign(static_cast<std::size_t>(nodes),
                           std::vector<int>(static_cast<std::size_t>(nodes), distance));
    for (int i = 0; i < nodes; ++i)
        m.node_distance[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] = 10;

    // Tree order: every thread with its containers, before numbering.
    std::vector<CpuTopo> threads;
    int package = 0, llc = 0, cluster = 0, core = 0;
    for (int n = 0; n < nodes; ++n)
        for (int p = 0; p < pkgs; ++p, ++package)
            for (int l = 0; l < llcs; ++l, ++llc)
                for (int c = 0; c < cluster_count; ++c, ++cluster)
                    for (int k = 0; k < cores_per_cluster; ++k, ++core)
                        for (int t = 0; t < smt; ++t) {
                            CpuTopo cpu;
                            cpu.node = n;
                            cpu.package = package;
                            cpu.llc = llc;
                            cpu.cluster = cluster;
                            cpu.core = core;
                            cpu.thread = t;
                            if (!capacities.empty())
                                cpu.capacity = static_cast<int>(capacities[static_cast<std::size_t>(core)]);
                            if (!smt_speed.empty())
                                cpu.speed = smt_speed[static_cast<std::size_t>(t)];
                            if (!asym_prio.empty())
                                cpu.asym_prio = static_cast<int>(asym_prio[static_cast<std::size_t>(t)]);
                            threads.push_back(cpu);
                        }
    if (m.numbering == CpuNumbering::ThreadMajor)
        std::stable_sort(threads.begin(), threads.end(),
                         [](const CpuTopo& a, const CpuTopo& b) { return a.thread < b.thread; });
    for (std::size_t i = 0; i < threads.size(); ++i)
        threads[i].cpu = static_cast<CpuId>(i);
    m.cpus = std::move(threads);

    // What the items' own checks cannot see; each problem once, not once per CPU.
    std::vector<Diagnostic> problems;
    std::set<std::string> seen_problems;
    for (const TopologyProblem& p : validate(m))
        if (seen_problems.insert(p.message).second)
            problems.push_back({kLabel, 1, static_cast<int>(offset + 1), "", p.message});
    if (!problems.empty())
        throw InputError(std::move(problems));
    return m;
}

}  // namespace wb
