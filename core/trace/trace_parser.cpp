// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_parser.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <optional>

#include "io/input_error.h"

namespace wb {

std::string_view trace_format_name(TraceFormat format)
{
    switch (format) {
    case TraceFormat::Tracefs:
        return "tracefs";
    case TraceFormat::TraceCmd:
        return "trace-cmd report";
    case TraceFormat::Perf:
        return "perf script";
    }
    return "?";
}

namespace {

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool all_digits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

template <typename T>
std::optional<T> number(std::string_view s)
{
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<TraceEventKind> event_kind(std::string_view name)
{
    for (std::size_t i = 0; i < static_cast<std::size_t>(TraceEventKind::LostEvents); ++i)
        if (kTraceEventNames[i] == name)
            return static_cast<TraceEventKind>(i);
    return std::nullopt;
}

PrevState prev_state_of(std::string_view s)
{
    if (!s.empty() && (s.front() == 'X' || s.front() == 'Z'))
        return PrevState::Dead;
    if (!s.empty() && s.front() == 'R')
        return PrevState::Runnable;
    return PrevState::Sleeping;
}

// One line, split into the parts every format shares.
struct LineParts {
    std::string_view head;    // "comm-pid" or "comm pid", before the CPU field
    std::size_t cpu_col = 0;  // 0-based column of '['
    int cpu = -1;
    bool flags = false;        // an irqs-off/need-resched/... column before the stamp
    std::string_view stamp;    // without the ':'
    std::size_t stamp_col = 0;
    std::string_view event;    // "sched_switch", or perf's "sched:sched_switch"
    std::string_view fields;
    std::size_t fields_col = 0;
};

// The first " [digits]" of the line is its CPU field (a comm may hold
// brackets, but not a space before digits in brackets in any task name seen).
std::optional<LineParts> split_line(std::string_view line)
{
    LineParts p;
    std::size_t b = 0;
    for (;;) {
        b = line.find('[', b);
        if (b == std::string_view::npos)
            return std::nullopt;
        const std::size_t e = line.find(']', b);
        if (e != std::string_view::npos && b > 0 && (line[b - 1] == ' ' || line[b - 1] == '\t') &&
            all_digits(line.substr(b + 1, e - b - 1)))
            break;
        ++b;
    }
    const std::size_t e = line.find(']', b);
    p.head = trim(line.substr(0, b));
    p.cpu_col = b;
    p.cpu = *number<int>(line.substr(b + 1, e - b - 1));
    std::size_t pos = e + 1;
    auto next_token = [&](std::size_t& col) {
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
            ++pos;
        col = pos;
        const std::size_t start = pos;
        while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t')
            ++pos;
        return line.substr(start, pos - start);
    };
    std::size_t col = 0;
    std::string_view tok = next_token(col);
    auto is_stamp = [](std::string_view t) {
        if (t.size() < 2 || t.back() != ':')
            return false;
        t.remove_suffix(1);
        const std::size_t dot = t.find('.');
        if (dot == std::string_view::npos)
            return all_digits(t);
        return all_digits(t.substr(0, dot)) && all_digits(t.substr(dot + 1));
    };
    if (!is_stamp(tok)) {
        p.flags = true;
        tok = next_token(col);
        if (!is_stamp(tok))
            return std::nullopt;
    }
    p.stamp = tok.substr(0, tok.size() - 1);
    p.stamp_col = col;
    tok = next_token(col);
    // perf script may print a period before the event for some sample types.
    if (all_digits(tok))
        tok = next_token(col);
    if (tok.size() < 2 || tok.back() != ':')
        return std::nullopt;
    p.event = tok.substr(0, tok.size() - 1);
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
        ++pos;
    p.fields_col = pos;
    p.fields = trim(line.substr(pos));
    return p;
}

// "key=value key=value ...": a value runs to the next " word=" (a comm may
// hold spaces). "==>" between sched_switch's halves is skipped.
struct KeyValues {
    std::vector<std::pair<std::string_view, std::string_view>> pairs;
    std::vector<std::size_t> cols;  // of each value, within the fields
    std::optional<std::string_view> get(std::string_view key, std::size_t* col = nullptr) const
    {
        for (std::size_t i = 0; i < pairs.size(); ++i)
            if (pairs[i].first == key) {
                if (col)
                    *col = cols[i];
                return pairs[i].second;
            }
        return std::nullopt;
    }
};

bool starts_key(std::string_view s, std::size_t at)
{
    std::size_t i = at;
    while (i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_' || is_digit(s[i])))
        ++i;
    return i > at && i < s.size() && s[i] == '=';
}

KeyValues key_values(std::string_view s)
{
    KeyValues kv;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ')
            ++i;
        if (s.substr(i, 3) == "==>") {
            i += 3;
            continue;
        }
        if (!starts_key(s, i))
            break;
        const std::size_t eq = s.find('=', i);
        std::size_t end = eq + 1;
        while (end < s.size() && !(s[end] == ' ' && (starts_key(s, end + 1) || s.substr(end + 1, 3) == "==>")))
            ++end;
        kv.pairs.emplace_back(s.substr(i, eq - i), s.substr(eq + 1, end - eq - 1));
        kv.cols.push_back(eq + 1);
        i = end;
    }
    return kv;
}

class LineError {
public:
    std::size_t col;
    std::string message;
};

int cpu_value(std::string_view v, std::size_t col, std::string_view key)
{
    auto n = number<int>(v);
    if (!n || *n < 0)
        throw LineError{col, std::string("expected a CPU number after ") + std::string(key) + "=, found '" +
                                 std::string(v) + "'"};
    return *n;
}

int pid_value(std::string_view v, std::size_t col, const std::string& what)
{
    auto n = number<int>(v);
    if (!n || *n < 0)
        throw LineError{col, "expected a pid " + what + ", found '" + std::string(v) + "'"};
    return *n;
}

std::string_view need(const KeyValues& kv, std::string_view key, std::size_t base, std::size_t* col,
                      std::string_view event);

// The value of `key` as a pid or CPU, errors pointing at the value.
int need_pid(const KeyValues& kv, std::string_view key, std::size_t base, std::string_view event)
{
    std::size_t col = 0;
    const std::string_view v = need(kv, key, base, &col, event);
    return pid_value(v, col, "after " + std::string(key) + "=");
}

// The pid of a task an event wakes or moves: never the idle task, pid 0,
// which the kernel neither wakes nor migrates.
constexpr const char* kNotIdle = ": expected the pid of a task, not of the idle task (0), which is never woken or moved";

int need_task_pid(const KeyValues& kv, std::string_view key, std::size_t base, std::string_view event)
{
    std::size_t col = 0;
    const std::string_view v = need(kv, key, base, &col, event);
    const int pid = pid_value(v, col, "after " + std::string(key) + "=");
    if (pid == 0)
        throw LineError{col, std::string(key) + "=0" + kNotIdle};
    return pid;
}

int need_cpu(const KeyValues& kv, std::string_view key, std::size_t base, std::string_view event, int* column)
{
    std::size_t col = 0;
    const std::string_view v = need(kv, key, base, &col, event);
    *column = static_cast<int>(col) + 1;
    return cpu_value(v, col, key);
}

std::string_view need(const KeyValues& kv, std::string_view key, std::size_t base, std::size_t* col,
                      std::string_view event)
{
    std::size_t c = 0;
    auto v = kv.get(key, &c);
    if (!v)
        throw LineError{base, "expected " + std::string(key) + "= in the fields of " + std::string(event)};
    *col = base + c;
    return *v;
}

// "comm:pid [prio]" of trace-cmd's sched plugin; returns the rest after it.
std::string_view comm_pid_prio(std::string_view s, std::size_t base, std::string& comm, int& pid)
{
    const std::size_t open = s.rfind(" [");
    if (open == std::string_view::npos)
        throw LineError{base, "expected 'comm:pid [prio]'"};
    const std::string_view cp = s.substr(0, open);
    const std::size_t colon = cp.rfind(':');
    if (colon == std::string_view::npos)
        throw LineError{base, "expected 'comm:pid [prio]', found no ':' before the pid"};
    comm = std::string(cp.substr(0, colon));
    pid = pid_value(cp.substr(colon + 1), base + colon + 1, "after the comm and ':'");
    const std::size_t close = s.find(']', open);
    return close == std::string_view::npos ? std::string_view() : trim(s.substr(close + 1));
}

void parse_fields(TraceEvent& ev, std::string_view f, std::size_t base)
{
    const std::string_view event = kTraceEventNames[static_cast<std::size_t>(ev.kind)];
    const KeyValues kv = key_values(f);
    std::size_t col = 0;
    if (ev.kind == TraceEventKind::SchedSwitch) {
        if (kv.get("prev_pid")) {
            ev.prev_comm = std::string(need(kv, "prev_comm", base, &col, event));
            ev.prev_pid = need_pid(kv, "prev_pid", base, event);
            ev.prev_state = prev_state_of(need(kv, "prev_state", base, &col, event));
            ev.comm = std::string(need(kv, "next_comm", base, &col, event));
            ev.pid = need_pid(kv, "next_pid", base, event);
            return;
        }
        // trace-cmd: "prev:pid [prio] S ==> next:pid [prio]"
        const std::size_t arrow = f.find(" ==> ");
        if (arrow == std::string_view::npos)
            throw LineError{base, "expected prev_comm=... ==> next_comm=... or 'comm:pid [prio] S ==> comm:pid [prio]'"};
        std::string_view left = f.substr(0, arrow);
        const std::size_t sp = left.rfind(' ');
        if (sp == std::string_view::npos)
            throw LineError{base, "expected prev's state before ' ==> '"};
        ev.prev_state = prev_state_of(left.substr(sp + 1));
        comm_pid_prio(left.substr(0, sp), base, ev.prev_comm, ev.prev_pid);
        comm_pid_prio(f.substr(arrow + 5), base + arrow + 5, ev.comm, ev.pid);
        return;
    }
    if (ev.kind == TraceEventKind::SchedMigrateTask) {
        ev.comm = std::string(need(kv, "comm", base, &col, event));
        ev.pid = need_task_pid(kv, "pid", base, event);
        ev.orig_cpu = need_cpu(kv, "orig_cpu", base, event, &ev.orig_column);
        ev.dest_cpu = need_cpu(kv, "dest_cpu", base, event, &ev.dest_column);
        return;
    }
    // sched_waking, sched_wakeup, sched_wakeup_new
    if (kv.get("pid")) {
        ev.comm = std::string(need(kv, "comm", base, &col, event));
        ev.pid = need_task_pid(kv, "pid", base, event);
        ev.target_cpu = need_cpu(kv, "target_cpu", base, event, &ev.target_column);
        return;
    }
    // trace-cmd: "comm:pid [prio] CPU:001" (older: "... success=1 CPU:001")
    const std::size_t at = f.rfind("CPU:");
    if (at == std::string_view::npos)
        throw LineError{base, "expected comm=... pid=... target_cpu=... or 'comm:pid [prio] CPU:N'"};
    comm_pid_prio(trim(f.substr(0, at)), base, ev.comm, ev.pid);
    if (ev.pid == 0)
        throw LineError{base, std::string("the woken task") + kNotIdle};
    ev.target_cpu = cpu_value(f.substr(at + 4), base + at + 4, "CPU:");
    ev.target_column = static_cast<int>(base + at + 4) + 1;
}

// A stamp's value: ns for "seconds.fraction", else the count as written.
// Nothing when it does not fit in 64 bits (a ns clock past 292 years).
std::optional<std::int64_t> stamp_value(std::string_view s, bool* in_ns)
{
    const std::size_t dot = s.find('.');
    if (dot == std::string_view::npos) {
        *in_ns = false;
        return number<std::int64_t>(s);
    }
    *in_ns = true;
    constexpr std::int64_t kNsPerSecond = 1'000'000'000;
    const std::optional<std::int64_t> secs = number<std::int64_t>(s.substr(0, dot));
    if (!secs || *secs > INT64_MAX / kNsPerSecond - 1)
        return std::nullopt;
    std::string_view frac = s.substr(dot + 1);
    if (frac.size() > 9)
        frac = frac.substr(0, 9);
    std::int64_t ns = number<std::int64_t>(frac).value_or(0);
    for (std::size_t i = frac.size(); i < 9; ++i)
        ns *= 10;
    return *secs * kNsPerSecond + ns;
}

// "CPU:1 [LOST 123 EVENTS]" (tracefs), "CPU:1 [123 EVENTS DROPPED]"
// (trace-cmd), perf's "PERF_RECORD_LOST lost: 123", and tracefs's
// "##### CPU 1 buffer started ####" (its older events were overwritten).
std::optional<TraceEvent> lost_marker(std::string_view line)
{
    TraceEvent ev;
    ev.kind = TraceEventKind::LostEvents;
    // The first digits at or after `at`; none when `at` is npos (a word not found).
    auto digits_after = [&](std::size_t at) {
        if (at >= line.size())
            return std::string_view();
        while (at < line.size() && !is_digit(line[at]))
            ++at;
        std::size_t end = at;
        while (end < line.size() && is_digit(line[end]))
            ++end;
        return line.substr(at, end - at);
    };
    const std::string_view t = trim(line);
    if (t.starts_with("##### CPU ") && t.find("buffer started") != std::string_view::npos) {
        ev.cpu = number<int>(digits_after(line.find("CPU"))).value_or(-1);
        return ev;
    }
    const bool lost = line.find("LOST") != std::string_view::npos || line.find("DROPPED") != std::string_view::npos;
    if (!lost)
        return std::nullopt;
    if (t.starts_with("CPU:") || t.starts_with("CPU ")) {
        ev.cpu = number<int>(digits_after(line.find("CPU"))).value_or(-1);
        const std::size_t b = line.find('[');
        ev.lost = b == std::string_view::npos ? 0 : number<std::uint64_t>(digits_after(b)).value_or(0);
        return ev;
    }
    const std::size_t at = line.find("PERF_RECORD_LOST");
    if (at != std::string_view::npos) {
        const std::size_t b = line.find(" [");
        if (b != std::string_view::npos && b < at)
            ev.cpu = number<int>(digits_after(b)).value_or(-1);
        ev.lost = number<std::uint64_t>(digits_after(line.find("lost", at + 16))).value_or(0);
        return ev;
    }
    return std::nullopt;
}

std::optional<TraceFormat> format_of_header(std::string_view line)
{
    if (line.starts_with("# tracer:"))
        return TraceFormat::Tracefs;
    if (line.starts_with("cpus=") || line.starts_with("version ="))
        return TraceFormat::TraceCmd;
    return std::nullopt;
}

}  // namespace

ParsedTrace parse_trace(std::string_view text, const std::string& label)
{
    ParsedTrace out;
    std::optional<TraceFormat> format;
    bool stamps_known = false;
    std::vector<Diagnostic> problems;
    std::size_t start = 0;
    int line_no = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool cut = end == std::string_view::npos;
        if (cut)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++line_no;
        const std::string_view t = trim(line);
        if (t.empty())
            continue;
        if (!format && line_no == 1)
            format = format_of_header(t);
        if (t.front() == '#') {
            if (auto lost = lost_marker(line)) {
                lost->line = line_no;
                out.events.push_back(*lost);
                continue;
            }
            // "# entries-in-buffer/entries-written: 6229/6229   #P:2"
            const std::size_t at = t.find("entries-in-buffer/entries-written:");
            if (at != std::string_view::npos) {
                std::string_view rest = trim(t.substr(at + 34));
                const std::size_t slash = rest.find('/');
                const std::size_t sp = rest.find(' ');
                const auto in_buffer = number<std::uint64_t>(rest.substr(0, slash));
                const auto written = number<std::uint64_t>(rest.substr(slash + 1, sp - slash - 1));
                if (in_buffer && written && *written > *in_buffer)
                    out.overwritten = *written - *in_buffer;
                const std::size_t p = rest.find("#P:");
                if (p != std::string_view::npos)
                    out.header_cpus = number<int>(trim(rest.substr(p + 3))).value_or(0);
            }
            continue;
        }
        if (t.starts_with("cpus=")) {
            out.header_cpus = number<int>(t.substr(5)).value_or(0);
            continue;
        }
        if (t.starts_with("version =") || (t.starts_with("CPU ") && t.ends_with(" is empty")))
            continue;
        if (auto lost = lost_marker(line); lost && line.find("sched_") == std::string_view::npos) {
            lost->line = line_no;
            out.events.push_back(*lost);
            continue;
        }
        const std::optional<LineParts> parts = split_line(line);
        if (!parts) {
            if (cut) {
                out.cut_line = line_no;
                continue;
            }
            problems.push_back({label, line_no, 1, "",
                                "expected an event line: 'COMM-PID [CPU] STAMP: EVENT: FIELDS' (tracefs, "
                                "trace-cmd report) or 'COMM PID [CPU] STAMP: sched:EVENT: FIELDS' (perf script)"});
            if (problems.size() >= 20)
                break;
            continue;
        }
        const bool perf_line = parts->event.starts_with("sched:");
        if (!format)
            format = perf_line ? TraceFormat::Perf : parts->flags ? TraceFormat::Tracefs : TraceFormat::TraceCmd;
        std::string_view event = parts->event;
        if (perf_line)
            event.remove_prefix(6);
        const std::optional<TraceEventKind> kind = event_kind(event);
        if (!kind) {
            ++out.other_events;
            continue;
        }
        TraceEvent ev;
        ev.kind = *kind;
        ev.line = line_no;
        ev.cpu = parts->cpu;
        ev.cpu_column = static_cast<int>(parts->cpu_col) + 2;
        bool in_ns = true;
        const std::optional<std::int64_t> ts = stamp_value(parts->stamp, &in_ns);
        if (!ts) {
            problems.push_back({label, line_no, static_cast<int>(parts->stamp_col) + 1, "",
                                "expected a stamp within the range of a 64-bit count (at most 9223372035 s), found '" +
                                    std::string(parts->stamp) + "'"});
            continue;
        }
        ev.ts = *ts;
        if (!stamps_known) {
            out.stamps_in_ns = in_ns;
            stamps_known = true;
        } else if (in_ns != out.stamps_in_ns) {
            problems.push_back({label, line_no, static_cast<int>(parts->stamp_col) + 1, "",
                                std::string("expected a stamp like the earlier ones (") +
                                    (out.stamps_in_ns ? "seconds with a fraction" : "a whole count") + "), found '" +
                                    std::string(parts->stamp) + "'"});
            continue;
        }
        // The current task: "comm-pid" (tracefs, trace-cmd; tracefs may add
        // "(tgid)") or "comm pid" / "comm pid/tid" (perf).
        std::string_view head = parts->head;
        if (!head.empty() && head.back() == ')') {
            const std::size_t open = head.rfind('(');
            if (open != std::string_view::npos)
                head = trim(head.substr(0, open));
        }
        const std::size_t sep = perf_line ? head.find_last_of(" \t") : head.rfind('-');
        std::string_view pid_text = sep == std::string_view::npos ? head : head.substr(sep + 1);
        if (const std::size_t slash = pid_text.find('/'); slash != std::string_view::npos)
            pid_text = pid_text.substr(slash + 1);
        const auto common_pid = number<int>(pid_text);
        if (!common_pid) {
            problems.push_back({label, line_no, 1, "",
                                std::string("expected the current task as ") +
                                    (perf_line ? "'COMM PID'" : "'COMM-PID'") + " before the CPU field, found '" +
                                    std::string(parts->head) + "'"});
            continue;
        }
        ev.common_pid = *common_pid;
        try {
            parse_fields(ev, parts->fields, parts->fields_col);
        } catch (const LineError& e) {
            if (cut) {
                out.cut_line = line_no;
                continue;
            }
            problems.push_back({label, line_no, static_cast<int>(e.col) + 1, "", e.message});
            continue;
        }
        out.max_cpu = std::max({out.max_cpu, ev.cpu, ev.target_cpu, ev.orig_cpu, ev.dest_cpu});
        out.events.push_back(std::move(ev));
    }
    out.lines = line_no;
    if (!problems.empty())
        throw InputError(std::move(problems));
    if (!format)  // placed at the end of the text, where the search for an event line ended
        throw InputError(Diagnostic{label, std::max(1, line_no), 0, "",
                                    "expected a trace: the text of /sys/kernel/tracing/trace, trace-cmd report or "
                                    "perf script, with sched_waking, sched_wakeup, sched_wakeup_new, sched_switch "
                                    "and sched_migrate_task events; found no event line"});
    out.format = *format;
    if (out.cut_line)
        out.notes.push_back("line " + std::to_string(out.cut_line) +
                            " is cut short (no newline ends the file) and was left out");
    if (out.overwritten)
        out.notes.push_back("the ring buffer overwrote " + std::to_string(out.overwritten) +
                            " older events (entries-written > entries-in-buffer): some CPUs' records start late");
    // Merge per-CPU buffers given one after another; lost-event markers
    // have no stamp and stay after the event before them.
    for (std::size_t i = 0; i < out.events.size(); ++i)
        if (out.events[i].kind == TraceEventKind::LostEvents)
            out.events[i].ts = i > 0 ? out.events[i - 1].ts : 0;
    std::stable_sort(out.events.begin(), out.events.end(),
                     [](const TraceEvent& a, const TraceEvent& b) { return a.ts < b.ts; });
    return out;
}

}  // namespace wb
