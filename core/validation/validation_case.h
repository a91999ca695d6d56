// SPDX-License-Identifier: Apache-2.0
//
// A validation case: a published measurement of an unpatched (or patched)
// kernel, and how to run the same thing in the model. A case names its
// machine, the workload runs, the policies, the measured figures with the
// band the model's must fall in, and the measured figures the model cannot
// produce with the reason. Cases are files, resources/validation/<id>.json;
// docs/validation.md documents the format.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/costs.h"

namespace wb {

struct CaseSource {
    std::string report;   // who measured and published it
    std::string date;
    std::string machine;  // the real machine
    std::string kernel;   // kernel version and config
};

// A run condition of the report that differs from the shipped machine file
// (the tick rate of the report's kernel config, the clock it ran at).
struct RunCondition {
    Cost cost{};
    double value = 0;  // in the cost's base unit (Hz, GHz, ns)
    std::string source;
};

struct CaseRun {
    std::string label;           // "default"
    std::string workload;        // the full form's workload spec
    std::string quick_workload;  // the --quick form's; the full one when not given
};

struct Tolerance {
    double low = 0, high = 0;  // the band the ratio model / measured must fall in
    bool contains(double ratio) const { return ratio >= low && ratio <= high; }
};

// Where a figure comes from: one run of one policy.
struct FigureSide {
    std::string run;     // a CaseRun label
    std::string policy;  // one of the case's policies
};

struct CaseFigure {
    std::string name;   // a run figure (metrics/run_figures.h)
    std::string label;  // how the table shows it; derived when not given
    FigureSide of;
    std::optional<FigureSide> over;  // a ratio: `of` divided by `over`
    double measured = 0;
    Tolerance full, quick;
    std::string note;  // what explains it, for the table
};

struct NotProduced {
    std::string name;      // the report's own name
    std::string measured;  // as the report gives it
    std::string reason;    // why the model cannot produce it
};

struct ValidationCase {
    std::string id;  // the file's stem: "v1-spr-tee"
    std::string title;
    CaseSource source;
    std::string machine;  // a shipped name, "synthetic:...", or a path
    std::vector<RunCondition> run_conditions;
    std::vector<CaseRun> runs;
    std::vector<std::string> policies;  // the first is the default side of a figure
    int seeds = 1;                      // runs per policy and workload, full form
    int quick_seeds = 1;
    std::vector<CaseFigure> figures;
    std::vector<NotProduced> not_produced;
};

// Reads and checks a case; workloads, policies and figure names must be
// valid. Throws InputError with every problem (file, line:column, pointer).
ValidationCase load_validation_case(const std::string& path);
ValidationCase parse_validation_case(std::string_view text, const std::string& file_label, std::string id);

// The shipped cases' folder: $WAKEBENCH_VALIDATION if set, else
// shipped_data_dir()'s: share/wakebench/validation beside the installed
// program, or the source tree's resources/validation from the build tree.
std::string validation_cases_dir();
// The shipped case files, sorted by id.
std::vector<std::string> list_validation_case_files();

}  // namespace wb
