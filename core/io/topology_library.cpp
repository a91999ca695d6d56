// SPDX-License-Identifier: Apache-2.0
#include "io/topology_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "base/data_dir.h"
#include "io/input_error.h"
#include "io/topology_json.h"
#include "topology/synthetic.h"

namespace fs = std::filesystem;

namespace wb {

std::string topologies_dir()
{
    if (const char* env = std::getenv("WAKEBENCH_TOPOLOGIES"); env && *env)
        return env;
    return shipped_data_dir(kShippedTopologies);
}

std::vector<ShippedTopology> list_shipped_topologies()
{
    std::vector<ShippedTopology> list;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(topologies_dir(), ec)) {
        if (entry.path().extension() != ".json")
            continue;
        ShippedTopology t{entry.path().stem().string(), {}, entry.path().string()};
        try {
            t.description = load_machine_file(t.path).description;
        } catch (const InputError& e) {
            t.description = std::string("(cannot be loaded: ") + e.what() + ")";
        }
        list.push_back(std::move(t));
    }
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return list;
}

Machine resolve_machine(std::string_view spec)
{
    if (spec.substr(0, kSyntheticPrefix.size()) == kSyntheticPrefix)
        return parse_synthetic(spec);

    const std::string text(spec);
    std::error_code ec;
    if (text.find('/') != std::string::npos || text.ends_with(".json") || fs::exists(text, ec))
        return load_machine_file(text);

    const fs::path shipped = fs::path(topologies_dir()) / (text + ".json");
    if (fs::exists(shipped, ec))
        return load_machine_file(shipped.string());

    std::string names;
    for (const ShippedTopology& t : list_shipped_topologies())
        names += (names.empty() ? "" : ", ") + t.name;
    throw InputError(Diagnostic{text, 0, 0, "",
                                "no such machine: expected the name of a shipped machine (" + names +
                                    "), a machine file, or synthetic:node=N,llc=N,core=N,smt=N"});
}

}  // namespace wb
