// SPDX-License-Identifier: Apache-2.0
//
// JsonProblems: the problems found in a JSON input file, collected against
// their JSON pointers and turned into diagnostics with line:column once the
// whole file has been read, so that one run shows every problem.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/json_locator.h"

namespace wb {

class JsonProblems {
public:
    // A key given twice in one object is a problem of every format: the
    // parser keeps one of the two silently, which the writer did not mean.
    JsonProblems(std::string_view text, std::string file) : locator_(text), file_(std::move(file))
    {
        for (const JsonLocator::Duplicate& d : locator_.duplicates())
            list_.push_back(
                {file_, d.key.line, d.key.column, d.pointer, "duplicate key: a key may appear only once in an object"});
    }

    void add(const std::string& pointer, std::string message)
    {
        const TextPosition at = locator_.locate(pointer);
        list_.push_back({file_, at.line, at.column, pointer, std::move(message)});
    }
    bool empty() const { return list_.empty(); }
    void throw_if_any()
    {
        if (!list_.empty())
            throw_in_reading_order(std::move(list_));
    }

private:
    JsonLocator locator_;
    std::string file_;
    std::vector<Diagnostic> list_;
};

}  // namespace wb
