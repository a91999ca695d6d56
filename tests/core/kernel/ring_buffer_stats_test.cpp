// SPDX-License-Identifier: Apache-2.0
#include "kernel/ring_buffer_stats.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

TEST(RingBufferStats, NothingLostInACleanRun)
{
    // As Debian's 6.1 printed them under QEMU.
    std::string where;
    EXPECT_EQ(ring_buffer_losses("cpu0 entries: 96;overrun: 0;commit overrun: 0;bytes: 5184;oldest event ts:     "
                                 "5.189392;now ts:    12.062780;dropped events: 0;read events: 0;\n",
                                 where),
              0u);
    EXPECT_EQ(where, "");
}

TEST(RingBufferStats, OverrunsCommitOverrunsAndDropsAllCount)
{
    std::string where;
    EXPECT_EQ(ring_buffer_losses("cpu0 entries: 5;overrun: 0;commit overrun: 0;dropped events: 0;\n"
                                 "cpu1 entries: 5;overrun: 120;commit overrun: 3;dropped events: 0;\n"
                                 "cpu2 entries: 5;overrun: 0;commit overrun: 0;dropped events: 7;\n",
                                 where),
              130u);
    EXPECT_EQ(where, "cpu1");
}

}  // namespace
}  // namespace wb
