// SPDX-License-Identifier: Apache-2.0
#include "metrics/decision_ring.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

DecisionRecord numbered(std::uint64_t seq)
{
    DecisionRecord r;
    r.seq = seq;
    return r;
}

TEST(DecisionRing, KeepsTheNewestInOrder)
{
    DecisionRing ring(3);
    for (std::uint64_t i = 0; i < 5; ++i)
        ring.push(numbered(i));
    ASSERT_EQ(ring.size(), 3u);
    EXPECT_EQ(ring.total(), 5u);
    EXPECT_EQ(ring.at(0).seq, 2u);
    EXPECT_EQ(ring.at(2).seq, 4u);
}

TEST(DecisionRing, PartlyFilled)
{
    DecisionRing ring(4);
    ring.push(numbered(7));
    ring.push(numbered(8));
    ASSERT_EQ(ring.size(), 2u);
    EXPECT_EQ(ring.at(0).seq, 7u);
    EXPECT_EQ(ring.at(1).seq, 8u);
    DecisionRing none(0);
    none.push(numbered(1));
    EXPECT_EQ(none.size(), 0u);
}

}  // namespace
}  // namespace wb
