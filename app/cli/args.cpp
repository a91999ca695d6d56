// SPDX-License-Identifier: Apache-2.0
#include "cli/args.h"

#include <algorithm>
#include <charconv>

namespace wb::cli {

namespace {

const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& name)
{
    auto it = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
    return it == specs.end() ? nullptr : &*it;
}

std::string valid_list(const std::vector<OptionSpec>& specs)
{
    std::string out;
    for (const OptionSpec& s : specs)
        out += (out.empty() ? "--" : ", --") + s.name;
    return out.empty() ? "none" : out;
}

}  // namespace

Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs, const std::string& command)
{
    Args args;
    bool options_done = false;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (options_done || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            if (!options_done && arg.size() > 1 && arg[0] == '-' && arg != "-")
                throw UsageError(command + ": unknown option '" + arg + "'; valid options: " + valid_list(specs));
            args.positionals.push_back(arg);
            continue;
        }
        if (arg == "--") {
            options_done = true;
            continue;
        }
        std::string name = arg.substr(2);
        std::optional<std::string> inline_value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const OptionSpec* spec = find_spec(specs, name);
        if (!spec)
            throw UsageError(command + ": unknown option '--" + name + "'; valid options: " + valid_list(specs));
        if (args.has(name) && !spec->repeatable)
            throw UsageError(command + ": option '--" + name + "' is given twice");
        std::string value;
        switch (spec->value) {
        case Value::None:
            if (inline_value)
                throw UsageError(command + ": option '--" + name + "' takes no value");
            break;
        case Value::Required:
            if (inline_value)
                value = *inline_value;
            else if (i + 1 < argv.size())
                value = argv[++i];
            else
                throw UsageError(command + ": option '--" + name + "' needs a value (" + spec->value_name + ")");
            break;
        case Value::Optional:
            if (inline_value)
                value = *inline_value;
            else if (i + 1 < argv.size() && argv[i + 1].compare(0, 2, "--") != 0)
                value = argv[++i];
            break;
        }
        args.options[name] = value;
        if (spec->repeatable)
            args.repeated[name].push_back(value);
    }
    return args;
}

std::uint64_t parse_whole_number(const std::string& command, const std::string& option, const std::string& text,
                                 std::uint64_t min, std::uint64_t max)
{
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || ptr != text.data() + text.size() || v < min || v > max)
        throw UsageError(command + ": --" + option + " '" + text + "': expected a whole number from " +
                         std::to_string(min) + " to " + std::to_string(max));
    return v;
}

std::string describe_options(const std::vector<OptionSpec>& specs)
{
    std::string out;
    for (const OptionSpec& s : specs) {
        std::string left = "  --" + s.name;
        if (s.value == Value::Required)
            left += " " + s.value_name;
        else if (s.value == Value::Optional)
            left += " [" + s.value_name + "]";
        left.resize(std::max<std::size_t>(left.size() + 2, 26), ' ');
        out += left + s.help + "\n";
    }
    return out;
}

}  // namespace wb::cli
