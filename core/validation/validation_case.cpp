// SPDX-License-Identifier: Apache-2.0
#include "validation/validation_case.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "base/data_dir.h"
#include "io/input_file.h"
#include "io/json_parse.h"
#include "io/json_problems.h"
#include "metrics/run_figures.h"
#include "policies/registry.h"
#include "workload/workload_spec.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Reads one JSON file's case, noting every problem with its pointer.
class CaseReader {
public:
    CaseReader(std::string_view text, const std::string& file) : problems_(text, file) {}

    ValidationCase read(const Json& j, std::string id);

private:
    void keys(const Json& j, const std::string& at, const std::set<std::string>& allowed);
    std::string text(const Json& j, const std::string& at, const char* key, bool required);
    std::optional<double> number(const Json& j, const std::string& at, const char* key, bool required);
    int count(const Json& j, const char* key, int fallback);
    std::optional<Tolerance> tolerance(const Json& j, const std::string& at, const char* key);
    void read_source(const Json& j, ValidationCase& c);
    void read_conditions(const Json& j, ValidationCase& c);
    void read_runs(const Json& j, ValidationCase& c);
    void read_policies(const Json& j, ValidationCase& c);
    void read_figures(const Json& j, ValidationCase& c);
    FigureSide side(const Json& j, const std::string& at, const FigureSide& fallback, const ValidationCase& c);
    void read_not_produced(const Json& j, ValidationCase& c);

    JsonProblems problems_;
};

void CaseReader::keys(const Json& j, const std::string& at, const std::set<std::string>& allowed)
{
    std::string list;
    for (const std::string& k : allowed)
        list += (list.empty() ? "" : ", ") + k;
    for (const auto& [key, value] : j.items())
        if (!allowed.count(key))
            problems_.add(at + "/" + key, "unknown key \"" + key + "\"; expected " + list);
}

std::string CaseReader::text(const Json& j, const std::string& at, const char* key, bool required)
{
    if (!j.contains(key)) {
        if (required)
            problems_.add(at + "/" + key, std::string("missing \"") + key + "\": expected a string");
        return {};
    }
    if (!j[key].is_string()) {
        problems_.add(at + "/" + key, "expected a string");
        return {};
    }
    return j[key].get<std::string>();
}

std::optional<double> CaseReader::number(const Json& j, const std::string& at, const char* key, bool required)
{
    if (!j.contains(key)) {
        if (required)
            problems_.add(at + "/" + key, std::string("missing \"") + key + "\": expected a number");
        return std::nullopt;
    }
    if (!j[key].is_number()) {
        problems_.add(at + "/" + key, "expected a number");
        return std::nullopt;
    }
    return j[key].get<double>();
}

int CaseReader::count(const Json& j, const char* key, int fallback)
{
    if (!j.contains(key))
        return fallback;
    if (j[key].is_number_unsigned() && j[key].get<std::uint64_t>() >= 1 && j[key].get<std::uint64_t>() <= 1000)
        return j[key].get<int>();
    problems_.add(std::string("/") + key, "expected a whole number of runs from 1 to 1000");
    return fallback;
}

std::optional<Tolerance> CaseReader::tolerance(const Json& j, const std::string& at, const char* key)
{
    const std::string where = at + "/" + key;
    if (!j.contains(key)) {
        problems_.add(where, std::string("missing \"") + key + "\": expected [low, high], the band of model / measured");
        return std::nullopt;
    }
    const Json& t = j[key];
    if (!t.is_array() || t.size() != 2 || !t[0].is_number() || !t[1].is_number() ||
        !(t[0].get<double>() <= t[1].get<double>())) {
        problems_.add(where, "expected [low, high] with low <= high: the band of model / measured, e.g. [0.7, 1.3]");
        return std::nullopt;
    }
    return Tolerance{t[0].get<double>(), t[1].get<double>()};
}

void CaseReader::read_source(const Json& j, ValidationCase& c)
{
    if (!j.contains("source") || !j["source"].is_object()) {
        problems_.add("/source", "expected \"source\": {\"report\", \"date\", \"machine\", \"kernel\"}");
        return;
    }
    const Json& s = j["source"];
    keys(s, "/source", {"report", "date", "machine", "kernel"});
    c.source.report = text(s, "/source", "report", true);
    c.source.date = text(s, "/source", "date", true);
    c.source.machine = text(s, "/source", "machine", true);
    c.source.kernel = text(s, "/source", "kernel", true);
}

