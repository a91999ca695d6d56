// SPDX-License-Identifier: Apache-2.0
#include "io/sweep_json.h"

#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "io/input_file.h"
#include "io/json_parse.h"
#include "io/json_problems.h"
#include "io/scenario_json.h"
#include "io/sweep_value_json.h"
#include "io/topology_library.h"
#include "policies/registry.h"
#include "sched/features.h"
#include "sweep/sweep_grid.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

std::string ordinal(std::size_t i)
{
    const std::size_t n = i + 1;
    const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                         : n % 10 == 1                     ? "st"
                         : n % 10 == 2                     ? "nd"
                         : n % 10 == 3                     ? "rd"
                                                           : "th";
    return std::to_string(n) + suffix;
}

class SweepReader {
public:
    SweepReader(std::string_view text, const std::string& file, SweepChecks checks)
        : problems_(text, file), locator_(text), file_(file), checks_(checks)
    {
    }

    SweepSpec read(const Json& j)
    {
        if (!j.is_object()) {
            problems_.add("", "expected a JSON object (a sweep)");
            problems_.throw_if_any();
        }
        for (const JsonLocator::Duplicate& d : locator_.duplicates())
            problems_.add(d.pointer, "key given twice; expected each key once");
        unknown_keys(j, "", {"schema_version", "name", "description", "machines", "workloads", "policies",
                             "features", "seeds"});
        if (!j.contains("schema_version") || j["schema_version"] != 1)
            problems_.add(j.contains("schema_version") ? "/schema_version" : "", "expected \"schema_version\": 1");
        SweepSpec s;
        s.name = text(j, "name", true);
        s.description = text(j, "description", false);
        s.machines = strings(j, "machines", "a machine: a shipped name, synthetic:... or a machine file");
        if (j.contains("machines") && checks_ == SweepChecks::Full)
            for (std::size_t i = 0; i < s.machines.size(); ++i)
                check_machine(s.machines[i], "/machines/" + std::to_string(i));
        read_workloads(j, s);
        s.policies = j.contains("policies") ? strings(j, "policies", "a policy (wakesim list policies)")
                                            : std::vector<std::string>{"baseline"};
        if (checks_ == SweepChecks::Full)
            for (std::size_t i = 0; i < s.policies.size(); ++i)
                check("/policies/" + std::to_string(i), [&] { make_policy(s.policies[i]); });
        read_features(j, s);
        read_seeds(j, s);
        if (problems_.empty()) {
            const SweepGrid grid(s);
            if (grid.size() > kMaxSweepPoints)
                problems_.add("", "the grid has " + std::to_string(grid.size()) + " points; expected at most " +
                                      std::to_string(kMaxSweepPoints));
        }
        problems_.throw_if_any();
        return s;
    }

private:
    void unknown_keys(const Json& j, const std::string& at, const std::set<std::string>& known)
    {
        std::string valid;
        for (const std::string& k : known)
            valid += (valid.empty() ? "" : ", ") + k;
        for (const auto& [key, value] : j.items())
            if (!known.count(key))
                problems_.add(pointer_append(at, key), "unknown key \"" + key + "\"; expected " + valid);
    }

    // Runs `f`, turning the InputError it throws into a problem at `at`.
    template <class F>
    bool check(const std::string& at, F&& f)
    {
        try {
            f();
            return true;
        } catch (const InputError& e) {
            problems_.add(at, e.diagnostics().front().message);
            return false;
        }
    }

    void check_machine(const std::string& machine, const std::string& at)
    {
        try {
            resolve_machine(sweep_machine_spec(machine, file_));
        } catch (const InputError& e) {
            // A machine file's own problem names that file and its place.
            const Diagnostic& d = e.diagnostics().front();
            problems_.add(at, d.file == machine || d.file.empty() ? d.message : d.to_string());
        }
    }

    std::string text(const Json& j, const char* key, bool required)
    {
        const std::string at = std::string("/") + key;
        if (!j.contains(key)) {
            if (required)
                problems_.add(at, std::string("missing \"") + key + "\": expected a string");
            return {};
        }
        if (!j[key].is_string() || (required && j[key].get<std::string>().empty())) {
            problems_.add(at, required ? "expected a non-empty string" : "expected a string");
            return {};
        }
        return j[key].get<std::string>();
    }

