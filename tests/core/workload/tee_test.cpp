// SPDX-License-Identifier: Apache-2.0
//
// stress-ng tee: the three tasks of an instance and the wakeups between
// them, bogo op counting, stress-ng's metrics layout and the parameter
// errors.
#include "workload/tee.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "io/input_error.h"
#include "topology/synthetic.h"
#include "workload/workload_spec.h"

#include "workload_test_util.h"

namespace wb {
namespace {

using test::error_of;
using test::Outcome;
using test::simulate;

TEST(Tee, PipeCallsWakeWithSyncAndTeeAndSpliceWithout)
{
    // Tasks: 0 writer, 1 the tee()ing stressor, 2 reader.
    const Outcome r = simulate("tee:instances=1,timeout=2ms");
    int writer_to_teer = 0, teer_to_reader = 0, reader_to_teer = 0, teer_to_writer = 0;
    for (const DecisionRecord& d : r.wakeups) {
        ASSERT_NE(d.waker, kNoTask);
        const bool sync = d.wake_flags & WF_SYNC;
        if (d.waker == 0 && d.wakee == 1) {
            EXPECT_TRUE(sync) << "pipe_write()";
            ++writer_to_teer;
        } else if (d.waker == 1 && d.wakee == 2) {
            EXPECT_FALSE(sync) << "tee()'s wakeup_pipe_readers()";
            ++teer_to_reader;
        } else if (d.waker == 2 && d.wakee == 1) {
            EXPECT_TRUE(sync) << "pipe_read()";
            ++reader_to_teer;
        } else if (d.waker == 1 && d.wakee == 0) {
            EXPECT_FALSE(sync) << "splice()'s wakeup_pipe_writers()";
            ++teer_to_writer;
        } else {
            ADD_FAILURE() << "unexpected wakeup " << d.waker << " -> " << d.wakee;
        }
    }
    EXPECT_GT(writer_to_teer, 0);
    EXPECT_GT(teer_to_reader, 0);
    EXPECT_GT(teer_to_writer, 0);
    (void)reader_to_teer;  // only when the second pipe fills: the reader may keep up
    EXPECT_EQ(r.sim->elapsed(), Time::ms(2));
}

TEST(Tee, StopsAfterOpsPerInstanceAndMovesTheBytes)
{
    const Outcome r = simulate("tee:instances=2,ops=40,size=4096,timeout=1s");
    EXPECT_EQ(r.workload<TeeWorkload>().instances(), 2u);
    EXPECT_EQ(r.sim->workload().ops(), 80.0);
    EXPECT_LT(r.sim->elapsed(), Time::ms(100));
    // Each bogo op tees at least one byte, and no more than a pipe holds.
    EXPECT_LE(r.workload<TeeWorkload>().bytes_read(), 80u * kTeePipeBytes);
}

TEST(Tee, OneInstancePerCpuByDefault)
{
    const Outcome r = simulate("tee:timeout=1ms");
    EXPECT_EQ(r.workload<TeeWorkload>().instances(), 8u);
    EXPECT_GT(r.sim->workload().ops(), 8.0);
}

TEST(Tee, ReportsLikeStressNg)
{
    const Outcome r = simulate("tee:instances=2,timeout=2ms");
    const std::string out = r.sim->workload().report(r.sim->elapsed());
    EXPECT_EQ(out.rfind("stress-ng: info:  [1] dispatching hogs: 2 tee\n"
                        "stress-ng: info:  [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     "
                        "bogo ops/s\n"
                        "stress-ng: info:  [1]                           (secs)    (secs)    (secs)   (real time) "
                        "(usr+sys time)\n"
                        "stress-ng: info:  [1] tee           ",
                        0),
              0u)
        << out;
    char rate[32];
    std::snprintf(rate, sizeof rate, " %12.2f ", r.sim->workload().ops() / 0.002);
    EXPECT_NE(out.find(rate), std::string::npos) << out;
    EXPECT_NE(out.find("successful run completed in 0.00 secs\n"), std::string::npos);
    const Headline h = r.sim->workload().headline(r.sim->elapsed());
    EXPECT_EQ(h.name, "bogo ops/s");
    EXPECT_FALSE(h.lower_is_better);
    EXPECT_DOUBLE_EQ(h.value, r.sim->workload().ops() / 0.002);
}

TEST(Tee, BadParametersAreReportedWithWhatWasExpected)
{
    EXPECT_NE(error_of("tee:instance=2").find("unknown parameter 'instance' of tee"), std::string::npos);
    EXPECT_NE(error_of("tee:size=0").find("size=0: expected a whole number from 1"), std::string::npos);
    EXPECT_NE(error_of("tee:timeout=0s").find("timeout=0s: expected a duration above 0"), std::string::npos);
    EXPECT_NE(error_of("tee:ops=-1").find("ops=-1: expected a whole number"), std::string::npos);
}

}  // namespace
}  // namespace wb
