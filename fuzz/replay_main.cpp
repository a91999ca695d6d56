// SPDX-License-Identifier: Apache-2.0
//
// fuzz_replay TARGET PATH...: feeds every file under each PATH (a file or
// a folder) to the fuzz target TARGET, as libFuzzer would run one input,
// without libFuzzer. The tests replay the committed corpus and crash
// reproducers of every target this way in every build.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace wb::fuzz {

namespace {

std::map<std::string, TargetFunction, std::less<>>& targets()
{
    static std::map<std::string, TargetFunction, std::less<>> table;
    return table;
}

}  // namespace

bool register_target(std::string_view name, TargetFunction function)
{
    targets().emplace(std::string(name), function);
    return true;
}

}  // namespace wb::fuzz

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    const auto& targets = wb::fuzz::targets();
    const auto target = argc > 1 ? targets.find(argv[1]) : targets.end();
    if (target == targets.end()) {
        std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...; targets:");
        for (const auto& [name, function] : targets)
            std::fprintf(stderr, " %s", name.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 2; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const fs::directory_entry& e : fs::recursive_directory_iterator(argv[i]))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else if (fs::is_regular_file(argv[i])) {
            files.emplace_back(argv[i]);
        } else {
            std::fprintf(stderr, "fuzz_replay: %s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::fprintf(stderr, "%s %s\n", argv[1], file.c_str());
        target->second(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    }
    std::printf("fuzz_replay %s: %zu inputs, every contract held\n", argv[1], files.size());
    return 0;
}
