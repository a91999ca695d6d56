// SPDX-License-Identifier: Apache-2.0
//
// sysfs trees (io/sysfs_import.cpp): the input describes a tree
// (sysfs_tree_input.h), written to a folder of this process's own under
// /dev/shm (or the temporary folder); its import is a machine that
// validates, or an InputError naming the file at fault.
#include <unistd.h>

#include "contract.h"
#include "fuzz_target.h"
#include "io/sysfs_import.h"
#include "sysfs_tree_input.h"

using namespace wb;

namespace {

std::filesystem::path tree_root()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                              ? fs::path("/dev/shm")
                              : fs::temp_directory_path();
    return base / ("wb-fuzz-sysfs-" + std::to_string(::getpid()));
}

// The folder goes when the process ends normally; one left by a crash is
// named by its pid.
struct Tree {
    std::filesystem::path root = tree_root();
    ~Tree()
    {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
};

}  // namespace

WB_FUZZ_TARGET(sysfs_tree)
{
    static const Tree tree;
    fuzz::write_sysfs_tree(fuzz::text_of(data, size), tree.root);
    try {
        const ImportResult r = import_sysfs(tree.root.string());
        fuzz::require(validate(r.machine).empty(), "import_sysfs() returned a machine validate() refuses");
    } catch (const InputError& e) {
        fuzz::require_located(e, fuzz::Place::File);
    }
    return 0;
}
