// SPDX-License-Identifier: Apache-2.0
#include "kernel/cpio_archive.h"

#include <cstdio>
#include <stdexcept>

#include <sys/stat.h>

namespace wb {

namespace {

void pad4(std::string& bytes)
{
    while (bytes.size() % 4)
        bytes += '\0';
}

}  // namespace

void CpioArchive::add(const std::string& path, unsigned mode, const std::string& data, unsigned rdev_major,
                      unsigned rdev_minor)
{
    if (finished_)
        throw std::logic_error("CpioArchive: added to after finish()");
    const bool trailer = path == "TRAILER!!!";
    char header[111];
    // magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor,
    // rdevmajor, rdevminor, namesize (with its NUL), check
    std::snprintf(header, sizeof header, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
                  trailer ? 0 : next_ino_++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
                  static_cast<unsigned>(data.size()), 0u, 0u, rdev_major, rdev_minor,
                  static_cast<unsigned>(path.size() + 1), 0u);
    bytes_.append(header, 110);
    bytes_ += path;
    bytes_ += '\0';
    pad4(bytes_);
    bytes_ += data;
    pad4(bytes_);
}

void CpioArchive::add_directory(const std::string& path, unsigned mode)
{
    add(path, S_IFDIR | mode, "");
}

void CpioArchive::add_file(const std::string& path, const std::string& data, unsigned mode)
{
    add(path, S_IFREG | mode, data);
}

void CpioArchive::add_symlink(const std::string& path, const std::string& target)
{
    add(path, S_IFLNK | 0777, target);
}

void CpioArchive::add_char_device(const std::string& path, unsigned major, unsigned minor, unsigned mode)
{
    add(path, S_IFCHR | mode, "", major, minor);
}

const std::string& CpioArchive::finish()
{
    if (!finished_) {
        add("TRAILER!!!", 0, "");
        finished_ = true;
    }
    return bytes_;
}

}  // namespace wb
