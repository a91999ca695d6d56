// SPDX-License-Identifier: Apache-2.0
//
// CpioArchive: an initramfs image in the "newc" format the kernel unpacks
// (Documentation/driver-api/early-userspace/buffer-format.rst): per entry a
// 110-byte ASCII header of hex fields, the NUL-terminated name and the data,
// each padded to 4 bytes, ended by the entry "TRAILER!!!". Written here
// rather than by cpio(1) so that an image is built from memory, byte for
// byte the same for the same contents (no mtimes, no host inode numbers).
#pragma once

#include <string>

namespace wb {

class CpioArchive {
public:
    void add_directory(const std::string& path, unsigned mode = 0755);
    void add_file(const std::string& path, const std::string& data, unsigned mode = 0644);
    void add_symlink(const std::string& path, const std::string& target);
    void add_char_device(const std::string& path, unsigned major, unsigned minor, unsigned mode = 0600);

    // The archive with its trailer; the object may not be added to afterwards.
    const std::string& finish();

private:
    void add(const std::string& path, unsigned mode, const std::string& data, unsigned rdev_major = 0,
             unsigned rdev_minor = 0);

    std::string bytes_;
    unsigned next_ino_ = 1;
    bool finished_ = false;
};

}  // namespace wb
