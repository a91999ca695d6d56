// SPDX-License-Identifier: Apache-2.0
//
// The items of the decision diagram: a node per function or test of the
// placement path, an edge per transition. Both are built once and then only
// restyled: lit or not, by which policies, in their colours.
//
// A node lays its text out for the width it is given, in the view's own
// font: text wraps, it is never scaled below the application font and never
// cut off. An unlit node is one line (its title); a lit node adds what the
// test decides and, per policy, the values that decided it. Its tooltip
// holds all of it.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QString>
#include <vector>

#include "decision/diagram_ink.h"

class QGraphicsTextItem;

namespace wb {

class DecisionNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 41 };
    // How the node came to be: drawn from the fixed graph, a policy's own
    // step, or a function the diagram does not know (shown, never dropped).
    enum class Kind { Fixed, Policy, Unknown };
    // One policy's passage through the node.
    struct Visit {
        QColor colour;
        QString order;       // the record's step numbers here: "2,5"
        bool final = false;  // the step that returned the chosen CPU
    };

    DecisionNodeItem(QString key, QString title, QString note, Kind kind);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    const QString& key() const { return key_; }
    const QString& title() const { return title_; }
    const QString& note() const { return note_; }
    Kind kind() const { return kind_; }

    // The view's font: every text of the node is this size (the title bold).
    void setBaseFont(const QFont& font);
    // Lays the text out for `width` scene units; the height follows.
    void setWidth(double width);
    QSizeF size() const { return size_; }

    // Lit by each visit, in order; none is unlit.
    // The theme's neutral colours (DecisionDiagram::setDark).
    void setInk(const DiagramInk& ink);
    void setVisits(std::vector<Visit> visits);
    const std::vector<Visit>& visits() const { return visits_; }
    bool isLit() const { return !visits_.empty(); }
    bool isFinal() const;
    // The deciding values, rich text naming each policy in its colour;
    // shown while lit.
    void setDetailHtml(const QString& html);
    QString detailText() const;
    // Title, note and detail in full, as the tooltip holds them.
    QString fullText() const;
    // The text items on show, for checking that nothing is cut or small.
    std::vector<const QGraphicsTextItem*> shownTextItems() const;

    // Where edges attach: the left side, level with the title, in scene
    // coordinates.
    QPointF anchor() const;

private:
    void relayout();

    QString key_;
    QString title_;
    QString note_;
    Kind kind_;
    QGraphicsTextItem* title_item_;
    QGraphicsTextItem* note_item_;
    QGraphicsTextItem* detail_item_;
    QFont font_;
    std::vector<Visit> visits_;
    QSizeF size_;
    double title_height_ = 0;
    const DiagramInk* ink_ = &DiagramInk::light();
};

class DecisionEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 42 };
    // Lane kMainline is mainline's thin grey edge; lanes 0, 1, ... carry the
    // first, second, ... policy's taken edge, each offset a little so that
    // two policies taking the same edge stay visible.
    static constexpr int kMainline = -1;

    DecisionEdgeItem(DecisionNodeItem* from, DecisionNodeItem* to, int lane = kMainline);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override { return path_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    DecisionNodeItem* from() const { return from_; }
    DecisionNodeItem* to() const { return to_; }
    int lane() const { return lane_; }
    QColor colour() const { return colour_; }

    // Follows the nodes after they moved (a node grew or was inserted).
    void updatePath();
    void setInk(const DiagramInk& ink);
    void setTaken(const QColor& colour);
    void setUntaken();
    bool isTaken() const { return taken_; }

    // How far left of the nodes the widest arc reaches: the gutter.
    static double maxReach(int lanes);

private:
    DecisionNodeItem* from_;
    DecisionNodeItem* to_;
    int lane_;
    QPainterPath path_;
    QPolygonF head_;
    QColor colour_;
    bool taken_ = false;
    const DiagramInk* ink_ = &DiagramInk::light();
};

}  // namespace wb
