// SPDX-License-Identifier: Apache-2.0
#include "kernel/elf_object.h"

#include <cstdint>
#include <cstring>

#include "kernel/kernel_check_error.h"

namespace wb {

namespace {

// Offsets in the ELF64 header, section header and program header.
constexpr std::size_t kPhoff = 0x20, kShoff = 0x28, kPhentsize = 0x36, kPhnum = 0x38, kShentsize = 0x3A, kShnum = 0x3C,
                      kShstrndx = 0x3E;
constexpr std::size_t kShName = 0x00, kShOffset = 0x18, kShSize = 0x20;
constexpr std::uint32_t kPtInterp = 3;

bool is_elf64_le(std::string_view elf)
{
    return elf.size() >= 64 &&
           elf.substr(0, 4) ==
               "\x7f"
               "ELF" &&
           elf[4] == 2 && elf[5] == 1;
}

// A little-endian field; 0 past the end (x86-64 is little-endian too).
template <typename T>
T field(std::string_view bytes, std::size_t at)
{
    T v{};
    if (at + sizeof(T) <= bytes.size())
        std::memcpy(&v, bytes.data() + at, sizeof(T));
    return v;
}

}  // namespace

std::optional<std::string_view> elf_section(std::string_view elf, std::string_view name, const std::string& label)
{
    if (!is_elf64_le(elf))
        throw KernelCheckError(label + ": not a 64-bit little-endian ELF object");
    const auto shoff = field<std::uint64_t>(elf, kShoff);
    const auto shentsize = field<std::uint16_t>(elf, kShentsize);
    const auto shnum = field<std::uint16_t>(elf, kShnum);
    const auto shstrndx = field<std::uint16_t>(elf, kShstrndx);
    const auto header = [&](std::size_t i) { return shoff + i * shentsize; };
    if (shstrndx >= shnum || header(shnum) > elf.size())
        throw KernelCheckError(label + ": its section headers lie outside the file");
    const auto names = field<std::uint64_t>(elf, header(shstrndx) + kShOffset);
    for (std::size_t i = 0; i < shnum; ++i) {
        const auto at = names + field<std::uint32_t>(elf, header(i) + kShName);
        if (at >= elf.size() || elf.substr(at, name.size() + 1) != std::string(name) + '\0')
            continue;
        const auto offset = field<std::uint64_t>(elf, header(i) + kShOffset);
        const auto size = field<std::uint64_t>(elf, header(i) + kShSize);
        if (offset + size > elf.size())
            throw KernelCheckError(label + ": its section " + std::string(name) + " lies outside the file");
        return elf.substr(offset, size);
    }
    return std::nullopt;
}

bool elf_is_dynamic(std::string_view elf)
{
    if (!is_elf64_le(elf))
        return false;
    const auto phoff = field<std::uint64_t>(elf, kPhoff);
    const auto phentsize = field<std::uint16_t>(elf, kPhentsize);
    const auto phnum = field<std::uint16_t>(elf, kPhnum);
    for (std::size_t i = 0; i < phnum; ++i)
        if (field<std::uint32_t>(elf, phoff + i * phentsize) == kPtInterp)
            return true;
    return false;
}

}  // namespace wb
