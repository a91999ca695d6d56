// SPDX-License-Identifier: Apache-2.0
#include "io/lscpu_import.h"

#include "io/input_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace wb {

namespace {

using import_detail::Fact;
using import_detail::ImportedCpu;

enum class Col { Cpu, Core, Socket, Cluster, Node, Online, MaxMhz, Cache, Spacer, Other };

struct Column {
    Col kind = Col::Other;
    std::vector<std::string> caches;  // Cache: the names its ids are given for, in order
    std::string header;               // as the header spells it
    int column = 0;                   // 1-based, in the header line
};

// One comma-separated field with its 1-based column in the line.
struct Field {
    std::string text;
    int column = 0;
};

std::vector<Field> split_fields(std::string_view line, int first_column, char separator = ',')
{
    std::vector<Field> out;
    std::size_t start = 0;
    while (true) {
        std::size_t comma = line.find(separator, start);
        std::string text(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.pop_back();
        std::size_t lead = 0;
        while (lead < text.size() && std::isspace(static_cast<unsigned char>(text[lead])))
            ++lead;
        out.push_back({text.substr(lead), first_column + static_cast<int>(start + lead)});
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

bool is_cache_name(const std::string& name)
{
    // lscpu names caches L<level> plus 'd' or 'i' for split L1s: L1d, L1i, L2, L3.
    if (name.size() < 2 || name[0] != 'L' || !std::isdigit(static_cast<unsigned char>(name[1])))
        return false;
    std::size_t i = 1;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])))
        ++i;
    return i == name.size() || (i + 1 == name.size() && (name[i] == 'd' || name[i] == 'i'));
}

