// SPDX-License-Identifier: Apache-2.0
#include "sweep/partial_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/input_file.h"

namespace wb {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message)
{
    throw InputError(Diagnostic{path, 0, 0, "", message});
}

void write_all(int fd, const std::string& data, const std::string& path)
{
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(path, "cannot write: " + errno_text());
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

PartialFile::PartialFile(const std::string& path, const PartialHeader& header, const SweepGrid& grid)
    : path_(path), grid_(grid), shard_(header.shard), lines_(grid.size())
{
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0)
        fail(path, "cannot open: " + errno_text() + "; expected a writable place for the sweep's partial file");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd_);
        fail(path, "another wakesim sweep is writing this file; expected one run of a sweep at a time");
    }
    const std::string wanted = partial_header_line(header);
    std::ifstream in(path, std::ios::binary);
    std::string text;
    if (!std::getline(in, text)) {
        write_all(fd_, wanted + "\n", path);
        size_ = wanted.size() + 1;
        return;
    }
    const std::optional<PartialHeader> found = parse_partial_header(text);
    if (!found || *found != header) {
        ::close(fd_);
        fail(path, found ? "holds points of another sweep or shard (fingerprint " + found->fingerprint +
                               "); this one is " + header.fingerprint +
                               ": remove the file to start again, or choose another --json"
                         : "is not a partial file of wakesim sweep; remove it or choose another --json");
    }
    std::uint64_t offset = text.size() + 1;
    std::uint64_t whole = offset;  // the end of the last whole line
    while (std::getline(in, text)) {
        const bool cut = in.eof();  // no newline: the write was interrupted
        if (!cut) {
            try {
                const PointResult r = parse_point_line(text, grid, path);
                // Only the bytes this build writes for the same result are
                // kept, so that the result never depends on what ran before.
                if (!has(r.index) && point_to_json_line(grid, r) == text) {
                    lines_[r.index] = {offset, static_cast<std::uint32_t>(text.size())};
                    ++count_;
                }
            } catch (const InputError&) {
                // A damaged line: its point runs again.
            }
            whole = offset + text.size() + 1;
        }
        offset += text.size() + 1;
    }
    if (whole < offset && ::ftruncate(fd_, static_cast<off_t>(whole)) != 0)
        fail(path, "cannot cut the interrupted last line: " + errno_text());
    size_ = whole;
}

PartialFile::~PartialFile()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void PartialFile::append(const PointResult& result)
{
    const std::string text = point_to_json_line(grid_, result);
    std::lock_guard<std::mutex> hold(lock_);
    write_all(fd_, text + "\n", path_);
    lines_[result.index] = {size_, static_cast<std::uint32_t>(text.size())};
    size_ += text.size() + 1;
    ++count_;
}

std::string PartialFile::line(std::size_t index) const
{
    const Line& l = lines_[index];
    std::string text(l.length, '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::pread(fd_, text.data() + done, text.size() - done, static_cast<off_t>(l.offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(path_, "cannot read back point " + std::to_string(index) + ": " + errno_text());
        done += static_cast<std::size_t>(n);
    }
    return text;
}

void PartialFile::write_result(const std::string& out, const std::vector<std::size_t>& share,
                               const std::optional<ShardId>& shard)
{
    const std::string tmp = out + ".tmp";
    {
        std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
        if (!file)
            fail(tmp, "cannot write: " + errno_text());
        file << result_head(grid_.spec(), shard);
        for (std::size_t k = 0; k < share.size(); ++k)
            file << result_point(line(share[k]), k + 1 == share.size());
        file << result_tail();
        if (!file.flush())
            fail(tmp, "cannot write: " + errno_text());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, out, ec);
    if (ec)
        fail(out, "cannot write: " + ec.message());
    ::unlink(path_.c_str());
}

}  // namespace wb
