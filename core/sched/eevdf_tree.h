// SPDX-License-Identifier: Apache-2.0
//
// The EEVDF tree of one runqueue (cfs_rq->tasks_timeline): the queued
// entities other than curr, in a red-black tree ordered by virtual deadline
// (equal deadlines in the order they were inserted, as rb_add_cached() puts
// them), with the leftmost entity cached. Every node also keeps three values
// of its subtree, as the kernel's augmented callbacks do (min_vruntime_cb,
// min_vruntime_update() in kernel/sched/fair.c):
//   - the smallest vruntime: eligibility (vruntime <= V) is monotone in
//     vruntime, so a subtree holds an eligible entity exactly when its
//     smallest vruntime is eligible, and the earliest eligible deadline is
//     one descent of the tree (pick_eevdf());
//   - the smallest and the largest slice: cfs_rq_min_slice() for slice
//     protection, cfs_rq_max_slice() for the lag clamp, read at the root.
// Every operation is O(log n) in the number of queued entities. The values
// depend only on which entities are in the tree, never on its shape, so
// the picks are those of any correct implementation (and of the sorted
// vector this replaced).
//
// The slice values are kept exact. The modelled kernel (v7.3 merge window)
// took max_slice into the augmented values with the lag-clamp fix
// ("sched/fair: Fix lag clamp"), and two fixes followed in September 2026:
// __enqueue_entity() did not reset a re-queued entity's max_slice ("Fix
// augmented max_slice"), and RB_DECLARE_CALLBACKS copied only min_vruntime
// on rotations ("Fix rb augmented with multi fields"), so a kernel without
// them can clamp lag with a stale longest slice. We model the fixed kernel,
// as the scan of the queue did.
//
// Our own code: a textbook red-black tree over task ids, its links inside
// each entity (SchedEntity::run_node) as the kernel's rb_node is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sched/cfs_rq.h"
#include "sched/task.h"

namespace wb {

// Inserts id (not in any tree) by its deadline. Its vruntime, deadline and
// slice must not change while it is in the tree.
void timeline_insert(std::vector<Task>& tasks, Timeline& tl, TaskId id);

// Removes id, which must be in tl.
void timeline_erase(std::vector<Task>& tasks, Timeline& tl, TaskId id);

// Whether id is tl's only entity.
inline bool timeline_is_only(const std::vector<Task>& tasks, const Timeline& tl, TaskId id)
{
    const RunNode& n = tasks[static_cast<std::size_t>(id)].se.run_node;
    return tl.root == id && n.child[0] == kNoTask && n.child[1] == kNoTask;
}

// Empties a tree that holds id alone (timeline_is_only()): the erase with
// nothing to rebalance.
inline void timeline_erase_only(Timeline& tl)
{
    tl.root = kNoTask;
    tl.leftmost = kNoTask;
}

// The first entity in deadline order whose vruntime passes `eligible`,
// a predicate that must be monotone (true up to some vruntime, false after):
// vruntime_eligible(). kNoTask when none does.
template <class Eligible>
TaskId timeline_first_eligible(const std::vector<Task>& tasks, const Timeline& tl, Eligible&& eligible)
{
    auto se = [&tasks](TaskId id) -> const SchedEntity& { return tasks[static_cast<std::size_t>(id)].se; };
    // The leftmost entity is the answer most often: no descent for it.
    if (tl.leftmost == kNoTask || eligible(se(tl.leftmost).vruntime))
        return tl.leftmost;
    TaskId node = tl.root;
    while (node != kNoTask) {
        const RunNode& n = se(node).run_node;
        // Everything on the left has an earlier deadline: an eligible
        // entity there is the better one.
        const TaskId left = n.child[0];
        if (left != kNoTask && eligible(se(left).run_node.min_vruntime)) {
            node = left;
            continue;
        }
        if (eligible(se(node).vruntime))
            return node;
        node = n.child[1];
    }
    return kNoTask;
}

// The smallest and the largest slice in the tree (0 when it is empty).
inline std::uint64_t timeline_min_slice(const std::vector<Task>& tasks, const Timeline& tl)
{
    return tl.root == kNoTask ? 0 : tasks[static_cast<std::size_t>(tl.root)].se.run_node.min_slice;
}
inline std::uint64_t timeline_max_slice(const std::vector<Task>& tasks, const Timeline& tl)
{
    return tl.root == kNoTask ? 0 : tasks[static_cast<std::size_t>(tl.root)].se.run_node.max_slice;
}

// The entities in deadline order (for tests, invariant checks and views).
std::vector<TaskId> timeline_in_order(const std::vector<Task>& tasks, const Timeline& tl);

// Checks the tree: links both ways, deadline order, the red-black rules
// (a black root, no red node with a red child, one black height), the
// leftmost cache and every node's subtree values. Returns the number of
// entities in the tree, or -1 (with `why` set) if anything is wrong.
long check_timeline(const std::vector<Task>& tasks, const Timeline& tl, std::string* why);

}  // namespace wb
