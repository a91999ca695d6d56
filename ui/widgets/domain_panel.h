// SPDX-License-Identifier: Apache-2.0
//
// DomainPanel: the sched domains of one CPU, bottom-up as for_each_domain()
// walks them (level name, span, weight, imbalance_pct, then the flags by
// their kernel names and the groups), and the per-CPU shortcuts fair.c reads.
// Selecting a domain reports its id so the grid can outline the span.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include "topology/cpumask.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace wb {

struct Machine;
class SchedDomains;

class DomainPanel : public QWidget {
    Q_OBJECT

public:
    explicit DomainPanel(QWidget* parent = nullptr);
    ~DomainPanel() override;

    // Keeps the level the user last picked (by name) selected, so clicking
    // along the grid compares like with like; until one is picked, the LLC
    // domain, the one select_idle_sibling() scans.
    void showCpu(const Machine& machine, const SchedDomains& domains, CpuId cpu);
    void clear();  // no CPU selected; forgets the picked level

    int domainCount() const;
    QString levelName(int row) const;
    QString spanText(int row) const;
    int spanWeight(int row) const;
    int imbalancePct(int row) const;
    QStringList flagNames(int row) const;
    int domainId(int row) const;
    QString shortcutsText() const;

    int selectedRow() const;
    void selectRow(int row);  // -1 clears the selection

signals:
    void domainSelected(int domain_id);  // -1 when none

private:
    void onCurrentItemChanged(QTreeWidgetItem* current);
    QTreeWidgetItem* row(int index) const;

    QLabel* title_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    QLabel* shortcuts_ = nullptr;
    QString picked_level_;
};

}  // namespace wb
