// SPDX-License-Identifier: Apache-2.0
#include "io/sysfs_import.h"

#include "io/input_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

namespace wb {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Reading the tree.

namespace {

using import_detail::Fact;
using import_detail::ImportedCpu;

std::string trim(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

// "cpu12" -> 12; nullopt for cpufreq, cpuidle, ... The same for "node3" and "index2".
std::optional<int> numbered(const std::string& name, std::string_view prefix)
{
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        !std::isdigit(static_cast<unsigned char>(name[prefix.size()])))
        return std::nullopt;
    int value = 0;
    const char* begin = name.data() + prefix.size();
    const char* end = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc{} || ptr != end)
        return std::nullopt;
    return value;
}

// Whether an error from the file system means "not there", as opposed to
// "there, but it cannot be followed" (a symbolic link loop, a permission).
bool is_absence(const std::error_code& ec)
{
    return ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
}

// The numbers of dir's PREFIXn subdirectories. One that cannot be followed
// is an error in `errors`, not a directory that is not there.
std::vector<int> numbered_entries(const fs::path& dir, std::string_view prefix, std::vector<Diagnostic>& errors)
{
    std::vector<int> ids;
    std::error_code ec;
    auto cannot_follow = [&](const fs::path& p) {
        errors.push_back({p.string(), 0, 0, {}, "cannot be read: " + ec.message() + "; expected a directory"});
    };
    fs::directory_iterator it(dir, ec);
    if (ec && !is_absence(ec))
        cannot_follow(dir);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::optional<int> id = numbered(it->path().filename().string(), prefix);
        if (!id)
            continue;
        const bool directory = it->is_directory(ec);
        if (ec && !is_absence(ec))
            cannot_follow(it->path());
        else if (directory)
            ids.push_back(*id);
        ec.clear();  // for the iterator's own next step
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

struct MaskFact {
    CpuMask mask;
    Diagnostic where;
};

// One import: the paths, and every problem and fall-back found on the way.
class SysfsTree {
public:
    explicit SysfsTree(const std::string& root)
        : label_(root.empty() ? "/" : root),
          cpu_dir_(fs::path(label_) / "sys/devices/system/cpu"),
          node_dir_(fs::path(label_) / "sys/devices/system/node"),
          root_(label_)
    {
    }

    ImportResult run();

private:
    // A path that is there but cannot be followed (a symbolic link loop) is
    // no missing file: it counts as there, and reading it says what is wrong.
    bool exists(const fs::path& p) const
    {
        std::error_code ec;
        const fs::file_status status = fs::status(p, ec);
        return ec ? !is_absence(ec) : fs::exists(status);
    }
    static Diagnostic at(const fs::path& p, int line = 0, int column = 0) { return {p.string(), line, column, {}, {}}; }
    [[noreturn]] static void fail(const fs::path& p, std::string message)
    {
        throw InputError(Diagnostic{p.string(), 0, 0, {}, std::move(message)});
    }
    void error(const fs::path& p, int column, std::string message)
    {
        errors_.push_back({p.string(), 1, column, {}, std::move(message)});
    }

    std::optional<std::string> read(const fs::path& p, std::string_view what = "sysfs attribute");
    std::optional<long> read_int(const fs::path& p);
    std::optional<CpuMask> read_cpulist(const fs::path& p);
    void throw_if_errors()
    {
        if (!errors_.empty())
            throw InputError(std::move(errors_));
    }

    CpuMask online_cpus();
    void read_cores(std::vector<ImportedCpu>& cpus);
    void read_packages(std::vector<ImportedCpu>& cpus);
    void read_clusters(std::vector<ImportedCpu>& cpus);
    void read_llcs(std::vector<ImportedCpu>& cpus);
    void read_capacities(std::vector<ImportedCpu>& cpus);
    void read_nodes(std::vector<ImportedCpu>& cpus);
    void check_groups(std::map<CpuId, MaskFact>& masks, const char* what);
    static Fact mask_fact(const MaskFact& f)
    {
        return {(f.mask.weight() == 1 ? "CPU " : "CPUs ") + f.mask.to_cpulist(), f.where};
    }
    std::vector<std::vector<int>> node_distances(const std::vector<std::string>& node_keys);
    Arch guess_arch();

    std::string label_;
    fs::path cpu_dir_, node_dir_, root_;
    CpuMask online_;
    std::vector<Diagnostic> errors_;
    std::vector<std::string> warnings_;
    // Kernel node id -> its directory's position among the online nodes,
    // which is the column of its entry in every nodeN/distance file.
    std::map<int, std::size_t> node_column_;
    std::map<std::string, int> node_id_of_key_;  // "node 2" -> 2
    bool nodes_defaulted_ = false;
};

std::optional<std::string> SysfsTree::read(const fs::path& p, std::string_view what)
{
    try {
        return read_input_file(p.string(), what, kMaxAttributeBytes);
    } catch (const InputError& e) {
        error(p, 0, e.diagnostics().front().message);
        return std::nullopt;
    }
}

std::optional<long> SysfsTree::read_int(const fs::path& p)
{
    std::optional<std::string> text = read(p);
    if (!text)
        return std::nullopt;
    std::string value = trim(*text);
    long out = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (value.empty() || ec != std::errc{} || ptr != value.data() + value.size()) {
        std::size_t lead = text->find_first_not_of(" \t\n");
        error(p, static_cast<int>(lead == std::string::npos ? 1 : lead + 1),
              "expected an integer, found \"" + value + "\"");
        return std::nullopt;
    }
    return out;
}

std::optional<CpuMask> SysfsTree::read_cpulist(const fs::path& p)
{
    std::optional<std::string> text = read(p);
    if (!text)
        return std::nullopt;
    std::string_view body = *text;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
        body.remove_suffix(1);
    CpulistParse parse = parse_cpulist(body, kMaxCpus);
    if (!parse.ok()) {
        error(p, static_cast<int>(parse.column),
              parse.error + " in the CPU list \"" + std::string(body) +
                  "\" (expected the kernel's cpulist syntax, such as 0-3,8-11)");
        return std::nullopt;
    }
    return parse.mask;
}

CpuMask SysfsTree::online_cpus()
{
    std::error_code ec;
    if (!fs::is_directory(cpu_dir_, ec))
        fail(cpu_dir_, "expected the kernel's CPU directory: is " + label_ +
                           " the root of a copied sysfs tree (holding sys/devices/system/cpu)?");
    std::vector<int> dirs = numbered_entries(cpu_dir_, "cpu", errors_);
    throw_if_errors();
    if (dirs.empty())
        fail(cpu_dir_, "expected cpu0, cpu1 ... directories, one per CPU; found none");
    CpuMask present(kMaxCpus);
    for (int id : dirs) {
        if (id >= kMaxCpus)
            fail(cpu_dir_ / ("cpu" + std::to_string(id)), "expected CPU ids below " + std::to_string(kMaxCpus));
        present.set(id);
    }

    fs::path online_file = cpu_dir_ / "online";
    if (!exists(online_file)) {
        warnings_.push_back(online_file.string() + " is missing: every cpuN directory is taken for an online CPU.");
        return present;
    }
    std::optional<CpuMask> online = read_cpulist(online_file);
    throw_if_errors();
    CpuMask missing = *online;
    missing.and_not(present);
    if (!missing.empty())
        error(online_file, 0,
              "lists CPUs " + missing.to_cpulist() + " as online, but there is no directory for them in " +
                  cpu_dir_.string());
    if (online->empty())
        error(online_file, 0, "expected at least one online CPU, found an empty list");
    throw_if_errors();
    return *online;
}

// Groups read from per-CPU masks must agree: cpu0 listing 0,16 while cpu16
// lists 16 alone is no core. The mask is also clipped to the online CPUs,
// since offline CPUs are not imported.
void SysfsTree::check_groups(std::map<CpuId, MaskFact>& masks, const char* what)
{
    for (auto& [cpu, f] : masks)
        f.mask &= online_;
    std::set<CpuId> reported;
    for (const auto& entry : masks) {
        // Named, not bound: clang before 16 cannot capture a structured binding.
        const CpuId cpu = entry.first;
        const MaskFact& f = entry.second;
        if (!f.mask.test(cpu)) {
            Diagnostic d = f.where;
            d.message = "expected the list to include CPU " + std::to_string(cpu) + " itself, found \"" +
                        f.mask.to_cpulist() + "\"";
            errors_.push_back(std::move(d));
            continue;
        }
        f.mask.for_each([&](CpuId other) {
            const MaskFact& theirs = masks.at(other);
            if (other == cpu || theirs.mask == f.mask || !reported.insert(other).second)
                return;
            Diagnostic d = theirs.where;
            d.message = "gives CPUs " + theirs.mask.to_cpulist() + ", but " + f.where.file + " puts CPU " +
                        std::to_string(other) + " in the " + what + " of CPUs " + f.mask.to_cpulist() +
                        "; expected every CPU of a " + what + " to list the same CPUs";
            errors_.push_back(std::move(d));
        });
    }
}

void SysfsTree::read_cores(std::vector<ImportedCpu>& cpus)
{
    // core_cpus_list is the current name, thread_siblings_list the one older
    // kernels have; both are the SMT siblings.
    const std::size_t errors_before = errors_.size();
    std::map<CpuId, MaskFact> masks;
    std::optional<fs::path> missing;
    for (const ImportedCpu& c : cpus) {
        fs::path topo = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "topology";
        fs::path p = topo / "core_cpus_list";
        if (!exists(p))
            p = topo / "thread_siblings_list";
        if (!exists(p)) {
            missing = p;
            break;
        }
        if (std::optional<CpuMask> mask = read_cpulist(p))
            masks[c.id] = {*mask, at(p, 1)};
    }
    if (!missing) {
        if (errors_.size() != errors_before)
            return;
        check_groups(masks, "core");
        for (ImportedCpu& c : cpus)
            c.core = mask_fact(masks.at(c.id));
        return;
    }
    // Without sibling lists, core_id numbers cores within a package (x86) or
    // a cluster (arm64 device trees), so it only names a core with the package.
    bool by_core_id = true;
    for (ImportedCpu& c : cpus) {
        fs::path p = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "topology/core_id";
        if (!exists(p)) {
            by_core_id = false;
            break;
        }
        if (std::optional<long> id = read_int(p))
            c.core = {c.package.key + " core " + std::to_string(*id), at(p, 1)};
    }
    if (by_core_id) {
        warnings_.push_back(missing->string() +
                            " (and core_cpus_list) is missing: cores come from physical_package_id and core_id.");
        return;
    }
    warnings_.push_back(missing->string() +
                        " (and core_cpus_list, core_id) is missing: each CPU is its own core, without SMT.");
    for (ImportedCpu& c : cpus)
        c.core = {"CPU " + std::to_string(c.id), at(cpu_dir_ / ("cpu" + std::to_string(c.id)))};
}

void SysfsTree::read_packages(std::vector<ImportedCpu>& cpus)
{
    // physical_package_id is -1 on arm64 device-tree kernels that know no
    // sockets; the package masks still group the CPUs.
    const std::size_t errors_before = errors_.size();
    std::optional<fs::path> missing;
    for (ImportedCpu& c : cpus) {
        fs::path p = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "topology/physical_package_id";
        std::optional<long> id = exists(p) ? read_int(p) : std::nullopt;
        if (id && *id >= 0) {
            c.package = {"package " + std::to_string(*id), at(p, 1)};
        } else if (!id && exists(p)) {
            return;  // unparsable: reported
        } else {
            missing = p;
            break;
        }
    }
    if (!missing)
        return;

    std::map<CpuId, MaskFact> masks;
    for (const ImportedCpu& c : cpus) {
        fs::path topo = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "topology";
        fs::path p = exists(topo / "package_cpus_list") ? topo / "package_cpus_list" : topo / "core_siblings_list";
        if (!exists(p)) {
            warnings_.push_back(missing->string() + " is missing or -1, and so is " + p.string() +
                                ": all CPUs are in one package.");
            for (ImportedCpu& d : cpus)
                d.package = {"package 0", at(cpu_dir_)};
            return;
        }
        if (std::optional<CpuMask> mask = read_cpulist(p))
            masks[c.id] = {*mask, at(p, 1)};
    }
    if (errors_.size() != errors_before)
        return;
    check_groups(masks, "package");
    for (ImportedCpu& c : cpus)
        c.package = mask_fact(masks.at(c.id));
}

void SysfsTree::read_clusters(std::vector<ImportedCpu>& cpus)
{
    const std::size_t errors_before = errors_.size();
    std::map<CpuId, MaskFact> masks;
    for (const ImportedCpu& c : cpus) {
        fs::path p = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "topology/cluster_cpus_list";
        if (!exists(p)) {
            warnings_.push_back(p.string() +
                                " is missing (kernels before 5.16 have none): each core is its own cluster.");
            for (ImportedCpu& d : cpus)
                d.cluster = d.core;
            return;
        }
        if (std::optional<CpuMask> mask = read_cpulist(p))
            masks[c.id] = {*mask, at(p, 1)};
    }
    if (errors_.size() != errors_before)
        return;
    check_groups(masks, "cluster");
    for (ImportedCpu& c : cpus)
        c.cluster = mask_fact(masks.at(c.id));
}

// The LLC is the highest-level unified cache (a data cache if a CPU has no
// unified one), as cacheinfo's shared_cpu_list tells who shares it.
void SysfsTree::read_llcs(std::vector<ImportedCpu>& cpus)
{
    const std::size_t errors_before = errors_.size();
    std::map<CpuId, MaskFact> masks;
    for (const ImportedCpu& c : cpus) {
        fs::path cache = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "cache";
        std::optional<fs::path> best;
        long best_rank = -1;
        for (int index : numbered_entries(cache, "index", errors_)) {
            fs::path dir = cache / ("index" + std::to_string(index));
            std::optional<std::string> type = read(dir / "type");
            std::optional<long> level = read_int(dir / "level");
            if (!type || !level)
                continue;
            std::string kind = trim(*type);
            long rank = kind == "Unified" ? 1000 + *level : kind == "Data" ? *level : -1;
            if (rank > best_rank) {
                best_rank = rank;
                best = dir;
            }
        }
        if (!best) {
            if (errors_.size() != errors_before)
                return;
            std::string why = exists(cache) ? " has no data or unified cache (index*/type)" : " is missing";
            warnings_.push_back(cache.string() + why + ": each package is one LLC.");
            for (ImportedCpu& d : cpus)
                d.llc = d.package;
            return;
        }
        fs::path p = *best / "shared_cpu_list";
        if (std::optional<CpuMask> mask = read_cpulist(p))
            masks[c.id] = {*mask, at(p, 1)};
    }
    if (errors_.size() != errors_before)
        return;
    check_groups(masks, "LLC");
    for (ImportedCpu& c : cpus)
        c.llc = mask_fact(masks.at(c.id));
}

void SysfsTree::read_capacities(std::vector<ImportedCpu>& cpus)
{
    // Only architectures with asymmetric CPUs (arm64, riscv) export
    // cpu_capacity; everywhere else arch_scale_cpu_capacity() is 1024.
    std::optional<fs::path> missing;
    bool any = false;
    for (ImportedCpu& c : cpus) {
        fs::path p = cpu_dir_ / ("cpu" + std::to_string(c.id)) / "cpu_capacity";
        if (!exists(p)) {
            missing = missing ? missing : p;
            continue;
        }
        any = true;
        if (std::optional<long> cap = read_int(p)) {
            if (*cap < 1 || *cap > 1024)
                error(p, 1, "expected a capacity from 1 to 1024, found " + std::to_string(*cap));
            else
                c.capacity = static_cast<int>(*cap);
        }
    }
    if (any && missing)
        warnings_.push_back(missing->string() +
                            " is missing while other CPUs have one: CPUs without it get capacity 1024.");
}

void SysfsTree::read_nodes(std::vector<ImportedCpu>& cpus)
{
    const std::size_t errors_before = errors_.size();
    std::vector<int> dirs = numbered_entries(node_dir_, "node", errors_);
    if (errors_.size() != errors_before)
        return;
    if (dirs.empty()) {
        warnings_.push_back(node_dir_.string() +
                            " is missing or has no nodeN directory: all CPUs are on one NUMA node.");
        for (ImportedCpu& c : cpus)
            c.node = {"node 0", at(node_dir_)};
        node_id_of_key_["node 0"] = 0;
        node_column_[0] = 0;
        nodes_defaulted_ = true;
        return;
    }
    // Each nodeN/distance lists one entry per online node, in node order, not
    // per node id: with nodes 0 and 2 online, node0/distance is "10 20".
    fs::path online_file = node_dir_ / "online";
    std::vector<int> online_nodes = dirs;
    if (exists(online_file)) {
        if (std::optional<CpuMask> mask = read_cpulist(online_file))
            online_nodes = mask->to_vector();
        if (errors_.size() != errors_before)
            return;
    }
    for (std::size_t i = 0; i < online_nodes.size(); ++i)
        node_column_[online_nodes[i]] = i;

    std::map<CpuId, std::pair<int, fs::path>> node_of;
    for (int node : online_nodes) {
        fs::path p = node_dir_ / ("node" + std::to_string(node)) / "cpulist";
        std::optional<CpuMask> mask = read_cpulist(p);
        if (!mask)
            continue;
        *mask &= online_;
        if (mask->empty()) {
            warnings_.push_back(p.string() + " holds no online CPU: node " + std::to_string(node) +
                                " (memory only, or all its CPUs offline) is left out.");
            continue;
        }
        node_id_of_key_["node " + std::to_string(node)] = node;
        mask->for_each([&](CpuId cpu) {
            auto [it, inserted] = node_of.try_emplace(cpu, node, p);
            if (!inserted)
                error(p, 0,
                      "puts CPU " + std::to_string(cpu) + " in node " + std::to_string(node) + ", but " +
                          it->second.second.string() + " puts it in node " + std::to_string(it->second.first) +
                          "; expected each CPU in one node");
        });
    }
    if (errors_.size() != errors_before)
        return;
    for (ImportedCpu& c : cpus) {
        auto it = node_of.find(c.id);
        if (it == node_of.end()) {
            errors_.push_back({node_dir_.string(),
                               0,
                               0,
                               {},
                               "CPU " + std::to_string(c.id) +
                                   " is online but in no node's cpulist; expected every "
                                   "online CPU in one node"});
            continue;
        }
        c.node = {"node " + std::to_string(it->second.first), at(it->second.second, 1)};
    }
}

std::vector<std::vector<int>> SysfsTree::node_distances(const std::vector<std::string>& node_keys)
{
    std::vector<int> kernel_ids;
    for (const std::string& key : node_keys)
        kernel_ids.push_back(node_id_of_key_.at(key));
    const std::size_t n = kernel_ids.size();
    std::vector<std::vector<int>> d(n, std::vector<int>(n, 20));
    for (std::size_t a = 0; a < n; ++a)
        d[a][a] = 10;
    if (nodes_defaulted_)
        return d;

    std::vector<fs::path> files(n);
    bool defaulted = false;
    for (std::size_t a = 0; a < n; ++a) {
        files[a] = node_dir_ / ("node" + std::to_string(kernel_ids[a])) / "distance";
        if (!exists(files[a])) {
            if (!defaulted)
                warnings_.push_back(files[a].string() + " is missing: node distances are 10 local and 20 remote.");
            defaulted = true;
            continue;
        }
        std::optional<std::string> text = read(files[a]);
        if (!text)
            continue;
        // Every value with its 1-based column, so a bad one can be pointed at.
        std::vector<std::pair<std::optional<long>, int>> values;
        for (std::size_t pos = 0; pos < text->size();) {
            pos = text->find_first_not_of(" \t\r\n", pos);
            if (pos == std::string::npos)
                break;
            std::size_t end = text->find_first_of(" \t\r\n", pos);
            std::string word = text->substr(pos, end == std::string::npos ? std::string::npos : end - pos);
            long v = 0;
            auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
            std::optional<long> value;
            if (ec != std::errc{} || ptr != word.data() + word.size())
                error(files[a], static_cast<int>(pos + 1),
                      "expected a node distance (an integer), found \"" + word + "\"");
            else
                value = v;
            values.emplace_back(value, static_cast<int>(pos + 1));
            pos = end == std::string::npos ? text->size() : end;
        }
        if (values.size() != node_column_.size()) {
            error(files[a], 0,
                  "expected " + std::to_string(node_column_.size()) + " distances (one per online node), found " +
                      std::to_string(values.size()));
            continue;
        }
        for (std::size_t b = 0; b < n; ++b) {
            auto [value, column] = values[node_column_.at(kernel_ids[b])];
            if (!value)
                continue;
            const long v = *value;
            d[a][b] = static_cast<int>(v);
            if (a == b && v != 10)
                error(files[a], column,
                      "expected 10, the local distance, for node " + std::to_string(kernel_ids[b]) + ", found " +
                          std::to_string(v));
            else if (a != b && v <= 10)
                error(files[a], column,
                      "expected a remote distance above 10 for node " + std::to_string(kernel_ids[b]) + ", found " +
                          std::to_string(v));
        }
    }
    throw_if_errors();
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b)
            if (d[a][b] != d[b][a] && exists(files[a]) && exists(files[b]))
                error(files[b], 0,
                      "gives distance " + std::to_string(d[b][a]) + " to node " + std::to_string(kernel_ids[a]) +
                          ", but " + files[a].string() + " gives " + std::to_string(d[a][b]) +
                          " back; expected a symmetric distance table");
    throw_if_errors();
    return d;
}

Arch SysfsTree::guess_arch()
{
    fs::path p = root_ / "proc/cpuinfo";
    if (!exists(p)) {
        warnings_.push_back(p.string() +
                            " is missing: the architecture is taken to be generic (arm64, riscv ...); "
                            "set it in the machine file if this is an x86 or POWER machine.");
        return Arch::Generic;
    }
    const std::optional<std::string> text = read(p, "cpuinfo");
    if (!text)
        return Arch::Generic;  // reported
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) {
        std::size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = trim(std::string_view(line).substr(0, colon));
        std::string value = trim(std::string_view(line).substr(colon + 1));
        if (key == "vendor_id")
            return Arch::X86;
        if (key == "CPU implementer")
            return Arch::Generic;
        if (key == "cpu" && value.rfind("POWER", 0) == 0)
            return Arch::PowerPC;
    }
    warnings_.push_back(p.string() +
                        " has no vendor_id, CPU implementer or POWER cpu line: the architecture is "
                        "taken to be generic.");
    return Arch::Generic;
}

