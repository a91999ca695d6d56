// SPDX-License-Identifier: Apache-2.0
//
// GuestBundle: the files a guest sends back over its virtio serial port,
// each framed as the guest's /init writes it (guest_init.h):
//
//   @@wakebench-file NAME\n CONTENT \n@@wakebench-end NAME\n
//   ...
//   @@wakebench-done\n
//
// The guest adds one newline after CONTENT, so content is kept byte for
// byte whether or not it ends in a newline. A stream cut short (the guest
// died, or QEMU was stopped) has no "done" line: complete() says so and
// cut_in names the file being sent when it stopped.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace wb {

struct GuestBundle {
    std::map<std::string, std::string> files;
    bool complete = false;  // the "done" line arrived
    std::string cut_in;     // the file whose end never came, or ""

    // The file, or nullptr when the guest did not send it.
    const std::string* file(const std::string& name) const;
};

GuestBundle parse_guest_bundle(std::string_view stream);

}  // namespace wb
