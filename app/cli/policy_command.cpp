// SPDX-License-Identifier: Apache-2.0
#include "cli/policy_command.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "cli/scaffold_templates.h"
#include "plugin/hook_table.h"
#include "policies/registry.h"

namespace wb::cli {
namespace {

namespace fs = std::filesystem;

const char* const kUsage =
    "usage: wakesim policy new NAME [--hook HOOK] [--dir DIR]\n"
    "  writes a policy plugin's source, its unit test and a CMake project into DIR (default ./NAME),\n"
    "  built against the installed SDK; HOOK is one of `wakesim list hooks` (default before_select_idle_sibling)";

std::string replace_all(std::string text, std::string_view from, std::string_view to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// "my-idea" -> "MyIdea"
std::string class_name(std::string_view name)
{
    std::string out;
    bool upper = true;
    for (char c : name) {
        if (c == '-' || c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

void check_name(const std::string& name)
{
    bool ok = !name.empty() && std::islower(static_cast<unsigned char>(name[0]));
    for (char c : name)
        ok = ok && (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                    c == '-');
    if (!ok)
        throw UsageError("policy new: expected a NAME of lower-case letters, digits and dashes starting with a "
                         "letter, as policies are named (sync-waker-v3); found '" +
                         name + "'");
    for (const PolicyInfo* info : policy_catalog())
        if (info->name == name)
            throw UsageError("policy new: '" + name + "' is already a policy's name (wakesim list policies)");
}

// The project's own checkout is not the place for a user's policy: it
// would be built, or committed, with ours.
void check_dir(const fs::path& dir)
{
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(fs::absolute(dir), ec);
    const fs::path source = fs::weakly_canonical(fs::path(WB_SOURCE_DIR), ec);
    if (fs::exists(source / "core" / "sched" / "placement_policy.h")) {
        const auto [src_end, target_at] = std::mismatch(source.begin(), source.end(), target.begin(), target.end());
        if (src_end == source.end())
            throw UsageError("policy new: --dir " + dir.string() + " is inside Wakebench's checkout (" +
                             source.string() + "); expected a folder of your own, such as ~/" +
                             dir.filename().string());
    }
    if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
        throw UsageError("policy new: " + dir.string() + " exists and is not empty; expected a new or empty folder");
}

std::string fill(std::string_view text, const std::string& name, const HookTemplate& t)
{
    std::string out(text);
    const bool placement = !t.call.empty();
    std::string test;
    if (placement) {
        test = std::string(kChooseTest);
        test = replace_all(test, "@ABLATED_CALL@", replace_all(std::string(t.call), "@P@", "ablated"));
        test = replace_all(test, "@CALL@", replace_all(std::string(t.call), "@P@", "policy"));
    } else {
        test = std::string(t.test);
    }
    out = replace_all(out, "@DECLARATION@",
                      std::string(t.declaration) + (placement ? std::string(kChooseDeclaration) : std::string()));
    out = replace_all(out, "@DEFINITION@",
                      (placement ? std::string(kChooseDefinition) + "\n\n" : std::string()) +
                          std::string(t.definition));
    out = replace_all(out, "@TEST@", test);
    out = replace_all(out, "@SWITCH_MEANING@", std::string(t.switch_meaning));
    out = replace_all(out, "@SWITCH@", std::string(t.switch_name));
    out = replace_all(out, "@SWITCH_ENUM@", "k" + class_name(t.switch_name));
    out = replace_all(out, "@HOOK@", std::string(t.hook));
    out = replace_all(out, "@CLASS@", class_name(name));
    std::string stem = name;
    std::replace(stem.begin(), stem.end(), '-', '_');
    out = replace_all(out, "@STEM@", stem);
    return replace_all(out, "@NAME@", name);
}

void write_file(const fs::path& path, const std::string& text)
{
    std::ofstream out(path);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
    std::cout << "  " << path.string() << "\n";
}

int policy_new(const std::vector<std::string>& argv)
{
    const Args args = parse_args(argv,
                                 {{"hook", Value::Required, "HOOK", "the hook point (wakesim list hooks)"},
                                  {"dir", Value::Required, "DIR", "the folder to write (default ./NAME)"}},
                                 "policy new");
    if (args.positionals.size() != 1)
        throw UsageError(std::string("policy new: expected one NAME\n") + kUsage);
    const std::string name = args.positionals[0];
    check_name(name);
    const std::string hook = args.get("hook").value_or("before_select_idle_sibling");
    const HookTemplate* t = hook_template(hook);
    if (!find_hook(hook) || !t) {
        std::string names;
        for (const HookPoint& h : hook_points())
            names += (names.empty() ? "" : ", ") + std::string(h.name);
        throw UsageError("policy new: --hook expected one of " + names + "; found '" + hook + "'");
    }
    const fs::path dir = args.get("dir").value_or(name);
    check_dir(dir);
    fs::create_directories(dir);
    std::string stem = name;
    std::replace(stem.begin(), stem.end(), '-', '_');
    std::cout << "wrote policy '" << name << "' at " << hook << ":\n";
    write_file(dir / "CMakeLists.txt", fill(kScaffoldCmake, name, *t));
    write_file(dir / (stem + ".h"), fill(kScaffoldHeader, name, *t));
    write_file(dir / (stem + ".cpp"), fill(kScaffoldSource, name, *t));
    write_file(dir / (stem + "_test.cpp"), fill(kScaffoldTest, name, *t));
    write_file(dir / "README.md", fill(kScaffoldReadme, name, *t));
    std::cout << "next: cmake -S " << dir.string() << " -B " << (dir / "build").string()
              << " -DCMAKE_PREFIX_PATH=<the SDK's prefix> && cmake --build " << (dir / "build").string() << "\n";
    return 0;
}

}  // namespace

int policy_command(const std::vector<std::string>& args)
{
    if (args.empty() || args[0] != "new")
        throw UsageError(std::string("policy: expected `new`\n") + kUsage);
    return policy_new({args.begin() + 1, args.end()});
}

}  // namespace wb::cli