std::string lower(std::string s)
{
    for (char& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

Column classify(const Field& f)
{
    Column c;
    c.header = f.text;
    c.column = f.column;
    const std::string name = lower(f.text);
    if (f.text.empty())
        c.kind = Col::Spacer;
    else if (f.text.find(':') != std::string::npos || is_cache_name(f.text)) {
        c.kind = Col::Cache;
        std::size_t start = 0;
        while (true) {
            std::size_t colon = f.text.find(':', start);
            c.caches.push_back(f.text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
    } else if (name == "cache")
        c.kind = Col::Cache;  // lscpu found no caches: the column stays empty
    else if (name == "cpu")
        c.kind = Col::Cpu;
    else if (name == "core")
        c.kind = Col::Core;
    else if (name == "socket")
        c.kind = Col::Socket;
    else if (name == "cluster")
        c.kind = Col::Cluster;
    else if (name == "node")
        c.kind = Col::Node;
    else if (name == "online")
        c.kind = Col::Online;
    else if (name == "maxmhz")
        c.kind = Col::MaxMhz;
    return c;
}

// A number in one row, or nothing when lscpu left the field empty.
struct Cell {
    std::optional<long> value;
    Diagnostic where;
};

struct Row {
    int line = 0;
    Cell cpu, core, socket, node;
    std::map<std::string, Cell> caches;  // by cache name
    std::string max_mhz;
};

class LscpuFile {
public:
    explicit LscpuFile(std::string path) : path_(std::move(path)) {}
    ImportResult run(std::string_view text);

private:
    void error(int line, int column, std::string message)
    {
        errors_.push_back({path_, line, column, {}, std::move(message)});
    }
    void throw_if_errors()
    {
        if (!errors_.empty())
            throw InputError(std::move(errors_));
    }
    [[noreturn]] void fail(int line, int column, std::string message)
    {
        throw InputError(Diagnostic{path_, line, column, {}, std::move(message)});
    }
    Cell number(const Field& f, int line, const char* what);
    std::vector<Column> read_header(const std::vector<std::string_view>& lines, std::size_t& first_data);
    void refuse_repeated_columns(const std::vector<Column>& columns, int line);
    std::vector<Row> read_rows(const std::vector<std::string_view>& lines, std::size_t first_data,
                               const std::vector<Column>& columns);
    // Whether every row has `cell` (true), none has it (false: fall back), or
    // some lack it (an error against each of those).
    template <typename Get>
    bool all_or_none(const std::vector<Row>& rows, Get cell, const std::string& what);

    std::string path_;
    std::vector<Diagnostic> errors_;
    std::vector<std::string> warnings_;
};

Cell LscpuFile::number(const Field& f, int line, const char* what)
{
    Cell c;
    c.where = {path_, line, f.column, {}, {}};
    if (f.text.empty())
        return c;
    long v = 0;
    auto [ptr, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), v);
    if (ec != std::errc{} || ptr != f.text.data() + f.text.size() || v < 0)
        error(line, f.column, std::string("expected ") + what + " (a number from 0), found \"" + f.text + "\"");
    else
        c.value = v;
    return c;
}

std::vector<Column> LscpuFile::read_header(const std::vector<std::string_view>& lines, std::size_t& first_data)
{
    // lscpu prints three lines of prose, then the column names, then the data:
    // the names are the last comment before the first data line.
    first_data = lines.size();
    std::optional<std::size_t> header;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string_view l = lines[i];
        if (l.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        if (l.front() == '#') {
            header = i;
            continue;
        }
        first_data = i;
        break;
    }
    if (first_data == lines.size())
        fail(static_cast<int>(std::max<std::size_t>(1, lines.size())), 0,
             "expected lscpu -p output: data lines, one per CPU, after a '# CPU,Core,...' header; found none");
    if (!header)
        fail(static_cast<int>(first_data + 1), 1,
             "expected a '# CPU,Core,Socket,...' line naming the columns before the first data line, as lscpu -p "
             "prints it");

    const std::string_view h = lines[*header];
    std::size_t names_at = h.find_first_not_of("# \t", 0);
    if (names_at == std::string::npos)
        names_at = h.size();
    std::vector<Column> columns;
    for (const Field& f : split_fields(h.substr(names_at), static_cast<int>(names_at) + 1))
        columns.push_back(classify(f));
    const int line = static_cast<int>(*header + 1);
    if (std::count_if(columns.begin(), columns.end(), [](const Column& c) { return c.kind == Col::Cpu; }) != 1)
        fail(line, 1, "expected exactly one CPU column among the names in \"" + std::string(h) + "\"");
    for (const Column& c : columns)
        for (const std::string& name : c.caches)
            if (!is_cache_name(name))
                fail(line, c.column,
                     "expected cache names such as L1d, L1i, L2 or L3 joined by ':', found \"" + c.header + "\"");
    refuse_repeated_columns(columns, line);
    return columns;
}

// A column named twice would have one of its two silently ignored.
void LscpuFile::refuse_repeated_columns(const std::vector<Column>& columns, int line)
{
    std::map<std::string, int> first;  // by name (lower case; each cache by its own name), its column
    for (const Column& c : columns) {
        std::vector<std::string> names;
        if (c.kind == Col::Cache)
            names = c.caches;
        else if (c.kind != Col::Spacer)
            names = {lower(c.header)};
        for (const std::string& name : names)
            if (auto [it, fresh] = first.emplace(name, c.column); !fresh)
                error(line, c.column,
                      "the column " + name + " is named twice (first at column " + std::to_string(it->second) +
                          "); expected each column once, as lscpu -p prints them");
    }
    throw_if_errors();
}

std::vector<Row> LscpuFile::read_rows(const std::vector<std::string_view>& lines, std::size_t first_data,
                                      const std::vector<Column>& columns)
{
    std::vector<Row> rows;
    std::map<long, int> line_of_cpu;
    for (std::size_t i = first_data; i < lines.size(); ++i) {
        std::string_view l = lines[i];
        if (l.find_first_not_of(" \t\r") == std::string_view::npos || l.front() == '#')
            continue;
        const int line = static_cast<int>(i + 1);
        std::vector<Field> fields = split_fields(lines[i], 1);
        if (fields.size() != columns.size()) {
            error(line, 0,
                  "expected " + std::to_string(columns.size()) +
                      " comma-separated fields, as the header names, found " + std::to_string(fields.size()));
            continue;
        }
        Row row;
        row.line = line;
        bool offline = false;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const Field& f = fields[c];
            switch (columns[c].kind) {
            case Col::Cpu:
                row.cpu = number(f, line, "a CPU number");
                if (!row.cpu.value && f.text.empty())
                    error(line, f.column, "expected a CPU number, found an empty field");
                break;
            case Col::Core:
                row.core = number(f, line, "a core number");
                break;
            case Col::Socket:
                row.socket = number(f, line, "a socket number");
                break;
            case Col::Cluster:
                // arm64 without ACPI PPTT: lscpu shows its socket ids as "Cluster".
                if (std::none_of(columns.begin(), columns.end(), [](const Column& k) { return k.kind == Col::Socket; }))
                    row.socket = number(f, line, "a cluster (socket) number");
                break;
            case Col::Node:
                row.node = number(f, line, "a node number");
                break;
            case Col::Online:
                offline = f.text == "N" || f.text == "no";
                break;
            case Col::MaxMhz:
                row.max_mhz = f.text;
                break;
            case Col::Cache: {
                const std::vector<std::string>& names = columns[c].caches;
                if (names.empty() || f.text.empty())
                    break;
                std::vector<Field> ids = split_fields(f.text, f.column, ':');
                if (ids.size() != names.size()) {
                    error(line, f.column,
                          "expected " + std::to_string(names.size()) + " cache ids (" + columns[c].header +
                              "), found \"" + f.text + "\"");
                    break;
                }
                for (std::size_t k = 0; k < names.size(); ++k)
                    row.caches[names[k]] = number(ids[k], line, "a cache id");
                break;
            }
            case Col::Spacer:
            case Col::Other:
                break;
            }
        }
        if (offline || !row.cpu.value)
            continue;
        if (*row.cpu.value >= kMaxCpus) {
            error(line, row.cpu.where.column, "expected a CPU number below " + std::to_string(kMaxCpus));
            continue;
        }
        auto [it, inserted] = line_of_cpu.try_emplace(*row.cpu.value, line);
        if (!inserted) {
            error(line, row.cpu.where.column,
                  "CPU " + std::to_string(*row.cpu.value) +
                      " is listed again; expected one line per CPU (first at line " + std::to_string(it->second) + ")");
            continue;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty() && errors_.empty())
        error(static_cast<int>(first_data + 1), 0, "expected at least one online CPU");
    return rows;
}

template <typename Get>
bool LscpuFile::all_or_none(const std::vector<Row>& rows, Get cell, const std::string& what)
{
    bool any = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return cell(r) && cell(r)->value; });
    if (!any)
        return false;
    for (const Row& r : rows) {
        const Cell* c = cell(r);
        if (!c || !c->value) {
            Diagnostic d = c ? c->where : Diagnostic{path_, r.line, 0, {}, {}};
            d.message =
                "expected " + what + " for CPU " + std::to_string(*r.cpu.value) + " as other lines give, found none";
            errors_.push_back(std::move(d));
        }
    }
    return true;
}

// The LLC is the highest-level unified cache (or data cache if no unified one).
std::optional<std::string> pick_llc(const std::vector<Column>& columns)
{
    std::optional<std::string> best;
    int best_rank = -1;
    for (const Column& c : columns) {
        for (const std::string& name : c.caches) {
            int level = std::atoi(name.c_str() + 1);
            char kind = name.back();
            int rank = std::isdigit(static_cast<unsigned char>(kind)) ? 1000 + level : kind == 'd' ? level : -1;
            if (rank > best_rank) {
                best_rank = rank;
                best = name;
            }
        }
    }
    return best;
}

ImportResult LscpuFile::run(std::string_view text)
{
    // Views into the text: a line costs 16 bytes, whatever its length.
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view l = text.substr(start, end - start);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        lines.push_back(l);
        start = end + 1;
    }

    std::size_t first_data = 0;
    std::vector<Column> columns = read_header(lines, first_data);
    std::vector<Row> rows = read_rows(lines, first_data, columns);
    throw_if_errors();

    const bool have_core = all_or_none(
        rows, [](const Row& r) { return &r.core; }, "a core number");
    const bool have_socket = all_or_none(
        rows, [](const Row& r) { return &r.socket; }, "a socket number");
    const bool have_node = all_or_none(
        rows, [](const Row& r) { return &r.node; }, "a node number");
    std::optional<std::string> llc = pick_llc(columns);
    const bool have_llc = llc && all_or_none(
                                     rows,
                                     [&](const Row& r) -> const Cell* {
                                         auto it = r.caches.find(*llc);
                                         return it == r.caches.end() ? nullptr : &it->second;
                                     },
                                     "an " + *llc + " cache id");
    throw_if_errors();

    if (!have_core)
        warnings_.push_back(path_ + " gives no Core column: each CPU is its own core, without SMT.");
    if (!have_socket)
        warnings_.push_back(path_ + " gives no Socket column: all CPUs are in one package.");
    if (!have_llc)
        warnings_.push_back(path_ + " gives no data or unified cache ids: each package is one LLC.");
    if (!have_node)
        warnings_.push_back(path_ +
                            " gives no NUMA node (the Node column is missing or empty): all CPUs are on one node.");
    warnings_.push_back(path_ +
                        " gives no clusters (lscpu's Cluster column is not the kernel's cluster): each core is "
                        "its own cluster.");

    std::set<std::string> mhz;
    for (const Row& r : rows)
        if (!r.max_mhz.empty())
            mhz.insert(r.max_mhz);
    std::string capacity_warning = path_ + " gives no CPU capacities: every CPU gets 1024";
    if (mhz.size() > 1)
        capacity_warning += ", though the CPUs' maximum frequencies differ (" + *mhz.begin() + " to " + *mhz.rbegin() +
                            " MHz), so this is likely a machine with big and little cores";
    warnings_.push_back(capacity_warning + "; import /sys/devices/system/cpu instead to get them.");

    std::vector<ImportedCpu> cpus;
    for (const Row& r : rows) {
        ImportedCpu c;
        c.id = static_cast<CpuId>(*r.cpu.value);
        Diagnostic row_place{path_, r.line, 0, {}, {}};
        c.package = have_socket ? Fact{"socket " + std::to_string(*r.socket.value), r.socket.where}
                                : Fact{"socket 0", row_place};
        c.core = have_core ? Fact{"core " + std::to_string(*r.core.value), r.core.where}
                           : Fact{"CPU " + std::to_string(c.id), r.cpu.where};
        c.cluster = c.core;
        if (have_llc) {
            const Cell& id = r.caches.at(*llc);
            c.llc = {*llc + " " + std::to_string(*id.value), id.where};
        } else {
            c.llc = c.package;
        }
        c.node = have_node ? Fact{"node " + std::to_string(*r.node.value), r.node.where} : Fact{"node 0", row_place};
        cpus.push_back(std::move(c));
    }

    ImportResult result;
    import_detail::Assembled assembled = import_detail::assemble(std::move(cpus), warnings_);
    result.machine = std::move(assembled.machine);
    const std::size_t n = assembled.node_keys.size();
    result.machine.node_distance.assign(n, std::vector<int>(n, 20));
    for (std::size_t a = 0; a < n; ++a)
        result.machine.node_distance[a][a] = 10;
    if (n > 1)
        warnings_.push_back(path_ +
                            " gives no node distances (lscpu -p has none): they are 10 local and 20 remote; "
                            "copy the real ones from /sys/devices/system/node/node*/distance.");
    warnings_.push_back(path_ +
                        " does not name the architecture: it is taken to be generic (arm64, riscv ...); "
                        "set it in the machine file if this is an x86 or POWER machine.");
    result.machine.arch = Arch::Generic;

    result.machine.name = "imported-" + std::filesystem::path(path_).stem().string();
    result.machine.description = "imported from lscpu -p output in " + path_;
    result.machine.source = "lscpu -p import of " + path_;
    result.warnings = std::move(warnings_);
    import_detail::finish(result, path_);
    return result;
}

}  // namespace

ImportResult import_lscpu(const std::string& path)
{
    return import_lscpu_text(read_input_file(path, "file holding the output of lscpu -p"), path);
}

ImportResult import_lscpu_text(std::string_view text, const std::string& label)
{
    LscpuFile file(label);
    return file.run(text);
}

}  // namespace wb
