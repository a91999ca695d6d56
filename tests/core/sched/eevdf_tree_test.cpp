// SPDX-License-Identifier: Apache-2.0
#include "sched/eevdf_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace wb {
namespace {

// Tasks with the fields the tree reads, and the same entities kept the
// plain way: a vector in deadline order, equal deadlines in insertion order
// (what the fair class used before the tree).
struct TreeRig {
    std::vector<Task> tasks;
    Timeline tl;
    std::vector<TaskId> sorted;

    explicit TreeRig(int n) : tasks(static_cast<std::size_t>(n))
    {
        for (int i = 0; i < n; ++i)
            tasks[static_cast<std::size_t>(i)].id = i;
    }
    SchedEntity& se(TaskId id) { return tasks[static_cast<std::size_t>(id)].se; }

    void insert(TaskId id, std::int64_t deadline, std::int64_t vruntime, std::uint64_t slice)
    {
        se(id).deadline = deadline;
        se(id).vruntime = vruntime;
        se(id).slice = slice;
        timeline_insert(tasks, tl, id);
        auto pos = std::upper_bound(sorted.begin(), sorted.end(), deadline,
                                    [this](std::int64_t d, TaskId other) { return d < se(other).deadline; });
        sorted.insert(pos, id);
    }
    void erase(TaskId id)
    {
        timeline_erase(tasks, tl, id);
        sorted.erase(std::find(sorted.begin(), sorted.end(), id));
    }
    long check()
    {
        std::string why;
        const long n = check_timeline(tasks, tl, &why);
        EXPECT_GE(n, 0) << why;
        return n;
    }
};

TEST(EevdfTree, EmptyTreeHasNoEntityAndNoSlices)
{
    TreeRig r(1);
    EXPECT_TRUE(r.tl.empty());
    EXPECT_EQ(r.tl.leftmost, kNoTask);
    EXPECT_EQ(timeline_first_eligible(r.tasks, r.tl, [](std::int64_t) { return true; }), kNoTask);
    EXPECT_EQ(timeline_min_slice(r.tasks, r.tl), 0u);
    EXPECT_EQ(timeline_max_slice(r.tasks, r.tl), 0u);
    EXPECT_EQ(r.check(), 0);
}

TEST(EevdfTree, KeepsDeadlineOrderWithTiesInInsertionOrder)
{
    TreeRig r(6);
    r.insert(0, 300, 0, 1);
    r.insert(1, 100, 0, 1);
    r.insert(2, 300, 0, 1);  // after 0, which has the same deadline
    r.insert(3, 200, 0, 1);
    r.insert(4, 100, 0, 1);  // after 1
    r.insert(5, 50, 0, 1);
    EXPECT_THAT(timeline_in_order(r.tasks, r.tl), ::testing::ElementsAre(5, 1, 4, 3, 0, 2));
    EXPECT_EQ(r.tl.leftmost, 5);
    EXPECT_EQ(r.check(), 6);
    r.erase(5);
    EXPECT_EQ(r.tl.leftmost, 1);
    r.erase(1);
    EXPECT_EQ(r.tl.leftmost, 4);
    EXPECT_THAT(timeline_in_order(r.tasks, r.tl), ::testing::ElementsAre(4, 3, 0, 2));
    EXPECT_EQ(r.check(), 4);
}

TEST(EevdfTree, TheOnlyEntityIsRecognisedAndRemovedCheaply)
{
    TreeRig r(2);
    r.insert(0, 10, 0, 1);
    EXPECT_TRUE(timeline_is_only(r.tasks, r.tl, 0));
    r.insert(1, 20, 0, 1);
    EXPECT_FALSE(timeline_is_only(r.tasks, r.tl, 0));
    EXPECT_FALSE(timeline_is_only(r.tasks, r.tl, 1));
    r.erase(1);
    ASSERT_TRUE(timeline_is_only(r.tasks, r.tl, 0));
    timeline_erase_only(r.tl);
    EXPECT_TRUE(r.tl.empty());
    EXPECT_EQ(r.tl.leftmost, kNoTask);
}

// The descent finds the earliest deadline whose vruntime is eligible, not
// the leftmost nor the smallest vruntime.
TEST(EevdfTree, FirstEligibleIsTheEarliestDeadlineAtOrBelowTheLimit)
{
    TreeRig r(5);
    r.insert(0, 100, 50, 1);  // earliest deadline, not eligible below 50
    r.insert(1, 200, 30, 1);
    r.insert(2, 300, 10, 1);  // smallest vruntime
    r.insert(3, 400, 20, 1);
    r.insert(4, 500, 40, 1);
    auto first_at_or_below = [&](std::int64_t limit) {
        return timeline_first_eligible(r.tasks, r.tl, [limit](std::int64_t v) { return v <= limit; });
    };
    EXPECT_EQ(first_at_or_below(60), 0);
    EXPECT_EQ(first_at_or_below(35), 1);
    EXPECT_EQ(first_at_or_below(25), 2);
    EXPECT_EQ(first_at_or_below(10), 2);
    EXPECT_EQ(first_at_or_below(9), kNoTask);
    r.erase(2);
    EXPECT_EQ(first_at_or_below(25), 3);
    EXPECT_EQ(first_at_or_below(15), kNoTask);
}

TEST(EevdfTree, SlicesOfTheWholeTreeAreAtTheRoot)
{
    TreeRig r(4);
    r.insert(0, 10, 0, 3'000'000);
    r.insert(1, 20, 0, 700'000);
    r.insert(2, 30, 0, 2'800'000);
    r.insert(3, 40, 0, 100'000);
    EXPECT_EQ(timeline_min_slice(r.tasks, r.tl), 100'000u);
    EXPECT_EQ(timeline_max_slice(r.tasks, r.tl), 3'000'000u);
    r.erase(3);
    r.erase(0);
    EXPECT_EQ(timeline_min_slice(r.tasks, r.tl), 700'000u);
    EXPECT_EQ(timeline_max_slice(r.tasks, r.tl), 2'800'000u);
}

// Thousands of inserts and erases at random places, with many equal
// deadlines: after each, the tree is a valid red-black tree with exact
// subtree values, in the reference order, and the descent agrees with a
// scan of that order for a random eligibility limit.
TEST(EevdfTree, RandomInsertsAndErasesMatchASortedVector)
{
    constexpr int kTasks = 400;
    TreeRig r(kTasks);
    std::mt19937_64 rng(7);
    std::vector<TaskId> out;
    for (TaskId id = 0; id < kTasks; ++id)
        out.push_back(id);
    std::size_t max_size = 0;
    for (int step = 0; step < 20000; ++step) {
        // Slightly more inserts than erases, until every task is in.
        const bool erase = !r.sorted.empty() && (out.empty() || rng() % 100 < 45);
        if (!erase) {
            const std::size_t k = rng() % out.size();
            const TaskId id = out[k];
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(k));
            r.insert(id, static_cast<std::int64_t>(rng() % 64), static_cast<std::int64_t>(rng() % 1000) - 500,
                     100'000 + rng() % 8 * 100'000);
        } else {
            const TaskId id = r.sorted[rng() % r.sorted.size()];
            r.erase(id);
            out.push_back(id);
        }
        max_size = std::max(max_size, r.sorted.size());
        ASSERT_EQ(r.check(), static_cast<long>(r.sorted.size())) << "step " << step;
        ASSERT_EQ(timeline_in_order(r.tasks, r.tl), r.sorted) << "step " << step;
        const std::int64_t limit = static_cast<std::int64_t>(rng() % 1100) - 550;
        TaskId scan = kNoTask;
        std::uint64_t min_slice = ~0ull, max_slice = 0;
        for (TaskId id : r.sorted) {
            if (scan == kNoTask && r.se(id).vruntime <= limit)
                scan = id;
            min_slice = std::min(min_slice, r.se(id).slice);
            max_slice = std::max(max_slice, r.se(id).slice);
        }
        ASSERT_EQ(timeline_first_eligible(r.tasks, r.tl, [limit](std::int64_t v) { return v <= limit; }), scan)
            << "step " << step;
        if (!r.sorted.empty()) {
            ASSERT_EQ(timeline_min_slice(r.tasks, r.tl), min_slice);
            ASSERT_EQ(timeline_max_slice(r.tasks, r.tl), max_slice);
        }
    }
    EXPECT_GT(max_size, 100u);  // the walk grew trees of some height
}

TEST(EevdfTree, CheckNamesWhatIsWrong)
{
    TreeRig r(3);
    r.insert(0, 10, 5, 1);
    r.insert(1, 20, 6, 1);
    r.insert(2, 30, 7, 1);
    ASSERT_EQ(r.check(), 3);
    const TaskId root = r.tl.root;
    std::string why;

    r.se(root).run_node.min_vruntime += 1;
    EXPECT_EQ(check_timeline(r.tasks, r.tl, &why), -1);
    EXPECT_THAT(why, ::testing::HasSubstr("subtree values are stale"));
    r.se(root).run_node.min_vruntime -= 1;

    r.se(root).run_node.red = true;
    EXPECT_EQ(check_timeline(r.tasks, r.tl, &why), -1);
    EXPECT_THAT(why, ::testing::HasSubstr("red"));
    r.se(root).run_node.red = false;

    r.tl.leftmost = 2;
    EXPECT_EQ(check_timeline(r.tasks, r.tl, &why), -1);
    EXPECT_THAT(why, ::testing::HasSubstr("leftmost"));
    r.tl.leftmost = 0;

    r.se(0).deadline = 40;  // now out of order, yet linked where it was
    EXPECT_EQ(check_timeline(r.tasks, r.tl, &why), -1);
    EXPECT_THAT(why, ::testing::HasSubstr("deadline order"));
    r.se(0).deadline = 10;

    r.se(2).run_node.parent = 0;
    EXPECT_EQ(check_timeline(r.tasks, r.tl, &why), -1);
    EXPECT_THAT(why, ::testing::HasSubstr("parent link"));
}

}  // namespace
}  // namespace wb
