// SPDX-License-Identifier: Apache-2.0
//
// TraceLimit: how much of a run a trace file holds, so that a long run
// cannot fill a disk: a count of events (`1000000`, the default) or a
// simulated time (`2s`, `500ms`). Both writers stop at the first event
// past it and say in the file that they stopped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/sim_time.h"

namespace wb {

struct TraceLimit {
    std::uint64_t events = 1'000'000;
    std::optional<Time> until;  // set: a time limit instead of a count

    // "1000000 events" or "2s of simulated time": for the file and the note.
    std::string describe() const;
};

// A whole number is a count, else a duration (parse_duration()). False if
// it is neither, or a count of 0.
bool parse_trace_limit(std::string_view text, TraceLimit& out);

// The writers' gate: admit() each event in order; false from the first one
// past the limit on.
class TraceLimitGate {
public:
    explicit TraceLimitGate(TraceLimit limit) : limit_(limit) {}
    bool admit(Time at)
    {
        if (stopped_)
            return false;
        if (limit_.until ? at > *limit_.until : written_ >= limit_.events) {
            stopped_ = true;
            stopped_at_ = at;
            return false;
        }
        ++written_;
        return true;
    }
    bool stopped() const { return stopped_; }
    Time stopped_at() const { return stopped_at_; }  // the first event left out
    std::uint64_t written() const { return written_; }
    const TraceLimit& limit() const { return limit_; }

private:
    TraceLimit limit_;
    std::uint64_t written_ = 0;
    bool stopped_ = false;
    Time stopped_at_;
};

}  // namespace wb
