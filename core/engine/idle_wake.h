// SPDX-License-Identifier: Apache-2.0
//
// How an idle CPU is woken and how long it takes to leave its idle state:
// Simulator members on the wakeup path of both simulator.cpp and ttwu.cpp,
// defined here so that each inlines them (a call of their own cost a pipe
// wakeup some 70 instructions).
#pragma once

#include <algorithm>

#include "engine/cost_time.h"
#include "engine/simulator.h"

namespace wb {

// The time the CPU takes to leave its idle state. Idle states are asked
// for per thread, but the power saving (and the exit latency the tables
// give) is the core's, and a core sleeps only as deep as its most awake
// thread: with siblings idle, the exit is that of the shallowest state any
// of them holds; with a sibling running, the core never left C0 and the
// thread resumes with no exit latency, as from a polling state.
[[gnu::hot, gnu::always_inline]] inline Time Simulator::idle_exit_latency(CpuId cpu) const
{
    const Rq& rq = s_.rq(cpu);
    if (rq.curr != kNoTask || rq.idle_state < 0)
        return Time();
    int state = rq.idle_state;
    if (cpu_[static_cast<std::size_t>(cpu)].has_smt_siblings) {
        state = core_idle_state(cpu, state);
        if (state < 0)
            return Time();
    }
    return Time::ns(static_cast<std::int64_t>(machine_.idle_states[static_cast<std::size_t>(state)].exit_latency_ns));
}

// The idle state the core of `cpu` is in when `cpu` asked for `state`: the
// shallowest of its threads', or -1 when a sibling is awake (the core runs).
// Out of line: machines without SMT never call it.
[[gnu::noinline]] inline int Simulator::core_idle_state(CpuId cpu, int state) const
{
    for (CpuId other : smt_siblings_[static_cast<std::size_t>(cpu)]) {
        const Rq& sibling = s_.rq(other);
        if (sibling.curr != kNoTask || cpu_[static_cast<std::size_t>(other)].busy || sibling.idle_state < 0)
            return -1;
        state = std::min(state, sibling.idle_state);
    }
    return state;
}

// Waking an idle CPU: an IPI, unless its idle state watches the thread
// flags; then setting TIF_NEED_RESCHED is the signal (set_nr_if_polling(),
// send_call_function_single_ipi()). The state's exit latency follows
// either way.
[[gnu::hot, gnu::always_inline]] inline Simulator::IdleWake Simulator::idle_wake(CpuId cpu) const
{
    const int state = s_.rq(cpu).idle_state;
    const bool polls = state >= 0 && machine_.idle_states[static_cast<std::size_t>(state)].polls;
    return {cost_time(machine_, polls ? Cost::wakeup_poll : Cost::wakeup_ipi) + idle_exit_latency(cpu), !polls};
}

}  // namespace wb
