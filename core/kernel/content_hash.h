// SPDX-License-Identifier: Apache-2.0
//
// A 64-bit FNV-1a hash of bytes, as 16 hex digits: the name of a cached
// build (guest programs, initramfs) is the hash of everything it is made
// from, so a changed input makes a new entry and an unchanged one is reused.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace wb {

class ContentHash {
public:
    ContentHash& add(std::string_view bytes)
    {
        for (unsigned char c : bytes) {
            h_ ^= c;
            h_ *= 0x100000001b3ULL;
        }
        // A separator, so that ("ab","c") and ("a","bc") differ.
        h_ ^= 0xff;
        h_ *= 0x100000001b3ULL;
        return *this;
    }
    std::string hex() const
    {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
        return buf;
    }

private:
    std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace wb
