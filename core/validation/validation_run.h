// SPDX-License-Identifier: Apache-2.0
//
// Running a validation case: every run of the case under every policy,
// over its seeds, and each figure's model value against the measured one.
#pragma once

#include <string>
#include <vector>

#include "topology/machine.h"
#include "validation/validation_case.h"

namespace wb {

struct ValidationOptions {
    bool quick = false;  // the short form: quick workloads, seeds and tolerances
    int seeds = 0;       // runs per policy and workload; 0: the case's own
    int jobs = 2;        // simulations at once
};

struct FigureResult {
    std::string name;   // the run figure ("ops_per_sec")
    std::string label;  // "ops/s" or "usecs/op default sync-waker-v3 / same-cpu-79"
    double measured = 0;
    double model = 0;  // mean over the seeds (a ratio of two means for a ratio figure)
    double ratio = 0;  // model / measured
    Tolerance tolerance;
    bool within = false;
    std::string note;
};

struct CaseResult {
    std::string id;
    std::string title;
    std::string machine;  // the machine's name
    std::string source;   // "report, date"
    bool quick = false;
    int seeds = 1;
    int unfinished = 0;  // simulations that hit the time limit
    double wall_seconds = 0;
    std::vector<FigureResult> figures;
    std::vector<NotProduced> not_produced;

    bool all_within() const;
};

// The case's machine with the report's run conditions in place of the
// file's values. Throws InputError for a machine that cannot be resolved.
Machine case_machine(const ValidationCase& vcase);

// Throws InputError for a machine that cannot be resolved.
CaseResult run_validation_case(const ValidationCase& vcase, const ValidationOptions& options);

// The table `wakesim validate` prints for one case.
std::string format_case_result(const CaseResult& result);
// {"cases": [{"id", "figures": [{"name", "measured", "model", "ratio",
// "tolerance", "within"}], "not_produced": [{"name", "reason"}]}]}
std::string validation_results_to_json(const std::vector<CaseResult>& results);
// The same as Markdown, one section per case with each figure's note: the
// body of docs/validation.md (scripts/validation-report).
std::string validation_results_to_markdown(const std::vector<CaseResult>& results);

}  // namespace wb
