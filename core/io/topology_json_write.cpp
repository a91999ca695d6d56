// SPDX-License-Identifier: Apache-2.0
//
// Writing machine files (io/topology_json.h): machine_to_json() and
// save_machine_file(). The machine is rendered through a small document model
// of our own, compact (repeat, implicit CPU ids) when that reads back equal,
// and checked by reading it back with parse_machine_json().
#include "io/topology_json.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "io/input_error.h"
#include "io/machine_file_text.h"
#include "io/output_file.h"

namespace wb {

namespace {

using machine_file_text::format_scaled;
using machine_file_text::json_string;
using machine_file_text::kNameRule;
using machine_file_text::kNumberingNames;
using machine_file_text::kSchemaVersion;
using machine_file_text::units_of;
using machine_file_text::UnitScale;
using machine_file_text::valid_machine_name;

// ----------------------------------------------------------------------------
// Writing. A small document model of our own rather than nlohmann's, because
// numbers must be written as chosen text (format_scaled) and short arrays kept
// on one line, which nlohmann's dump() does not do.

struct OutMember;

struct Out {
    enum class Kind { Scalar, Array, Object };
    Kind kind = Kind::Scalar;
    std::string text;              // a scalar's JSON text
    std::vector<OutMember> items;  // keys are empty in arrays

    // Defined below OutMember: clang instantiates the vector where a body
    // uses it, and it needs its element complete there.
    static Out scalar(std::string t);
    static Out number(long long n);
    static Out string(std::string_view s);
    static Out array();
    static Out object();
    Out& add(std::string key, Out v);
};

// Not a std::pair: with clang and libstdc++ a pair holding the type it is a
// member of is instantiated before that type is complete, and fails.
struct OutMember {
    std::string key;
    Out value;
};

Out Out::scalar(std::string t)
{
    return {Kind::Scalar, std::move(t), {}};
}
Out Out::number(long long n)
{
    return scalar(std::to_string(n));
}
Out Out::string(std::string_view s)
{
    return scalar(json_string(s));
}
Out Out::array()
{
    return {Kind::Array, {}, {}};
}
Out Out::object()
{
    return {Kind::Object, {}, {}};
}

Out& Out::add(std::string key, Out v)
{
    items.push_back({std::move(key), std::move(v)});
    return *this;
}

int depth(const Out& v)
{
    int deepest = 0;
    for (const auto& [key, child] : v.items)
        deepest = std::max(deepest, depth(child));
    return v.kind == Out::Kind::Scalar ? 0 : deepest + 1;
}

std::string flat(const Out& v)
{
    if (v.kind == Out::Kind::Scalar)
        return v.text;
    const bool object = v.kind == Out::Kind::Object;
    std::string s = object ? "{" : "[";
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0)
            s += ", ";
        if (object)
            s += json_string(v.items[i].key) + ": ";
        s += flat(v.items[i].value);
    }
    return s + (object ? "}" : "]");
}

// Small things (a core, a cost, a distance row) on one line, the rest one
// member per line: a file for people to read and diff.
void render(const Out& v, std::size_t indent, std::size_t used, std::string& s)
{
    constexpr std::size_t kWidth = 100;
    std::string line = flat(v);
    if (v.kind == Out::Kind::Scalar || v.items.empty() || (depth(v) <= 3 && used + line.size() <= kWidth)) {
        s += line;
        return;
    }
    const bool object = v.kind == Out::Kind::Object;
    const std::string pad(indent + 2, ' ');
    s += object ? "{\n" : "[\n";
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        s += pad;
        std::size_t width = pad.size();
        if (object) {
            const std::string key = json_string(v.items[i].key) + ": ";
            s += key;
            width += key.size();
        }
        render(v.items[i].value, indent + 2, width, s);
        s += i + 1 < v.items.size() ? ",\n" : "\n";
    }
    s += std::string(indent, ' ') + (object ? "}" : "]");
}

// Runs of identical siblings become one element with "repeat".
Out repeated(std::vector<Out> items)
{
    Out list = Out::array();
    for (std::size_t i = 0; i < items.size();) {
        const std::string text = flat(items[i]);
        std::size_t j = i + 1;
        while (j < items.size() && flat(items[j]) == text)
            ++j;
        Out item = std::move(items[i]);
        if (j - i > 1)
            item.items.insert(item.items.begin(), {"repeat", Out::number(static_cast<long long>(j - i))});
        list.add("", std::move(item));
        i = j;
    }
    return list;
}

using Cpus = std::vector<const CpuTopo*>;

// Consecutive runs of `cpus` (sorted in tree order) sharing the container `level`.
std::vector<Cpus> split(const Cpus& cpus, int CpuTopo::*level)
{
    std::vector<Cpus> runs;
    for (const CpuTopo* c : cpus) {
        if (runs.empty() || runs.back().front()->*level != c->*level)
            runs.emplace_back();
        runs.back().push_back(c);
    }
    return runs;
}

