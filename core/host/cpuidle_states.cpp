// SPDX-License-Identifier: Apache-2.0
#include "host/cpuidle_states.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

namespace wb::host {

namespace fs = std::filesystem;

namespace {

std::string upper(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::optional<std::string> read_line(const fs::path& p)
{
    std::ifstream in(p);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
    return line;
}

fs::path sysfs_cpu(const std::string& root)
{
    return fs::path(root.empty() ? "/" : root) / "sys/devices/system/cpu";
}

// "state12" -> 12, for ordering; -1 if not a state directory.
int state_index(const std::string& name)
{
    if (name.rfind("state", 0) != 0 || name.size() == 5)
        return -1;
    for (std::size_t i = 5; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
            return -1;
    return std::atoi(name.c_str() + 5);
}

}  // namespace

bool idle_state_polls(std::string_view name, std::string_view desc, std::string* reason)
{
    const std::string n = upper(name), d = upper(desc);
    auto say = [&](const char* why, bool polls) {
        if (reason)
            *reason = why;
        return polls;
    };
    if (n == "POLL" || d.find("CPUIDLE CORE POLLING") != std::string::npos)
        return say("poll_idle() spins on need_resched() with TIF_POLLING_NRFLAG set", true);
    if (d.find("MWAIT") != std::string::npos)
        return say("MWAIT monitors the thread flags: setting TIF_NEED_RESCHED ends it, no IPI", true);
    if (d.find("HLT") != std::string::npos || n == "HALTPOLL")
        return say("HLT stops until an interrupt: the waker sends an IPI", false);
    if (d.find("IOPORT") != std::string::npos || d.find("SYSTEM IO") != std::string::npos)
        return say("an I/O-port read (ACPI C2/C3) stops until an interrupt: the waker sends an IPI", false);
    if (n == "WFI" || d.find("WFI") != std::string::npos)
        return say("WFI waits for an interrupt: the waker sends an IPI", false);
    return say("not a polling state (no POLL, no MWAIT in its name or desc): taken to need an IPI", false);
}

CpuidleInfo read_cpuidle(const std::string& root, int cpu)
{
    CpuidleInfo info;
    const fs::path base = sysfs_cpu(root);
    const fs::path driver = base / "cpuidle/current_driver";
    info.driver = read_line(driver).value_or("");
    if (info.driver.empty())
        info.notes.push_back(driver.string() + " is missing: no cpuidle in this kernel");
    const fs::path dir = base / ("cpu" + std::to_string(cpu)) / "cpuidle";
    std::error_code ec;
    std::vector<std::pair<int, fs::path>> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const int k = state_index(it->path().filename().string());
        if (k >= 0)
            found.emplace_back(k, it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& [k, p] : found) {
        CpuidleState s;
        s.dir = p.filename().string();
        s.name = read_line(p / "name").value_or("");
        s.desc = read_line(p / "desc").value_or("");
        const auto latency = read_line(p / "latency");
        const auto residency = read_line(p / "residency");
        if (s.name.empty() || !latency || !residency) {
            info.notes.push_back(p.string() + ": name, latency or residency unreadable; state skipped");
            continue;
        }
        s.exit_latency_us = std::atof(latency->c_str());
        s.target_residency_us = std::atof(residency->c_str());
        s.disabled = read_line(p / "disable").value_or("0") == "1";
        s.polls = idle_state_polls(s.name, s.desc, &s.polls_because);
        info.states.push_back(std::move(s));
    }
    if (found.empty())
        info.notes.push_back(
            "no idle states under " + dir.string() + " (driver \"" + info.driver +
            "\"): the idle loop calls default_idle_call(), which on x86 is HLT (under a hypervisor a VM exit) "
            "unless idle=poll; HLT needs an IPI to wake");
    return info;
}

}  // namespace wb::host
