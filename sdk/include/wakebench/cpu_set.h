// SPDX-License-Identifier: Apache-2.0
//
// CpuSet: a read-only view of a cpumask (a sched domain's span, an SMT
// core's threads, an idle scan's mask). It points at the engine's bits and
// is valid for the duration of the hook call that received it.
#pragma once

#include <bit>
#include <cstdint>

namespace wakebench {

inline constexpr int kNoCpu = -1;
inline constexpr int kNoTask = -1;

class CpuSet {
public:
    CpuSet() = default;
    // `words` holds bit (cpu % 64) of word (cpu / 64) for each of nr_cpus CPUs.
    CpuSet(const std::uint64_t* words, int nr_cpus) : words_(words), nr_cpus_(nr_cpus) {}

    int nr_cpus() const { return nr_cpus_; }
    // cpumask_test_cpu()
    bool test(int cpu) const
    {
        return cpu >= 0 && cpu < nr_cpus_ && (words_[cpu / 64] >> (cpu % 64) & 1U) != 0;
    }
    // cpumask_weight()
    int weight() const
    {
        int total = 0;
        for (int w = 0; w < (nr_cpus_ + 63) / 64; ++w)
            total += std::popcount(words_[w]);
        return total;
    }
    // cpumask_next(): the first CPU after `cpu` in the set, or kNoCpu.
    int next(int cpu) const
    {
        int c = cpu + 1;
        while (c < nr_cpus_) {
            const std::uint64_t rest = words_[c / 64] >> (c % 64);
            if (rest != 0) {
                const int found = c + std::countr_zero(rest);
                return found < nr_cpus_ ? found : kNoCpu;
            }
            c = (c / 64 + 1) * 64;  // the rest of this word is empty
        }
        return kNoCpu;
    }
    int first() const { return next(-1); }

    // for (int cpu : set): for_each_cpu()
    struct Iter {
        const CpuSet* set;
        int cpu;
        int operator*() const { return cpu; }
        Iter& operator++()
        {
            cpu = set->next(cpu);
            return *this;
        }
        bool operator!=(const Iter& other) const { return cpu != other.cpu; }
    };
    Iter begin() const { return {this, first()}; }
    Iter end() const { return {this, kNoCpu}; }

private:
    const std::uint64_t* words_ = nullptr;
    int nr_cpus_ = 0;
};

}  // namespace wakebench