ImportResult SysfsTree::run()
{
    online_ = online_cpus();
    std::vector<ImportedCpu> cpus;
    online_.for_each([&](CpuId id) {
        ImportedCpu c;
        c.id = id;
        cpus.push_back(std::move(c));
    });

    // Packages first: the core_id fall-back names cores within them.
    read_packages(cpus);
    read_cores(cpus);
    read_clusters(cpus);
    read_llcs(cpus);
    read_capacities(cpus);
    read_nodes(cpus);
    throw_if_errors();

    ImportResult result;
    import_detail::Assembled assembled = import_detail::assemble(std::move(cpus), warnings_);
    result.machine = std::move(assembled.machine);
    result.machine.node_distance = node_distances(assembled.node_keys);
    result.machine.arch = guess_arch();

    // No host name: the machine is named without one.
    std::string hostname;
    if (const fs::path p = root_ / "etc/hostname"; exists(p))
        if (const std::optional<std::string> text = read(p, "hostname"))
            hostname = text->substr(0, text->find('\n'));
    throw_if_errors();
    // A machine name is also a file name: keep [a-z0-9._-] and fold the rest.
    std::string host;
    for (char ch : trim(hostname)) {
        const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const bool ok = std::isalnum(static_cast<unsigned char>(lower)) || lower == '.' || lower == '_' || lower == '-';
        host += ok ? lower : '-';
    }
    result.machine.name = host.empty() ? "imported" : "imported-" + host;
    result.machine.description = "imported from sysfs at " + label_;
    result.machine.source = "sysfs import of " + label_;
    result.warnings = std::move(warnings_);
    import_detail::finish(result, label_);
    return result;
}

}  // namespace

ImportResult import_sysfs(const std::string& root)
{
    SysfsTree tree(root);
    return tree.run();
}

}  // namespace wb
