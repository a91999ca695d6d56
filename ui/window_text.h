// SPDX-License-Identifier: Apache-2.0
//
// How the window writes numbers for people: counts with their noun,
// simulated durations in the unit that suits them, speeds and event rates.
#pragma once

#include <QString>

#include "base/sim_time.h"

namespace wb {

QString plural(int n, const char* one, const char* many);  // "1 CPU", "80 CPUs"
QString duration_text(Time t);                             // "812 ns", "3.5 µs", "1.500 ms", "2.0000 s"
QString speed_text(double simulated_seconds_per_second);   // "200.0 µs/s", "max"
QString events_text(double per_second);                    // "8.1 M events/s"

}  // namespace wb
