// SPDX-License-Identifier: Apache-2.0
//
// CpuMask: a set of CPU ids, the simulator's cpumask_t.
//
// Sized at run time to the machine's CPU count (at most kMaxCpus), so a mask
// on an 8-CPU teaching machine is one word and on a 4096-CPU machine 64 words.
// Iteration follows the kernel's helpers: for_each (for_each_cpu) and
// for_each_wrap (for_each_cpu_wrap, used by the LLC scan).
//
// Text form everywhere is the kernel's cpulist syntax ("0-3,8-11"), parsed by
// parse_cpulist() and written by to_cpulist().
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

using CpuId = int;
inline constexpr CpuId kNoCpu = -1;
inline constexpr int kMaxCpus = 4096;

class CpuMask {
public:
    CpuMask() = default;
    explicit CpuMask(int nr_cpus) : nr_cpus_(nr_cpus), words_(word_count(nr_cpus), 0) {}

    // CPUs first..last (inclusive) set in a mask of nr_cpus.
    static CpuMask range(int nr_cpus, CpuId first, CpuId last);
    static CpuMask of(int nr_cpus, std::initializer_list<CpuId> cpus);

    int nr_cpus() const { return nr_cpus_; }

    void set(CpuId cpu) { words_[index(cpu)] |= bit(cpu); }
    void reset(CpuId cpu) { words_[index(cpu)] &= ~bit(cpu); }
    bool test(CpuId cpu) const { return cpu >= 0 && cpu < nr_cpus_ && (words_[index(cpu)] & bit(cpu)) != 0; }

    int weight() const
    {
        int total = 0;
        for (std::uint64_t word : words_)
            total += popcount64(word);
        return total;
    }
    bool empty() const;
    CpuId first() const { return next(-1); }
    // The first set CPU strictly after `cpu`, or kNoCpu. Inline: every
    // for_each over a domain's span calls it once per CPU.
    CpuId next(CpuId cpu) const
    {
        const CpuId from = cpu + 1;
        if (from >= nr_cpus_)
            return kNoCpu;
        std::size_t w = index(from);
        std::uint64_t word = words_[w] & (~std::uint64_t{0} << (static_cast<unsigned>(from) % 64));
        while (true) {
            if (word != 0) {
                const CpuId found = static_cast<CpuId>(w * 64) + std::countr_zero(word);
                return found < nr_cpus_ ? found : kNoCpu;
            }
            if (++w >= words_.size())
                return kNoCpu;
            word = words_[w];
        }
    }

    bool intersects(const CpuMask& other) const;
    bool is_subset_of(const CpuMask& other) const;

    CpuMask& operator|=(const CpuMask& other);
    CpuMask& operator&=(const CpuMask& other);
    CpuMask& and_not(const CpuMask& other);
    friend CpuMask operator|(CpuMask a, const CpuMask& b) { return a |= b; }
    friend CpuMask operator&(CpuMask a, const CpuMask& b) { return a &= b; }
    friend bool operator==(const CpuMask&, const CpuMask&) = default;

    template <typename F>
    void for_each(F&& visit) const
    {
        for (CpuId cpu = first(); cpu != kNoCpu; cpu = next(cpu))
            visit(cpu);
    }

    // Visits the CPUs set in both this mask and `other`, in increasing order,
    // as the kernel's for_each_cpu_and() does: the statistics scans of the
    // balancer and the slow path, over a group's span and the CPUs still
    // considered. A word at a time, each CPU found by its bit, instead of a
    // next() and a test() per CPU. The masks are read before the visits:
    // `visit` must not change them.
    template <typename F>
    void for_each_and(const CpuMask& other, F&& visit) const
    {
        const std::size_t n = words_.size() < other.words_.size() ? words_.size() : other.words_.size();
        for (std::size_t w = 0; w < n; ++w) {
            for (std::uint64_t bits = words_[w] & other.words_[w]; bits != 0; bits &= bits - 1)
                visit(static_cast<CpuId>(w * 64) + std::countr_zero(bits));
        }
    }
    // for_each() a word at a time, with the same condition on `visit`.
    template <typename F>
    void for_each_fixed(F&& visit) const
    {
        for (std::size_t w = 0; w < words_.size(); ++w) {
            for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
                visit(static_cast<CpuId>(w * 64) + std::countr_zero(bits));
        }
    }

    // Visits the set CPUs in increasing order starting at `start` (inclusive)
    // and wrapping around to 0, like the kernel's for_each_cpu_wrap().
    template <typename F>
    void for_each_wrap(CpuId start, F&& visit) const
    {
        for (CpuId cpu = next(start - 1); cpu != kNoCpu; cpu = next(cpu))
            visit(cpu);
        for (CpuId cpu = first(); cpu != kNoCpu && cpu < start; cpu = next(cpu))
            visit(cpu);
    }

    std::vector<CpuId> to_vector() const;
    // The raw bits, 64 CPUs a word, for hashing and fast comparisons.
    const std::vector<std::uint64_t>& words() const { return words_; }
    std::string to_cpulist() const;

private:
    // Without -mpopcnt, std::popcount is a call into libgcc; this is a
    // dozen inline instructions.
    static int popcount64(std::uint64_t x)
    {
        x -= (x >> 1) & 0x5555555555555555ULL;
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
        return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
    }
    static std::size_t word_count(int nr_cpus) { return (static_cast<std::size_t>(nr_cpus) + 63) / 64; }
    static std::size_t index(CpuId cpu) { return static_cast<std::size_t>(cpu) / 64; }
    static std::uint64_t bit(CpuId cpu) { return std::uint64_t{1} << (static_cast<unsigned>(cpu) % 64); }

    int nr_cpus_ = 0;
    std::vector<std::uint64_t> words_;
};

struct CpulistParse {
    CpuMask mask;
    std::string error;       // empty on success; otherwise what was expected
    std::size_t column = 0;  // 1-based position in the text of the error
    bool ok() const { return error.empty(); }
};

// Parses the kernel's cpulist syntax as bitmap_parselist() accepts it:
// comma-separated "N", "N-M" and "N-M:used/group" items, white space around
// items ignored, the empty string meaning no CPU. Every CPU must be below
// nr_cpus.
CpulistParse parse_cpulist(std::string_view text, int nr_cpus);

}  // namespace wb
