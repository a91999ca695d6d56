// SPDX-License-Identifier: Apache-2.0
//
// The memory an AF_UNIX stream write charges to the writing socket: the
// truesize of the skbs unix_stream_sendmsg() (net/unix/af_unix.c) allocates
// with sock_alloc_send_pskb(), which skb_set_owner_w() adds to the socket's
// sk_wmem_alloc until the reader's consume_skb() -> sock_wfree() gives it
// back. Kernel of the v7.3 merge window, x86_64, distro configuration
// (CONFIG_MEMCG on, MAX_SKB_FRAGS 17, 4 KiB pages, 64-byte cache lines).
//
// The struct sizes are x86_64 facts, not tunables: SK_WMEM_MAX, the
// net.core.wmem_default every distribution ships (212992), is defined in
// include/net/sock.h from the same two sizes as 256 * SKB_TRUESIZE(256), and
// the static_assert below checks that they reproduce it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace wb::unix_skb {

// SMP_CACHE_BYTES (L1_CACHE_BYTES, CONFIG_X86_L1_CACHE_SHIFT=6): SKB_DATA_ALIGN's unit.
inline constexpr std::uint64_t kSmpCacheBytes = 64;
inline constexpr std::uint64_t kPageSize = 4096;
// sizeof(struct sk_buff) on x86_64 (pahole, v6.x-v7.x distro kernels).
inline constexpr std::uint64_t kSizeofSkBuff = 232;
// sizeof(struct skb_shared_info): 48 bytes of header fields and
// frags[MAX_SKB_FRAGS = 17] of 16-byte skb_frag_t (include/linux/skbuff.h).
inline constexpr std::uint64_t kSizeofSkbSharedInfo = 48 + 17 * 16;

// SKB_DATA_ALIGN(X): X rounded up to a cache line.
constexpr std::uint64_t skb_data_align(std::uint64_t x)
{
    return (x + kSmpCacheBytes - 1) / kSmpCacheBytes * kSmpCacheBytes;
}

// SKB_TRUESIZE(X): X bytes of data plus the aligned sk_buff and skb_shared_info.
constexpr std::uint64_t skb_truesize(std::uint64_t x)
{
    return x + skb_data_align(kSizeofSkBuff) + skb_data_align(kSizeofSkbSharedInfo);
}

// kmalloc_size_roundup(): the size of the SLUB kmalloc cache a request lands
// in (kmalloc-8 ... kmalloc-8k, with the two odd caches kmalloc-96 and
// kmalloc-192); larger requests go to the page allocator in whole pages.
constexpr std::uint64_t kmalloc_size_roundup(std::uint64_t x)
{
    if (x > 64 && x <= 96)
        return 96;
    if (x > 128 && x <= 192)
        return 192;
    if (x > 2 * kPageSize) {
        std::uint64_t pages = kPageSize;
        while (pages < x)
            pages *= 2;
        return pages;
    }
    std::uint64_t size = 8;
    while (size < x)
        size *= 2;
    return size;
}

// PAGE_ALIGN(X).
constexpr std::uint64_t page_align(std::uint64_t x)
{
    return (x + kPageSize - 1) / kPageSize * kPageSize;
}

// SKB_WITH_OVERHEAD(PAGE_SIZE), SKB_MAX_HEAD(0): the largest linear head
// that fits in one page with its skb_shared_info.
inline constexpr std::uint64_t kSkbMaxHead = kPageSize - skb_data_align(kSizeofSkbSharedInfo);
// UNIX_SKB_FRAGS_SZ (af_unix.c): PAGE_SIZE << get_order(32768).
inline constexpr std::uint64_t kUnixSkbFragsSize = 32768;

// The truesize of alloc_skb(header_len): __alloc_skb() asks kmalloc_reserve()
// for SKB_HEAD_ALIGN(header_len) (data and skb_shared_info, each cache-line
// aligned) and __build_skb_around() sets truesize = SKB_TRUESIZE(what the
// slab gave, less the skb_shared_info). Unix sockets allocate with
// GFP_KERNEL_ACCOUNT (unix_create1()), and __GFP_ACCOUNT is in
// KMALLOC_NOT_NORMAL_BITS under CONFIG_MEMCG, so the small-head cache is
// skipped and the request is rounded to a kmalloc-cg size class.
constexpr std::uint64_t alloc_skb_truesize(std::uint64_t header_len)
{
    const std::uint64_t head = kmalloc_size_roundup(skb_data_align(header_len) + skb_data_align(kSizeofSkbSharedInfo));
    return skb_truesize(head - skb_data_align(kSizeofSkbSharedInfo));
}

// The truesize charged to the writer's sk_wmem_alloc by one write(len) on a
// unix stream socket whose sk_sndbuf is `sndbuf`. unix_stream_sendmsg() cuts
// the write into skbs of at most sndbuf / 2 - 64 bytes ("keep two messages
// in the pipe") and SKB_MAX_HEAD(0) + UNIX_SKB_FRAGS_SZ; past SKB_MAX_HEAD(0)
// the rest goes in page fragments (data_len = PAGE_ALIGN(size - SKB_MAX_HEAD(0)),
// at most size), and alloc_skb_with_frags() adds each whole page it
// allocates (PAGE_SIZE << order) to the truesize.
constexpr std::uint64_t unix_stream_write_truesize(std::uint64_t len, std::uint64_t sndbuf)
{
    std::uint64_t total = 0;
    const std::uint64_t max_skb = std::min<std::uint64_t>(sndbuf / 2 - 64, kSkbMaxHead + kUnixSkbFragsSize);
    while (len > 0) {
        const std::uint64_t size = std::min(len, max_skb);
        const std::uint64_t paged = size > kSkbMaxHead ? size - kSkbMaxHead : 0;
        const std::uint64_t data_len = std::min(size, page_align(paged));
        total += alloc_skb_truesize(size - data_len) + page_align(data_len);
        len -= size;
    }
    return total;
}

// include/net/sock.h: SK_WMEM_MAX = _SK_MEM_PACKETS * _SK_MEM_OVERHEAD, the
// default of net.core.wmem_default, which sock_init_data() copies into a
// new socket's sk_sndbuf; af_unix never changes it.
inline constexpr std::uint64_t kSkWmemMax = 256 * skb_truesize(256);
static_assert(kSkWmemMax == 212992, "sk_buff and skb_shared_info sizes reproduce SK_WMEM_MAX");

// SOCK_MIN_SNDBUF (include/net/sock.h): 2 * TCP_SKB_MIN_TRUESIZE, the least
// sk_sndbuf the kernel accepts.
inline constexpr std::uint64_t kSockMinSndbuf = 2 * (2048 + skb_data_align(kSizeofSkBuff));

}  // namespace wb::unix_skb
