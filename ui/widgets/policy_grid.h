// SPDX-License-Identifier: Apache-2.0
//
// PolicyGrid: one policy's topology grid in side-by-side mode, framed in the
// policy's colour, with the policy's name and its figures so far above it.
#pragma once

#include <QColor>
#include <QFrame>
#include <QString>

class QLabel;

namespace wb {

struct Machine;
struct RunSnapshot;
class TopologyView;
class ElidedLabel;

class PolicyGrid : public QFrame {
    Q_OBJECT

public:
    PolicyGrid(int index, const QString& policy, const QColor& colour, QWidget* parent = nullptr);
    ~PolicyGrid() override;

    TopologyView* view() const { return view_; }
    int index() const { return index_; }
    const QString& policy() const { return policy_; }
    QColor colour() const { return colour_; }
    QString figuresText() const;
    // The name as the header shows it: whole, or elided to leave the
    // figures their room (the tooltip has it whole).
    QString shownName() const;

    void showFigures(const RunSnapshot& snap);
    // Figures that are not a run's (a replayed trace's agreement with the kernel).
    void showFiguresText(const QString& text, const QString& tooltip = {});

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    static constexpr int kBorder = 3;

    int index_;
    QString policy_;
    QColor colour_;
    QLabel* swatch_ = nullptr;
    ElidedLabel* title_ = nullptr;
    QLabel* figures_ = nullptr;
    TopologyView* view_ = nullptr;
};

}  // namespace wb
