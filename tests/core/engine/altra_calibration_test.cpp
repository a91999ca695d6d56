// SPDX-License-Identifier: Apache-2.0
//
// The calibrated Altra keeps reproducing table A's overheads (docs/
// calibration.md) on short runs: a change to the engine or the wakeup path
// that moves them shows up here, not only in the 5-minute comparison.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/batch.h"
#include "io/topology_json.h"

namespace wb {
namespace {

double usecs_per_op(const Machine& altra, const std::string& workload, const std::string& policy)
{
    RunRequest r;
    r.workload = workload;
    r.policy = policy;
    r.seed = 1;
    const RunOutcome out = run_one(altra, r);
    EXPECT_TRUE(out.finished);
    return out.headline.value;
}

class AltraCalibration : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        altra_ = new Machine(
            load_machine_file((std::filesystem::path(WB_SOURCE_DIR) / "topologies" / "ampere-altra-80.json").string()));
    }
    static void TearDownTestSuite() { delete altra_; }
    static Machine* altra_;
};

Machine* AltraCalibration::altra_ = nullptr;

TEST_F(AltraCalibration, PinnedPairCostsTheMeasuredHandoff)
{
    // 2 x 1.60 us: table A's same-cpu-79 column, 3.19 usecs/op.
    EXPECT_NEAR(usecs_per_op(*altra_, "pipe:loops=20000,cpus=79", "baseline"), 3.20, 0.02);
}

TEST_F(AltraCalibration, FreePairOverheadsStayWithinTheTargets)
{
    const double pinned = usecs_per_op(*altra_, "pipe:loops=20000,cpus=79", "baseline");
    const double baseline = usecs_per_op(*altra_, "pipe:loops=20000", "baseline") / pinned;
    const double v3 = usecs_per_op(*altra_, "pipe:loops=20000", "sync-waker-v3") / pinned;
    EXPECT_GT(baseline, 1.27 * 0.9);
    EXPECT_LT(baseline, 1.27 * 1.1);
    EXPECT_GT(v3, 1.05 * 0.9);
    EXPECT_LT(v3, 1.05 * 1.1);
}

}  // namespace
}  // namespace wb
