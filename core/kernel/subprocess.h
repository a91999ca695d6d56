// SPDX-License-Identifier: Apache-2.0
//
// Running the host tools a kernel check needs (apt-get, dpkg-deb, the C
// compiler, xz, QEMU) as child processes: directly (no shell), with their
// output captured or sent to files, and never waited on without a bound.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <sys/types.h>

namespace wb {

struct CommandResult {
    bool started = false;  // false: the program could not be run (not installed)
    int status = -1;       // exit status; 128 + signal when killed
    std::string out;
    std::string err;
    bool ok() const { return started && status == 0; }
};

// Runs argv[0] (searched in PATH) in `cwd` ("" = here) and waits for it.
CommandResult run_command(const std::vector<std::string>& argv, const std::string& cwd = "");

// Whether `program` is found in PATH.
bool program_in_path(const std::string& program);

// A child whose output goes to files and which the caller watches: QEMU.
class ChildProcess {
public:
    // Starts argv with stdout and stderr appended to the two files. Throws
    // std::runtime_error naming the program if it cannot be started.
    ChildProcess(const std::vector<std::string>& argv, const std::string& stdout_path, const std::string& stderr_path);
    ~ChildProcess();  // kills the child if it still runs
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // True once the child has exited; status() is then its exit status.
    bool exited();
    // Waits until the child exits or `timeout` passes; true if it exited.
    bool wait_for(std::chrono::milliseconds timeout);
    void kill();
    int status() const { return status_; }

private:
    pid_t pid_ = -1;
    int status_ = -1;
};

}  // namespace wb
