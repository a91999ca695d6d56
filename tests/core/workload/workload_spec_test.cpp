// SPDX-License-Identifier: Apache-2.0
#include "workload/workload_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "workload_test_util.h"

namespace wb {
namespace {

using testing::HasSubstr;

std::string spec_error(const std::string& spec)
{
    try {
        make_workload(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(WorkloadSpec, AParameterGivenTwiceIsRefusedAtItsSecondPlace)
{
    // The last one used to win silently.
    EXPECT_THAT(spec_error("pipe:loops=1,loops=2"),
                HasSubstr("workload 'pipe:loops=1,loops=2':1:14: loops is given twice (first at column 6); "
                          "expected each parameter once"));
}

TEST(WorkloadSpec, ErrorsNameTheColumnOfTheParameter)
{
    EXPECT_THAT(spec_error("pipe:loop=5"), HasSubstr("workload 'pipe:loop=5':1:6: unknown parameter 'loop' of pipe"));
    EXPECT_THAT(spec_error("pipe:cpus=0,loops=x"),
                HasSubstr("workload 'pipe:cpus=0,loops=x':1:13: loops=x: expected a whole number"));
    EXPECT_THAT(spec_error("pipes"), HasSubstr("workload 'pipes':1:1: unknown workload 'pipes'"));
    EXPECT_THAT(spec_error("pipe:=3"), HasSubstr("workload 'pipe:=3':1:6: unknown parameter ''"));
}

TEST(WorkloadSpec, ACpulistKeepsItsCommas)
{
    EXPECT_EQ(spec_error("pipe:cpus=0,1,loops=3"), "no error");
    EXPECT_THAT(spec_error("pipe:loops=3,cpus=0,1,loops=4"), HasSubstr(":1:23: loops is given twice"));
}

}  // namespace
}  // namespace wb
