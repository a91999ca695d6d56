// SPDX-License-Identifier: Apache-2.0
//
// The kernel modules a guest must load before it can talk to the host, in
// the order insmod needs them. The guest sends its trace over a virtio
// serial port, which needs the virtio PCI transport (virtio_pci) and the
// port driver (virtio_console). Debian 12's 6.12 builds all of them in;
// its 6.1 builds them as modules (CONFIG_VIRTIO=m, CONFIG_VIRTIO_PCI=m,
// CONFIG_VIRTIO_CONSOLE=m), whose dependencies are:
//   virtio_console  <- virtio, virtio_ring
//   virtio_pci      <- virtio_ring, virtio_pci_modern_dev, virtio_pci_legacy_dev, virtio
// A package's tree carries no modules.dep (depmod writes it when the package
// is installed), so each module's dependencies are read from its own
// .modinfo section ("depends=a,b"), as depmod reads them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb {

// The modules the guest needs for its virtio serial port.
inline const std::vector<std::string> kGuestPortModules{"virtio_pci", "virtio_console"};

struct KernelModule {
    std::string name;   // "virtio_ring"
    std::string path;   // where it was found
    std::string bytes;  // the ELF object, decompressed, ready for insmod
};

// "depends=" of an ELF module's .modinfo: the module names, in order. An
// object that is not a 64-bit little-endian ELF or has no .modinfo is a
// KernelCheckError naming `label`.
std::vector<std::string> module_depends(std::string_view elf, const std::string& label);

// The modules of `wanted` that `modules_dir` (lib/modules/RELEASE) builds as
// loadable files, with their dependencies first; the built-in ones
// (modules.builtin) are left out. .ko.xz, .ko.zst and .ko.gz are
// decompressed with xz, zstd and gzip. KernelCheckError when one is neither
// built in nor found.
std::vector<KernelModule> modules_to_load(const std::string& modules_dir, const std::vector<std::string>& wanted);

}  // namespace wb
