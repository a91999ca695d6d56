// SPDX-License-Identifier: Apache-2.0
//
// The sysfs-tree target's input: a short text that describes a tree, one
// entry a line, which the target writes out before importing it.
//
//   PATH=TEXT      a file holding TEXT ("\n" in TEXT is a newline, "\\" a backslash)
//   PATH->TARGET   a symbolic link to TARGET (relative; it may not leave the tree)
//   PATH/          a directory
//
// PATH is relative to the tree's root, with two shorthands: "C/" for
// sys/devices/system/cpu/ and "N/" for sys/devices/system/node/. Entries
// with an empty, "." or ".." part, or beyond the first 512, are left out.
// fuzz/pack-sysfs-tree writes this form from a real tree.
#pragma once

#include <filesystem>
#include <string_view>

namespace wb::fuzz {

// Empties `root` and writes the tree `description` describes into it.
void write_sysfs_tree(std::string_view description, const std::filesystem::path& root);

}  // namespace wb::fuzz
