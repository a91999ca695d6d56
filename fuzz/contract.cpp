// SPDX-License-Identifier: Apache-2.0
#include "contract.h"

#include <cstdio>
#include <cstdlib>

namespace wb::fuzz {

void broken(std::string_view what, std::string_view detail)
{
    std::fprintf(stderr, "contract broken: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

void require_located(const InputError& e, Place place)
{
    require(!e.diagnostics().empty(), "an InputError without a diagnostic");
    for (const Diagnostic& d : e.diagnostics()) {
        require(!d.file.empty(), "a diagnostic that names no file", e.what());
        require(!d.message.empty(), "a diagnostic without a message", e.what());
        const bool placed = place == Place::File   ? true
                            : place == Place::Line ? d.line > 0 || !d.pointer.empty()
                                                   : d.line > 0 && d.column > 0;
        require(placed, "a diagnostic without its place", d.to_string());
    }
}

}  // namespace wb::fuzz
