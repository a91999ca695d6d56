// SPDX-License-Identifier: Apache-2.0
//
// The EEVDF tree (eevdf_tree.h): a red-black tree over task ids whose nodes
// keep their subtree's smallest vruntime and smallest and largest slice.
// Insertion and erasure follow the textbook algorithms (Cormen et al.,
// "Introduction to Algorithms", ch. 13, with parent links and no sentinel);
// the subtree values are brought up to date on the path to the root after
// each change of shape, and carried through the rotations of the
// rebalancing, as the kernel's augmented rbtree callbacks do.
#include "sched/eevdf_tree.h"

#include <algorithm>
#include <limits>

namespace wb {

namespace {

// The tree as one object: the tasks that hold its links, and its root.
class Tree {
public:
    Tree(std::vector<Task>& tasks, Timeline& tl) : tasks_(tasks), tl_(tl) {}

    void insert(TaskId id);
    void erase(TaskId id);

private:
    SchedEntity& se(TaskId id) { return tasks_[static_cast<std::size_t>(id)].se; }
    RunNode& node(TaskId id) { return se(id).run_node; }
    bool is_red(TaskId id) { return id != kNoTask && node(id).red; }

    // A node's child on side `dir`: kLeft (earlier deadlines) or kRight.
    // The rebalancing cases come in mirrored pairs; written once, with the
    // side as a parameter.
    static constexpr int kLeft = 0;
    static constexpr int kRight = 1;
    TaskId& child(TaskId id, int dir) { return node(id).child[dir]; }
    int side_of(TaskId id, TaskId parent) { return child(parent, kLeft) == id ? kLeft : kRight; }

    // Inline: the walks to the root call it at every level.
    [[gnu::always_inline]] bool update_subtree_values(TaskId id);
    void propagate(TaskId from, bool until_unchanged);
    void replace_child(TaskId parent, TaskId old_child, TaskId new_child);
    void rotate(TaskId x, int dir);
    void insert_fixup(TaskId z);
    void erase_fixup(TaskId x, TaskId parent);