    // A non-empty array of distinct strings.
    std::vector<std::string> strings(const Json& j, const char* key, const std::string& what)
    {
        const std::string at = std::string("/") + key;
        std::vector<std::string> out;
        if (!j.contains(key) || !j[key].is_array() || j[key].empty()) {
            problems_.add(at, std::string(j.contains(key) ? "" : "missing \"" + std::string(key) + "\": ") +
                                  "expected a non-empty array, each item " + what);
            return out;
        }
        for (std::size_t i = 0; i < j[key].size(); ++i) {
            const std::string item_at = at + "/" + std::to_string(i);
            if (!j[key][i].is_string() || j[key][i].get<std::string>().empty()) {
                problems_.add(item_at, "expected " + what);
                continue;
            }
            const std::string value = j[key][i].get<std::string>();
            if (std::find(out.begin(), out.end(), value) != out.end())
                problems_.add(item_at, "\"" + value + "\" is given twice; expected each once");
            out.push_back(value);
        }
        return out;
    }

    void read_workloads(const Json& j, SweepSpec& s)
    {
        if (!j.contains("workloads") || !j["workloads"].is_array() || j["workloads"].empty()) {
            problems_.add("/workloads", std::string(j.contains("workloads") ? "" : "missing \"workloads\": ") +
                                            "expected a non-empty array of {\"label\", \"workload\", \"parameters\"}");
            return;
        }
        std::set<std::string> labels;
        for (std::size_t i = 0; i < j["workloads"].size(); ++i) {
            const Json& w = j["workloads"][i];
            const std::string at = "/workloads/" + std::to_string(i);
            if (!w.is_object() || !w.contains("workload") || !w["workload"].is_string()) {
                problems_.add(at, "expected an object with a \"workload\" spec (wakesim list workloads), an "
                                  "optional \"label\" and optional \"parameters\"");
                continue;
            }
            unknown_keys(w, at, {"label", "workload", "parameters"});
            SweepWorkload sw;
            sw.workload = w["workload"].get<std::string>();
            sw.label = sw.workload;
            if (w.contains("label")) {
                if (w["label"].is_string() && !w["label"].get<std::string>().empty())
                    sw.label = w["label"].get<std::string>();
                else
                    problems_.add(at + "/label", "expected a non-empty string");
            }
            if (!labels.insert(sw.label).second)
                problems_.add(w.contains("label") ? at + "/label" : at + "/workload",
                              "the label \"" + sw.label + "\" is given twice; expected each workload's once");
            // The values are checked one by one only against a valid workload.
            const bool valid =
                checks_ == SweepChecks::Full && check(at + "/workload", [&] { make_workload(sw.workload); });
            if (w.contains("parameters"))
                read_parameters(w["parameters"], at + "/parameters", sw, valid);
            s.workloads.push_back(std::move(sw));
        }
    }

    // `check_values`: run make_workload() on each value (the workload is
    // valid). Values are checked one by one: no workload checks one
    // parameter against another; what depends on the machine (a pinned CPU
    // it lacks) is refused when the pilot runs build each configuration,
    // before any point runs.
    void read_parameters(const Json& params, const std::string& at, SweepWorkload& sw, bool check_values)
    {
        if (!params.is_object()) {
            problems_.add(at, "expected an object: each parameter's name with a list of values, "
                              "{\"from\", \"to\", \"step\"} or {\"from\", \"to\", \"factor\"}");
            return;
        }
        for (const auto& [name, range] : params.items()) {
            const std::string param_at = pointer_append(at, name);
            SweepParameter p{name, values(range, param_at)};
            if (p.values.empty())
                continue;
            std::set<std::string> seen;
            for (std::size_t k = 0; k < p.values.size(); ++k) {
                const std::string& v = p.values[k].text;
                const std::string value_at = range.is_array() ? param_at + "/" + std::to_string(k) : param_at;
                const std::string which = range.is_array() ? "" : "value " + v + " (the " + ordinal(k) + " of the range): ";
                if (!seen.insert(v).second) {
                    problems_.add(value_at, which + "the value " + v + " is given twice; expected each once");
                } else if (check_values) {
                    try {
                        make_workload(with_parameters(sw.workload, {{name, v}}));
                    } catch (const InputError& e) {
                        problems_.add(value_at, which + e.diagnostics().front().message);
                        break;  // one message a parameter: the others would say the same
                    }
                }
            }
            sw.parameters.push_back(std::move(p));
        }
    }

