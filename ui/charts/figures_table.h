// SPDX-License-Identifier: Apache-2.0
//
// FiguresTable: the figures the real tools report for each policy's run
// (metrics/run_figures.h: perf stat's context switches and cpu-migrations,
// getrusage()'s voluntary and involuntary switches, mpstat's %idle, %iowait
// and %irq, schedstat's run delay, cpuidle's entries, the workload's ops/s
// and headline), one row per figure of run_figure_table() and one column
// per policy, headed by its name in its colour.
//
// Every number is one `wakesim run --json` writes under "figures": a row's
// tooltip names its key (figures.ops_per_sec), a cell's gives the value in
// full, as the JSON has it. The window feeds it from its frames: the run so
// far while the grids run, the whole run once they finish.
//
// A small model, not items: a frame replaces one policy's RunFigures and
// signals the column changed; the texts are made only for the cells drawn.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>
#include <QList>
#include <QStringList>
#include <QTableView>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "charts/chart_appearance.h"
#include "metrics/run_figures.h"

namespace wb {

// A figure's value as the table shows it, by the kind its name gives:
// rates (`*_per_sec`) to three significant digits below 1,000 ("12.5"),
// whole and grouped by thousands up to a million ("2,000", "345,679"), then
// as millions ("1.23 M");
// percentages (`*_pct`) with 2 decimals ("97.35%"); counts (`*_calls`)
// whole and grouped; the headline with 3 decimals, as the grid's header
// gives it, and grouped whole from 10,000; anything else (ratios) to 4
// significant digits.
QString format_figure(std::string_view name, double value);

class FiguresModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit FiguresModel(QObject* parent = nullptr);

    // One column per policy, every cell empty.
    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // The header colours: the policies' own, or, where one would read
    // below 4.5:1 (WCAG AA) on `backgrounds`, blended towards `text`
    // just enough that it does.
    void setHeaderColours(const QList<QColor>& backgrounds, const QColor& text);
    void setFigures(int policy, const RunFigures& figures, const Headline& headline);
    void clearFigures();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The figure's value for `policy`, none before its first frame.
    std::optional<double> value(int row, int policy) const;
    QColor headerColour(int policy) const;

private:
    struct Column {
        QString name;
        QColor colour;         // the policy's, as the charts draw it
        QColor header_colour;  // what its header text is drawn in
        QIcon swatch;          // a square of `colour` beside the name
        std::optional<RunFigures> figures;
    };

    QString rowLabel(int row) const;

    std::vector<Column> columns_;
    // The headline's name and unit ("usecs/op", "us"): the workload's, the
    // same for every policy of the scenario.
    std::string headline_name_;
    std::string headline_unit_;
    QList<QColor> backgrounds_;
    QColor text_;
};

class FiguresTable : public QTableView {
    Q_OBJECT

public:
    explicit FiguresTable(QWidget* parent = nullptr);
    ~FiguresTable() override;

    void setPolicies(const QStringList& names, const QList<QColor>& colours);
    // Replaces one policy's figures (a frame's run so far).
    void setFigures(int policy, const RunFigures& figures, const Headline& headline);
    // Empties every cell, keeping the policies.
    void clear();
    void setAppearance(const ChartAppearance& appearance);

    FiguresModel* figuresModel() const { return model_; }
    // The row of the figure named `name` (run_figure_table()), or -1.
    static int rowOf(std::string_view name);
    // What the cell shows, empty before the policy's first frame.
    QString cellText(int row, int policy) const;

private:
    void applyAppearance();

    FiguresModel* model_ = nullptr;
    ChartAppearance appearance_;
};

}  // namespace wb
