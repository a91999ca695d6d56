// SPDX-License-Identifier: Apache-2.0
//
// The two kinds of item in the topology grid: a CPU cell and a container box.
// Both are plain QGraphicsItems (no QObject) created once per machine; later
// work restyles them per frame and never rebuilds them. They paint with level
// of detail: text only where it would be readable on screen.
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QString>

#include "topology/cpumask.h"
#include "views/topology_layout.h"

namespace wb {

// What a running simulation shows in a cell, restyled once per frame.
struct CellLive {
    bool idle = true;
    int idle_depth = 0;  // 0 not in an idle state, 1 the shallowest ... idle_levels the deepest
    int idle_levels = 1;
    unsigned int nr_running = 0;
    bool has_curr = false;
    QColor curr_colour;  // the running task's group
    friend bool operator==(const CellLive&, const CellLive&) = default;
};

class CpuCellItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    // `capacity` 1..1024; cells below 1024 carry a mark whose length is the capacity.
    CpuCellItem(CpuId cpu, const QSizeF& size, int capacity, double speed);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    CpuId cpu() const { return cpu_; }
    // The small second line, "cap 446" / "×0.90", empty for a nominal CPU.
    const QString& note() const { return note_; }
    bool lowerCapacity() const { return capacity_ < 1024; }

    void setCurrent(bool current);
    bool isCurrent() const { return current_; }
    void setInSpan(bool in_span);
    bool inSpan() const { return in_span_; }

    // Live state: background = idle depth (white busy, light to dark grey
    // shallow to deep idle), a strip in the running task's colour, one dot
    // per runnable task (a number past kMaxDots).
    void setLive(const CellLive& live);
    void clearLive();
    bool hasLive() const { return has_live_; }
    const CellLive& live() const { return live_; }
    static constexpr unsigned int kMaxDots = 4;

private:
    void paintLive(QPainter* painter, const QRectF& r, double lod);

    CpuId cpu_;
    QSizeF size_;
    int capacity_;
    QString label_;
    QString note_;        // "cap 354 ×0.35"
    QString short_note_;  // "cap 354", for when the full note is unreadable
    int note_px_ = 0;     // font sizes that fit the cell
    int short_note_px_ = 0;
    bool current_ = false;
    bool in_span_ = false;
    bool has_live_ = false;
    CellLive live_;
};

class TopoBoxItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    explicit TopoBoxItem(const TopoBox& box);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    // Fills, borders and the title's ink of the three kinds of box.
    struct Colours {
        QColor titled_fill[2];  // by depth, alternating, so nested boxes read apart
        QColor titled_border;
        QColor cluster_fill;
        QColor cluster_border;
        QColor core_fill;
        QColor core_border;
        QColor title_text;
    };
    const Colours& colours() const;  // the light or the dark theme's
    void setDark(bool dark);

    const QString& title() const { return title_; }
    bool titled() const { return kind_ == Kind::Titled; }
    const CpuMask& span() const { return span_; }
    // Whether the scene's own title, at this level of detail, is at least
    // `min_px` high on screen; where it is not, the view draws the title at
    // its own font instead (TopologyView::overlaidTitles).
    static bool titleReadable(double lod, double min_px);

private:
    enum class Kind { Titled, Cluster, Core };

    QSizeF size_;
    QString title_;
    CpuMask span_;
    Kind kind_;
    int depth_;
    bool dark_ = false;
};

}  // namespace wb
