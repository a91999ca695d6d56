// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_bundle.h"

namespace wb {

namespace {

constexpr std::string_view kBegin = "@@wakebench-file ";
constexpr std::string_view kEnd = "@@wakebench-end ";
constexpr std::string_view kDone = "@@wakebench-done\n";

}  // namespace

const std::string* GuestBundle::file(const std::string& name) const
{
    const auto it = files.find(name);
    return it == files.end() ? nullptr : &it->second;
}

GuestBundle parse_guest_bundle(std::string_view stream)
{
    GuestBundle bundle;
    std::size_t at = 0;
    while (at < stream.size()) {
        if (stream.substr(at).starts_with(kDone)) {
            bundle.complete = true;
            break;
        }
        if (!stream.substr(at).starts_with(kBegin)) {
            // Not a frame: skip the line (nothing else is written to the port).
            const std::size_t nl = stream.find('\n', at);
            at = nl == std::string_view::npos ? stream.size() : nl + 1;
            continue;
        }
        const std::size_t name_end = stream.find('\n', at);
        if (name_end == std::string_view::npos) {
            bundle.cut_in = std::string(stream.substr(at + kBegin.size()));
            break;
        }
        const std::string name(stream.substr(at + kBegin.size(), name_end - at - kBegin.size()));
        const std::string end_line = "\n" + std::string(kEnd) + name + "\n";
        const std::size_t end = stream.find(end_line, name_end + 1);
        if (end == std::string_view::npos) {
            bundle.cut_in = name;
            break;
        }
        bundle.files[name] = std::string(stream.substr(name_end + 1, end - name_end - 1));
        at = end + end_line.size();
    }
    return bundle;
}

}  // namespace wb
