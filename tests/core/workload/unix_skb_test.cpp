// SPDX-License-Identifier: Apache-2.0
//
// The truesize a unix stream write charges: each term of the formula, the
// kmalloc size classes, how a long write is cut into skbs, and the
// cross-check of the struct sizes against SK_WMEM_MAX.
#include "workload/unix_skb.h"

#include <gtest/gtest.h>

#include <array>

namespace wb::unix_skb {
namespace {

TEST(UnixSkb, DataAlignRoundsUpToACacheLine)
{
    for (std::uint64_t x : {1u, 63u, 64u, 65u, 100u, 232u, 320u}) {
        const std::uint64_t a = skb_data_align(x);
        EXPECT_EQ(a % kSmpCacheBytes, 0u) << x;
        EXPECT_GE(a, x);
        EXPECT_LT(a - x, kSmpCacheBytes);
    }
}

TEST(UnixSkb, KmallocRoundsUpToTheSmallestSizeClass)
{
    const std::array<std::uint64_t, 13> classes = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192};
    for (std::uint64_t x = 1; x <= 8192; ++x) {
        std::uint64_t smallest = 0;
        for (std::uint64_t c : classes)
            if (c >= x) {
                smallest = c;
                break;
            }
        ASSERT_EQ(kmalloc_size_roundup(x), smallest) << x;
    }
    EXPECT_EQ(kmalloc_size_roundup(8193), 4 * kPageSize) << "past kmalloc-8k: whole pages of an order";
}

TEST(UnixSkb, AHundredByteMessageChargesItsSlabObjectAndBothStructs)
{
    // __alloc_skb(100): data aligned, plus skb_shared_info, from a kmalloc-cg cache.
    const std::uint64_t requested = skb_data_align(100) + skb_data_align(kSizeofSkbSharedInfo);
    const std::uint64_t slab = kmalloc_size_roundup(requested);
    EXPECT_GE(slab, requested);
    // truesize = the slab object less its skb_shared_info, then SKB_TRUESIZE().
    const std::uint64_t data_area = slab - skb_data_align(kSizeofSkbSharedInfo);
    const std::uint64_t expected = data_area + skb_data_align(kSizeofSkBuff) + skb_data_align(kSizeofSkbSharedInfo);
    EXPECT_EQ(alloc_skb_truesize(100), expected);
    EXPECT_EQ(unix_stream_write_truesize(100, kSkWmemMax), expected) << "one skb per 100-byte write";
    // What the slab rounding adds over SKB_TRUESIZE(100), the minimum.
    EXPECT_EQ(alloc_skb_truesize(100) - skb_truesize(100), slab - requested + (skb_data_align(100) - 100));
    // The "about 700 bytes": several times the payload.
    EXPECT_GT(alloc_skb_truesize(100), 6 * 100u);
    EXPECT_LT(alloc_skb_truesize(100), 9 * 100u);
}

TEST(UnixSkb, StructSizesReproduceTheDefaultSocketBuffer)
{
    // net.core.wmem_default as every kernel reports it.
    EXPECT_EQ(kSkWmemMax, 212992u);
    EXPECT_EQ(kSkWmemMax, 256 * (256 + skb_data_align(kSizeofSkBuff) + skb_data_align(kSizeofSkbSharedInfo)));
}

TEST(UnixSkb, ALongWriteIsCutIntoSkbsOfHalfTheSendBuffer)
{
    // unix_stream_sendmsg(): at most sndbuf / 2 - 64 bytes per skb.
    const std::uint64_t sndbuf = 8192;
    const std::uint64_t chunk = sndbuf / 2 - 64;
    EXPECT_EQ(unix_stream_write_truesize(2 * chunk + 10, sndbuf),
              2 * unix_stream_write_truesize(chunk, sndbuf) + unix_stream_write_truesize(10, sndbuf));
    // Past SKB_MAX_HEAD(0), a page-aligned tail goes into whole pages and
    // the head keeps the rest.
    const std::uint64_t len = kPageSize + 1000;
    EXPECT_EQ(unix_stream_write_truesize(len, kSkWmemMax), alloc_skb_truesize(1000) + kPageSize);
    // Just past it the whole write is paged: an empty head and one page.
    EXPECT_EQ(unix_stream_write_truesize(kSkbMaxHead + 1, kSkWmemMax), alloc_skb_truesize(0) + kPageSize);
    EXPECT_EQ(unix_stream_write_truesize(kSkbMaxHead, kSkWmemMax), alloc_skb_truesize(kSkbMaxHead));
}

}  // namespace
}  // namespace wb::unix_skb
