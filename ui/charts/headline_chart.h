// SPDX-License-Identifier: Apache-2.0
//
// HeadlineChart: the headline figure of each policy in each workload case,
// as the published comparisons give it: one bar per policy and case at the
// mean over runs, with a whisker for the spread (sample standard deviation,
// or the 95% interval of the mean). Qt Charts has no error bars, so each
// whisker is a small line series (cap, stem, cap) on the bars' axis, placed
// where QBarSeries centres the bar. A cell of one run has no spread: it
// gets no whisker, and the title says so.
//
// Above each bar a label gives its mean and, past the first policy, its
// change against the first with the 95% interval, in the words of
// `wakesim compare` (format_change), so the slide and the mailing-list
// post read the same.
//
// When the cases measure different things (usecs/op for pipe, seconds for
// hackbench) one axis cannot hold them: the bars then show each policy's
// mean as a percentage of the first policy's in the same case.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <memory>
#include <vector>

#include "charts/chart_appearance.h"

class QBarSeries;
class QBarCategoryAxis;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;

namespace wb {

struct Comparison;

class HeadlineChart : public QChartView {
    Q_OBJECT

public:
    enum class ErrorBars { Stddev, Ci95 };

    explicit HeadlineChart(QWidget* parent = nullptr);
    ~HeadlineChart() override;

    // Colours by policy index; the names come with each comparison.
    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    void setErrorBars(ErrorBars bars);
    void setComparison(const Comparison& comparison);
    void setAppearance(const ChartAppearance& appearance);
    void clear();

    QBarSeries* bars() const { return bars_; }
    // The whisker of one bar: 6 points, x at the bar's centre; points 2..3
    // run from mean - error to mean + error. None where the error is
    // undefined (one run).
    QLineSeries* whisker(int policy, int case_index) const;
    // The label above one bar: its mean, then its change.
    QGraphicsSimpleTextItem* valueLabel(int policy, int case_index) const;
    bool isRelative() const { return relative_; }
    QBarCategoryAxis* caseAxis() const { return x_; }
    QValueAxis* valueAxis() const { return y_; }

private:
    void rebuild();
    // Whiskers and labels in the theme's text colour (dark grey would vanish
    // on a dark plot), labels in the scaled value-label font.
    void styleBarDecorations();
    // Puts each label above its bar's top (or whisker's): run whenever the
    // plot area moves.
    void placeValueLabels();

    QList<QColor> colours_;
    ChartAppearance appearance_;
    ErrorBars error_bars_ = ErrorBars::Stddev;
    std::vector<std::vector<QLineSeries*>> whiskers_;            // [policy][case]; null without an error
    std::vector<std::vector<QGraphicsSimpleTextItem*>> labels_;  // [policy][case], children of the chart
    std::vector<std::vector<QPointF>> label_anchors_;            // [policy][case], in axis values
    QBarSeries* bars_ = nullptr;
    QBarCategoryAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    bool relative_ = false;
    std::unique_ptr<Comparison> comparison_;
};

}  // namespace wb
