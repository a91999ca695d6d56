// SPDX-License-Identifier: Apache-2.0
//
// What the kernel's cpuidle says about a CPU's idle states
// (/sys/devices/system/cpu/cpuidle/current_driver and
// cpuN/cpuidle/stateK/{name,desc,latency,residency,disable}), and whether
// each one polls: whether a CPU waiting in it notices a wakeup without an
// interrupt, because it watches its thread flags (TIF_POLLING_NRFLAG) and
// the waker only has to set TIF_NEED_RESCHED.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb::host {

struct CpuidleState {
    std::string dir;   // "state1"
    std::string name;  // "C1", "POLL", "WFI"
    std::string desc;  // "MWAIT 0x00", "ACPI HLT", "ARM WFI"
    double exit_latency_us = 0;
    double target_residency_us = 0;
    bool disabled = false;  // stateK/disable is 1: the governor never picks it
    bool polls = false;
    std::string polls_because;  // the rule that decided `polls`
};

struct CpuidleInfo {
    std::string driver;                // current_driver: "intel_idle", "acpi_idle", "haltpoll", "none", "" if absent
    std::vector<CpuidleState> states;  // ordered by K, as the kernel lists them (shallowest first)
    std::vector<std::string> notes;    // files missing or unreadable, in words
};

// The polling rule, from how each state waits:
// - POLL (the kernel's poll_idle(), drivers/cpuidle/poll_state.c) spins on
//   need_resched() with TIF_POLLING_NRFLAG set: polls.
// - an x86 state entered with MWAIT (intel_idle's "MWAIT 0x..", acpi_idle's
//   "ACPI FFH MWAIT 0x..") arms MONITOR on the thread flags, so a write of
//   TIF_NEED_RESCHED ends it and the idle loop keeps TIF_POLLING_NRFLAG set
//   (mwait_idle_with_hints()): polls.
// - HLT ("ACPI HLT", haltpoll's HLT state), an I/O-port read ("ACPI IOPORT
//   0x.."), Arm's WFI and PSCI states stop until an interrupt: they do not.
// `reason` receives the rule applied.
bool idle_state_polls(std::string_view name, std::string_view desc, std::string* reason = nullptr);

// Reads the states of kernel CPU `cpu` under `root` ("" or "/" = the live
// machine). A machine without cpuidle (driver "none", or no cpuN/cpuidle
// directory) gives no states and a note saying what the idle loop does then.
CpuidleInfo read_cpuidle(const std::string& root, int cpu);

}  // namespace wb::host
