// SPDX-License-Identifier: Apache-2.0
//
// `wakesim compare`: several policies x workload cases x seeds, summarised
// in the layout of the published comparisons.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

int compare_command(const std::vector<std::string>& args);

// "sync-waker-v3:smt_check=off,reciprocal=off,baseline" is two policies: an
// item with '=' before any ':' is a switch of the policy before it, since
// policy names never hold '='. (--policies of compare and trace replay.)
std::vector<std::string> split_policy_list(const std::string& text);

}  // namespace wb::cli
