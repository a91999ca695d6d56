// SPDX-License-Identifier: Apache-2.0
//
// Rng: xoshiro256** seeded through splitmix64, the same sequence on every
// machine and compiler (unlike std::uniform_*_distribution, whose output the
// standard leaves to the library). Every random choice of a run draws from
// one of these, seeded from the run's 64-bit seed.
#pragma once

#include <cstdint>

namespace wb {

class Rng {
    __extension__ using u128 = unsigned __int128;

public:
    explicit Rng(std::uint64_t seed)
    {
        for (std::uint64_t& word : s_) {
            seed += 0x9e3779b97f4a7c15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            word = z ^ (z >> 31);
        }
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform in [0, bound), without modulo bias (Lemire's method).
    std::uint64_t below(std::uint64_t bound)
    {
        if (bound == 0)
            return 0;
        u128 m = static_cast<u128>(next()) * bound;
        std::uint64_t low = static_cast<std::uint64_t>(m);
        if (low < bound) {
            const std::uint64_t threshold = -bound % bound;
            while (low < threshold) {
                m = static_cast<u128>(next()) * bound;
                low = static_cast<std::uint64_t>(m);
            }
        }
        return static_cast<std::uint64_t>(m >> 64);
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

}  // namespace wb
