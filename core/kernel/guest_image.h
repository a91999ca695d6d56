// SPDX-License-Identifier: Apache-2.0
//
// The guest's initramfs: busybox (statically linked, from busybox-static) as
// every tool, /init (guest_init.h), the workload programs
// (guest_programs.h) and the modules the kernel needs for its virtio serial
// port (kernel_modules.h), with /modules/order listing them in insmod order.
// It depends only on the kernel and the sources, not on a run's options, so
// it is built once and kept in the cache folder as initramfs/<hash>.cpio.
#pragma once

#include <iosfwd>
#include <string>

namespace wb {

struct GuestKernel;

// The path of the image for `kernel`, building it if the cache lacks it.
// KernelCheckError when busybox is missing or not static, a module cannot be
// found, or a program does not build.
std::string guest_initramfs(const GuestKernel& kernel, const std::string& cache_dir, std::ostream& log);

}  // namespace wb
