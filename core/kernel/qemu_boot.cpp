// SPDX-License-Identifier: Apache-2.0
#include "kernel/qemu_boot.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include "kernel/file_bytes.h"
#include "kernel/guest_init.h"
#include "kernel/kernel_check_error.h"
#include "kernel/subprocess.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

struct Attempt {
    BootResult result;
    bool kvm_failed = false;  // KVM could not run the guest: worth a TCG retry
};

Attempt attempt(const QemuTopology& topology, QemuOptions options, std::chrono::seconds timeout, const fs::path& dir)
{
    Attempt a;
    BootResult& r = a.result;
    r.accel = options.accel;
    const fs::path console = dir / "console.log", port = dir / "port.out", err = dir / "qemu.err";
    std::error_code ec;
    for (const fs::path& p : {console, port, err})
        fs::remove(p, ec);
    options.console_path = console.string();
    options.output_path = port.string();
    r.argv = qemu_command(topology, options);
    std::ofstream(dir / "qemu-command.sh") << shell_quote(r.argv) << "\n";

    const std::string up = std::string(kGuestConsolePrefix) + "up";
    const std::string running = std::string(kGuestConsolePrefix) + "running";
    const std::string ended = std::string(kGuestConsolePrefix) + "workload ended";
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    ChildProcess qemu(r.argv, (dir / "qemu.out").string(), err.string());
    while (!qemu.exited()) {
        if (seconds() > static_cast<double>(timeout.count())) {
            qemu.kill();
            r.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        // The console is small until the trace is sent: reading it whole is cheap.
        const std::string text = file_bytes(console.string());
        if (r.up_s < 0 && text.find(up) != std::string::npos)
            r.up_s = seconds();
        if (r.workload_start_s < 0 && text.find(running) != std::string::npos)
            r.workload_start_s = seconds();
        if (r.workload_end_s < 0 && text.find(ended) != std::string::npos)
            r.workload_end_s = seconds();
        if (options.accel == Accel::Kvm && r.up_s < 0 &&
            file_bytes(err.string()).find("KVM internal error") != std::string::npos) {
            qemu.kill();
            a.kvm_failed = true;
            break;
        }
    }
    r.total_s = seconds();
    r.qemu_status = qemu.status();
    r.output = file_bytes(port.string());
    r.console = file_bytes(console.string());
    r.qemu_stderr = file_bytes(err.string());
    if (options.accel == Accel::Kvm && r.up_s < 0 && !r.timed_out)
        a.kvm_failed = true;  // QEMU gave up before the guest came up
    return a;
}

}  // namespace

std::string qemu_error_line(const std::string& stderr_text)
{
    std::string fallback;
    std::istringstream lines(stderr_text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("error") != std::string::npos || line.find("Error") != std::string::npos)
            return line;
        if (fallback.empty() && line.find("warning") == std::string::npos && !line.empty())
            fallback = line;
    }
    return fallback;
}

std::string kvm_unusable_reason()
{
    const int fd = ::open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return std::string("/dev/kvm: ") + std::strerror(errno);
    ::close(fd);
    return "";
}

std::string last_lines(const std::string& text, int n)
{
    std::size_t at = text.size();
    if (at > 0 && text[at - 1] == '\n')
        --at;  // the last line's own newline
    for (int i = 0; i < n && at > 0; ++i) {
        const std::size_t nl = text.rfind('\n', at - 1);
        at = nl == std::string::npos ? 0 : nl;
    }
    return text.substr(at == 0 ? 0 : at + 1);
}

BootResult boot_guest(const QemuTopology& topology, QemuOptions base, AccelChoice accel, std::chrono::seconds timeout,
                      const std::string& run_dir, std::ostream& log)
{
    if (!program_in_path(base.binary))
        throw KernelCheckError(base.binary +
                               " is not installed: apt-get install qemu-system-x86 (or "
                               "scripts/install-deps --kernel-check)");
    std::string note;
    if (accel != AccelChoice::Tcg) {
        const std::string why_not = kvm_unusable_reason();
        if (why_not.empty()) {
            base.accel = Accel::Kvm;
            Attempt a = attempt(topology, base, timeout, run_dir);
            if (!a.kvm_failed)
                return a.result;
            const std::string why = qemu_error_line(a.result.qemu_stderr);
            note = "KVM failed to start the guest (" + (why.empty() ? "QEMU exited" : why) + ")";
        } else {
            note = why_not;
        }
        if (accel == AccelChoice::Kvm)
            throw KernelCheckError("--accel kvm: " + note);
        log << "note: " << note << "; booting under TCG (software emulation) instead\n";
    }
    base.accel = Accel::Tcg;
    BootResult r = attempt(topology, base, timeout, run_dir).result;
    r.accel_note = note;
    return r;
}

}  // namespace wb
