// SPDX-License-Identifier: Apache-2.0
//
// A small command-line parser for wakesim's subcommands: each declares its
// options as a table, and anything not in the table is a usage error that
// names the option and lists the valid ones.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb::cli {

// A mistake in how wakesim was called: exit status 2, message on stderr.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Value { None, Required, Optional };

struct OptionSpec {
    std::string name;  // without the leading "--"
    Value value = Value::None;
    std::string value_name;  // for help: "FILE", "LIST"
    std::string help;
    bool repeatable = false;  // may be given several times; all values kept in order
};

struct Args {
    std::map<std::string, std::string> options;  // present options; "" for flags and absent optional values
    std::map<std::string, std::vector<std::string>> repeated;  // every value of a repeatable option, in order
    std::vector<std::string> positionals;

    bool has(const std::string& name) const { return options.count(name) != 0; }
    std::optional<std::string> get(const std::string& name) const
    {
        auto it = options.find(name);
        return it == options.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

// Parses `argv` against `specs`; `command` names the subcommand in messages.
// Accepts "--name value" and "--name=value". A lone "--" ends the options.
Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs, const std::string& command);

// The value of --`option` as a whole number in [min, max]; a UsageError
// naming the command, the option and the range otherwise.
std::uint64_t parse_whole_number(const std::string& command, const std::string& option, const std::string& text,
                                 std::uint64_t min, std::uint64_t max);

// "  --name VALUE   help" lines for a usage text.
std::string describe_options(const std::vector<OptionSpec>& specs);

}  // namespace wb::cli
