// SPDX-License-Identifier: Apache-2.0
//
// Reading machine files (io/topology_json.h): parse_machine_json() and
// load_machine_file(). MachineReader checks the parsed JSON, collecting every
// problem with its JSON pointer, and expands the tree of specs into one record
// per CPU; JsonLocator turns pointers into line:column for the messages.
#include "io/topology_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/json_locator.h"
#include "io/json_parse.h"
#include "io/machine_file_text.h"

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

// ordered_json keeps members in file order: "cpus" overrides apply in the
// order written, and messages come out in reading order.
using Json = nlohmann::ordered_json;

// ----------------------------------------------------------------------------
// Numbers with units: `number` (the text of a JSON number as written) times
// 10^exp10, correctly rounded. format_scaled() (machine_file_text.h) is its
// exact inverse; see there why the conversion works on the text.

bool decimal_scaled(std::string_view number, int exp10, double& out)
{
    const std::size_t e = number.find_first_of("eE");
    long long exponent = 0;
    if (e != std::string_view::npos) {
        std::size_t i = e + 1;
        const bool negative = i < number.size() && number[i] == '-';
        if (i < number.size() && (number[i] == '-' || number[i] == '+'))
            ++i;
        for (; i < number.size(); ++i)
            exponent = std::min(exponent * 10 + (number[i] - '0'), 1000000LL);  // far beyond any double
        if (negative)
            exponent = -exponent;
    }
    const std::string text = std::string(number.substr(0, e)) + "e" + std::to_string(exponent + exp10);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

std::string_view kind_noun(CostKind kind)
{
    switch (kind) {
    case CostKind::Time:
        return "a time";
    case CostKind::Frequency:
        return "a frequency";
    case CostKind::Rate:
        return "a rate";
    case CostKind::Bandwidth:
        return "a bandwidth";
    case CostKind::Ratio:
        break;
    }
    return "a ratio";
}

// ----------------------------------------------------------------------------
// Words for messages.

std::string describe(const Json& v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
        std::string s = v.dump();
        if (s.size() > 42) {
            std::size_t cut = 38;
            while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
                --cut;  // not inside a UTF-8 character
            s = s.substr(0, cut) + "...\"";
        }
        return s;
    }
    case Json::value_t::array:
        return v.empty() ? "an empty array" : "an array";
    case Json::value_t::object:
        return v.empty() ? "an empty object" : "an object";
    default:
        return v.dump();
    }
}

// Edits to turn `a` into `b`, a swap of neighbours counting as one: the
// commonest typo ("nmae") should be as close as a missing letter.
std::size_t edit_distance(std::string_view a, std::string_view b)
{
    auto same = [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    };
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] =
                std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

// " (did you mean "capacity"?)" when `word` is a likely typo of one of `known`.
std::string suggestion(std::string_view word, std::span<const std::string_view> known)
{
    std::string_view best;
    if (word.size() > 64)
        return {};  // no typo of a key is that long, and the distance is quadratic
    std::size_t best_distance = (word.size() <= 4 ? 1 : 2) + 1;
    for (std::string_view k : known) {
        const std::size_t d = edit_distance(word, k);
        if (d < best_distance) {
            best_distance = d;
            best = k;
        }
    }
    return best.empty() ? std::string() : " (did you mean " + json_string(best) + "?)";
}

// "a, b, c" for lists of keys; quoted "a", "b" or "c" for a choice of values.
std::string join(std::span<const std::string_view> words, bool quoted_choice)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0)
            out += quoted_choice && i + 1 == words.size() ? " or " : ", ";
        out += quoted_choice ? json_string(words[i]) : std::string(words[i]);
    }
    return out;
}

constexpr std::string_view kArchNames[] = {"generic", "x86", "powerpc"};

