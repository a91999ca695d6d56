// SPDX-License-Identifier: Apache-2.0
#include "kernel/cache_dir.h"

#include <gtest/gtest.h>

#include "kernel/kernel_check_error.h"

namespace wb {
namespace {

TEST(CacheDir, XdgCacheHomeFirstThenHome)
{
    EXPECT_EQ(wakebench_cache_dir("/xdg", "/home/u"), "/xdg/wakebench");
    EXPECT_EQ(wakebench_cache_dir(nullptr, "/home/u"), "/home/u/.cache/wakebench");
    // A relative XDG_CACHE_HOME is ignored, as the specification says.
    EXPECT_EQ(wakebench_cache_dir("rel", "/home/u"), "/home/u/.cache/wakebench");
}

TEST(CacheDir, NoPlaceIsAnError)
{
    EXPECT_THROW(wakebench_cache_dir(nullptr, nullptr), KernelCheckError);
}

}  // namespace
}  // namespace wb
