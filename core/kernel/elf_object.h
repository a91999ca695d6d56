// SPDX-License-Identifier: Apache-2.0
//
// The little of a 64-bit little-endian ELF file a kernel check reads: a
// section's bytes by name (a module's .modinfo) and whether an executable
// asks for a dynamic loader (PT_INTERP: the guest has no C library, so its
// programs and busybox must be static). x86-64 only, like the guests.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wb {

// The section called `name`, or nullopt if there is none. A file that is
// not a 64-bit little-endian ELF, or whose headers lie outside it, is a
// KernelCheckError naming `label`.
std::optional<std::string_view> elf_section(std::string_view elf, std::string_view name, const std::string& label);

// Whether the executable has a PT_INTERP program header; false for anything
// that is not a 64-bit ELF.
bool elf_is_dynamic(std::string_view elf);

}  // namespace wb