// ----------------------------------------------------------------------------
// Reading: the file becomes a tree of specs (still with repeat counts), which
// is counted before it is expanded into one record per CPU.

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b)
{
    return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

// A value as read, with the pointer it came from so that validate()'s
// complaint about a CPU can be sent back to the line that set it.
template <typename T>
struct Field {
    std::optional<T> value;
    std::string from;
};

// What a THREAD, a CORE (for its threads) and a "cpus" entry may set.
struct ThreadValues {
    Field<int> capacity;
    Field<double> speed;
    Field<int> asym_prio;
};

struct ThreadSpec {
    std::string pointer;
    ThreadValues values;
    Field<long long> cpu;
};

struct CoreSpec {
    std::string pointer;
    std::uint64_t repeat = 1;
    ThreadValues defaults;
    bool listed = false;             // "threads": [...] rather than a count
    std::uint64_t thread_count = 0;  // for "threads": N
    std::vector<ThreadSpec> threads;
    std::uint64_t threads_per_core() const { return listed ? threads.size() : thread_count; }
};

enum class Level { Node, Package, Llc, Cluster };

// A node, package, LLC or cluster.
struct GroupSpec {
    std::string pointer;
    std::uint64_t repeat = 1;
    std::vector<GroupSpec> children;
    std::vector<CoreSpec> cores;   // of a cluster, or of an LLC that lists "cores"
    bool core_is_cluster = false;  // an LLC listing "cores": each is its own cluster
};

std::uint64_t cpus_in(const std::vector<CoreSpec>& cores)
{
    std::uint64_t sum = 0;
    for (const CoreSpec& core : cores)
        sum = saturating_add(sum, saturating_mul(core.repeat, core.threads_per_core()));
    return sum;
}

// Saturating, so that repeats multiplied down the tree cannot wrap around.
std::uint64_t cpus_in(const std::vector<GroupSpec>& groups)
{
    std::uint64_t sum = 0;
    for (const GroupSpec& g : groups)
        sum = saturating_add(sum, saturating_mul(g.repeat, saturating_add(cpus_in(g.children), cpus_in(g.cores))));
    return sum;
}

struct Override {
    std::string pointer;
    std::string cpulist;
    ThreadValues values;
};

// One CPU of the expanded tree.
struct Slot {
    CpuTopo topo;
    const CoreSpec* core = nullptr;
    const ThreadSpec* thread = nullptr;  // null for a thread of "threads": N
    std::string capacity_from, speed_from, asym_prio_from;

    std::string pointer() const { return thread ? thread->pointer : core->pointer + "/threads"; }
    void apply(const ThreadValues& v)
    {
        if (v.capacity.value) {
            topo.capacity = *v.capacity.value;
            capacity_from = v.capacity.from;
        }
        if (v.speed.value) {
            topo.speed = *v.speed.value;
            speed_from = v.speed.from;
        }
        if (v.asym_prio.value) {
            topo.asym_prio = *v.asym_prio.value;
            asym_prio_from = v.asym_prio.from;
        }
    }
};

struct Problem {
    std::string pointer;
    std::string message;
    bool at_key = false;  // blame the member's key, not its value
    TextPosition where;   // when already known
};

class MachineReader {
public:
    explicit MachineReader(const JsonLocator& locator) : locator_(locator) {}

    // Fills machine() from `root`; problems() is empty on success.
    void read(const Json& root);

    Machine& machine() { return machine_; }
    const std::vector<Problem>& problems() const { return problems_; }

private:
    void fail(std::string pointer, std::string message, bool at_key = false)
    {
        problems_.push_back({std::move(pointer), std::move(message), at_key, {}});
    }

    static const Json* member(const Json& object, std::string_view key)
    {
        auto it = object.find(std::string(key));
        return it == object.end() ? nullptr : &*it;
    }

    void check_keys(const Json& object, const std::string& pointer, std::span<const std::string_view> allowed);
    const Json* require(const Json& object, const std::string& pointer, std::string_view key,
                        std::string_view expected);
    std::optional<long long> integer(const Json& v, const std::string& pointer, std::string_view expected,
                                     long long min, long long max);
    std::optional<std::string> string(const Json& v, const std::string& pointer, std::string_view expected);

    void read_header(const Json& root);
    bool read_groups(const Json& list, const std::string& pointer, Level level, std::vector<GroupSpec>& out);
    bool read_cores(const Json& list, const std::string& pointer, std::vector<CoreSpec>& out);
    bool read_threads(const Json& v, const std::string& pointer, CoreSpec& core);
    void read_values(const Json& object, const std::string& pointer, ThreadValues& out);
    std::optional<std::uint64_t> read_repeat(const Json& object, const std::string& pointer);
    void read_node_distance(const Json* v, std::uint64_t nodes);
    void read_overrides(const Json& v);
    void read_idle_states(const Json& v);
    void read_costs(const Json& v);
    double scaled_number(const Json& v, const std::string& pointer, int exp10);

    void fail_cpulist(const Override& o, const CpulistParse& p)
    {
        fail(o.pointer,
             "expected a cpulist such as \"0-3,8\" as key: " + p.error + " (character " + std::to_string(p.column) +
                 " of " + json_string(o.cpulist) + ")",
             true);
    }

    void expand(const std::vector<GroupSpec>& groups, Level level, CpuTopo at);
    void expand_cores(const std::vector<CoreSpec>& cores, bool core_is_cluster, CpuTopo at);
    bool assign_ids();
    void apply_overrides();
    void report_validate_problems();

    const JsonLocator& locator_;
    Machine machine_;
    std::vector<Problem> problems_;
    std::vector<GroupSpec> nodes_;
    std::vector<Override> overrides_;
    std::vector<Slot> slots_;  // tree order while expanding, then by CPU id
    struct Counters {
        int node = 0, package = 0, llc = 0, cluster = 0, core = 0;
    } counters_;
};

void MachineReader::check_keys(const Json& object, const std::string& pointer,
                               std::span<const std::string_view> allowed)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string& key = it.key();
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
            continue;
        fail(
            pointer_append(pointer, key),
            "unknown key " + json_string(key) + suggestion(key, allowed) + "; expected one of: " + join(allowed, false),
            true);
    }
}

const Json* MachineReader::require(const Json& object, const std::string& pointer, std::string_view key,
                                   std::string_view expected)
{
    const Json* v = member(object, key);
    if (!v)
        fail(pointer_append(pointer, key),
             "missing required key " + json_string(key) + ": expected " + std::string(expected));
    return v;
}

