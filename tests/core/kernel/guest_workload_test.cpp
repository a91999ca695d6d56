// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/input_error.h"

namespace wb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string error_of(const std::string& spec)
{
    try {
        guest_workload(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(GuestWorkload, PipeTakesPerfsOptions)
{
    const GuestWorkload g = guest_workload("pipe:loops=2000,threads=1,cpus=0-1,3");
    EXPECT_EQ(g.program, "pipe");
    EXPECT_THAT(g.args, ElementsAre("-l", "2000", "-T", "-c", "0-1,3"));
    EXPECT_EQ(g.command_line(), "pipe@-l@2000@-T@-c@0-1,3");
}

TEST(GuestWorkload, HackbenchFillsTheModelsDefaults)
{
    const GuestWorkload g = guest_workload("hackbench:groups=2,loops=20,mode=pipe");
    EXPECT_EQ(g.program, "messaging");
    EXPECT_THAT(g.args, ElementsAre("-g", "2", "-f", "20", "-l", "20", "-s", "100", "-p"));
}

TEST(GuestWorkload, SchbenchTimesAreMicroseconds)
{
    const GuestWorkload g = guest_workload("schbench:message_threads=1,threads=4,runtime=200ms");
    EXPECT_THAT(g.args, ElementsAre("-m", "1", "-t", "4", "-r", "200000", "-n", "20", "-s", "100", "-w", "0"));
}

TEST(GuestWorkload, OtherWorkloadsHaveNoGuestProgram)
{
    EXPECT_THAT(error_of("tee"), HasSubstr("tee has no guest program"));
}

TEST(GuestWorkload, AnSndbufTheGuestCannotFollowIsRefused)
{
    EXPECT_THAT(error_of("hackbench:sndbuf=4096"), HasSubstr("sndbuf=4096: the guest runs with the kernel's default"));
}

TEST(GuestWorkload, BadParametersFailAsTheModelsDo)
{
    EXPECT_THAT(error_of("pipe:loop=5"), HasSubstr("unknown parameter 'loop' of pipe"));
}

}  // namespace
}  // namespace wb
