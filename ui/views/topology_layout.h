// SPDX-License-Identifier: Apache-2.0
//
// Where every box and CPU cell of the topology grid goes: pure geometry,
// computed once per machine, so it can be tested without a scene or a window.
//
// The tree is the machine's own (node > package > LLC > cluster > core >
// CPU), simplified so that each box drawn tells the reader something:
//   - a container with a single container inside is one box carrying both
//     names ("node 0 · package 0 · LLC 0"): a box inside an identical box is
//     noise;
//   - a container holding a single CPU is not drawn at all (a core without
//     SMT, a cluster of one core): the cell alone says it.
// Children wrap into rows; each box picks the row length that brings its
// shape closest to a target aspect, so 8 and 512 CPUs both fill a screen.
#pragma once

#include <QRectF>
#include <QString>
#include <vector>

#include "topology/cpumask.h"

namespace wb {

struct Machine;

enum class TopoLevel { Node, Package, Llc, Cluster, Core };

struct TopoBox {
    std::vector<TopoLevel> levels;  // outermost first; several when containers coincide
    std::vector<int> indexes;       // machine-wide container index at each of `levels`
    int parent = -1;                // index into TopologyLayout::boxes, -1 at the top
    int depth = 0;                  // 0 at the top
    CpuMask span;
    QRectF rect;              // scene coordinates
    bool has_header() const;  // titled strip on top: boxes that are a node, package or LLC

    QString title() const;  // "node 0 · package 0 · LLC 1"
};

struct TopologyLayout {
    std::vector<TopoBox> boxes;    // a parent always comes before its children
    std::vector<QRectF> cells;     // cells[cpu], scene coordinates
    std::vector<int> cell_parent;  // the box directly holding each cell, -1 if none
    QRectF bounds;
};

// Scene units of the fixed parts; the view scales the whole scene.
struct LayoutMetrics {
    static constexpr double kCellWidth = 48;
    static constexpr double kCellHeight = 34;
    static constexpr double kHeaderHeight = 20;
    static constexpr int kTitlePixels = 12;  // title font size
    static constexpr double kTopGap = 16;
};

// `target_aspect` is width / height of the space the grid will be shown in.
TopologyLayout layout_topology(const Machine& machine, double target_aspect = 1.2);

QString level_name(TopoLevel level);

}  // namespace wb
