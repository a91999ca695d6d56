// SPDX-License-Identifier: Apache-2.0
//
// GuestKernel: the kernel a check boots, and how it was named on the
// command line: `--kernel debian` (Debian 12's newest 6.12 from its security
// archive, EEVDF with DELAY_DEQUEUE), `--kernel debian-6.1` (the default
// linux-image-amd64, CFS) or `--kernel PATH` (the user's own bzImage or
// vmlinuz, with `--modules DIR` when it builds virtio as modules).
#pragma once

#include <string>

namespace wb {

enum class KernelSource { Debian612, Debian61, File };

struct KernelChoice {
    KernelSource source = KernelSource::Debian612;
    std::string path;  // KernelSource::File
};

// "debian", "debian-6.1", or anything else as a path. A path that does not
// name a readable file is an InputError naming the option.
KernelChoice parse_kernel_choice(const std::string& text);

struct GuestKernel {
    std::string image;        // what -kernel boots
    std::string modules_dir;  // lib/modules/<release>, or "" (everything needed is built in)
    std::string config;       // the build's .config when known, or ""
    std::string description;  // "Debian linux-image-6.12.118+deb12-amd64-unsigned 6.12.118-1~deb12u1"
};

// The user's kernel image and, optionally, its modules: DIR may be
// lib/modules/<release> itself or a tree holding it (INSTALL_MOD_PATH).
// InputError when either cannot be read.
GuestKernel user_kernel(const std::string& image, const std::string& modules);

}  // namespace wb