std::optional<long long> MachineReader::integer(const Json& v, const std::string& pointer, std::string_view expected,
                                                long long min, long long max)
{
    std::optional<long long> value;
    if (v.is_number_unsigned()) {
        if (v.get<std::uint64_t>() <= static_cast<std::uint64_t>(LLONG_MAX))
            value = static_cast<long long>(v.get<std::uint64_t>());
    } else if (v.is_number_integer()) {
        value = v.get<std::int64_t>();
    }
    if (!value || *value < min || *value > max) {
        fail(pointer, "expected " + std::string(expected) + ", found " + describe(v));
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> MachineReader::string(const Json& v, const std::string& pointer, std::string_view expected)
{
    if (!v.is_string()) {
        fail(pointer, "expected " + std::string(expected) + ", found " + describe(v));
        return std::nullopt;
    }
    return v.get<std::string>();
}

double MachineReader::scaled_number(const Json& v, const std::string& pointer, int exp10)
{
    double out = 0;
    const std::string_view text = locator_.value_text(pointer);
    if (text.empty() || !decimal_scaled(text, exp10, out))
        fail(pointer, "expected a number that stays within the range of a double once converted, found " + describe(v));
    return out;
}

void MachineReader::read(const Json& root)
{
    if (!root.is_object()) {
        fail("", "expected a machine object ({\"schema_version\": 1, \"name\": ..., \"nodes\": [...]}), found " +
                     describe(root));
        return;
    }
    static constexpr std::string_view kKeys[] = {
        "schema_version", "name",          "description",           "source", "arch", "asym_packing",
        "cpu_numbering",  "node_distance", "node_reclaim_distance", "nodes",  "cpus", "idle_states",
        "costs"};
    check_keys(root, "", kKeys);
    read_header(root);

    bool tree_ok = false;
    if (const Json* nodes = require(root, "", "nodes", "an array of NODE objects"))
        tree_ok = read_groups(*nodes, "/nodes", Level::Node, nodes_);

    const std::uint64_t total = cpus_in(nodes_);
    std::uint64_t node_count = 0;
    for (const GroupSpec& node : nodes_)
        node_count = saturating_add(node_count, node.repeat);
    // Counted, not expanded: a typo of "repeat": 1000000000 must not allocate.
    if (total > static_cast<std::uint64_t>(kMaxCpus)) {
        fail("/nodes", "expected at most " + std::to_string(kMaxCpus) + " CPUs, found " +
                           (total == UINT64_MAX ? "more than " + std::to_string(UINT64_MAX) : std::to_string(total)) +
                           " (counting repeats)");
        tree_ok = false;
    }

    read_node_distance(member(root, "node_distance"), tree_ok ? node_count : 0);
    if (const Json* v = member(root, "cpus"))
        read_overrides(*v);
    if (const Json* v = member(root, "idle_states"))
        read_idle_states(*v);
    if (const Json* v = member(root, "costs"))
        read_costs(*v);

    if (!tree_ok) {
        // Still check the cpulists' syntax, against the largest machine there can be.
        for (const Override& o : overrides_)
            if (CpulistParse p = parse_cpulist(o.cpulist, kMaxCpus); !p.ok())
                fail_cpulist(o, p);
        return;
    }

    expand(nodes_, Level::Node, CpuTopo{});
    const bool ids_ok = assign_ids();
    apply_overrides();  // even with bad ids: its cpulists can be checked against the CPU count
    if (!ids_ok)
        return;
    machine_.cpus.clear();
    for (const Slot& s : slots_)
        machine_.cpus.push_back(s.topo);
    if (problems_.empty())
        report_validate_problems();
}

void MachineReader::read_header(const Json& root)
{
    if (const Json* v = require(root, "", "schema_version", "1")) {
        if (!v->is_number_integer() || v->get<std::int64_t>() != kSchemaVersion)
            fail("/schema_version", "expected 1, the only schema version this program reads, found " + describe(*v));
    }
    if (const Json* v = require(root, "", "name", std::string(kNameRule) + ", such as \"teaching-8\"")) {
        if (auto name = string(*v, "/name", kNameRule)) {
            if (valid_machine_name(*name))
                machine_.name = *name;
            else
                fail("/name", "expected " + std::string(kNameRule) + ", found " + describe(*v));
        }
    }
    if (const Json* v = require(root, "", "description", "a one-line description")) {
        if (auto text = string(*v, "/description", "a one-line description")) {
            if (text->find_first_of("\r\n") != std::string::npos)
                fail("/description", "expected a one-line description, found a text with a line break");
            machine_.description = *text;
        }
    }
    if (const Json* v = require(root, "", "source", "a string saying where the facts come from")) {
        if (auto text = string(*v, "/source", "a string saying where the facts come from"))
            machine_.source = *text;
    }
    if (const Json* v = member(root, "arch")) {
        const std::string expected = join(kArchNames, true);
        if (auto text = string(*v, "/arch", expected); text && !arch_by_name(*text, machine_.arch))
            fail("/arch", "expected " + expected + ", found " + describe(*v) + suggestion(*text, kArchNames));
    }
    if (const Json* v = member(root, "asym_packing")) {
        if (v->is_boolean())
            machine_.asym_packing = v->get<bool>();
        else
            fail("/asym_packing", "expected true or false, found " + describe(*v));
    }
    if (const Json* v = member(root, "node_reclaim_distance")) {
        if (auto d = integer(*v, "/node_reclaim_distance", "a node distance of at least 10", 10, INT_MAX))
            machine_.node_reclaim_distance = static_cast<int>(*d);
    }
    if (const Json* v = member(root, "cpu_numbering")) {
        const std::string expected = join(kNumberingNames, true);
        if (auto text = string(*v, "/cpu_numbering", expected)) {
            if (*text == kNumberingNames[0])
                machine_.numbering = CpuNumbering::CoreMajor;
            else if (*text == kNumberingNames[1])
                machine_.numbering = CpuNumbering::ThreadMajor;
            else
                fail("/cpu_numbering",
                     "expected " + expected + ", found " + describe(*v) + suggestion(*text, kNumberingNames));
        }
    }
}

std::optional<std::uint64_t> MachineReader::read_repeat(const Json& object, const std::string& pointer)
{
    const Json* v = member(object, "repeat");
    if (!v)
        return 1;
    auto n = integer(*v, pointer + "/repeat", "a repeat count of at least 1", 1, LLONG_MAX);
    if (!n)
        return std::nullopt;
    return static_cast<std::uint64_t>(*n);
}

bool MachineReader::read_groups(const Json& list, const std::string& pointer, Level level, std::vector<GroupSpec>& out)
{
    static constexpr std::string_view kNames[] = {"NODE", "PACKAGE", "LLC", "CLUSTER"};
    static constexpr std::string_view kNodeKeys[] = {"repeat", "packages"};
    static constexpr std::string_view kPackageKeys[] = {"repeat", "llcs"};
    static constexpr std::string_view kLlcKeys[] = {"repeat", "clusters", "cores"};
    static constexpr std::string_view kClusterKeys[] = {"repeat", "cores"};
    const std::string name(kNames[static_cast<int>(level)]);

    if (!list.is_array()) {
        fail(pointer, "expected an array of " + name + " objects, found " + describe(list));
        return false;
    }
    if (list.empty()) {
        fail(pointer, "expected at least one " + name + ", found an empty array");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& item = list[i];
        GroupSpec g;
        g.pointer = pointer_append(pointer, i);
        if (!item.is_object()) {
            fail(g.pointer, "expected a " + name + " object, found " + describe(item));
            ok = false;
            continue;
        }
        auto repeat = read_repeat(item, g.pointer);
        ok = ok && repeat.has_value();
        g.repeat = repeat.value_or(0);
        switch (level) {
        case Level::Node:
            check_keys(item, g.pointer, kNodeKeys);
            if (const Json* v = require(item, g.pointer, "packages", "an array of PACKAGE objects"))
                ok = read_groups(*v, g.pointer + "/packages", Level::Package, g.children) && ok;
            else
                ok = false;
            break;
        case Level::Package:
            check_keys(item, g.pointer, kPackageKeys);
            if (const Json* v = require(item, g.pointer, "llcs", "an array of LLC objects"))
                ok = read_groups(*v, g.pointer + "/llcs", Level::Llc, g.children) && ok;
            else
                ok = false;
            break;
        case Level::Llc: {
            check_keys(item, g.pointer, kLlcKeys);
            const Json* clusters = member(item, "clusters");
            const Json* cores = member(item, "cores");
            if (clusters && cores) {
                fail(g.pointer + "/cores", "expected either \"clusters\" or \"cores\" in an LLC, not both", true);
                ok = false;
            } else if (clusters) {
                ok = read_groups(*clusters, g.pointer + "/clusters", Level::Cluster, g.children) && ok;
            } else if (cores) {
                g.core_is_cluster = true;
                ok = read_cores(*cores, g.pointer + "/cores", g.cores) && ok;
            } else {
                fail(g.pointer + "/cores",
                     "missing required key \"cores\" or \"clusters\": expected an array of "
                     "CORE objects or an array of CLUSTER objects");
                ok = false;
            }
            break;
        }
        case Level::Cluster:
            check_keys(item, g.pointer, kClusterKeys);
            if (const Json* v = require(item, g.pointer, "cores", "an array of CORE objects"))
                ok = read_cores(*v, g.pointer + "/cores", g.cores) && ok;
            else
                ok = false;
            break;
        }
        out.push_back(std::move(g));
    }
    return ok;
}

bool MachineReader::read_cores(const Json& list, const std::string& pointer, std::vector<CoreSpec>& out)
{
    static constexpr std::string_view kCoreKeys[] = {"repeat", "threads", "capacity", "speed", "asym_prio"};
    if (!list.is_array()) {
        fail(pointer, "expected an array of CORE objects, found " + describe(list));
        return false;
    }
    if (list.empty()) {
        fail(pointer, "expected at least one CORE, found an empty array");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& item = list[i];
        CoreSpec core;
        core.pointer = pointer_append(pointer, i);
        if (!item.is_object()) {
            fail(core.pointer, "expected a CORE object, found " + describe(item));
            ok = false;
            continue;
        }
        check_keys(item, core.pointer, kCoreKeys);
        auto repeat = read_repeat(item, core.pointer);
        ok = ok && repeat.has_value();
        core.repeat = repeat.value_or(0);
        read_values(item, core.pointer, core.defaults);
        if (const Json* v = require(item, core.pointer, "threads",
                                    "a thread count (an integer of at least 1) or an array of THREAD objects"))
            ok = read_threads(*v, core.pointer + "/threads", core) && ok;
        else
            ok = false;
        out.push_back(std::move(core));
    }
    return ok;
}

bool MachineReader::read_threads(const Json& v, const std::string& pointer, CoreSpec& core)
{
    static constexpr std::string_view kThreadKeys[] = {"cpu", "capacity", "speed", "asym_prio"};
    if (!v.is_array()) {
        auto n = integer(v, pointer, "a thread count (an integer of at least 1) or an array of THREAD objects", 1,
                         LLONG_MAX);
        core.thread_count = n ? static_cast<std::uint64_t>(*n) : 0;
        return n.has_value();
    }
    core.listed = true;
    if (v.empty()) {
        fail(pointer, "expected at least one THREAD, found an empty array");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
        ThreadSpec t;
        t.pointer = pointer_append(pointer, i);
        if (!v[i].is_object()) {
            fail(t.pointer, "expected a THREAD object, found " + describe(v[i]));
            ok = false;
            continue;
        }
        check_keys(v[i], t.pointer, kThreadKeys);
        read_values(v[i], t.pointer, t.values);
        if (const Json* cpu = member(v[i], "cpu")) {
            t.cpu.from = t.pointer + "/cpu";
            t.cpu.value = integer(*cpu, t.cpu.from, "a CPU id (an integer of at least 0)", 0, LLONG_MAX);
            ok = ok && t.cpu.value.has_value();
        }
        core.threads.push_back(std::move(t));
    }
    return ok;
}

void MachineReader::read_values(const Json& object, const std::string& pointer, ThreadValues& out)
{
    if (const Json* v = member(object, "capacity")) {
        out.capacity.from = pointer + "/capacity";
        if (auto n = integer(*v, out.capacity.from, "a capacity from 1 to 1024", 1, 1024))
            out.capacity.value = static_cast<int>(*n);
    }
    if (const Json* v = member(object, "speed")) {
        out.speed.from = pointer + "/speed";
        if (!v->is_number() || !(v->get<double>() > 0))
            fail(out.speed.from, "expected a speed above 0 (1.0 = nominal), found " + describe(*v));
        else
            out.speed.value = v->get<double>();
    }
    if (const Json* v = member(object, "asym_prio")) {
        out.asym_prio.from = pointer + "/asym_prio";
        if (auto n = integer(*v, out.asym_prio.from, "an integer priority", INT_MIN, INT_MAX))
            out.asym_prio.value = static_cast<int>(*n);
    }
}

void MachineReader::read_node_distance(const Json* v, std::uint64_t nodes)
{
    const std::string shape = nodes > 0 ? std::to_string(nodes) + " x " + std::to_string(nodes) + " " : "square ";
    if (!v) {
        if (nodes > 1)
            fail("/node_distance", "missing required key \"node_distance\": expected a " + shape +
                                       "matrix of node distances, as the machine has " + std::to_string(nodes) +
                                       " nodes");
        machine_.node_distance = {{10}};
        return;
    }
    const std::string expected = "a " + shape + "matrix of node distances (an array of rows, one per node)";
    if (!v->is_array() || v->empty()) {
        fail("/node_distance", "expected " + expected + ", found " + describe(*v));
        return;
    }
    const std::size_t n = v->size();
    if (nodes > 0 && n != nodes)
        fail("/node_distance",
             "expected " + std::to_string(nodes) + " rows (one per node), found " + std::to_string(n));
    // Sized by what the file holds, not n x n: a hostile file of a million
    // empty rows must not make us allocate a trillion cells.
    std::vector<std::vector<int>> d(n);
    std::vector<std::vector<bool>> known(n);
    for (std::size_t a = 0; a < n; ++a) {
        const std::string row = pointer_append("/node_distance", a);
        const Json& r = (*v)[a];
        if (!r.is_array()) {
            fail(row, "expected a row of " + std::to_string(n) + " distances, found " + describe(r));
            continue;
        }
        if (r.size() != n)
            fail(row, "expected " + std::to_string(n) + " distances (one per node), found " + std::to_string(r.size()));
        for (std::size_t b = 0; b < r.size(); ++b) {
            const std::string at = pointer_append(row, b);
            auto x = integer(r[b], at,
                             a == b ? "10 (the local distance) on the diagonal" : "a remote distance greater than 10",
                             a == b ? 10 : 11, a == b ? 10 : INT_MAX);
            d[a].push_back(static_cast<int>(x.value_or(0)));
            known[a].push_back(x.has_value());
            if (x && b < a && a < known[b].size() && known[b][a] && d[b][a] != *x)
                fail(at, "expected " + std::to_string(d[b][a]) + ", the same as /node_distance/" + std::to_string(b) +
                             "/" + std::to_string(a) + " (distances are symmetric), found " + std::to_string(*x));
        }
    }
    machine_.node_distance = std::move(d);
}

void MachineReader::read_overrides(const Json& v)
{
    static constexpr std::string_view kOverrideKeys[] = {"capacity", "speed", "asym_prio"};
    if (!v.is_object()) {
        fail("/cpus",
             "expected an object of per-CPU overrides keyed by cpulist (\"0-3\": {\"capacity\": 446}), found " +
                 describe(v));
        return;
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
        Override o{pointer_append("/cpus", it.key()), it.key(), {}};
        if (!it.value().is_object()) {
            fail(o.pointer,
                 "expected an object with \"capacity\", \"speed\" or \"asym_prio\", found " + describe(it.value()));
            continue;
        }
        check_keys(it.value(), o.pointer, kOverrideKeys);
        read_values(it.value(), o.pointer, o.values);
        overrides_.push_back(std::move(o));
    }
}

void MachineReader::read_idle_states(const Json& v)
{
    static constexpr std::string_view kStateKeys[] = {"name", "exit_latency_us", "target_residency_us", "polls"};
    if (!v.is_array()) {
        fail("/idle_states", "expected an array of idle-state objects, shallowest first, found " + describe(v));
        return;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string pointer = pointer_append("/idle_states", i);
        const Json& s = v[i];
        if (!s.is_object()) {
            fail(pointer,
                 "expected an idle-state object ({\"name\": \"C1\", \"exit_latency_us\": 2, "
                 "\"target_residency_us\": 4}), found " +
                     describe(s));
            continue;
        }
        check_keys(s, pointer, kStateKeys);
        IdleState state;
        constexpr std::string_view kName = "the state's name as cpuidle gives it, such as \"C1\"";
        if (const Json* name = require(s, pointer, "name", kName)) {
            auto text = string(*name, pointer + "/name", kName);
            if (text && text->empty())
                fail(pointer + "/name", "expected " + std::string(kName) + ", found \"\"");
            state.name = text.value_or("");
        }
        const IdleState* previous = machine_.idle_states.empty() ? nullptr : &machine_.idle_states.back();
        auto read_time = [&](std::string_view key, std::string_view what, double IdleState::*field) {
            const std::string expected = "the " + std::string(what) + " in microseconds, a number from 0 to 1000000 (1 s)";
            const Json* t = require(s, pointer, key, expected);
            if (!t)
                return;
            const std::string at = pointer_append(pointer, key);
            // A second is deeper than any C-state (the deepest package states exit in ~1 ms).
            if (!t->is_number() || t->get<double>() < 0 || t->get<double>() > 1e6) {
                fail(at, "expected " + expected + ", found " + describe(*t));
                return;
            }
            state.*field = scaled_number(*t, at, 3);
            if (previous && state.*field < previous->*field)
                fail(at, "expected idle states shallowest first: " + std::string(what) + " at least " +
                             format_scaled(previous->*field, 3) + " us (the previous state's), found " + describe(*t));
        };
        read_time("exit_latency_us", "exit latency", &IdleState::exit_latency_ns);
        read_time("target_residency_us", "target residency", &IdleState::target_residency_ns);
        if (const Json* polls = member(s, "polls")) {
            if (polls->is_boolean())
                state.polls = polls->get<bool>();
            else
                fail(pointer_append(pointer, "polls"),
                     "expected true (the state watches the thread flags, as MWAIT does, so a wakeup needs no IPI) "
                     "or false, found " +
                         describe(*polls));
        }
        machine_.idle_states.push_back(std::move(state));
    }
}

void MachineReader::read_costs(const Json& v)
{
    static constexpr std::string_view kCostKeys[] = {"value", "unit", "source"};
    static const std::vector<std::string_view> kNames = [] {
        std::vector<std::string_view> names;
        for (const CostInfo& info : kCostInfo)
            names.push_back(info.name);
        return names;
    }();
    if (!v.is_object()) {
        fail("/costs",
             "expected an object of costs keyed by name ({\"context_switch\": {\"value\": 1.5, \"unit\": "
             "\"us\"}}), found " +
                 describe(v));
        return;
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string pointer = pointer_append("/costs", it.key());
        Cost cost{};
        // Retired names get a message of their own: the five fixed refill
        // costs became a working set moved by line_latency_* and
        // line_bandwidth_* (docs/model.md, "Data on the move").
        if (it.key().starts_with("cache_refill_")) {
            fail(pointer,
                 "cost " + json_string(it.key()) +
                     " no longer exists: a migrated task's refill is now its working set moved at the distance "
                     "class's line_latency_* and line_bandwidth_* (docs/costs.md); remove it and give those instead",
                 true);
            continue;
        }
        if (!cost_by_name(it.key(), cost)) {
            fail(pointer,
                 "unknown cost " + json_string(it.key()) + suggestion(it.key(), kNames) +
                     "; expected one of: " + join(kNames, false),
                 true);
            continue;
        }
        const CostInfo& info = kCostInfo[static_cast<std::size_t>(cost)];
        const std::span<const UnitScale> units = units_of(info.kind);
        std::vector<std::string_view> unit_names;
        for (const UnitScale& u : units)
            unit_names.push_back(u.unit);
        const Json& c = it.value();
        if (!c.is_object()) {
            const std::string example = units.empty()
                                            ? "{\"value\": 0.5}"
                                            : "{\"value\": 1.5, \"unit\": " + json_string(units.front().unit) + "}";
            fail(pointer, "expected an object such as " + example + ", found " + describe(c));
            continue;
        }
        check_keys(c, pointer, kCostKeys);
        const std::string unit_rule = std::string(info.name) + " is " + std::string(kind_noun(info.kind));
        int exp10 = 0;
        bool unit_ok = true;
        const Json* unit = member(c, "unit");
        if (units.empty()) {
            if (unit)
                fail(pointer + "/unit", "unexpected key \"unit\": " + unit_rule + ", a plain number without unit",
                     true);
        } else if (!unit) {
            fail(pointer + "/unit",
                 "missing required key \"unit\": expected " + join(unit_names, true) + " (" + unit_rule + ")");
            unit_ok = false;
        } else {
            auto found = std::find_if(units.begin(), units.end(), [&](const UnitScale& u) {
                return unit->is_string() && unit->get<std::string>() == u.unit;
            });
            if (found == units.end()) {
                fail(pointer + "/unit",
                     "expected " + join(unit_names, true) + " (" + unit_rule + "), found " + describe(*unit) +
                         (unit->is_string() ? suggestion(unit->get<std::string>(), unit_names) : ""));
                unit_ok = false;
            } else {
                exp10 = found->exp10;
            }
        }
        CostValue value = machine_.costs.at(cost);
        if (const Json* s = member(c, "source")) {
            if (auto text = string(*s, pointer + "/source", "a string saying where the value comes from"))
                value.source = *text;
        }
        const bool positive =
            info.kind == CostKind::Frequency || info.kind == CostKind::Rate || info.kind == CostKind::Bandwidth;
        const std::string expected = std::string(kind_noun(info.kind)) + (positive ? " above 0" : " of at least 0");
        if (const Json* n = require(c, pointer, "value", "a number, " + expected)) {
            if (!n->is_number() || (positive ? !(n->get<double>() > 0) : n->get<double>() < 0))
                fail(pointer + "/value", "expected " + expected + ", found " + describe(*n));
            else if (unit_ok) {
                value.value = scaled_number(*n, pointer + "/value", exp10);
                const CostRange range = cost_range(info.kind);
                if (!(value.value >= range.min && value.value <= range.max))
                    fail(pointer + "/value", "expected " + std::string(kind_noun(info.kind)) + " from " +
                                                 std::string(range.text) + ", found " + describe(*n) +
                                                 (unit ? " " + unit->get<std::string>() : std::string()));
            }
        }
        machine_.costs.at(cost) = value;
    }
}

void MachineReader::expand(const std::vector<GroupSpec>& groups, Level level, CpuTopo at)
{
    for (const GroupSpec& g : groups) {
        for (std::uint64_t r = 0; r < g.repeat; ++r) {
            switch (level) {
            case Level::Node:
                at.node = counters_.node++;
                break;
            case Level::Package:
                at.package = counters_.package++;
                break;
            case Level::Llc:
                at.llc = counters_.llc++;
                break;
            case Level::Cluster:
                at.cluster = counters_.cluster++;
                break;
            }
            if (g.children.empty())
                expand_cores(g.cores, g.core_is_cluster, at);
            else
                expand(g.children, static_cast<Level>(static_cast<int>(level) + 1), at);
        }
    }
}

void MachineReader::expand_cores(const std::vector<CoreSpec>& cores, bool core_is_cluster, CpuTopo at)
{
    for (const CoreSpec& core : cores) {
        for (std::uint64_t r = 0; r < core.repeat; ++r) {
            if (core_is_cluster)
                at.cluster = counters_.cluster++;
            at.core = counters_.core++;
            for (std::uint64_t t = 0; t < core.threads_per_core(); ++t) {
                Slot s;
                s.topo = at;
                s.topo.thread = static_cast<int>(t);
                s.core = &core;
                s.apply(core.defaults);
                if (core.listed) {
                    s.thread = &core.threads[t];
                    s.apply(s.thread->values);
                }
                slots_.push_back(std::move(s));
            }
        }
    }
}

// Implicit ids follow cpu_numbering; explicit ones must be given on every
// thread and name each CPU once, as the kernel's ids do.
bool MachineReader::assign_ids()
{
    const auto n = static_cast<long long>(slots_.size());
    const auto first_explicit =
        std::find_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.thread && s.thread->cpu.value; });
    if (first_explicit == slots_.end()) {
        if (machine_.numbering == CpuNumbering::ThreadMajor)
            std::stable_sort(slots_.begin(), slots_.end(),
                             [](const Slot& a, const Slot& b) { return a.topo.thread < b.topo.thread; });
        for (std::size_t i = 0; i < slots_.size(); ++i)
            slots_[i].topo.cpu = static_cast<CpuId>(i);
        return true;
    }

    const std::size_t before = problems_.size();
    const std::string range = "expected each id from 0 to " + std::to_string(n - 1) + " exactly once";
    const std::string example = first_explicit->thread->cpu.from;
    bool all_given = true;
    std::vector<std::vector<std::size_t>> users(slots_.size());
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        const Slot& s = slots_[i];
        if (!s.thread) {
            fail(s.pointer(), "expected an array of THREAD objects each with a \"cpu\" id, found " +
                                  std::to_string(s.core->thread_count) + " (this file gives CPU ids, as at " + example +
                                  ")");
            all_given = false;
        } else if (!s.thread->cpu.value) {
            all_given = false;
            if (s.thread->cpu.from.empty())
                fail(s.pointer() + "/cpu",
                     "missing required key \"cpu\": expected a CPU id on every thread, as this file gives one at " +
                         example);
        } else if (*s.thread->cpu.value >= n) {
            fail(s.thread->cpu.from, "expected a CPU id from 0 to " + std::to_string(n - 1) + " (the machine has " +
                                         std::to_string(n) + " CPUs), found " + std::to_string(*s.thread->cpu.value));
        } else {
            users[static_cast<std::size_t>(*s.thread->cpu.value)].push_back(i);
        }
    }
    CpuMask missing(static_cast<int>(n));
    for (std::size_t id = 0; id < users.size(); ++id) {
        if (users[id].empty())
            missing.set(static_cast<CpuId>(id));
        for (std::size_t k = 1; k < users[id].size(); ++k) {
            const std::string& first = slots_[users[id][0]].thread->cpu.from;
            const std::string& again = slots_[users[id][k]].thread->cpu.from;
            fail(again, "duplicate CPU id " + std::to_string(id) +
                            (first == again ? " (the element that gives it is repeated); "
                                            : ", also given at " + first + "; ") +
                            range);
        }
    }
    if (all_given && !missing.empty())
        fail("/nodes",
             "missing CPU id" + std::string(missing.weight() > 1 ? "s " : " ") + missing.to_cpulist() + ": " + range);
    if (problems_.size() != before)
        return false;
    for (Slot& s : slots_)
        s.topo.cpu = static_cast<CpuId>(*s.thread->cpu.value);
    std::sort(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) { return a.topo.cpu < b.topo.cpu; });
    return true;
}

