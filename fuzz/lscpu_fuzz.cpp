// SPDX-License-Identifier: Apache-2.0
//
// lscpu -p listings (io/lscpu_import.cpp): a machine that validates, or an
// InputError at a line.
#include "contract.h"
#include "fuzz_target.h"
#include "io/lscpu_import.h"

using namespace wb;

WB_FUZZ_TARGET(lscpu)
{
    try {
        const ImportResult r = import_lscpu_text(fuzz::text_of(data, size), "fuzz-lscpu.txt");
        fuzz::require(validate(r.machine).empty(), "import_lscpu_text() returned a machine validate() refuses");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::Line);
    }
    return 0;
}
