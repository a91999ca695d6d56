// SPDX-License-Identifier: Apache-2.0
//
// DecisionRing: the last N decision records of a run, for a viewer that
// replays recent wakeups without keeping a whole run's worth. Older records
// are overwritten; seq numbers say what was lost.
#pragma once

#include <cstddef>
#include <vector>

#include "sched/decision.h"

namespace wb {

class DecisionRing {
public:
    explicit DecisionRing(std::size_t capacity) : slots_(capacity) {}

    void push(const DecisionRecord& rec)
    {
        if (slots_.empty())
            return;
        slots_[next_] = rec;
        next_ = (next_ + 1) % slots_.size();
        if (size_ < slots_.size())
            ++size_;
        ++total_;
    }

    std::size_t size() const { return size_; }
    std::size_t capacity() const { return slots_.size(); }
    std::uint64_t total() const { return total_; }  // records ever pushed

    // i = 0 is the oldest record still held, size() - 1 the newest.
    const DecisionRecord& at(std::size_t i) const
    {
        const std::size_t oldest = (next_ + slots_.size() - size_) % slots_.size();
        return slots_[(oldest + i) % slots_.size()];
    }

private:
    std::vector<DecisionRecord> slots_;
    std::size_t next_ = 0;
    std::size_t size_ = 0;
    std::uint64_t total_ = 0;
};

}  // namespace wb
