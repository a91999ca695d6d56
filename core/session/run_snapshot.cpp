// SPDX-License-Identifier: Apache-2.0
#include "session/run_snapshot.h"

#include "engine/simulator.h"
#include "sched/select_idle.h"

namespace wb {

RunSnapshot take_snapshot(const Simulator& sim, const std::string& policy)
{
    const SchedState& s = sim.state();
    RunSnapshot out;
    out.policy = policy;
    out.now = s.now;
    out.events = sim.metrics().events;
    out.decisions = sim.wakeup_count();
    out.finished = sim.finished();
    out.ops = sim.workload().ops();
    out.progress = sim.finished() ? 1.0 : sim.workload().progress(sim.now());
    out.headline = sim.workload().headline(sim.elapsed());
    out.metrics = sim.metrics();
    // The engine fills runtime when the run ends; mid-run the snapshot
    // takes the sum so far, so that run delay / runtime means the run so far.
    if (!out.finished)
        out.metrics.runtime = sim.total_runtime();
    out.cpus.reserve(s.rqs.size());
    for (const Rq& rq : s.rqs) {
        CpuSnapshot c;
        c.cpu = rq.cpu;
        c.nr_running = rq.nr_running;
        c.h_nr_delayed = cfs_h_nr_delayed(rq);
        c.curr = rq.curr;
        if (rq.curr != kNoTask) {
            const Task& t = s.task(rq.curr);
            c.curr_group = t.group;
            c.curr_process = t.mm;
        }
        c.idle = idle_cpu(rq);
        c.idle_state = rq.idle_state;
        c.util_avg = rq.cfs.avg.util_avg;
        c.capacity = rq.cpu_capacity;
        c.avg_idle = rq.avg_idle;
        c.llc_has_idle_cores = test_idle_cores(s, rq.cpu);
        out.cpus.push_back(c);
    }
    return out;
}

}  // namespace wb
