// SPDX-License-Identifier: Apache-2.0
#include "io/ftrace_text_writer.h"

#include <cstdio>

namespace wb {

namespace {

// The header's counts are written this wide and filled in at the end:
// the count is only known then, and the header comes first.
constexpr int kCountWidth = 10;

void append(std::string& s, const char* fmt, auto... args)
{
    char buf[256];
    const int n = std::snprintf(buf, sizeof buf, fmt, args...);
    s.append(buf, static_cast<std::size_t>(n < 0 ? 0 : n));
}

}  // namespace

FtraceTextWriter::FtraceTextWriter(std::ostream& out, int nr_cpus, TraceLimit limit, std::string what)
    : out_(out), nr_cpus_(nr_cpus), gate_(limit)
{
    out_ << "# tracer: nop\n#\n# entries-in-buffer/entries-written: ";
    counts_at_ = out_.tellp();
    const std::string zeros(kCountWidth, '0');
    out_ << zeros << '/' << zeros << "   #P:" << nr_cpus_ << "\n#\n";
    // Comment lines, which tracefs readers skip: where the file came from
    // and its clock (tracefs has no header line for trace_clock).
    out_ << "# wakesim: simulated run: " << what << "\n"
         << "# wakesim: trace_clock: mono; stamps are simulated time from the run's start, in ns\n"
         << "# wakesim: pid = " << kTracePidBase << " + task id; comm cut to 15 characters\n#\n";
    out_ << "#                                _-----=> irqs-off/BH-disabled\n"
            "#                               / _----=> need-resched\n"
            "#                              | / _---=> hardirq/softirq\n"
            "#                              || / _--=> preempt-depth\n"
            "#                              ||| / _-=> migrate-disable\n"
            "#                              |||| /     delay\n"
            "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
            "#              | |         |   |||||     |         |\n";
}

void FtraceTextWriter::task_created(TaskId id, std::string_view name, int nice)
{
    names_.add(id, name, nice);
}

std::string FtraceTextWriter::comm(TaskId id) const
{
    return id == kNoTask ? std::string("<idle>") : names_.comm(id);
}

// In sched_switch's fields the idle task is swapper/N, as the kernel names it.
std::string FtraceTextWriter::switch_comm(TaskId id, CpuId cpu) const
{
    return id == kNoTask ? "swapper/" + std::to_string(cpu) : names_.comm(id);
}

// "       comm-pid     [cpu] d..2.  secs.nanos: " as trace_print_context()
// lays it out (%16s-%-7d [%03d] flags %5lu.%09lu:).
void FtraceTextWriter::context(const SchedEvent& e, std::string& line) const
{
    const std::int64_t ns = e.time.ns();
    append(line, "%16s-%-7d [%03d] d..2. %5lld.%09lld: ", comm(e.current).c_str(), trace_pid(e.current), e.cpu,
           static_cast<long long>(ns / 1'000'000'000), static_cast<long long>(ns % 1'000'000'000));
}

void FtraceTextWriter::event(const SchedEvent& e)
{
    if (!gate_.admit(e.time))
        return;
    line_.clear();
    context(e, line_);
    switch (e.kind) {
    case SchedEventKind::Waking:
    case SchedEventKind::Wakeup:
    case SchedEventKind::WakeupNew: {
        const char* name = e.kind == SchedEventKind::Waking   ? "sched_waking"
                           : e.kind == SchedEventKind::Wakeup ? "sched_wakeup"
                                                              : "sched_wakeup_new";
        append(line_, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", name, comm(e.p).c_str(), trace_pid(e.p),
               names_.prio(e.p), e.target_cpu);
        break;
    }
    case SchedEventKind::MigrateTask:
        append(line_, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n", comm(e.p).c_str(),
               trace_pid(e.p), names_.prio(e.p), e.orig_cpu, e.dest_cpu);
        break;
    case SchedEventKind::Switch:
        append(line_, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%c ==> ",
               switch_comm(e.prev, e.cpu).c_str(), trace_pid(e.prev), names_.prio(e.prev),
               static_cast<char>(e.prev_state));
        append(line_, "next_comm=%s next_pid=%d next_prio=%d\n", switch_comm(e.p, e.cpu).c_str(), trace_pid(e.p),
               names_.prio(e.p));
        break;
    }
    out_ << line_;
}

void FtraceTextWriter::finish()
{
    if (gate_.stopped())
        out_ << "# wakesim: trace limit reached (" << gate_.limit().describe() << "): the run went on past "
             << format_duration(gate_.stopped_at()) << ", its later events are not in this file\n";
    out_.flush();
    if (counts_at_ == std::streampos(-1))
        return;
    const std::streampos end = out_.tellp();
    char counts[2 * kCountWidth + 2];
    const auto n = static_cast<unsigned long long>(gate_.written());
    std::snprintf(counts, sizeof counts, "%0*llu/%0*llu", kCountWidth, n, kCountWidth, n);
    out_.seekp(counts_at_);
    out_ << counts;
    out_.seekp(end);
    out_.flush();
}

}  // namespace wb