void add_values(Out& o, const CpuTopo& c)
{
    if (c.capacity != 1024)
        o.add("capacity", Out::number(c.capacity));
    if (c.speed != 1.0)
        o.add("speed", Out::scalar(format_scaled(c.speed, 0)));
    if (c.asym_prio != 0)
        o.add("asym_prio", Out::number(c.asym_prio));
}

Out core_out(const Cpus& threads, bool explicit_ids)
{
    const CpuTopo& first = *threads.front();
    const bool uniform = std::all_of(threads.begin(), threads.end(), [&](const CpuTopo* t) {
        return t->capacity == first.capacity && t->speed == first.speed && t->asym_prio == first.asym_prio;
    });
    Out core = Out::object();
    if (uniform && !explicit_ids) {
        core.add("threads", Out::number(static_cast<long long>(threads.size())));
    } else {
        Out list = Out::array();
        for (const CpuTopo* t : threads) {
            Out thread = Out::object();
            if (explicit_ids)
                thread.add("cpu", Out::number(t->cpu));
            if (!uniform)
                add_values(thread, *t);
            list.add("", std::move(thread));
        }
        core.add("threads", std::move(list));
    }
    if (uniform)
        add_values(core, first);
    return core;
}

template <typename F>
Out list_of(const std::vector<Cpus>& runs, F make)
{
    std::vector<Out> items;
    for (const Cpus& run : runs)
        items.push_back(make(run));
    return repeated(std::move(items));
}

Out nodes_out(const Machine& m, bool explicit_ids)
{
    Cpus cpus;
    for (const CpuTopo& c : m.cpus)
        cpus.push_back(&c);
    std::stable_sort(cpus.begin(), cpus.end(), [](const CpuTopo* a, const CpuTopo* b) {
        return std::tie(a->node, a->package, a->llc, a->cluster, a->core, a->thread) <
               std::tie(b->node, b->package, b->llc, b->cluster, b->core, b->thread);
    });
    auto cores = [&](const Cpus& run) {
        return list_of(split(run, &CpuTopo::core), [&](const Cpus& r) { return core_out(r, explicit_ids); });
    };
    return list_of(split(cpus, &CpuTopo::node), [&](const Cpus& node) {
        return Out::object().add(
            "packages", list_of(split(node, &CpuTopo::package), [&](const Cpus& package) {
                return Out::object().add(
                    "llcs", list_of(split(package, &CpuTopo::llc), [&](const Cpus& llc) {
                        const std::vector<Cpus> clusters = split(llc, &CpuTopo::cluster);
                        const bool one_core_each = std::all_of(clusters.begin(), clusters.end(), [](const Cpus& c) {
                            return split(c, &CpuTopo::core).size() == 1;
                        });
                        if (one_core_each)
                            return Out::object().add("cores", cores(llc));
                        return Out::object().add("clusters", list_of(clusters, [&](const Cpus& cluster) {
                                                     return Out::object().add("cores", cores(cluster));
                                                 }));
                    }));
            }));
    });
}

std::string render_machine(const Machine& m, bool explicit_ids)
{
    Out root = Out::object();
    root.add("schema_version", Out::number(kSchemaVersion));
    root.add("name", Out::string(m.name));
    root.add("description", Out::string(m.description));
    root.add("source", Out::string(m.source));
    root.add("arch", Out::string(arch_name(m.arch)));
    if (m.asym_packing)
        root.add("asym_packing", Out::scalar("true"));
    root.add("cpu_numbering", Out::string(kNumberingNames[m.numbering == CpuNumbering::CoreMajor ? 0 : 1]));
    Out distance = Out::array();
    for (const std::vector<int>& row : m.node_distance) {
        Out r = Out::array();
        for (int d : row)
            r.add("", Out::number(d));
        distance.add("", std::move(r));
    }
    root.add("node_distance", std::move(distance));
    if (m.node_reclaim_distance != Machine().node_reclaim_distance)
        root.add("node_reclaim_distance", Out::number(m.node_reclaim_distance));
    root.add("nodes", nodes_out(m, explicit_ids));
    if (!m.idle_states.empty()) {
        Out states = Out::array();
        for (const IdleState& s : m.idle_states) {
            Out state = Out::object()
                            .add("name", Out::string(s.name))
                            .add("exit_latency_us", Out::scalar(format_scaled(s.exit_latency_ns, 3)))
                            .add("target_residency_us", Out::scalar(format_scaled(s.target_residency_ns, 3)));
            if (s.polls)
                state.add("polls", Out::scalar("true"));
            states.add("", std::move(state));
        }
        root.add("idle_states", std::move(states));
    }
    Out costs = Out::object();
    const CostModel defaults;
    for (std::size_t i = 0; i < kCostCount; ++i) {
        const CostValue& c = m.costs.values[i];
        if (c == defaults.values[i])
            continue;
        const CostKind kind = kCostInfo[i].kind;
        // The largest unit that keeps the number at 1 or more: 1.5 us, not 1500 ns.
        UnitScale unit{"", 0};
        for (const UnitScale& u : units_of(kind))
            if (unit.unit.empty() || (kind == CostKind::Time && std::fabs(c.value) >= std::pow(10.0, u.exp10)))
                unit = u;
        Out cost = Out::object().add("value", Out::scalar(format_scaled(c.value, unit.exp10)));
        if (!unit.unit.empty())
            cost.add("unit", Out::string(unit.unit));
        if (!c.source.empty())
            cost.add("source", Out::string(c.source));
        costs.add(std::string(kCostInfo[i].name), std::move(cost));
    }
    if (!costs.items.empty())
        root.add("costs", std::move(costs));
    std::string s;
    render(root, 0, 0, s);
    return s + '\n';
}

