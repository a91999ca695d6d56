// SPDX-License-Identifier: Apache-2.0
#include "widgets/domain_panel.h"

#include <QBrush>
#include <QColor>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QTreeWidgetItem>
#include <QVBoxLayout>

#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "topology/sd_flags.h"

namespace wb {

namespace {

enum Column { kLevel, kSpan, kWeight, kImbalance, kColumns };

// More groups than this fit no panel row; the tooltip shows more.
constexpr int kMaxGroupsInRow = 8;
constexpr int kMaxGroupsInTip = 64;
const QColor kDetailText(0x50, 0x58, 0x60);

QString cpulist(const CpuMask& mask)
{
    return QString::fromStdString(mask.to_cpulist());
}

QString domain_name(const SchedDomains& domains, int id)
{
    return id < 0 ? QStringLiteral("—") : QString::fromStdString(domains.domain(id).name);
}

QString groups_text(const SchedDomains& domains, const SchedDomain& d, int max_shown)
{
    QStringList parts;
    for (int g : d.groups) {
        if (parts.size() == max_shown) {
            parts << QStringLiteral("…");
            break;
        }
        parts << cpulist(domains.group(g).span);
    }
    return QStringLiteral("groups (%1): %2").arg(d.groups.size()).arg(parts.join(QStringLiteral(" | ")));
}

QString domain_tooltip(const SchedDomain& d)
{
    QString tip = QStringLiteral(
                      "<b>%1</b> (level %2)<br>span %3 (%4 CPUs)<br>imbalance_pct %5 · cache_nice_tries %6"
                      "<br>balance interval %7-%8 ms · busy_factor %9")
                      .arg(QString::fromStdString(d.name))
                      .arg(d.level)
                      .arg(cpulist(d.span))
                      .arg(d.span_weight)
                      .arg(d.imbalance_pct)
                      .arg(d.cache_nice_tries)
                      .arg(d.min_interval)
                      .arg(d.max_interval)
                      .arg(d.busy_factor);
    if (d.numa_distance > 0)
        tip += QStringLiteral("<br>NUMA distance %1").arg(d.numa_distance);
    if (d.imb_numa_nr > 0)
        tip += QStringLiteral("<br>imb_numa_nr %1").arg(d.imb_numa_nr);
    return tip;
}

QTreeWidgetItem* detail_row(QTreeWidgetItem* parent, const QString& text, bool monospace)
{
    auto* item = new QTreeWidgetItem(parent, QStringList{text});
    item->setFirstColumnSpanned(true);
    // Details belong to their domain: only the domain row can be selected.
    item->setFlags(Qt::ItemIsEnabled);
    item->setForeground(kLevel, QBrush(kDetailText));
    if (monospace) {
        QFont font = item->font(kLevel);
        font.setFamily(QStringLiteral("monospace"));
        font.setStyleHint(QFont::Monospace);
        item->setFont(kLevel, font);
    }
    return item;
}

}  // namespace

DomainPanel::DomainPanel(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);

    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("domainTree"));
    tree_->setColumnCount(kColumns);
    tree_->setHeaderLabels({tr("Domain"), tr("Span"), tr("CPUs"), tr("imb %")});
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(kLevel, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(kSpan, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(kWeight, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(kImbalance, QHeaderView::ResizeToContents);
    tree_->headerItem()->setToolTip(kImbalance, tr("imbalance_pct: how much busier the busiest group must be "
                                                   "before load balancing moves tasks"));
    connect(tree_, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current, QTreeWidgetItem*) { onCurrentItemChanged(current); });

    shortcuts_ = new QLabel(this);
    shortcuts_->setObjectName(QStringLiteral("shortcuts"));
    shortcuts_->setWordWrap(true);
    shortcuts_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(title_);
    layout->addWidget(tree_, 1);
    layout->addWidget(shortcuts_);
    clear();
}

DomainPanel::~DomainPanel() = default;

void DomainPanel::clear()
{
    {
        const QSignalBlocker block(tree_);
        tree_->clear();
    }
    picked_level_.clear();
    title_->setText(tr("<b>No CPU selected</b><br>Click a CPU in the grid to see its sched domains."));
    shortcuts_->clear();
}

void DomainPanel::showCpu(const Machine& machine, const SchedDomains& domains, CpuId cpu)
{
    {
        const QSignalBlocker block(tree_);
        tree_->clear();
    }
    if (cpu < 0 || cpu >= machine.nr_cpus() || cpu >= domains.nr_cpus()) {
        clear();
        emit domainSelected(-1);
        return;
    }
    const CpuTopo& c = machine.cpus[static_cast<std::size_t>(cpu)];
    QString title = tr("<b>CPU %1</b> · node %2 · package %3 · LLC %4 · core %5 · thread %6")
                        .arg(cpu)
                        .arg(c.node)
                        .arg(c.package)
                        .arg(c.llc)
                        .arg(c.core)
                        .arg(c.thread);
    if (c.capacity < 1024)
        title += tr(" · capacity %1").arg(c.capacity);
    title_->setText(title);

    const QSignalBlocker block(tree_);
    for (int id : domains.domains_of(cpu)) {
        const SchedDomain& d = domains.domain(id);
        auto* item =
            new QTreeWidgetItem(tree_, QStringList{QString::fromStdString(d.name), cpulist(d.span),
                                                   QString::number(d.span_weight), QString::number(d.imbalance_pct)});
        item->setData(kLevel, Qt::UserRole, id);
        item->setTextAlignment(kWeight, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(kImbalance, Qt::AlignRight | Qt::AlignVCenter);
        QFont bold = item->font(kLevel);
        bold.setBold(true);
        item->setFont(kLevel, bold);
        const QString tip = domain_tooltip(d);
        for (int col = 0; col < kColumns; ++col)
            item->setToolTip(col, tip);
        for (std::string_view flag : sd_flag_names(d.flags))
            detail_row(item, QString::fromLatin1(flag.data(), static_cast<int>(flag.size())), true);
        detail_row(item, groups_text(domains, d, kMaxGroupsInRow), false)
            ->setToolTip(kLevel, QStringLiteral("<qt>%1</qt>")  // rich text, so the tooltip wraps
                                     .arg(groups_text(domains, d, kMaxGroupsInTip).toHtmlEscaped()));
    }
    tree_->expandAll();

    const CpuShortcuts& sc = domains.shortcuts(cpu);
    shortcuts_->setText(tr("sd_llc: %1 (sd_llc_size %2, sd_llc_id %3)\nsd_share_id: %4 · sd_numa: %5\n"
                           "sd_asym_cpucapacity: %6 · sd_asym_packing: %7")
                            .arg(domain_name(domains, sc.sd_llc))
                            .arg(sc.sd_llc_size)
                            .arg(sc.sd_llc_id)
                            .arg(sc.sd_share_id)
                            .arg(domain_name(domains, sc.sd_numa), domain_name(domains, sc.sd_asym_cpucapacity),
                                 domain_name(domains, sc.sd_asym_packing)));

    int wanted = -1;
    for (int r = 0; r < domainCount(); ++r) {
        const bool match = picked_level_.isEmpty() ? domainId(r) == sc.sd_llc : levelName(r) == picked_level_;
        if (match)
            wanted = r;
    }
    // Still blocked: choosing for the user must not count as the user's pick.
    if (wanted >= 0)
        tree_->setCurrentItem(row(wanted));
    emit domainSelected(wanted >= 0 ? domainId(wanted) : -1);
}

void DomainPanel::onCurrentItemChanged(QTreeWidgetItem* current)
{
    if (!current) {
        emit domainSelected(-1);
        return;
    }
    picked_level_ = current->text(kLevel);
    emit domainSelected(current->data(kLevel, Qt::UserRole).toInt());
}

QTreeWidgetItem* DomainPanel::row(int index) const
{
    return index >= 0 && index < tree_->topLevelItemCount() ? tree_->topLevelItem(index) : nullptr;
}

int DomainPanel::domainCount() const
{
    return tree_->topLevelItemCount();
}

QString DomainPanel::levelName(int r) const
{
    return row(r) ? row(r)->text(kLevel) : QString();
}

QString DomainPanel::spanText(int r) const
{
    return row(r) ? row(r)->text(kSpan) : QString();
}

int DomainPanel::spanWeight(int r) const
{
    return row(r) ? row(r)->text(kWeight).toInt() : 0;
}

int DomainPanel::imbalancePct(int r) const
{
    return row(r) ? row(r)->text(kImbalance).toInt() : 0;
}

QStringList DomainPanel::flagNames(int r) const
{
    QStringList names;
    if (QTreeWidgetItem* item = row(r))
        for (int i = 0; i < item->childCount(); ++i)
            if (item->child(i)->text(kLevel).startsWith(QLatin1String("SD_")))
                names << item->child(i)->text(kLevel);
    return names;
}

int DomainPanel::domainId(int r) const
{
    return row(r) ? row(r)->data(kLevel, Qt::UserRole).toInt() : -1;
}

QString DomainPanel::shortcutsText() const
{
    return shortcuts_->text();
}

int DomainPanel::selectedRow() const
{
    QTreeWidgetItem* current = tree_->currentItem();
    return current && !current->parent() ? tree_->indexOfTopLevelItem(current) : -1;
}

void DomainPanel::selectRow(int r)
{
    if (QTreeWidgetItem* item = row(r)) {
        tree_->setCurrentItem(item);
    } else {
        tree_->setCurrentItem(nullptr);
        tree_->clearSelection();
    }
}

}  // namespace wb
