// SPDX-License-Identifier: Apache-2.0
//
// Scenario files (io/scenario_json.cpp): a scenario that saves and reads
// back equal and whose machine resolves, or an InputError at a line.
// Inputs naming plugins are skipped: a plugin path would be dlopen()ed,
// which runs its code, and the loader has its own tests.
#include "contract.h"
#include "fuzz_target.h"
#include "io/scenario_json.h"
#include "topology/machine.h"

using namespace wb;

WB_FUZZ_TARGET(scenario_json)
{
    const std::string_view text = fuzz::text_of(data, size);
    if (text.find("plugins") != std::string_view::npos)
        return 0;
    Scenario s;
    try {
        s = parse_scenario_json(text, "fuzz.json");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
        return 0;
    }
    fuzz::require(!s.cases.empty() && !s.policies.empty() && s.runs >= 1, "a scenario it should have refused");
    const std::string saved = scenario_to_json(s);
    fuzz::require(parse_scenario_json(saved, "saved.json") == s, "a scenario does not read back equal", saved);
    try {
        const Machine m = resolve_scenario_machine(s, "fuzz.json");
        fuzz::require(validate(m).empty(), "a scenario's machine validate() refuses");
    } catch (const InputError& e) {
        fuzz::require(e.diagnostics().front().pointer == "/machine", "a machine error that does not name /machine",
                      e.what());
        fuzz::require_located(e, fuzz::Place::File);
    }
    return 0;
}