    std::vector<Task>& tasks_;
    Timeline& tl_;
};

// Sets id's subtree values from its own and its children's; returns whether
// any changed (min_vruntime_update()'s test, inverted).
inline bool Tree::update_subtree_values(TaskId id)
{
    const SchedEntity& e = se(id);
    RunNode& n = node(id);
    std::int64_t min_vruntime = e.vruntime;
    std::uint64_t min_slice = e.slice;
    std::uint64_t max_slice = e.slice;
    auto take = [&](TaskId kid) {
        if (kid == kNoTask)
            return;
        const RunNode& c = node(kid);
        min_vruntime = std::min(min_vruntime, c.min_vruntime);
        min_slice = std::min(min_slice, c.min_slice);
        max_slice = std::max(max_slice, c.max_slice);
    };
    take(n.child[kLeft]);
    take(n.child[kRight]);
    const bool changed = n.min_vruntime != min_vruntime || n.min_slice != min_slice || n.max_slice != max_slice;
    n.min_vruntime = min_vruntime;
    n.min_slice = min_slice;
    n.max_slice = max_slice;
    return changed;
}

// Brings the subtree values up to date from `from` to the root. After an
// insertion an unchanged node means nothing above it changes either; after
// an erasure nodes moved, so the whole path is redone.
void Tree::propagate(TaskId from, bool until_unchanged)
{
    for (TaskId id = from; id != kNoTask; id = node(id).parent)
        if (!update_subtree_values(id) && until_unchanged)
            return;
}

void Tree::replace_child(TaskId parent, TaskId old_child, TaskId new_child)
{
    if (parent == kNoTask)
        tl_.root = new_child;
    else
        child(parent, side_of(old_child, parent)) = new_child;
}

// Rotates x down on side `dir` (a left rotation for kLeft): its child on the
// other side takes its place. A rotation keeps the set of entities below
// the pair's top, so the new top takes the old top's values; only the node
// moved down is recomputed.
void Tree::rotate(TaskId x, int dir)
{
    const TaskId y = child(x, 1 - dir);
    const TaskId inner = child(y, dir);
    child(x, 1 - dir) = inner;
    if (inner != kNoTask)
        node(inner).parent = x;
    const TaskId parent = node(x).parent;
    node(y).parent = parent;
    replace_child(parent, x, y);
    child(y, dir) = x;
    node(x).parent = y;
    RunNode& top = node(y);
    const RunNode& was = node(x);
    top.min_vruntime = was.min_vruntime;
    top.min_slice = was.min_slice;
    top.max_slice = was.max_slice;
    update_subtree_values(x);
}

void Tree::insert(TaskId id)
{
    const SchedEntity& e = se(id);
    TaskId parent = kNoTask;
    int dir = kLeft;
    bool leftmost = true;
    for (TaskId at = tl_.root; at != kNoTask; at = child(at, dir)) {
        parent = at;
        // Equal deadlines go right, after the ones already there.
        dir = e.deadline < se(at).deadline ? kLeft : kRight;
        if (dir == kRight)
            leftmost = false;
    }
    node(id) = RunNode{{kNoTask, kNoTask}, parent, true, e.vruntime, e.slice, e.slice};
    if (parent == kNoTask)
        tl_.root = id;
    else
        child(parent, dir) = id;
    if (leftmost)
        tl_.leftmost = id;
    propagate(parent, true);
    insert_fixup(id);
}

void Tree::insert_fixup(TaskId z)
{
    while (is_red(node(z).parent)) {
        // A red parent is not the root, so the grandparent exists.
        TaskId p = node(z).parent;
        const TaskId g = node(p).parent;
        const int dir = side_of(p, g);
        const TaskId uncle = child(g, 1 - dir);
        if (is_red(uncle)) {
            node(p).red = false;
            node(uncle).red = false;
            node(g).red = true;
            z = g;
            continue;
        }
        if (z == child(p, 1 - dir)) {
            z = p;
            rotate(z, dir);
            p = node(z).parent;
        }
        node(p).red = false;
        node(g).red = true;
        rotate(g, 1 - dir);
    }
    node(tl_.root).red = false;
}

void Tree::erase(TaskId z)
{
    RunNode& zn = node(z);
    if (tl_.leftmost == z) {
        // The leftmost has no left child: next in order is the smallest of
        // its right subtree, or its parent.
        TaskId next = zn.child[kRight];
        if (next == kNoTask)
            next = zn.parent;
        else
            while (child(next, kLeft) != kNoTask)
                next = child(next, kLeft);
        tl_.leftmost = next;
    }

    // x takes the place of the node that leaves its position (z, or z's
    // successor y when z has two children); x_parent is x's new parent, the
    // lowest node whose subtree changed.
    TaskId x;
    TaskId x_parent;
    bool removed_black;
    if (zn.child[kLeft] == kNoTask || zn.child[kRight] == kNoTask) {
        x = zn.child[kLeft] != kNoTask ? zn.child[kLeft] : zn.child[kRight];
        x_parent = zn.parent;
        removed_black = !zn.red;
        if (x != kNoTask)
            node(x).parent = x_parent;
        replace_child(zn.parent, z, x);
    } else {
        TaskId y = zn.child[kRight];
        while (child(y, kLeft) != kNoTask)
            y = child(y, kLeft);
        RunNode& yn = node(y);
        removed_black = !yn.red;
        x = yn.child[kRight];
        if (yn.parent == z) {
            x_parent = y;
        } else {
            x_parent = yn.parent;
            if (x != kNoTask)
                node(x).parent = x_parent;
            child(x_parent, kLeft) = x;
            yn.child[kRight] = zn.child[kRight];
            node(yn.child[kRight]).parent = y;
        }
        replace_child(zn.parent, z, y);
        yn.parent = zn.parent;
        yn.child[kLeft] = zn.child[kLeft];
        node(yn.child[kLeft]).parent = y;
        yn.red = zn.red;
    }
    zn = RunNode{};
    propagate(x_parent, false);
    if (removed_black)
        erase_fixup(x, x_parent);
}

// x (possibly empty) carries an extra black: move it up or absorb it.
void Tree::erase_fixup(TaskId x, TaskId parent)
{
    while (x != tl_.root && !is_red(x)) {
        // x's sibling exists: x's side lost a black, so the other side has
        // one. An empty x is on the side where its parent has no child.
        const int dir = x == child(parent, kLeft) ? kLeft : kRight;
        TaskId w = child(parent, 1 - dir);
        if (is_red(w)) {
            node(w).red = false;
            node(parent).red = true;
            rotate(parent, dir);
            w = child(parent, 1 - dir);
        }
        if (!is_red(child(w, kLeft)) && !is_red(child(w, kRight))) {
            node(w).red = true;
            x = parent;
            parent = node(x).parent;
            continue;
        }
        if (!is_red(child(w, 1 - dir))) {
            node(child(w, dir)).red = false;
            node(w).red = true;
            rotate(w, 1 - dir);
            w = child(parent, 1 - dir);
        }
        node(w).red = node(parent).red;
        node(parent).red = false;
        node(child(w, 1 - dir)).red = false;
        rotate(parent, dir);
        x = tl_.root;
    }
    if (x != kNoTask)
        node(x).red = false;
}

void in_order(const std::vector<Task>& tasks, TaskId id, std::vector<TaskId>& out)
{
    while (id != kNoTask) {
        const RunNode& n = tasks[static_cast<std::size_t>(id)].se.run_node;
        in_order(tasks, n.child[0], out);
        out.push_back(id);
        id = n.child[1];
    }
}

bool fail(std::string* why, std::string text)
{
    if (why)
        *why = std::move(text);
    return false;
}

// Checks the subtree at id, whose parent must be `parent`; adds its size to
// `count` and returns its black height, or -1 with `why` set.
int check_subtree(const std::vector<Task>& tasks, TaskId id, TaskId parent, long& count, std::string* why)
{
    if (id == kNoTask)
        return 1;
    const auto name = [](TaskId t) { return "task " + std::to_string(t); };
    if (id < 0 || static_cast<std::size_t>(id) >= tasks.size())
        return fail(why, "the tree holds unknown task " + std::to_string(id)), -1;
    if (++count > static_cast<long>(tasks.size()))
        return fail(why, "the tree's links form a cycle"), -1;
    const SchedEntity& e = tasks[static_cast<std::size_t>(id)].se;
    const RunNode& n = e.run_node;
    if (n.parent != parent)
        return fail(why, name(id) + "'s parent link is " + std::to_string(n.parent) + ", not " + std::to_string(parent)),
               -1;
    if (n.red && parent != kNoTask && tasks[static_cast<std::size_t>(parent)].se.run_node.red)
        return fail(why, name(id) + " is red under a red parent"), -1;
    std::int64_t min_vruntime = e.vruntime;
    std::uint64_t min_slice = e.slice;
    std::uint64_t max_slice = e.slice;
    for (const TaskId child : n.child) {
        if (child == kNoTask)
            continue;
        if (child < 0 || static_cast<std::size_t>(child) >= tasks.size())
            return fail(why, "the tree holds unknown task " + std::to_string(child)), -1;
        const SchedEntity& c = tasks[static_cast<std::size_t>(child)].se;
        min_vruntime = std::min(min_vruntime, c.run_node.min_vruntime);
        min_slice = std::min(min_slice, c.run_node.min_slice);
        max_slice = std::max(max_slice, c.run_node.max_slice);
    }
    const int left = check_subtree(tasks, n.child[0], id, count, why);
    if (left < 0)
        return -1;
    const int right = check_subtree(tasks, n.child[1], id, count, why);
    if (right < 0)
        return -1;
    if (left != right)
        return fail(why, "black heights differ below " + name(id)), -1;
    if (n.min_vruntime != min_vruntime || n.min_slice != min_slice || n.max_slice != max_slice)
        return fail(why, name(id) + "'s subtree values are stale"), -1;
    return left + (n.red ? 0 : 1);
}

}  // namespace

void timeline_insert(std::vector<Task>& tasks, Timeline& tl, TaskId id)
{
    Tree(tasks, tl).insert(id);
}

void timeline_erase(std::vector<Task>& tasks, Timeline& tl, TaskId id)
{
    Tree(tasks, tl).erase(id);
}

std::vector<TaskId> timeline_in_order(const std::vector<Task>& tasks, const Timeline& tl)
{
    std::vector<TaskId> out;
    in_order(tasks, tl.root, out);
    return out;
}

long check_timeline(const std::vector<Task>& tasks, const Timeline& tl, std::string* why)
{
    if (tl.root == kNoTask) {
        if (tl.leftmost != kNoTask)
            return fail(why, "the empty tree caches a leftmost task"), -1;
        return 0;
    }
    long count = 0;
    if (check_subtree(tasks, tl.root, kNoTask, count, why) < 0)
        return -1;
    // In order, deadlines never decrease (equal ones may sit on either side
    // of each other after rotations).
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const TaskId id : timeline_in_order(tasks, tl)) {
        const std::int64_t deadline = tasks[static_cast<std::size_t>(id)].se.deadline;
        if (deadline < last)
            return fail(why, "the tree is out of deadline order at task " + std::to_string(id)), -1;
        last = deadline;
    }
    if (tasks[static_cast<std::size_t>(tl.root)].se.run_node.red)
        return fail(why, "the tree's root is red"), -1;
    TaskId first = tl.root;
    while (tasks[static_cast<std::size_t>(first)].se.run_node.child[0] != kNoTask)
        first = tasks[static_cast<std::size_t>(first)].se.run_node.child[0];
    if (tl.leftmost != first)
        return fail(why, "the cached leftmost is task " + std::to_string(tl.leftmost) + ", not " +
                             std::to_string(first)),
               -1;
    return count;
}

}  // namespace wb
