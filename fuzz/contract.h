// SPDX-License-Identifier: Apache-2.0
//
// What every reader promises, as the fuzz targets check it: a result that
// passes the reader's own validation, or an InputError that says where.
// Anything else (another exception, a crash, a hang, memory without bound)
// is a finding; a broken promise aborts, which libFuzzer records as one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/input_error.h"

namespace wb::fuzz {

// Prints what was broken and aborts.
[[noreturn]] void broken(std::string_view what, std::string_view detail = {});

inline void require(bool ok, std::string_view what, std::string_view detail = {})
{
    if (!ok)
        broken(what, detail);
}

// How precisely an error must say where.
enum class Place {
    File,    // the file or spec it is about (a sysfs attribute, a workload spec)
    Line,    // and a line (text and JSON files)
    Column,  // and a line and a column (one-line specs)
};

// Every diagnostic names its file, says what was expected, and is placed
// at least as precisely as `place` asks.
void require_located(const InputError& e, Place place);

inline std::string_view text_of(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace wb::fuzz
