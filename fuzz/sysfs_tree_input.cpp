// SPDX-License-Identifier: Apache-2.0
#include "sysfs_tree_input.h"

#include <fstream>
#include <string>

namespace wb::fuzz {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxEntries = 512;

// The path an entry names, or empty if it is one to leave out.
fs::path entry_path(std::string_view text)
{
    std::string path;
    if (text.starts_with("C/"))
        path = "sys/devices/system/cpu/" + std::string(text.substr(2));
    else if (text.starts_with("N/"))
        path = "sys/devices/system/node/" + std::string(text.substr(2));
    else
        path = text;
    if (path.empty() || path.front() == '/' || path.find('\0') != std::string::npos)
        return {};
    for (const fs::path& part : fs::path(path))
        if (part.empty() || part == "." || part == "..")
            return {};
    return path;
}

std::string unescape(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            ++i;
            out += text[i] == 'n' ? '\n' : text[i];
        } else {
            out += text[i];
        }
    }
    return out;
}

// Whether a link at `link` (relative to root) pointing to `target` stays in the tree.
bool stays_inside(const fs::path& link, std::string_view target)
{
    if (target.empty() || target.front() == '/' || target.find('\0') != std::string_view::npos)
        return false;
    const fs::path resolved = (link.parent_path() / fs::path(target)).lexically_normal();
    return !resolved.empty() && *resolved.begin() != "..";
}

}  // namespace

void write_sysfs_tree(std::string_view description, const fs::path& root)
{
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root);
    std::size_t entries = 0;
    for (std::size_t start = 0; start < description.size() && entries < kMaxEntries; ++entries) {
        std::size_t end = description.find('\n', start);
        if (end == std::string_view::npos)
            end = description.size();
        const std::string_view line = description.substr(start, end - start);
        start = end + 1;
        const std::size_t link = line.find("->");
        const std::size_t equals = line.find('=');
        if (link != std::string_view::npos && (equals == std::string_view::npos || link < equals)) {
            const fs::path p = entry_path(line.substr(0, link));
            if (p.empty() || !stays_inside(p, line.substr(link + 2)))
                continue;
            fs::create_directories(root / p.parent_path(), ec);
            fs::create_symlink(std::string(line.substr(link + 2)), root / p, ec);
        } else if (equals != std::string_view::npos) {
            const fs::path p = entry_path(line.substr(0, equals));
            if (p.empty())
                continue;
            fs::create_directories(root / p.parent_path(), ec);
            std::ofstream(root / p, std::ios::binary) << unescape(line.substr(equals + 1));
        } else if (line.ends_with('/')) {
            const fs::path p = entry_path(line.substr(0, line.size() - 1));
            if (!p.empty())
                fs::create_directories(root / p, ec);
        }
    }
}

}  // namespace wb::fuzz
