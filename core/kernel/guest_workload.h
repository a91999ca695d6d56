// SPDX-License-Identifier: Apache-2.0
//
// GuestWorkload: the program a guest runs for a workload spec, the same
// spec the model runs (`pipe:loops=20000`), parameter for parameter:
//   pipe       guest/pipe.c       loops -l, threads -T, cpus -c
//   hackbench  guest/messaging.c  groups -g, fds -f, loops -l, datasize -s,
//                                 mode=pipe -p, threads -T, cpus -c
//   schbench   guest/schbench.c   message_threads -m, threads -t, runtime -r,
//                                 work -n, sleep -s, warmup -w (microseconds)
// Every task of these programs is named wb_* (guest/guest_util.h), which is
// how the trace's workload tasks are told from the kernel's own.
#pragma once

#include <string>
#include <vector>

namespace wb {

inline constexpr const char* kGuestTaskComm = "^wb_";

struct GuestWorkload {
    std::string program;            // "pipe": guest/pipe.c, /bin/pipe in the guest
    std::vector<std::string> args;  // {"-l", "20000"}
    // The program and its arguments as the guest's /init takes them from
    // wb.run= on the kernel command line: '@' between words.
    std::string command_line() const;
};

// InputError (exit status 2) for a workload with no guest program, or a
// parameter the guest program cannot follow, saying which and why.
GuestWorkload guest_workload(const std::string& spec);

}  // namespace wb
