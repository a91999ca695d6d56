// SPDX-License-Identifier: Apache-2.0
//
// JSON workloads (io/workload_json.cpp, workload/json_workload.cpp): a file
// that reads well also runs, on a small machine for 50 us of simulated
// time; reading or running fails only with an InputError that says where.
// The run is bounded: files that start more than 256 tasks are only read,
// and forks stop at 2,000 tasks, so that each input takes milliseconds.
#include "contract.h"
#include "engine/simulator.h"
#include "fuzz_target.h"
#include "topology/synthetic.h"
#include "workload/json_workload.h"

using namespace wb;

namespace {

constexpr std::uint64_t kMaxStartedToRun = 256;
constexpr std::uint64_t kMaxTasksPerRun = 2000;

}  // namespace

WB_FUZZ_TARGET(workload_json)
{
    static const Machine machine = parse_synthetic("llc=2,core=2,smt=2");
    WorkloadFile file;
    try {
        file = parse_workload_json(fuzz::text_of(data, size), "fuzz.json");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
        return 0;
    }
    std::uint64_t started = 0;
    for (const JsonTask& t : file.tasks) {
        fuzz::require(!t.name.empty() && !t.phases.empty() && t.instances >= 1 && t.loop >= 1,
                      "parse_workload_json() returned a task it should have refused");
        started += t.start ? t.instances : 0;
    }
    fuzz::require(started >= 1 && started <= kMaxJsonWorkloadTasks, "a file that starts no task, or too many");
    if (started > kMaxStartedToRun)
        return 0;
    SimOptions options;
    options.time_limit = Time::us(50);
    try {
        Simulator sim(machine, std::make_unique<JsonWorkload>(std::move(file), kMaxTasksPerRun), options);
        sim.run();
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
    }
    return 0;
}
