// SPDX-License-Identifier: Apache-2.0
//
// Machine files (io/topology_json_read.cpp): a machine that validates,
// builds its sched domains and reads back equal from its own file form, or
// an InputError at a line.
#include "contract.h"
#include "fuzz_target.h"
#include "io/topology_json.h"
#include "topology/sched_domains.h"

using namespace wb;

WB_FUZZ_TARGET(machine_json)
{
    Machine m;
    try {
        m = parse_machine_json(fuzz::text_of(data, size), "fuzz.json");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
        return 0;
    }
    fuzz::require(validate(m).empty(), "parse_machine_json() returned a machine validate() refuses");
    SchedDomains::build(m);
    std::string file;
    try {
        file = machine_to_json(m);
    } catch (const InputError& e) {
        return 0;  // a machine without a file form (its name is no file name ...): said so
    }
    fuzz::require(parse_machine_json(file, "written.json") == m, "a machine file does not read back equal", file);
    return 0;
}
