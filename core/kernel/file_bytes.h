// SPDX-License-Identifier: Apache-2.0
//
// A host file's bytes, whole: the guest's programs and busybox, modules,
// QEMU's console and port files. "" when it cannot be read; callers that
// need the file say so in their own words.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace wb {

inline std::string file_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace wb
