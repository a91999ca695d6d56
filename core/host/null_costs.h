// SPDX-License-Identifier: Apache-2.0
//
// The two costs a pipe round trip contains that one thread can time alone:
// a system call that does nothing, and a pipe write plus read that neither
// blocks nor wakes anybody.
#pragma once

#include <cstdint>

#include "host/timed_samples.h"

namespace wb::host {

// syscall(SYS_getppid) in a loop on kernel CPU `cpu`: entry and exit with
// the kernel's mitigations, no work inside (lmbench lat_syscall null,
// perf bench syscall basic). Sampled::ns_per_op is one call.
Sampled measure_null_syscall(int cpu, std::int64_t budget_ns);

// write(p[1], &int, 4); read(p[0], &int, 4) on one thread with an
// O_NONBLOCK pipe: nobody waits, so no wakeup and no switch, only the two
// calls, the copies, the pipe mutex and the (empty) wait-queue checks.
// Sampled::ns_per_op is one write plus one read.
Sampled measure_pipe_write_read(int cpu, std::int64_t budget_ns);

}  // namespace wb::host
