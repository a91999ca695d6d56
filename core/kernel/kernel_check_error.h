// SPDX-License-Identifier: Apache-2.0
//
// KernelCheckError: a kernel check that could not be done, for a reason
// outside the user's input: a package that cannot be fetched, a guest that
// panicked, hung or lost trace events. The message says what happened and
// what to do; wakesim prints it and exits with status 1. (Bad input is an
// InputError, status 2.)
#pragma once

#include <stdexcept>

namespace wb {

class KernelCheckError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace wb
