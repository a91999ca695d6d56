// SPDX-License-Identifier: Apache-2.0
#include "base/data_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace wb {
namespace {

const fs::path kBuildTree = "/src/wakebench/build/release";

TEST(DataDir, AnInstalledProgramReadsShareBesideItsBin)
{
    EXPECT_EQ(shipped_data_dir(kShippedTopologies, "/usr/bin/wakesim", kBuildTree), "/usr/share/wakebench/topologies");
    // Wherever the prefix is: a package unpacked by dpkg -x into a folder.
    EXPECT_EQ(shipped_data_dir(kShippedScenarios, "/tmp/root/usr/bin/wakebench", kBuildTree),
              "/tmp/root/usr/share/wakebench/scenarios");
    EXPECT_EQ(shipped_data_dir(kShippedValidation, "/opt/wb/bin/wakesim", kBuildTree),
              "/opt/wb/share/wakebench/validation");
}

TEST(DataDir, AProgramInTheBuildTreeReadsTheSourceTree)
{
    for (const ShippedFolder& folder : {kShippedTopologies, kShippedScenarios, kShippedValidation})
        EXPECT_EQ(shipped_data_dir(folder, kBuildTree / "app" / "wakesim", kBuildTree),
                  fs::path(WB_SOURCE_DIR) / folder.in_source);
}

TEST(DataDir, AFolderNamedLikeTheBuildTreeIsNotInIt)
{
    EXPECT_EQ(shipped_data_dir(kShippedTopologies, "/src/wakebench/build/release-stage/bin/wakesim", kBuildTree),
              "/src/wakebench/build/release-stage/share/wakebench/topologies");
}

TEST(DataDir, ThisTestProgramIsInTheBuildTreeAndFindsTheSourceFolders)
{
    for (const ShippedFolder& folder : {kShippedTopologies, kShippedScenarios, kShippedValidation}) {
        const fs::path dir = shipped_data_dir(folder);
        EXPECT_EQ(dir, fs::path(WB_SOURCE_DIR) / folder.in_source);
        EXPECT_TRUE(fs::is_directory(dir)) << dir;
    }
}

}  // namespace
}  // namespace wb
