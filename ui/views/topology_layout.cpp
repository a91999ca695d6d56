// SPDX-License-Identifier: Apache-2.0
#include "views/topology_layout.h"

#include <QPointF>
#include <QSizeF>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "topology/machine.h"

namespace wb {

namespace {

constexpr TopoLevel kLevels[] = {TopoLevel::Node, TopoLevel::Package, TopoLevel::Llc, TopoLevel::Cluster,
                                 TopoLevel::Core};

// A box tight around SMT siblings wants them side by side (SMT8 as 4 x 2).
constexpr double kCoreAspect = 2.0;
// Shapes tried for the boxes inside the top ones (LLCs in a package, cores in
// an LLC); whichever shows the cells biggest in the view wins.
constexpr double kInnerAspects[] = {0.6, 1.0, 1.6, 2.5, 4.0};
// A ragged last row costs a little beyond the room it wastes: full rows are
// easier to count along.
constexpr double kRaggedWeight = 1.0;

struct Node {
    std::vector<TopoLevel> levels;
    std::vector<int> indexes;
    CpuId cpu = kNoCpu;  // set on leaves: one CPU cell
    int nr_cpus = 0;
    std::vector<Node> children;

    QSizeF size;                   // after measure()
    std::vector<QPointF> offsets;  // children's top-left inside the content area

