// SPDX-License-Identifier: Apache-2.0
//
// Synthetic specs (topology/synthetic.cpp): a machine that validates and
// builds its sched domains, or an InputError at a column.
#include "contract.h"
#include "fuzz_target.h"
#include "topology/sched_domains.h"
#include "topology/synthetic.h"

using namespace wb;

WB_FUZZ_TARGET(synthetic_spec)
{
    Machine m;
    try {
        m = parse_synthetic(fuzz::text_of(data, size));
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Column);
        return 0;
    }
    fuzz::require(validate(m).empty(), "parse_synthetic() returned a machine validate() refuses");
    SchedDomains::build(m);
    return 0;
}
