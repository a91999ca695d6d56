// SPDX-License-Identifier: Apache-2.0
#include "base/data_dir.h"

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace wb {

namespace {

// By component, so that build/release-stage is not inside build/release.
bool is_inside(const fs::path& path, const fs::path& folder)
{
    const auto [folder_end, path_at] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
    return folder_end == folder.end();
}

}  // namespace

std::string shipped_data_dir(const ShippedFolder& folder)
{
    // WB_BINARY_DIR: the build tree this file was compiled in (core/CMakeLists.txt).
    const fs::path build_tree(WB_BINARY_DIR);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    // Without /proc a program cannot know where it is: the build tree's
    // answer is the only one left.
    return shipped_data_dir(folder, ec ? build_tree : exe, build_tree);
}

std::string shipped_data_dir(const ShippedFolder& folder, const fs::path& exe, const fs::path& build_tree)
{
    // As real paths, so that a symlinked checkout is still the build tree.
    std::error_code ec;
    const fs::path program = fs::weakly_canonical(exe, ec);
    if (is_inside(program, fs::weakly_canonical(build_tree, ec)))
        return (fs::path(WB_SOURCE_DIR) / folder.in_source).string();
    return (program.parent_path().parent_path() / "share" / "wakebench" / folder.installed).string();
}

}  // namespace wb