// A file numbers containers depth-first; a machine numbered otherwise (an
// importer numbering by first appearance on an interleaved machine) would
// read back with other indexes, so it is refused rather than silently changed.
std::vector<std::string> tree_order_problems(const Machine& m)
{
    std::vector<const CpuTopo*> cpus;
    for (const CpuTopo& c : m.cpus)
        cpus.push_back(&c);
    std::stable_sort(cpus.begin(), cpus.end(), [](const CpuTopo* a, const CpuTopo* b) {
        return std::tie(a->node, a->package, a->llc, a->cluster, a->core, a->thread) <
               std::tie(b->node, b->package, b->llc, b->cluster, b->core, b->thread);
    });
    struct Container {
        int CpuTopo::*member;
        const char* name;
        int next = 0;
        bool reported = false;
    };
    Container levels[] = {{&CpuTopo::node, "node"},
                          {&CpuTopo::package, "package"},
                          {&CpuTopo::llc, "llc"},
                          {&CpuTopo::cluster, "cluster"},
                          {&CpuTopo::core, "core"}};
    std::vector<std::string> problems;
    const CpuTopo* prev = nullptr;
    for (const CpuTopo* c : cpus) {
        for (Container& l : levels) {
            if (prev && prev->*l.member == c->*l.member)
                continue;
            if (c->*l.member != l.next && !l.reported) {
                problems.push_back("CPU " + std::to_string(c->cpu) + " is in " + l.name + " " +
                                   std::to_string(c->*l.member) + " where tree order expects " + l.name + " " +
                                   std::to_string(l.next) + "; expected " + l.name +
                                   " indexes numbered depth-first, as a machine file numbers them");
                l.reported = true;
            }
            l.next = c->*l.member + 1;
        }
        const int expected_thread = (prev && prev->core == c->core) ? prev->thread + 1 : 0;
        if (c->thread != expected_thread)
            problems.push_back("CPU " + std::to_string(c->cpu) + " is thread " + std::to_string(c->thread) +
                               " of core " + std::to_string(c->core) + "; expected thread " +
                               std::to_string(expected_thread) + " (threads of a core numbered from 0)");
        prev = c;
    }
    return problems;
}

std::string to_machine_file(const Machine& m, const std::string& label)
{
    std::vector<Diagnostic> problems;
    auto problem = [&](std::string pointer, std::string message) {
        problems.push_back(
            {label, 0, 0, std::move(pointer), "cannot be written as a machine file: " + std::move(message)});
    };
    for (const TopologyProblem& p : validate(m))
        problem("",
                (p.cpu != kNoCpu ? "CPU " + std::to_string(p.cpu) + ": " : std::string()) + p.field + ": " + p.message);
    if (!valid_machine_name(m.name))
        problem("/name", "expected " + std::string(kNameRule) + ", found " + json_string(m.name));
    if (problems.empty())
        for (std::string& p : tree_order_problems(m))
            problem("/nodes", std::move(p));
    if (!problems.empty())
        throw InputError(std::move(problems));

    // The brief form when it reads back as this machine, else every id spelled
    // out; reading back also catches anything the checks above do not.
    std::vector<Diagnostic> reread;
    for (bool explicit_ids : {false, true}) {
        std::string text = render_machine(m, explicit_ids);
        try {
            if (parse_machine_json(text, label + " (as written)") == m)
                return text;
        } catch (const InputError& e) {
            reread = e.diagnostics();
        }
    }
    if (reread.empty())
        reread.push_back({label, 0, 0, "", "the written form does not read back as the same machine"});
    for (Diagnostic& d : reread)
        d.message = "cannot be written as a machine file: " + d.message;
    throw InputError(std::move(reread));
}

}  // namespace

std::string machine_to_json(const Machine& machine)
{
    return to_machine_file(machine, "machine " + json_string(machine.name));
}

void save_machine_file(const Machine& machine, const std::string& path)
{
    write_output_file(path, to_machine_file(machine, path));
}

}  // namespace wb
