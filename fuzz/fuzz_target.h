// SPDX-License-Identifier: Apache-2.0
//
// WB_FUZZ_TARGET(name) { ... }: one reader's fuzz target, its body reading
// `data` and `size`. Built two ways (fuzz/CMakeLists.txt):
//   - in the fuzz preset (clang, WB_FUZZ_LIBFUZZER) it is the program's
//     LLVMFuzzerTestOneInput, one libFuzzer program per target;
//   - in any other build it registers itself under `name` in fuzz_replay,
//     which feeds it the committed corpus and crash reproducers, so that the
//     ordinary tests replay them without libFuzzer.
// A body returns 0; a broken contract aborts (contract.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace wb::fuzz {

using TargetFunction = int (*)(const std::uint8_t* data, std::size_t size);

// fuzz_replay's table of targets; returns true so that it can initialise a static.
bool register_target(std::string_view name, TargetFunction function);

}  // namespace wb::fuzz

#ifdef WB_FUZZ_LIBFUZZER
#define WB_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
#else
#define WB_FUZZ_TARGET(name)                                                                                           \
    static int wb_fuzz_##name(const std::uint8_t* data, std::size_t size);                                             \
    [[maybe_unused]] static const bool wb_fuzz_registered_##name = ::wb::fuzz::register_target(#name, wb_fuzz_##name); \
    static int wb_fuzz_##name(const std::uint8_t* data, std::size_t size)
#endif
