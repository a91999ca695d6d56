// SPDX-License-Identifier: Apache-2.0
//
// CPU lists (topology/cpumask.cpp): the first two bytes choose the
// machine's size (1 to 4096 CPUs), the rest is the list. A list that
// parses names only CPUs of the machine and reads back equal from its own
// text; one that does not says at which column.
#include "contract.h"
#include "fuzz_target.h"
#include "topology/cpumask.h"

using namespace wb;

WB_FUZZ_TARGET(cpulist)
{
    if (size < 2)
        return 0;
    const int nr_cpus = 1 + ((data[0] | data[1] << 8) % kMaxCpus);
    const std::string_view text = fuzz::text_of(data + 2, size - 2);
    const CpulistParse parse = parse_cpulist(text, nr_cpus);
    if (!parse.ok()) {
        fuzz::require(parse.column >= 1 && parse.column <= text.size() + 1, "an error outside the list", parse.error);
        return 0;
    }
    fuzz::require(parse.mask.nr_cpus() == nr_cpus, "a mask of another machine's size");
    const std::string again = parse.mask.to_cpulist();
    const CpulistParse reread = parse_cpulist(again, nr_cpus);
    fuzz::require(reread.ok() && reread.mask == parse.mask, "a list that does not read back equal", again);
    return 0;
}
