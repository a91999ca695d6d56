// SPDX-License-Identifier: Apache-2.0
#include "io/scenario_json.h"

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/json_parse.h"
#include "io/json_problems.h"
#include "io/output_file.h"
#include "io/topology_library.h"
#include "plugin/plugin_loader.h"
#include "policies/registry.h"
#include "sched/features.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

using Problems = JsonProblems;

const std::set<std::string> kKeys{"schema_version", "name",     "description", "source",  "machine", "cases",
                                  "plugins",        "policies", "features",    "seed",    "runs"};

std::string text_of(const Json& j, const char* key, Problems& problems, bool required)
{
    if (!j.contains(key)) {
        if (required)
            problems.add(std::string("/") + key, std::string("missing \"") + key + "\": expected a string");
        return {};
    }
    if (!j[key].is_string()) {
        problems.add(std::string("/") + key, "expected a string");
        return {};
    }
    return j[key].get<std::string>();
}

}  // namespace

Scenario parse_scenario_json(std::string_view text, const std::string& file_label)
{
    const Json j = parse_json_text<Json>(text, file_label);
    Problems problems(text, file_label);
    if (!j.is_object()) {
        problems.add("", "expected a JSON object (a scenario)");
        problems.throw_if_any();
    }
    for (const auto& [key, value] : j.items())
        if (!kKeys.count(key))
            problems.add("/" + key, "unknown key \"" + key +
                                        "\"; expected schema_version, name, description, source, machine, cases, "
                                        "plugins, policies, features, seed or runs");
    if (!j.contains("schema_version") || j["schema_version"] != 1)
        problems.add(j.contains("schema_version") ? "/schema_version" : "", "expected \"schema_version\": 1");

    Scenario s;
    s.name = text_of(j, "name", problems, true);
    s.description = text_of(j, "description", problems, false);
    s.source = text_of(j, "source", problems, false);
    s.machine = text_of(j, "machine", problems, true);

    if (!j.contains("cases") || !j["cases"].is_array() || j["cases"].empty()) {
        problems.add("/cases", "expected \"cases\": a non-empty array of {\"label\", \"workload\"}");
    } else {
        for (std::size_t i = 0; i < j["cases"].size(); ++i) {
            const Json& c = j["cases"][i];
            const std::string at = "/cases/" + std::to_string(i);
            if (!c.is_object() || !c.contains("workload") || !c["workload"].is_string()) {
                problems.add(at, "expected an object with a \"workload\" string and an optional \"label\"");
                continue;
            }
            ScenarioCase sc;
            sc.workload = c["workload"].get<std::string>();
            sc.label = c.contains("label") && c["label"].is_string() ? c["label"].get<std::string>() : sc.workload;
            for (const auto& [key, value] : c.items())
                if (key != "label" && key != "workload")
                    problems.add(at + "/" + key, "unknown key \"" + key + "\"; expected label or workload");
            try {
                make_workload(sc.workload);
            } catch (const InputError& e) {
                problems.add(at + "/workload", e.diagnostics().front().message);
            }
            s.cases.push_back(std::move(sc));
        }
    }

    // Plugins first: their policies may be named below.
    if (j.contains("plugins")) {
        if (!j["plugins"].is_array()) {
            problems.add("/plugins", "expected an array of plugin paths (relative to the scenario's folder)");
        } else {
            const std::string base = std::filesystem::path(file_label).parent_path().string();
            for (std::size_t i = 0; i < j["plugins"].size(); ++i) {
                const std::string at = "/plugins/" + std::to_string(i);
                if (!j["plugins"][i].is_string()) {
                    problems.add(at, "expected a plugin path (a shared library built against the Wakebench SDK)");
                    continue;
                }
                s.plugins.push_back(j["plugins"][i].get<std::string>());
                try {
                    load_plugin(s.plugins.back(), base);
                } catch (const InputError& e) {
                    problems.add(at, e.diagnostics().front().to_string());
                }
            }
        }
    }

    if (!j.contains("policies")) {
        s.policies = {"baseline"};
    } else if (!j["policies"].is_array() || j["policies"].empty()) {
        problems.add("/policies", "expected a non-empty array of policy names, the first being the reference");
    } else {
        for (std::size_t i = 0; i < j["policies"].size(); ++i) {
            const std::string at = "/policies/" + std::to_string(i);
            if (!j["policies"][i].is_string()) {
                problems.add(at, "expected a policy name (wakesim list policies)");
                continue;
            }
            s.policies.push_back(j["policies"][i].get<std::string>());
            try {
                make_policy(s.policies.back());
            } catch (const InputError& e) {
                problems.add(at, e.diagnostics().front().message);
            }
        }
    }

    s.features = text_of(j, "features", problems, false);
    if (std::string error = FeatureSet().apply(s.features); !error.empty())
        problems.add("/features", error);
    if (j.contains("seed")) {
        if (j["seed"].is_number_unsigned())
            s.seed = j["seed"].get<std::uint64_t>();
        else
            problems.add("/seed", "expected a whole number from 0 to 18446744073709551615");
    }
    if (j.contains("runs")) {
        if (j["runs"].is_number_unsigned() && j["runs"].get<std::uint64_t>() >= 1 &&
            j["runs"].get<std::uint64_t>() <= 100000)
            s.runs = j["runs"].get<int>();
        else
            problems.add("/runs", "expected a whole number of runs from 1 to 100000");
    }
    problems.throw_if_any();
    return s;
}

