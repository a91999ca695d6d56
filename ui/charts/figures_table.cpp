// SPDX-License-Identifier: Apache-2.0
#include "charts/figures_table.h"

#include <QApplication>
#include <QBrush>
#include <QFontMetrics>
#include <QHeaderView>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <algorithm>
#include <cmath>

#include "decision/palette.h"
#include "theme.h"

namespace wb {

namespace {

// Grouped by thousands whatever the user's locale, with a decimal point:
// the figures read as `wakesim run` prints them.
const QLocale& grouping_locale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

QString grouped(double v)
{
    return grouping_locale().toString(v, 'f', 0);
}

// `digits` significant digits without an exponent (whole and grouped once
// the integer part has that many), the way a person writes 12.5 or 0.01234.
QString significant(double v, int digits)
{
    if (v == 0 || !std::isfinite(v))
        return QString::number(v);
    const double a = std::abs(v);
    if (a < 1e-4)
        return QString::number(v, 'g', digits);
    const int magnitude = static_cast<int>(std::floor(std::log10(a)));
    int decimals = std::max(0, digits - 1 - magnitude);
    // 999.96 to 4 digits is 1000.0: one digit moved in front of the point.
    const double scale = std::pow(10.0, decimals);
    if (decimals > 0 && std::round(a * scale) / scale >= std::pow(10.0, magnitude + 1))
        --decimals;
    return decimals == 0 ? grouped(v) : QString::number(v, 'f', decimals);
}

bool ends_with(std::string_view s, std::string_view tail)
{
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// WCAG 2 relative luminance and contrast ratio (1 to 21; AA text needs 4.5).
double luminance(const QColor& c)
{
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor blend(const QColor& from, const QColor& to, double t)
{
    return QColor::fromRgbF(static_cast<float>(from.redF() + (to.redF() - from.redF()) * t),
                            static_cast<float>(from.greenF() + (to.greenF() - from.greenF()) * t),
                            static_cast<float>(from.blueF() + (to.blueF() - from.blueF()) * t));
}

constexpr double kAaContrast = 4.5;

// The policy's colour where it reads as text on every background, else the
// nearest blend towards the theme's text colour that does (vermillion on a
// light header, blue on a dark one): the hue stays the policy's.
QColor readable_colour(const QColor& colour, const QList<QColor>& backgrounds, const QColor& text)
{
    constexpr int kSteps = 20;
    for (int step = 0; step <= kSteps; ++step) {
        const QColor c = step == 0 ? colour : blend(colour, text, static_cast<double>(step) / kSteps);
        if (std::all_of(backgrounds.begin(), backgrounds.end(),
                        [&](const QColor& bg) { return contrast(c, bg) >= kAaContrast; }))
            return c;
    }
    return text;
}

// A square of the policy's exact colour beside its name, as the charts'
// legends mark it.
QIcon swatch(const QColor& colour)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.fillRect(QRect(1, 1, 10, 10), colour);
    return QIcon(pixmap);
}

const RunFigureInfo& figure_at(int row)
{
    return run_figure_table()[static_cast<std::size_t>(row)];
}

QString key_of(const RunFigureInfo& info)
{
    return QStringLiteral("figures.%1").arg(QLatin1String(info.name.data(), static_cast<qsizetype>(info.name.size())));
}

QString label_of(const RunFigureInfo& info)
{
    return QString::fromUtf8(info.label.data(), static_cast<qsizetype>(info.label.size()));
}

}  // namespace

QString format_figure(std::string_view name, double value)
{
    if (ends_with(name, "_per_sec"))
        return std::abs(value) >= 1e6 ? QStringLiteral("%1 M").arg(significant(value / 1e6, 3)) : significant(value, 3);
    if (ends_with(name, "_pct"))
        return QStringLiteral("%1%").arg(value, 0, 'f', 2);
    if (ends_with(name, "_calls"))
        return grouped(value);
    // The workload's figure as the grid's header shows it (usecs/op 8.386).
    if (name == "headline")
        return std::abs(value) < 1e4 ? QString::number(value, 'f', 3) : grouped(value);
    return significant(value, 4);
}

// --- the model ------------------------------------------------------------------

FiguresModel::FiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void FiguresModel::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    beginResetModel();
    columns_.clear();
    for (qsizetype i = 0; i < names.size(); ++i) {
        Column c;
        c.name = names[i];
        c.colour = i < colours.size() ? colours[i] : palette::policy_colour(static_cast<int>(i));
        c.header_colour = readable_colour(c.colour, backgrounds_, text_);
        c.swatch = swatch(c.colour);
        columns_.push_back(std::move(c));
    }
    headline_name_.clear();
    headline_unit_.clear();
    endResetModel();
}

void FiguresModel::setHeaderColours(const QList<QColor>& backgrounds, const QColor& text)
{
    backgrounds_ = backgrounds;
    text_ = text;
    for (Column& c : columns_)
        c.header_colour = readable_colour(c.colour, backgrounds_, text_);
    if (!columns_.empty())
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

void FiguresModel::setFigures(int policy, const RunFigures& figures, const Headline& headline)
{
    if (policy < 0 || policy >= columnCount())
        return;
    columns_[static_cast<std::size_t>(policy)].figures = figures;
    if (headline.name != headline_name_ || headline.unit != headline_unit_) {
        headline_name_ = headline.name;
        headline_unit_ = headline.unit;
        const int row = FiguresTable::rowOf("headline");
        if (row >= 0)
            emit headerDataChanged(Qt::Vertical, row, row);
    }
    emit dataChanged(index(0, policy), index(rowCount() - 1, policy), {Qt::DisplayRole, Qt::ToolTipRole});
}

void FiguresModel::clearFigures()
{
    for (Column& c : columns_)
        c.figures.reset();
    headline_name_.clear();
    headline_unit_.clear();
    if (columns_.empty())
        return;
    emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole, Qt::ToolTipRole});
}

int FiguresModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(run_figure_table().size());
}

int FiguresModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

std::optional<double> FiguresModel::value(int row, int policy) const
{
    if (row < 0 || row >= rowCount() || policy < 0 || policy >= columnCount())
        return std::nullopt;
    const std::optional<RunFigures>& f = columns_[static_cast<std::size_t>(policy)].figures;
    if (!f)
        return std::nullopt;
    return (*f).*figure_at(row).field;
}

QColor FiguresModel::headerColour(int policy) const
{
    return policy >= 0 && policy < columnCount() ? columns_[static_cast<std::size_t>(policy)].header_colour : QColor();
}

QVariant FiguresModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const std::optional<double> v = value(index.row(), index.column());
    if (!v)
        return {};
    const RunFigureInfo& info = figure_at(index.row());
    if (role == Qt::DisplayRole)
        return format_figure(info.name, *v);
    // In full, as the JSON writes it, to compare digit for digit.
    return tr("%1, %2: %3\n%4 in wakesim run --json")
        .arg(columns_[static_cast<std::size_t>(index.column())].name, label_of(info),
             QString::number(*v, 'f', QLocale::FloatingPointShortest), key_of(info));
}

QString FiguresModel::rowLabel(int row) const
{
    const RunFigureInfo& info = figure_at(row);
    QString label = label_of(info);
    if (info.name != "headline" || headline_name_.empty())
        return label;
    // The workload's own figure, named as the grid's header names it.
    const QString name = QString::fromStdString(headline_name_);
    label += QStringLiteral(": ") + name;
    if (!name.contains(QLatin1Char('/')) && !headline_unit_.empty())
        label += QStringLiteral(" (%1)").arg(QString::fromStdString(headline_unit_));
    return label;
}

QVariant FiguresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount())
            return {};
        const Column& c = columns_[static_cast<std::size_t>(section)];
        switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return c.name;
        case Qt::ForegroundRole:
            return QBrush(c.header_colour);
        case Qt::DecorationRole:
            return c.swatch;
        default:
            return {};
        }
    }
    if (section < 0 || section >= rowCount())
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return rowLabel(section);
    case Qt::ToolTipRole:
        return tr("%1 in wakesim run --json FILE\n"
                  "(Scenario \u25b8 Copy as wakesim command gives each policy's run)")
            .arg(key_of(figure_at(section)));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    default:
        return {};
    }
}

// --- the view -------------------------------------------------------------------

FiguresTable::FiguresTable(QWidget* parent) : QTableView(parent), model_(new FiguresModel(this))
{
    setModel(model_);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setCornerButtonEnabled(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setHighlightSections(false);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setHighlightSections(false);
    verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    applyAppearance();
}

FiguresTable::~FiguresTable() = default;

void FiguresTable::setPolicies(const QStringList& names, const QList<QColor>& colours)
{
    model_->setPolicies(names, colours);
}

void FiguresTable::setFigures(int policy, const RunFigures& figures, const Headline& headline)
{
    model_->setFigures(policy, figures, headline);
}

void FiguresTable::clear()
{
    model_->clearFigures();
}

void FiguresTable::setAppearance(const ChartAppearance& appearance)
{
    appearance_ = appearance;
    applyAppearance();
}

void FiguresTable::applyAppearance()
{
    // The window's dark theme is the application's palette; set here too so
    // that the table follows the flag alone, as the charts do. Light is the
    // inherited palette.
    setPalette(appearance_.dark ? dark_palette() : QPalette());
    // From the application's font, never the current one, so a scale
    // applied twice does not compound, and the window's own presentation
    // font is not counted on top (chart_appearance.h).
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * appearance_.font_scale);
    else
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * appearance_.font_scale))));
    setFont(font);
    verticalHeader()->setFont(font);
    QFont bold = font;
    bold.setBold(true);
    horizontalHeader()->setFont(bold);
    // Wide enough for most figures from the start, so the columns do not
    // jump while a run's rates gain digits.
    horizontalHeader()->setMinimumSectionSize(QFontMetrics(font).horizontalAdvance(QStringLiteral("888,888.8 M")));
    const QPalette p = palette();
    model_->setHeaderColours({p.color(QPalette::Button), p.color(QPalette::Window), p.color(QPalette::Base)},
                             p.color(QPalette::ButtonText));
}

int FiguresTable::rowOf(std::string_view name)
{
    const auto table = run_figure_table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].name == name)
            return static_cast<int>(i);
    return -1;
}

QString FiguresTable::cellText(int row, int policy) const
{
    return model_->data(model_->index(row, policy), Qt::DisplayRole).toString();
}

}  // namespace wb
