// SPDX-License-Identifier: Apache-2.0
//
// Time: simulated time, a count of nanoseconds in an int64 (292 years of
// range). The core knows no other unit; conversions happen at the edges
// (from_us(), to_seconds(), parse_duration()). Nothing here reads a clock:
// a run's results never depend on wall-clock time.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

class Time {
public:
    constexpr Time() = default;
    static constexpr Time ns(std::int64_t v) { return Time(v); }
    static constexpr Time us(double v) { return Time(static_cast<std::int64_t>(v * 1e3)); }
    static constexpr Time ms(double v) { return Time(static_cast<std::int64_t>(v * 1e6)); }
    static constexpr Time s(double v) { return Time(static_cast<std::int64_t>(v * 1e9)); }
    static constexpr Time max() { return Time(INT64_MAX); }

    constexpr std::int64_t ns() const { return ns_; }
    constexpr double to_us() const { return static_cast<double>(ns_) / 1e3; }
    constexpr double to_seconds() const { return static_cast<double>(ns_) / 1e9; }

    constexpr Time& operator+=(Time d)
    {
        ns_ += d.ns_;
        return *this;
    }
    constexpr Time& operator-=(Time d)
    {
        ns_ -= d.ns_;
        return *this;
    }
    friend constexpr Time operator+(Time a, Time b) { return Time(a.ns_ + b.ns_); }
    friend constexpr Time operator-(Time a, Time b) { return Time(a.ns_ - b.ns_); }
    friend constexpr Time operator*(Time a, std::int64_t k) { return Time(a.ns_ * k); }
    friend constexpr auto operator<=>(Time, Time) = default;

private:
    constexpr explicit Time(std::int64_t v) : ns_(v) {}
    std::int64_t ns_ = 0;
};

// "500us", "5ms", "2s", "750ns", "1.5ms": a number and a unit. Returns false
// (and leaves `out`) when the text is not one.
bool parse_duration(std::string_view text, Time& out);

// The shortest exact-looking form: "1.5ms", "750ns".
std::string format_duration(Time t);

}  // namespace wb