    // A list of numbers and strings, or an arithmetic or geometric range.
    std::vector<ParameterValue> values(const Json& range, const std::string& at)
    {
        std::vector<ParameterValue> out;
        const char* expected = "expected a non-empty list of values, {\"from\", \"to\", \"step\"} or "
                               "{\"from\", \"to\", \"factor\"} (and an optional \"unit\")";
        if (range.is_array()) {
            if (range.empty())
                problems_.add(at, expected);
            for (std::size_t k = 0; k < range.size(); ++k) {
                if (range[k].is_number())
                    out.push_back(parameter_value(spec_number_text(range[k].get<double>())));
                else if (range[k].is_string() && !range[k].get<std::string>().empty())
                    out.push_back(parameter_value(range[k].get<std::string>()));
                else
                    problems_.add(at + "/" + std::to_string(k), "expected a number or a non-empty string");
            }
            return out;
        }
        if (!range.is_object()) {
            problems_.add(at, expected);
            return out;
        }
        unknown_keys(range, at, {"from", "to", "step", "factor", "unit"});
        if (range.contains("step") == range.contains("factor")) {
            problems_.add(at, "expected either \"step\" (an arithmetic range) or \"factor\" (a geometric one)");
            return out;
        }
        const char* by = range.contains("step") ? "step" : "factor";
        bool ok = true;
        for (const char* key : {"from", "to", by})
            ok &= number_member(range, at, key, false);
        std::string unit;
        if (range.contains("unit")) {
            if (range["unit"].is_string())
                unit = range["unit"].get<std::string>();
            else
                problems_.add(at + "/unit", "expected a unit to append to each value, such as \"us\"");
        }
        if (!ok)
            return out;
        const double from = range["from"].get<double>(), to = range["to"].get<double>();
        const RangeValues r = range.contains("step") ? arithmetic_range(from, to, range["step"].get<double>())
                                                     : geometric_range(from, to, range["factor"].get<double>());
        if (!r.error.empty())
            problems_.add(at, r.error);
        for (double v : r.values)
            out.push_back(parameter_value(spec_number_text(v) + unit));
        return out;
    }

    // Whether the object at `at` has `key`, a number (a whole one if `whole`).
    bool number_member(const Json& j, const std::string& at, const char* key, bool whole)
    {
        const char* expected = whole ? "expected a whole number" : "expected a number";
        if (!j.contains(key))
            problems_.add(at, "missing \"" + std::string(key) + "\": " + expected);
        else if (whole ? !j[key].is_number_unsigned() : !j[key].is_number())
            problems_.add(at + "/" + key, expected);
        else
            return true;
        return false;
    }

    void read_features(const Json& j, SweepSpec& s)
    {
        if (!j.contains("features")) {
            s.features = {""};
            return;
        }
        if (j["features"].is_string()) {
            s.features = {j["features"].get<std::string>()};
            if (std::string error = FeatureSet().apply(s.features[0]); !error.empty() && checks_ == SweepChecks::Full)
                problems_.add("/features", error);
            return;
        }
        if (!j["features"].is_array() || j["features"].empty()) {
            problems_.add("/features", "expected a feature list such as \"NO_WA_BIAS\" (wakesim list features), or "
                                       "a non-empty array of them, one per variant (\"\" for the defaults)");
            return;
        }
        for (std::size_t i = 0; i < j["features"].size(); ++i) {
            const std::string at = "/features/" + std::to_string(i);
            const Json& f = j["features"][i];
            if (!f.is_string()) {
                problems_.add(at, "expected a feature list such as \"NO_WA_BIAS\" (\"\" for the defaults)");
                continue;
            }
            const std::string list = f.get<std::string>();
            if (std::find(s.features.begin(), s.features.end(), list) != s.features.end())
                problems_.add(at, "\"" + list + "\" is given twice; expected each feature set once");
            else if (std::string error = FeatureSet().apply(list); !error.empty() && checks_ == SweepChecks::Full)
                problems_.add(at, error);
            s.features.push_back(list);
        }
    }

