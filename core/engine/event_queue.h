// SPDX-License-Identifier: Apache-2.0
//
// EventQueue: the future-event list. Events at the same instant fire in the
// order they were scheduled (ties broken by a sequence number), so a run is
// deterministic. Cancelling is lazy: an event carries a generation that its
// owner bumps to invalidate it, and the run loop drops stale events when
// they surface (cheaper than removing from the middle of a heap).
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "base/sim_time.h"

namespace wb {

struct Event {
    Time at;
    std::uint64_t seq = 0;         // assigned by the queue
    int kind = 0;                  // the simulator's own event kinds
    int target = 0;                // a CPU or a task, by kind
    std::uint64_t generation = 0;  // compared with the owner's current generation when it fires
    std::int64_t arg = 0;
};

class EventQueue {
public:
    void push(Event e)
    {
        e.seq = next_seq_++;
        heap_.push(e);
    }
    bool empty() const { return heap_.empty(); }
    const Event& top() const { return heap_.top(); }
    Event pop()
    {
        Event e = heap_.top();
        heap_.pop();
        return e;
    }
    std::size_t size() const { return heap_.size(); }
    std::uint64_t scheduled() const { return next_seq_; }

private:
    struct Later {
        bool operator()(const Event& a, const Event& b) const { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }
    };
    std::priority_queue<Event, std::vector<Event>, Later> heap_;
    std::uint64_t next_seq_ = 0;
};

}  // namespace wb