void MachineReader::apply_overrides()
{
    const int n = static_cast<int>(slots_.size());
    for (const Override& o : overrides_) {
        CpulistParse p = parse_cpulist(o.cpulist, n);
        if (!p.ok()) {
            fail_cpulist(o, p);
        } else if (p.mask.empty()) {
            fail(o.pointer,
                 "expected a cpulist naming at least one CPU, such as \"0-3,8\", found " + json_string(o.cpulist),
                 true);
        } else {
            p.mask.for_each([&](CpuId cpu) { slots_[static_cast<std::size_t>(cpu)].apply(o.values); });
        }
    }
}

// validate() knows invariants this reader does not spell out (a speed at most
// 16, ...). Its problems name a CPU and a field; send each back to the place in
// the file that gave that CPU the value.
void MachineReader::report_validate_problems()
{
    for (const TopologyProblem& p : validate(machine_)) {
        if (p.cpu >= 0 && p.cpu < static_cast<int>(slots_.size())) {
            const Slot& s = slots_[static_cast<std::size_t>(p.cpu)];
            std::string pointer = s.pointer();
            if (p.field == "capacity" && !s.capacity_from.empty())
                pointer = s.capacity_from;
            else if (p.field == "speed" && !s.speed_from.empty())
                pointer = s.speed_from;
            else if (p.field == "asym_prio" && !s.asym_prio_from.empty())
                pointer = s.asym_prio_from;
            else if (p.field == "cpu" && s.thread && s.thread->cpu.value)
                pointer = s.thread->cpu.from;
            fail(pointer, "CPU " + std::to_string(p.cpu) + ": " + p.message);
        } else if (p.field.starts_with("node_distance")) {
            fail("/" + p.field, p.message);
        } else {
            fail("/nodes", p.message);
        }
    }
}

}  // namespace

Machine parse_machine_json(std::string_view text, const std::string& file_label)
{
    const Json root = parse_json_text<Json>(text, file_label);

    const JsonLocator locator(text);
    MachineReader reader(locator);
    reader.read(root);

    std::vector<Problem> problems = reader.problems();
    for (const JsonLocator::Duplicate& d : locator.duplicates())
        problems.push_back({d.pointer, "duplicate key: a key may appear only once in an object", true, d.key});
    if (problems.empty())
        return std::move(reader.machine());

    std::vector<Diagnostic> diagnostics;
    std::unordered_set<std::string> seen;
    for (const Problem& p : problems) {
        const TextPosition at = p.where.line > 0 ? p.where
                                : p.at_key       ? locator.locate_key(p.pointer)
                                                 : locator.locate(p.pointer);
        // A repeated element reports the same fault once per copy; once is enough.
        if (seen.insert(p.pointer + '\n' + p.message).second)
            diagnostics.push_back({file_label, at.line, at.column, p.pointer, p.message});
    }
    throw_in_reading_order(std::move(diagnostics));
}

Machine load_machine_file(const std::string& path)
{
    return parse_machine_json(read_input_file(path, "machine file"), path);
}

}  // namespace wb
