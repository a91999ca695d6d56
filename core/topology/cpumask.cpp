// SPDX-License-Identifier: Apache-2.0
#include "topology/cpumask.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace wb {

CpuMask CpuMask::range(int nr_cpus, CpuId first, CpuId last)
{
    CpuMask mask(nr_cpus);
    for (CpuId cpu = first; cpu <= last; ++cpu)
        mask.set(cpu);
    return mask;
}

CpuMask CpuMask::of(int nr_cpus, std::initializer_list<CpuId> cpus)
{
    CpuMask mask(nr_cpus);
    for (CpuId cpu : cpus)
        mask.set(cpu);
    return mask;
}

bool CpuMask::empty() const
{
    return std::all_of(words_.begin(), words_.end(), [](std::uint64_t w) { return w == 0; });
}

bool CpuMask::intersects(const CpuMask& other) const
{
    std::size_t n = std::min(words_.size(), other.words_.size());
    for (std::size_t i = 0; i < n; ++i)
        if (words_[i] & other.words_[i])
            return true;
    return false;
}

bool CpuMask::is_subset_of(const CpuMask& other) const
{
    for (std::size_t i = 0; i < words_.size(); ++i) {
        std::uint64_t theirs = i < other.words_.size() ? other.words_[i] : 0;
        if (words_[i] & ~theirs)
            return false;
    }
    return true;
}

CpuMask& CpuMask::operator|=(const CpuMask& other)
{
    if (other.nr_cpus_ > nr_cpus_) {
        nr_cpus_ = other.nr_cpus_;
        words_.resize(other.words_.size(), 0);
    }
    for (std::size_t i = 0; i < other.words_.size(); ++i)
        words_[i] |= other.words_[i];
    return *this;
}

CpuMask& CpuMask::operator&=(const CpuMask& other)
{
    for (std::size_t i = 0; i < words_.size(); ++i)
        words_[i] &= i < other.words_.size() ? other.words_[i] : 0;
    return *this;
}

CpuMask& CpuMask::and_not(const CpuMask& other)
{
    std::size_t n = std::min(words_.size(), other.words_.size());
    for (std::size_t i = 0; i < n; ++i)
        words_[i] &= ~other.words_[i];
    return *this;
}

std::vector<CpuId> CpuMask::to_vector() const
{
    std::vector<CpuId> cpus;
    cpus.reserve(static_cast<std::size_t>(weight()));
    for_each([&](CpuId cpu) { cpus.push_back(cpu); });
    return cpus;
}

std::string CpuMask::to_cpulist() const
{
    std::string out;
    CpuId cpu = first();
    while (cpu != kNoCpu) {
        CpuId last = cpu;
        while (test(last + 1))
            ++last;
        if (!out.empty())
            out += ',';
        out += std::to_string(cpu);
        if (last > cpu)
            out += '-' + std::to_string(last);
        cpu = next(last);
    }
    return out;
}

namespace {

// A cursor over the text that reads unsigned numbers and single characters.
struct Cursor {
    std::string_view text;
    std::size_t pos = 0;

    void skip_space()
    {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
            ++pos;
    }
    bool at_end() const { return pos >= text.size(); }
    bool accept(char c)
    {
        skip_space();
        if (pos < text.size() && text[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    bool number(long& value)
    {
        skip_space();
        const char* begin = text.data() + pos;
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(begin, end, value);
        if (ec != std::errc{} || ptr == begin)
            return false;
        pos += static_cast<std::size_t>(ptr - begin);
        return true;
    }
};

}  // namespace

CpulistParse parse_cpulist(std::string_view text, int nr_cpus)
{
    CpulistParse result{CpuMask(nr_cpus), {}, 0};
    Cursor in{text};
    auto fail = [&](std::size_t at, std::string what) {
        result.error = std::move(what);
        result.column = at + 1;
        return result;
    };

    in.skip_space();
    if (in.at_end())
        return result;

    while (true) {
        std::size_t item_start = in.pos;
        long first = 0;
        if (!in.number(first))
            return fail(in.pos, "expected a CPU number");
        long last = first;
        long used = 1, group = 1;
        if (in.accept('-')) {
            if (!in.number(last))
                return fail(in.pos, "expected the last CPU of the range after '-'");
            if (last < first)
                return fail(item_start,
                            "range " + std::to_string(first) + "-" + std::to_string(last) + " ends before it starts");
            if (in.accept(':')) {
                if (!in.number(used) || !in.accept('/') || !in.number(group))
                    return fail(in.pos, "expected 'used/group' after ':'");
                if (used < 1 || group < 1 || used > group)
                    return fail(item_start, "in 'used/group' both must be positive and used <= group");
            }
        }
        if (first < 0 || last >= nr_cpus)
            return fail(item_start, "CPU " + std::to_string(last < nr_cpus ? first : last) +
                                        " is out of range: this machine has CPUs 0-" + std::to_string(nr_cpus - 1));
        for (long cpu = first; cpu <= last; ++cpu)
            if ((cpu - first) % group < used)
                result.mask.set(static_cast<CpuId>(cpu));

        if (in.accept(','))
            continue;
        in.skip_space();
        if (!in.at_end())
            return fail(in.pos, std::string("expected ',' or the end of the list, found '") + text[in.pos] + "'");
        return result;
    }
}

}  // namespace wb