    void read_seeds(const Json& j, SweepSpec& s)
    {
        if (!j.contains("seeds")) {
            s.seeds = {1};
            return;
        }
        const Json& seeds = j["seeds"];
        const char* expected = "expected a non-empty list of seeds (whole numbers) or {\"from\", \"to\"}";
        if (seeds.is_array()) {
            if (seeds.empty())
                problems_.add("/seeds", expected);
            std::set<std::uint64_t> seen;
            for (std::size_t i = 0; i < seeds.size(); ++i) {
                const std::string at = "/seeds/" + std::to_string(i);
                if (!seeds[i].is_number_unsigned()) {
                    problems_.add(at, "expected a whole number from 0 to 18446744073709551615");
                    continue;
                }
                const std::uint64_t seed = seeds[i].get<std::uint64_t>();
                if (!seen.insert(seed).second)
                    problems_.add(at, "seed " + std::to_string(seed) + " is given twice; expected each once");
                s.seeds.push_back(seed);
            }
            return;
        }
        if (!seeds.is_object()) {
            problems_.add("/seeds", expected);
            return;
        }
        unknown_keys(seeds, "/seeds", {"from", "to"});
        // Both checked, so that both problems are reported.
        const bool from_ok = number_member(seeds, "/seeds", "from", true);
        const bool to_ok = number_member(seeds, "/seeds", "to", true);
        if (!from_ok || !to_ok)
            return;
        const std::uint64_t from = seeds["from"].get<std::uint64_t>(), to = seeds["to"].get<std::uint64_t>();
        if (to < from)
            problems_.add("/seeds/to", "expected \"to\" at or above \"from\"");
        else if (to - from >= kMaxRangeValues)
            problems_.add("/seeds", "expected at most " + std::to_string(kMaxRangeValues) + " seeds");
        else
            for (std::uint64_t seed = from; seed <= to; ++seed)
                s.seeds.push_back(seed);
    }

    JsonProblems problems_;
    JsonLocator locator_;
    std::string file_;
    SweepChecks checks_;
};

}  // namespace

SweepSpec parse_sweep_json(std::string_view text, const std::string& file_label, SweepChecks checks)
{
    const Json j = parse_json_text<Json>(text, file_label);
    return SweepReader(text, file_label, checks).read(j);
}

SweepSpec load_sweep_file(const std::string& path)
{
    return parse_sweep_json(read_input_file(path, "sweep file"), path);
}

std::string sweep_to_json(const SweepSpec& s)
{
    Json workloads = Json::array();
    for (const SweepWorkload& w : s.workloads) {
        Json params = Json::object();
        for (const SweepParameter& p : w.parameters) {
            Json values = Json::array();
            for (const ParameterValue& v : p.values)
                values.push_back(parameter_value_json(v));
            params[p.name] = std::move(values);
        }
        Json item = {{"label", w.label}, {"workload", w.workload}};
        if (!w.parameters.empty())
            item["parameters"] = std::move(params);
        workloads.push_back(std::move(item));
    }
    Json j = {{"schema_version", 1}, {"name", s.name}};
    if (!s.description.empty())
        j["description"] = s.description;
    j["machines"] = s.machines;
    j["workloads"] = std::move(workloads);
    j["policies"] = s.policies;
    j["features"] = s.features;
    j["seeds"] = s.seeds;
    return j.dump();
}

std::string sweep_fingerprint(const SweepSpec& spec)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : sweep_to_json(spec)) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string sweep_machine_spec(const std::string& machine, const std::string& sweep_path)
{
    Scenario as_scenario;
    as_scenario.machine = machine;
    return scenario_machine_spec(as_scenario, sweep_path);
}

}  // namespace wb
