// SPDX-License-Identifier: Apache-2.0
//
// The scheduler's IPIs as /proc/interrupts counts them: x86's RES
// ("Rescheduling interrupts", smp_send_reschedule()) and CAL ("Function
// call interrupts", which include the wake-list IPI of ttwu_queue_wakelist()),
// arm64's IPI0/IPI1 lines with the same descriptions. A wakeup of a polling
// idle CPU raises neither: the waker only sets TIF_NEED_RESCHED.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb::host {

struct IpiCounts {
    std::vector<std::uint64_t> per_cpu;  // indexed by the column's kernel CPU number
    bool found = false;                  // some line had one of the descriptions
};

// Sums the rescheduling and function-call lines of /proc/interrupts text,
// per CPU column (the header's "CPU0 CPU1 ..." gives the numbers).
IpiCounts parse_ipi_counts(std::string_view proc_interrupts);

// Reads /proc/interrupts; found = false if it cannot.
IpiCounts read_ipi_counts();

}  // namespace wb::host