void CaseReader::read_conditions(const Json& j, ValidationCase& c)
{
    if (!j.contains("run_conditions"))
        return;
    const Json& rc = j["run_conditions"];
    if (!rc.is_object()) {
        problems_.add("/run_conditions", "expected an object keyed by cost name: {\"hz\": {\"value\": 1000, "
                                         "\"source\": \"...\"}}, each value in the cost's base unit");
        return;
    }
    for (const auto& [key, value] : rc.items()) {
        const std::string at = "/run_conditions/" + key;
        RunCondition cond;
        if (!cost_by_name(key, cond.cost)) {
            problems_.add(at, "unknown cost \"" + key + "\"; expected a machine cost (docs/costs.md)");
            continue;
        }
        if (!value.is_object()) {
            problems_.add(at, "expected {\"value\": number in the cost's base unit, \"source\": string}");
            continue;
        }
        keys(value, at, {"value", "source"});
        const std::optional<double> v = number(value, at, "value", true);
        cond.source = text(value, at, "source", true);
        if (v && !(*v > 0))
            problems_.add(at + "/value", "expected a number above 0");
        if (v && *v > 0 && !cond.source.empty()) {
            cond.value = *v;
            c.run_conditions.push_back(std::move(cond));
        }
    }
}

void CaseReader::read_runs(const Json& j, ValidationCase& c)
{
    if (!j.contains("runs") || !j["runs"].is_array() || j["runs"].empty()) {
        problems_.add("/runs", "expected \"runs\": a non-empty array of {\"label\", \"workload\", \"quick\"}");
        return;
    }
    for (std::size_t i = 0; i < j["runs"].size(); ++i) {
        const Json& r = j["runs"][i];
        const std::string at = "/runs/" + std::to_string(i);
        if (!r.is_object()) {
            problems_.add(at, "expected {\"label\", \"workload\", \"quick\"}");
            continue;
        }
        keys(r, at, {"label", "workload", "quick"});
        CaseRun run;
        run.workload = text(r, at, "workload", true);
        run.quick_workload = r.contains("quick") ? text(r, at, "quick", false) : run.workload;
        run.label = r.contains("label") ? text(r, at, "label", false) : run.workload;
        for (const auto& [key, spec] : {std::pair{"workload", &run.workload}, std::pair{"quick", &run.quick_workload}}) {
            if (spec->empty())
                continue;
            try {
                make_workload(*spec);
            } catch (const InputError& e) {
                problems_.add(at + "/" + (r.contains(key) ? key : "workload"), e.diagnostics().front().message);
            }
        }
        c.runs.push_back(std::move(run));
    }
}

void CaseReader::read_policies(const Json& j, ValidationCase& c)
{
    if (!j.contains("policies")) {
        c.policies = {"baseline"};
        return;
    }
    if (!j["policies"].is_array() || j["policies"].empty()) {
        problems_.add("/policies", "expected a non-empty array of policy names (wakesim list policies)");
        return;
    }
    for (std::size_t i = 0; i < j["policies"].size(); ++i) {
        const std::string at = "/policies/" + std::to_string(i);
        if (!j["policies"][i].is_string()) {
            problems_.add(at, "expected a policy name (wakesim list policies)");
            continue;
        }
        c.policies.push_back(j["policies"][i].get<std::string>());
        try {
            make_policy(c.policies.back());
        } catch (const InputError& e) {
            problems_.add(at, e.diagnostics().front().message);
        }
    }
}

FigureSide CaseReader::side(const Json& j, const std::string& at, const FigureSide& fallback,
                            const ValidationCase& c)
{
    FigureSide s = fallback;
    if (j.contains("run"))
        s.run = text(j, at, "run", false);
    if (j.contains("policy"))
        s.policy = text(j, at, "policy", false);
    const bool run_known = std::any_of(c.runs.begin(), c.runs.end(), [&](const CaseRun& r) { return r.label == s.run; });
    if (!run_known && !c.runs.empty()) {
        std::string labels;
        for (const CaseRun& r : c.runs)
            labels += (labels.empty() ? "" : ", ") + r.label;
        problems_.add(at + (j.contains("run") ? "/run" : ""), "unknown run \"" + s.run + "\"; expected " + labels);
    }
    if (std::find(c.policies.begin(), c.policies.end(), s.policy) == c.policies.end() && !c.policies.empty())
        problems_.add(at + (j.contains("policy") ? "/policy" : ""),
                      "policy \"" + s.policy + "\" is not among the case's \"policies\"");
    return s;
}

