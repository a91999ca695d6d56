// SPDX-License-Identifier: Apache-2.0
//
// What the decision diagram draws, as data: the nodes of the placement path
// (named as fair.c names them, in the order a record visits them), which
// node each (function, branch) of a DecisionStep belongs to, and the
// mainline edges between nodes. Kept apart from the drawing so that the
// mapping can be read, and tested, against the strings the selector writes
// (sched/fair_select.cpp, select_idle.cpp, slow_path.cpp, engine/ttwu.cpp).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace wb::decision_graph {

struct Node {
    std::string_view key;
    std::string_view title;  // the kernel's name for the function or test
    std::string_view note;   // what the node decides, one short line
    int indent = 0;          // call depth, for the indented layout
    // Not a step of its own: lit when the record enters its callees
    // (select_task_rq_fair, select_idle_sibling), or at the end (chosen).
    bool implicit = false;
};

struct Branch {
    std::string_view function;
    std::string_view branch;
    std::string_view node;
};

// Every fixed node, top to bottom.
const std::vector<Node>& nodes();
// Every (function, branch) the selector is known to record.
const std::vector<Branch>& branches();
// Mainline's possible transitions, drawn thin while not taken.
const std::vector<std::pair<std::string_view, std::string_view>>& edges();

inline constexpr std::string_view kEntry = "select_task_rq_fair";
inline constexpr std::string_view kIdleSibling = "select_idle_sibling";
inline constexpr std::string_view kChosen = "chosen";

// The node a step lights: its exact (function, branch) if known, else the
// node of the function's other branches; empty when the function is unknown.
std::string_view node_of(std::string_view function, std::string_view branch);

// The implicit header the node hangs under (kEntry or kIdleSibling), or
// empty: entered before the node's first step of a record lights.
std::string_view header_of(std::string_view node);

}  // namespace wb::decision_graph
