// SPDX-License-Identifier: Apache-2.0
#include "cli/validate_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "io/input_error.h"
#include "io/output_file.h"
#include "validation/validation_case.h"
#include "validation/validation_run.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"case", Value::Required, "ID|FILE", "run this case only (an id in resources/validation, or a case file)"},
    {"runs", Value::Required, "N", "seeds per policy and workload (default: the case's)"},
    {"quick", Value::None, "", "the short form: shorter workloads and the quick tolerances (CI runs this)"},
    {"json", Value::Required, "FILE", "also write the results as JSON"},
    {"markdown", Value::Required, "FILE", "also write the results as Markdown (the body of docs/validation.md)"},
    {"jobs", Value::Required, "N", "simulations at once (default 2)"},
};

std::vector<std::string> case_files(const Args& args)
{
    const std::vector<std::string> shipped = list_validation_case_files();
    const auto wanted = args.get("case");
    if (!wanted)
        return shipped;
    if (std::filesystem::exists(*wanted) && wanted->ends_with(".json"))
        return {*wanted};
    std::string ids;
    for (const std::string& file : shipped) {
        const std::string id = std::filesystem::path(file).stem().string();
        if (id == *wanted)
            return {file};
        ids += (ids.empty() ? "" : ", ") + id;
    }
    throw UsageError("validate: --case '" + *wanted + "': expected a case file or one of " + ids);
}

std::ofstream open_output(const Args& args, const std::string& option)
{
    std::ofstream out;
    if (auto path = args.get(option)) {
        out.open(*path);
        if (!out)
            throw UsageError("validate: --" + option + " '" + *path + "': cannot write this file");
    }
    return out;
}

}  // namespace

int validate_command(const std::vector<std::string>& argv)
{
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "help")) {
        std::cout << "usage: wakesim validate [--case ID] [--runs N] [--quick] [--json FILE] [--markdown FILE]\n"
                  << describe_options(kSpecs);
        return 0;
    }
    const Args args = parse_args(argv, kSpecs, "validate");
    if (!args.positionals.empty())
        throw UsageError("validate: unexpected argument '" + args.positionals.front() + "'\nusage: wakesim validate " +
                         "[options]\n" + describe_options(kSpecs));
    ValidationOptions options;
    options.quick = args.has("quick");
    if (auto runs = args.get("runs"))
        options.seeds = static_cast<int>(parse_whole_number("validate", "runs", *runs, 1, 1000));
    if (auto jobs = args.get("jobs"))
        options.jobs = static_cast<int>(parse_whole_number("validate", "jobs", *jobs, 1, 256));
    // Every case is read before any runs, so a bad file fails at once.
    std::vector<ValidationCase> cases;
    for (const std::string& file : case_files(args))
        cases.push_back(load_validation_case(file));
    if (cases.empty())
        throw UsageError("validate: no case files in " + validation_cases_dir());
    std::ofstream json_out = open_output(args, "json");
    std::ofstream markdown_out = open_output(args, "markdown");

    std::vector<CaseResult> results;
    int outside = 0;
    for (const ValidationCase& c : cases) {
        results.push_back(run_validation_case(c, options));
        std::cout << format_case_result(results.back()) << "\n" << std::flush;
        for (const FigureResult& f : results.back().figures)
            outside += !f.within;
    }
    if (json_out.is_open())
        json_out << validation_results_to_json(results);
    if (markdown_out.is_open())
        markdown_out << validation_results_to_markdown(results);
    for (auto [out, option] : {std::pair{&json_out, "json"}, {&markdown_out, "markdown"}})
        if (out->is_open())
            finish_output(*out, *args.get(option));
    std::cout << (outside ? std::to_string(outside) + " figure(s) outside their tolerance\n"
                          : "every figure within its tolerance\n");
    return outside ? 1 : 0;
}

}  // namespace wb::cli