    bool is_leaf() const { return cpu != kNoCpu; }
};

struct Style {
    double pad;
    double gap;
    double header;
    double min_width;  // room for the title
};

int index_at(const CpuTopo& c, TopoLevel level)
{
    switch (level) {
    case TopoLevel::Node:
        return c.node;
    case TopoLevel::Package:
        return c.package;
    case TopoLevel::Llc:
        return c.llc;
    case TopoLevel::Cluster:
        return c.cluster;
    case TopoLevel::Core:
        return c.core;
    }
    return 0;
}

bool titled(const std::vector<TopoLevel>& levels)
{
    return levels.front() == TopoLevel::Node || levels.front() == TopoLevel::Package ||
           levels.front() == TopoLevel::Llc;
}

QString box_title(const std::vector<TopoLevel>& levels, const std::vector<int>& indexes)
{
    QStringList parts;
    const bool header = !levels.empty() && titled(levels);
    for (std::size_t i = 0; i < levels.size(); ++i) {
        // A titled box that also absorbed its only cluster or core keeps the
        // short title; the tooltip names the rest.
        if (header && (levels[i] == TopoLevel::Cluster || levels[i] == TopoLevel::Core))
            continue;
        parts << QStringLiteral("%1 %2").arg(level_name(levels[i])).arg(indexes[i]);
    }
    return parts.join(QStringLiteral(" · "));
}

Style style_of(const Node& n)
{
    if (titled(n.levels)) {
        // Measured without a font (the layout runs without a GUI): the bold
        // title face averages under 0.65 em per character.
        const double title = 0.65 * LayoutMetrics::kTitlePixels * box_title(n.levels, n.indexes).size();
        return {6, 6, LayoutMetrics::kHeaderHeight, title + 20};
    }
    if (n.levels.back() == TopoLevel::Core)
        return {3, 2, 0, 0};
    return {4, 3, 0, 0};
}

Node build_tree(const Machine& machine)
{
    Node root;
    for (const CpuTopo& c : machine.cpus) {
        Node* at = &root;
        for (TopoLevel level : kLevels) {
            const int index = index_at(c, level);
            // Newest first: with core-major numbering the match is the last child.
            auto it = std::find_if(at->children.rbegin(), at->children.rend(),
                                   [&](const Node& child) { return child.indexes.front() == index; });
            Node* next = nullptr;
            if (it == at->children.rend()) {
                at->children.push_back(Node{{level}, {index}, kNoCpu, 0, {}, {}, {}});
                next = &at->children.back();
            } else {
                next = &*it;
            }
            ++next->nr_cpus;
            at = next;
        }
        at->children.push_back(Node{{}, {}, c.cpu, 1, {}, {}, {}});
    }
    root.nr_cpus = machine.nr_cpus();
    return root;
}

Node single_leaf(const Node& n)
{
    const Node* at = &n;
    while (!at->is_leaf())
        at = &at->children.front();
    return *at;
}

void simplify(Node& n, bool is_root)
{
    for (Node& child : n.children)
        if (!child.is_leaf())
            simplify(child, false);
    if (!is_root) {
        for (Node& child : n.children)
            if (!child.is_leaf() && child.nr_cpus == 1)
                child = single_leaf(child);
        while (n.children.size() == 1 && !n.children.front().is_leaf()) {
            Node only = std::move(n.children.front());
            n.levels.insert(n.levels.end(), only.levels.begin(), only.levels.end());
            n.indexes.insert(n.indexes.end(), only.indexes.begin(), only.indexes.end());
            n.children = std::move(only.children);
        }
    }
}

struct Flow {
    std::vector<QPointF> offsets;
    double width = 0;
    double height = 0;
    double ragged = 0;  // share of the rows' length left empty
};

// Places children left to right, wrapping before `limit`.
Flow flow(const std::vector<Node>& children, double gap, double limit)
{
    Flow f;
    std::vector<double> row_widths;
    double x = 0, y = 0, row_height = 0;
    for (const Node& child : children) {
        const QSizeF s = child.size;
        if (x > 0 && x + s.width() > limit + 0.5) {
            row_widths.push_back(x - gap);
            y += row_height + gap;
            x = 0;
            row_height = 0;
        }
        f.offsets.emplace_back(x, y);
        x += s.width() + gap;
        row_height = std::max(row_height, s.height());
    }
    row_widths.push_back(x - gap);
    f.height = y + row_height;
    f.width = *std::max_element(row_widths.begin(), row_widths.end());
    double empty = 0;
    for (double w : row_widths)
        empty += f.width - w;
    f.ragged = f.width > 0 ? empty / (f.width * static_cast<double>(row_widths.size())) : 0;
    return f;
}

// The shape of `count` equal children in `columns`, without placing them:
// what flow() would find, in constant time, for machines of thousands of CPUs.
Flow grid_shape(std::size_t count, QSizeF child, double gap, std::size_t columns)
{
    const std::size_t rows = (count + columns - 1) / columns;
    const std::size_t used = std::min(count, columns);
    Flow f;
    f.width = static_cast<double>(used) * child.width() + static_cast<double>(used - 1) * gap;
    f.height = static_cast<double>(rows) * child.height() + static_cast<double>(rows - 1) * gap;
    const std::size_t last = count - (rows - 1) * columns;
    const double missing = static_cast<double>(used - last) * (child.width() + gap);
    f.ragged = f.width > 0 ? missing / (f.width * static_cast<double>(rows)) : 0;
    return f;
}

void arrange(Node& n, const Style& style, double target)
{
    double widest = 0;
    bool uniform = true;
    for (const Node& child : n.children) {
        widest = std::max(widest, child.size.width());
        uniform = uniform && child.size == n.children.front().size;
    }

    double best_score = std::numeric_limits<double>::infinity();
    double best_limit = widest;
    for (std::size_t columns = 1; columns <= n.children.size(); ++columns) {
        const double limit = static_cast<double>(columns) * widest + static_cast<double>(columns - 1) * style.gap;
        const Flow f = uniform ? grid_shape(n.children.size(), n.children.front().size, style.gap, columns)
                               : flow(n.children, style.gap, limit);
        const double w = std::max(f.width + 2 * style.pad, style.min_width);
        const double h = f.height + 2 * style.pad + style.header;
        // How big the box could be drawn in a space of shape `target` (in
        // log, smaller is bigger): weighs shape and wasted room at once.
        // Between equals the smaller box wins, so one widened for its title
        // takes fewer, longer rows.
        const double score = -std::log(std::min(target / w, 1 / h)) + kRaggedWeight * f.ragged + 0.01 * std::log(w * h);
        if (score < best_score - 1e-9) {
            best_score = score;
            best_limit = limit;
        }
    }
    Flow best = flow(n.children, style.gap, best_limit);
    n.offsets = std::move(best.offsets);
    n.size = QSizeF(std::max(best.width + 2 * style.pad, style.min_width), best.height + 2 * style.pad + style.header);
}

void measure(Node& n, double target, double inner_target)
{
    if (n.is_leaf()) {
        n.size = QSizeF(LayoutMetrics::kCellWidth, LayoutMetrics::kCellHeight);
        return;
    }
    for (Node& child : n.children)
        measure(child, child.is_leaf() || titled(child.levels) ? inner_target : kCoreAspect, inner_target);
    arrange(n, style_of(n), target);
}

// Lays the top boxes (usually one per node) out in `columns`, each aiming at
// its share of the view: two nodes stacked each get twice its width-to-height.
void measure_top(Node& root, double target, double inner_target, double columns)
{
    const double rows = std::ceil(static_cast<double>(root.children.size()) / columns);
    double widest = 0;
    for (Node& child : root.children) {
        measure(child, target * rows / columns, inner_target);
        widest = std::max(widest, child.size.width());
    }
    Flow f = flow(root.children, LayoutMetrics::kTopGap, columns * widest + (columns - 1) * LayoutMetrics::kTopGap);
    root.offsets = std::move(f.offsets);
    root.size = QSizeF(f.width, f.height);
}

// The arrangement that, fitted into a view of shape `target`, shows the
// cells biggest: what a reader wants, and it weighs shape and waste at once.
void measure_best(Node& root, double target)
{
    double best_scale = 0;
    double best_inner = kInnerAspects[0];
    double best_columns = 1;
    for (double inner : kInnerAspects) {
        for (double columns = 1; columns <= static_cast<double>(root.children.size()); ++columns) {
            measure_top(root, target, inner, columns);
            const double scale = std::min(target / root.size.width(), 1 / root.size.height());
            if (scale > best_scale * (1 + 1e-9)) {
                best_scale = scale;
                best_inner = inner;
                best_columns = columns;
            }
        }
    }
    measure_top(root, target, best_inner, best_columns);
}

void place(const Node& n, QPointF origin, int parent, int depth, CpuMask& parent_span, TopologyLayout& out)
{
    if (n.is_leaf()) {
        out.cells[static_cast<std::size_t>(n.cpu)] = QRectF(origin, n.size);
        out.cell_parent[static_cast<std::size_t>(n.cpu)] = parent;
        parent_span.set(n.cpu);
        return;
    }
    const Style style = style_of(n);
    const int self = static_cast<int>(out.boxes.size());
    TopoBox box;
    box.levels = n.levels;
    box.indexes = n.indexes;
    box.parent = parent;
    box.depth = depth;
    box.rect = QRectF(origin, n.size);
    out.boxes.push_back(std::move(box));

    CpuMask span(parent_span.nr_cpus());
    const QPointF content = origin + QPointF(style.pad, style.pad + style.header);
    for (std::size_t i = 0; i < n.children.size(); ++i)
        place(n.children[i], content + n.offsets[i], self, depth + 1, span, out);
    parent_span |= span;
    out.boxes[static_cast<std::size_t>(self)].span = std::move(span);
}

}  // namespace

bool TopoBox::has_header() const
{
    return !levels.empty() && titled(levels);
}

QString level_name(TopoLevel level)
{
    switch (level) {
    case TopoLevel::Node:
        return QStringLiteral("node");
    case TopoLevel::Package:
        return QStringLiteral("package");
    case TopoLevel::Llc:
        return QStringLiteral("LLC");
    case TopoLevel::Cluster:
        return QStringLiteral("cluster");
    case TopoLevel::Core:
        return QStringLiteral("core");
    }
    return {};
}

QString TopoBox::title() const
{
    return box_title(levels, indexes);
}

TopologyLayout layout_topology(const Machine& machine, double target_aspect)
{
    TopologyLayout out;
    if (machine.cpus.empty())
        return out;
    Node root = build_tree(machine);
    simplify(root, true);
    measure_best(root, target_aspect > 0 ? target_aspect : 1.2);

    const std::size_t n = machine.cpus.size();
    out.cells.assign(n, QRectF());
    out.cell_parent.assign(n, -1);
    CpuMask all(machine.nr_cpus());
    for (std::size_t i = 0; i < root.children.size(); ++i)
        place(root.children[i], root.offsets[i], -1, 0, all, out);
    out.bounds = QRectF(QPointF(0, 0), root.size);
    return out;
}

}  // namespace wb
