// SPDX-License-Identifier: Apache-2.0
//
// Workload specs (workload/workload_spec.cpp, workload_params.cpp): a
// workload, or an InputError naming the spec. The spec may name a file
// (json:file=PATH); any the fuzzer finds is read, never written.
#include "contract.h"
#include "fuzz_target.h"
#include "workload/workload_spec.h"

using namespace wb;

WB_FUZZ_TARGET(workload_spec)
{
    try {
        fuzz::require(make_workload(fuzz::text_of(data, size)) != nullptr, "make_workload() returned no workload");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::File);
    }
    return 0;
}
