// SPDX-License-Identifier: Apache-2.0
//
// The items of the decision diagram: a node per function or test of the
// placement path, an edge per transition. Both are built once and then only
// restyled: lit or not, in which policy's colour.
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QString>

namespace wb {

class DecisionNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 41 };
    // How the node came to be: drawn from the fixed graph, a policy's own
    // step, or a function the diagram does not know (shown, never dropped).
    enum class Kind { Fixed, Policy, Unknown };

    DecisionNodeItem(QString key, QString title, QString note, Kind kind);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static QSizeF size();

    const QString& key() const { return key_; }
    const QString& title() const { return title_; }
    Kind kind() const { return kind_; }

    // Lit in `colour`; `order` lists when the record reached it ("2, 5").
    void setLit(const QColor& colour, const QString& order);
    void setUnlit();
    bool isLit() const { return lit_; }
    // The node whose step returned the CPU: filled, not only outlined.
    void setFinal(bool final);
    // Replaces the second line until the node is unlit ("cpu 5" on "chosen").
    void setNote(const QString& note);

    // Where edges attach: the middle of the left side, in scene coordinates.
    QPointF anchor() const { return mapToScene(QPointF(0, size().height() / 2)); }

private:
    QString key_;
    QString title_;
    QString note_;
    QString fixed_note_;
    Kind kind_;
    QColor colour_;
    QString order_;
    bool lit_ = false;
    bool final_ = false;
};

class DecisionEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 42 };

    DecisionEdgeItem(DecisionNodeItem* from, DecisionNodeItem* to);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override { return path_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    DecisionNodeItem* from() const { return from_; }
    DecisionNodeItem* to() const { return to_; }

    // Follows the nodes after they moved (a node was inserted).
    void updatePath();
    void setTaken(const QColor& colour);
    void setUntaken();
    bool isTaken() const { return taken_; }

private:
    DecisionNodeItem* from_;
    DecisionNodeItem* to_;
    QPainterPath path_;
    QPolygonF head_;
    QColor colour_;
    bool taken_ = false;
};

}  // namespace wb