Scenario load_scenario_file(const std::string& path)
{
    return parse_scenario_json(read_input_file(path, "scenario file"), path);
}

std::string scenario_to_json(const Scenario& s)
{
    Json cases = Json::array();
    for (const ScenarioCase& c : s.cases)
        cases.push_back({{"label", c.label}, {"workload", c.workload}});
    Json j = {{"schema_version", 1}, {"name", s.name}};
    if (!s.description.empty())
        j["description"] = s.description;
    if (!s.source.empty())
        j["source"] = s.source;
    j["machine"] = s.machine;
    j["cases"] = cases;
    if (!s.plugins.empty())
        j["plugins"] = s.plugins;
    j["policies"] = s.policies;
    if (!s.features.empty())
        j["features"] = s.features;
    j["seed"] = s.seed;
    j["runs"] = s.runs;
    return j.dump(2) + "\n";
}

void save_scenario_file(const Scenario& s, const std::string& path)
{
    write_output_file(path, scenario_to_json(s));
}

std::string scenario_machine_spec(const Scenario& s, const std::string& scenario_path)
{
    namespace fs = std::filesystem;
    // A synthetic spec may hold '/' (capacity=446x4/1024x4) and is no path.
    if (s.machine.starts_with(kSyntheticPrefix))
        return s.machine;
    const bool is_path = s.machine.find('/') != std::string::npos || s.machine.ends_with(".json");
    if (!is_path || fs::path(s.machine).is_absolute())
        return s.machine;
    return (fs::path(scenario_path).parent_path() / s.machine).string();
}

Machine resolve_scenario_machine(const Scenario& s, const std::string& scenario_path)
{
    try {
        return resolve_machine(scenario_machine_spec(s, scenario_path));
    } catch (const InputError& e) {
        // Where the scenario names its machine, if the file on disk still
        // says what `s` does (a window may hold unsaved edits).
        TextPosition at;
        try {
            const std::string text = read_input_file(scenario_path, "scenario file");
            const JsonLocator locator(text);
            if (Json::parse(locator.value_text("/machine"), nullptr, false) == Json(s.machine))
                at = locator.locate("/machine");
        } catch (const InputError&) {
            // Not readable now: the message goes without a line.
        }
        std::vector<Diagnostic> diagnostics{{scenario_path, at.line, at.column, "/machine",
                                             "the machine \"" + s.machine + "\" cannot be used; its problems follow"}};
        diagnostics.insert(diagnostics.end(), e.diagnostics().begin(), e.diagnostics().end());
        throw InputError(std::move(diagnostics));
    }
}

}  // namespace wb