void CaseReader::read_figures(const Json& j, ValidationCase& c)
{
    if (!j.contains("figures") || !j["figures"].is_array() || j["figures"].empty()) {
        problems_.add("/figures", "expected \"figures\": a non-empty array of {\"name\", \"measured\", "
                                  "\"tolerance\", \"quick_tolerance\"}");
        return;
    }
    std::string names;
    for (const RunFigureInfo& info : run_figure_table())
        names += (names.empty() ? "" : ", ") + std::string(info.name);
    const FigureSide first{c.runs.empty() ? "" : c.runs.front().label,
                           c.policies.empty() ? "" : c.policies.front()};
    for (std::size_t i = 0; i < j["figures"].size(); ++i) {
        const Json& f = j["figures"][i];
        const std::string at = "/figures/" + std::to_string(i);
        if (!f.is_object()) {
            problems_.add(at, "expected {\"name\", \"measured\", \"tolerance\", \"quick_tolerance\"}");
            continue;
        }
        keys(f, at, {"name", "label", "run", "policy", "over", "measured", "tolerance", "quick_tolerance", "note"});
        CaseFigure fig;
        fig.name = text(f, at, "name", true);
        if (!fig.name.empty() && !find_run_figure(fig.name))
            problems_.add(at + "/name", "unknown figure \"" + fig.name + "\"; expected one of " + names);
        fig.label = text(f, at, "label", false);
        fig.of = side(f, at, first, c);
        if (f.contains("over")) {
            if (f["over"].is_object()) {
                keys(f["over"], at + "/over", {"run", "policy"});
                fig.over = side(f["over"], at + "/over", fig.of, c);
            } else {
                problems_.add(at + "/over", "expected {\"run\", \"policy\"}: the figure's denominator");
            }
        }
        const std::optional<double> measured = number(f, at, "measured", true);
        if (measured && *measured == 0)
            problems_.add(at + "/measured", "expected a measured value other than 0 (the ratio divides by it)");
        fig.measured = measured.value_or(0);
        fig.full = tolerance(f, at, "tolerance").value_or(Tolerance{});
        fig.quick = tolerance(f, at, "quick_tolerance").value_or(Tolerance{});
        fig.note = text(f, at, "note", false);
        c.figures.push_back(std::move(fig));
    }
}

void CaseReader::read_not_produced(const Json& j, ValidationCase& c)
{
    if (!j.contains("not_produced"))
        return;
    if (!j["not_produced"].is_array()) {
        problems_.add("/not_produced", "expected an array of {\"name\", \"measured\", \"reason\"}");
        return;
    }
    for (std::size_t i = 0; i < j["not_produced"].size(); ++i) {
        const Json& n = j["not_produced"][i];
        const std::string at = "/not_produced/" + std::to_string(i);
        if (!n.is_object()) {
            problems_.add(at, "expected {\"name\", \"measured\", \"reason\"}");
            continue;
        }
        keys(n, at, {"name", "measured", "reason"});
        c.not_produced.push_back({text(n, at, "name", true), text(n, at, "measured", false),
                                  text(n, at, "reason", true)});
    }
}

ValidationCase CaseReader::read(const Json& j, std::string id)
{
    ValidationCase c;
    c.id = std::move(id);
    if (!j.is_object()) {
        problems_.add("", "expected a JSON object (a validation case)");
        problems_.throw_if_any();
    }
    keys(j, "", {"schema_version", "title", "source", "machine", "run_conditions", "runs", "policies", "seeds",
                 "quick_seeds", "figures", "not_produced"});
    if (!j.contains("schema_version") || j["schema_version"] != 1)
        problems_.add(j.contains("schema_version") ? "/schema_version" : "", "expected \"schema_version\": 1");
    c.title = text(j, "", "title", true);
    read_source(j, c);
    c.machine = text(j, "", "machine", true);
    read_conditions(j, c);
    read_runs(j, c);
    read_policies(j, c);
    c.seeds = count(j, "seeds", 1);
    c.quick_seeds = count(j, "quick_seeds", 1);
    read_figures(j, c);
    read_not_produced(j, c);
    problems_.throw_if_any();
    return c;
}

}  // namespace

ValidationCase parse_validation_case(std::string_view text, const std::string& file_label, std::string id)
{
    const Json j = parse_json_text<Json>(text, file_label);
    return CaseReader(text, file_label).read(j, std::move(id));
}

ValidationCase load_validation_case(const std::string& path)
{
    return parse_validation_case(read_input_file(path, "validation case"), path, fs::path(path).stem().string());
}

std::string validation_cases_dir()
{
    if (const char* env = std::getenv("WAKEBENCH_VALIDATION"); env && *env)
        return env;
    return shipped_data_dir(kShippedValidation);
}

std::vector<std::string> list_validation_case_files()
{
    std::vector<std::string> files;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(validation_cases_dir(), ec))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace wb
