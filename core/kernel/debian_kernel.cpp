// SPDX-License-Identifier: Apache-2.0
#include "kernel/debian_kernel.h"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>
#include <sstream>

#include <unistd.h>

#include "kernel/kernel_check_error.h"
#include "kernel/subprocess.h"

namespace fs = std::filesystem;

namespace wb {

namespace {

const char* const kSecurityLine = "deb http://deb.debian.org/debian-security bookworm-security main";

std::string first_line(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

// Runs an apt or dpkg tool; a failure is a KernelCheckError with its words.
CommandResult must_run(const std::vector<std::string>& argv, const std::string& cwd = "")
{
    CommandResult r = run_command(argv, cwd);
    if (!r.started)
        throw KernelCheckError(argv[0] + " is not installed: Debian's kernels are fetched with apt-get and dpkg-deb");
    if (r.status != 0)
        throw KernelCheckError(argv[0] + " " + argv[1] + " failed (status " + std::to_string(r.status) +
                               "): " + first_line(r.err.empty() ? r.out : r.err));
    return r;
}

std::string read_apt_sources()
{
    std::string all;
    std::error_code ec;
    std::vector<fs::path> files{"/etc/apt/sources.list"};
    for (const fs::directory_entry& e : fs::directory_iterator("/etc/apt/sources.list.d", ec))
        files.push_back(e.path());
    for (const fs::path& f : files) {
        std::ifstream in(f);
        all += std::string(std::istreambuf_iterator<char>(in), {}) + "\n";
    }
    return all;
}

std::string package_for(KernelSource source)
{
    if (source == KernelSource::Debian61) {
        const std::string pkg = debian_61_package(must_run({"apt-cache", "depends", "linux-image-amd64"}).out);
        if (pkg.empty())
            throw KernelCheckError(
                "apt knows no linux-image-amd64 package: run `apt-get update` (Debian 12's "
                "default kernel, 6.1, is what --kernel debian-6.1 boots)");
        return pkg;
    }
    const std::string pkg = newest_debian_612_package(
        must_run({"apt-cache", "search", "--names-only", "^linux-image-6\\.12\\.[0-9]+\\+deb12-amd64-unsigned$"}).out);
    if (!pkg.empty())
        return pkg;
    if (!sources_have_security_archive(read_apt_sources()))
        throw KernelCheckError(
            "the 6.12 kernel (linux-image-6.12.*+deb12-amd64-unsigned) is not available: it comes from Debian's "
            "security archive, which is not in apt's sources. Add the line\n    " +
            std::string(kSecurityLine) +
            "\nto /etc/apt/sources.list.d/security.list, run `apt-get update`, and try again; or boot Debian's "
            "default 6.1 with --kernel debian-6.1");
    throw KernelCheckError(
        "the 6.12 kernel (linux-image-6.12.*+deb12-amd64-unsigned) is not available: apt's sources name the "
        "security archive, but its package lists do not have it. Run `apt-get update` and try again, or boot "
        "Debian's default 6.1 with --kernel debian-6.1");
}

std::string package_version(const std::string& pkg)
{
    static const std::regex kVersion(R"(^Version: (\S+))", std::regex::multiline);
    const std::string show = must_run({"apt-cache", "show", "--no-all-versions", pkg}).out;
    std::smatch m;
    if (!std::regex_search(show, m, kVersion))
        throw KernelCheckError("apt-cache show " + pkg + " gave no version");
    return m[1];
}

// The one file under dir/sub whose name starts with `prefix`, or "".
std::string find_one(const fs::path& dir, const std::string& prefix)
{
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().starts_with(prefix))
            return e.path().string();
    return "";
}

GuestKernel from_unpacked(const fs::path& root, const std::string& pkg, const std::string& version)
{
    GuestKernel k;
    k.image = find_one(root / "boot", "vmlinuz-");
    k.config = find_one(root / "boot", "config-");
    k.modules_dir = find_one(root / "lib" / "modules", "");
    k.description = "Debian " + pkg + " " + version;
    if (k.image.empty())
        throw KernelCheckError("the package " + pkg + " unpacked in " + root.string() + " has no boot/vmlinuz-*");
    return k;
}

}  // namespace

std::string newest_debian_612_package(std::string_view apt_cache_search)
{
    static const std::regex kName(R"(^(linux-image-6\.12\.(\d+)\+deb12-amd64-unsigned)\b)", std::regex::multiline);
    std::string best;
    long best_n = -1;
    const std::string text(apt_cache_search);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kName); it != std::sregex_iterator(); ++it) {
        const long n = std::stol((*it)[2]);
        if (n > best_n) {
            best_n = n;
            best = (*it)[1];
        }
    }
    return best;
}

std::string debian_61_package(std::string_view apt_cache_depends)
{
    static const std::regex kDep(R"(Depends:\s*(linux-image-6\.1\.0-\d+-amd64(-unsigned)?)\b)");
    const std::string text(apt_cache_depends);
    std::smatch m;
    return std::regex_search(text, m, kDep) ? std::string(m[1]) : "";
}

bool sources_have_security_archive(std::string_view sources)
{
    std::istringstream in{std::string(sources)};
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos)
            line.resize(hash);
        if (line.find("debian-security") != std::string::npos || line.find("bookworm-security") != std::string::npos)
            return true;
    }
    return false;
}

GuestKernel debian_kernel(KernelSource source, const std::string& cache_dir, std::ostream& log)
{
    const std::string pkg = package_for(source);
    const std::string version = package_version(pkg);
    const fs::path root = fs::path(cache_dir) / "kernels" / (pkg + "_" + version);
    std::error_code ec;
    if (fs::exists(root / ".unpacked", ec))
        return from_unpacked(root, pkg, version);

    log << "fetching " << pkg << " " << version << " (apt-get download, dpkg-deb -x) into " << root.string() << "\n";
    const fs::path work = fs::path(cache_dir) / "kernels" / (".download-" + std::to_string(::getpid()));
    fs::remove_all(work, ec);
    fs::create_directories(work / "root", ec);
    if (ec)
        throw KernelCheckError("cannot create " + work.string() + ": " + ec.message());
    must_run({"apt-get", "download", pkg + "=" + version}, work.string());
    const std::string deb = find_one(work, pkg + "_");
    if (deb.empty())
        throw KernelCheckError("apt-get download " + pkg + " left no .deb in " + work.string());
    must_run({"dpkg-deb", "-x", deb, (work / "root").string()});
    std::ofstream(work / "root" / ".unpacked") << pkg << " " << version << "\n";
    fs::remove_all(root, ec);
    fs::rename(work / "root", root, ec);
    if (ec)
        throw KernelCheckError("cannot move the unpacked kernel to " + root.string() + ": " + ec.message());
    fs::remove_all(work, ec);
    return from_unpacked(root, pkg, version);
}

}  // namespace wb
