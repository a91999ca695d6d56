// SPDX-License-Identifier: Apache-2.0
//
// InputError: what is wrong with something a user gave us (a machine file, a
// synthetic spec, a sysfs tree, a command-line value). It carries every
// problem found, each naming the file and the place, so one run shows the
// user all there is to fix. Front ends print what() and exit with status 2.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

struct Diagnostic {
    std::string file;     // path as the user gave it, or a label such as "synthetic spec"
    int line = 0;         // 1-based; 0 when unknown
    int column = 0;       // 1-based; 0 when unknown
    std::string pointer;  // JSON pointer ("/nodes/0/packages"), empty when not JSON
    std::string message;  // what was expected and, where useful, what was found

    // "file:line:col: /pointer: message", leaving out the parts not known.
    std::string to_string() const
    {
        std::string out = file;
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0)
                out += ':' + std::to_string(column);
        }
        out += ": ";
        if (!pointer.empty())
            out += pointer + ": ";
        return out + message;
    }
};

class InputError : public std::runtime_error {
public:
    explicit InputError(std::vector<Diagnostic> diagnostics)
        : std::runtime_error(join(diagnostics)), diagnostics_(std::move(diagnostics))
    {
    }
    explicit InputError(Diagnostic diagnostic) : InputError(std::vector<Diagnostic>{std::move(diagnostic)}) {}

    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

private:
    static std::string join(const std::vector<Diagnostic>& diagnostics)
    {
        std::string out;
        for (const Diagnostic& d : diagnostics) {
            if (!out.empty())
                out += '\n';
            out += d.to_string();
        }
        return out;
    }

    std::vector<Diagnostic> diagnostics_;
};

}  // namespace wb
