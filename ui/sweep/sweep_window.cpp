// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "decision/palette.h"
#include "export/export_dialog.h"
#include "export/results_export.h"
#include "message_box.h"
#include "sweep/points_csv.h"
#include "sweep/sweep_chart.h"
#include "sweep/sweep_job.h"
#include "sweep/sweep_result.h"

namespace wb {

namespace {

const QString kGroupPrefix = QStringLiteral("group:");

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString seeds_text(std::size_t n)
{
    return n == 1 ? QObject::tr("1 seed") : QObject::tr("%1 seeds").arg(n);
}

QComboBox* add_selector(QHBoxLayout* row, const QString& label, QWidget* parent)
{
    auto* name = new QLabel(label, parent);
    auto* box = new QComboBox(parent);
    name->setBuddy(box);
    row->addWidget(name);
    row->addWidget(box);
    return box;
}

}  // namespace

SweepWindow::SweepWindow(QWidget* parent) : QWidget(parent, Qt::Window)
{
    setWindowTitle(tr("Sweep"));
    resize(1100, 720);
    auto* layout = new QVBoxLayout(this);

    auto* choices = new QHBoxLayout;
    figure_ = add_selector(choices, tr("&Figure"), this);
    for (const SweepFigure& f : sweep_figures()) {
        if (f.group.empty())
            figure_->addItem(qs(f.label), qs(f.name));
        else if (figure_->findData(kGroupPrefix + qs(f.group)) < 0)
            figure_->addItem(tr("%1 (a panel each)").arg(qs(f.group)), kGroupPrefix + qs(f.group));
    }
    machine_ = add_selector(choices, tr("&Machine"), this);
    workload_ = add_selector(choices, tr("&Workload"), this);
    features_ = add_selector(choices, tr("F&eatures"), this);
    x_ = add_selector(choices, tr("&Along"), this);
    held_layout_ = new QHBoxLayout;
    choices->addLayout(held_layout_);
    log_x_ = new QCheckBox(tr("Log &x"), this);
    log_y_ = new QCheckBox(tr("Log &y"), this);
    choices->addWidget(log_x_);
    choices->addWidget(log_y_);
    choices->addStretch(1);
    layout->addLayout(choices);

    panels_ = new QGridLayout;
    layout->addLayout(panels_, 1);

    auto* bottom = new QHBoxLayout;
    status_ = new QLabel(tr("Open a sweep's result (wakesim sweep FILE --json OUT), or run a sweep file."), this);
    progress_ = new QProgressBar(this);
    progress_->hide();
    cancel_ = new QPushButton(tr("Stop"), this);
    cancel_->hide();
    bottom->addWidget(status_, 1);
    bottom->addWidget(progress_);
    bottom->addWidget(cancel_);
    auto* picture = new QPushButton(tr("Export &picture…"), this);
    auto* csv = new QPushButton(tr("Export &CSV…"), this);
    auto* json = new QPushButton(tr("Export &JSON…"), this);
    for (QPushButton* b : {picture, csv, json})
        bottom->addWidget(b);
    layout->addLayout(bottom);

    job_ = new SweepJob(this);
    connect(job_, &SweepJob::progress, this, [this](int done, int total) {
        progress_->setRange(0, total);
        progress_->setValue(done);
        status_->setText(tr("running: %1 of %2 points done").arg(done).arg(total));
    });
    connect(job_, &SweepJob::finished, this, [this](const QString& out) {
        progress_->hide();
        cancel_->hide();
        QString error;
        if (!openResult(out, &error))
            show_message_box(this, tr("Cannot open the result"), error);
    });
    connect(job_, &SweepJob::failed, this, [this](const QString& message) {
        progress_->hide();
        cancel_->hide();
        status_->setText(tr("the sweep stopped: %1").arg(message.section(QLatin1Char('\n'), 0, 0)));
        emit sweepFailed(message);
        show_message_box(this, tr("The sweep stopped"), message);
    });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        job_->cancel();
        progress_->hide();
        cancel_->hide();
        status_->setText(tr("stopped; the finished points are kept: running the sweep again goes on from them"));
    });
    connect(picture, &QPushButton::clicked, this, &SweepWindow::exportPictureDialog);
    connect(csv, &QPushButton::clicked, this, [this] { exportFileDialog(true); });
    connect(json, &QPushButton::clicked, this, [this] { exportFileDialog(false); });
    new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_E), this, this, &SweepWindow::exportPictureDialog);

    for (QComboBox* box : {figure_, machine_, features_, x_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!filling_)
                replot();
        });
    connect(workload_, &QComboBox::currentIndexChanged, this, [this] {
        if (filling_)
            return;
        fillHeldSelectors();
        replot();
    });
    for (QCheckBox* box : {log_x_, log_y_})
        connect(box, &QCheckBox::toggled, this, &SweepWindow::replot);
}

SweepWindow::~SweepWindow() = default;

bool SweepWindow::running() const
{
    return job_->running();
}

bool SweepWindow::openResult(const QString& path, QString* error)
{
    try {
        result_ = std::make_shared<SweepResult>(path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    result_path_ = path;
    const SweepSpec& spec = result_->spec();
    setWindowTitle(tr("Sweep %1").arg(QString::fromStdString(spec.name)));
    QString what = tr("%1: %2 of %3 points")
                       .arg(QString::fromStdString(spec.name))
                       .arg(result_->points().size())
                       .arg(result_->grid().size());
    if (result_->shard())
        what += tr(" (shard %1 of %2)").arg(result_->shard()->index).arg(result_->shard()->count);
    status_->setText(what + tr(", %1 each").arg(seeds_text(spec.seeds.size())));
    fillSelectors();
    replot();
    emit resultOpened();
    return true;
}

void SweepWindow::runSweep(const QString& sweep_file, const QString& out, int jobs)
{
    progress_->setRange(0, 0);
    progress_->show();
    cancel_->show();
    status_->setText(tr("estimating the points' cost…"));
    job_->start(sweep_file, out, jobs);
}

void SweepWindow::fillSelectors()
{
    filling_ = true;
    const SweepSpec& spec = result_->spec();
    machine_->clear();
    for (const std::string& m : spec.machines)
        machine_->addItem(QString::fromStdString(m));
    workload_->clear();
    for (const SweepWorkload& w : spec.workloads)
        workload_->addItem(QString::fromStdString(w.label));
    features_->clear();
    for (const std::string& f : spec.features)
        features_->addItem(f.empty() ? tr("(defaults)") : QString::fromStdString(f));
    // Choosing among one is no choice.
    machine_->setEnabled(spec.machines.size() > 1);
    workload_->setEnabled(spec.workloads.size() > 1);
    features_->setEnabled(spec.features.size() > 1);
    fillHeldSelectors();
    filling_ = false;
}

void SweepWindow::fillHeldSelectors()
{
    const bool was_filling = filling_;
    filling_ = true;
    for (QComboBox* box : held_)
        delete box;
    held_.clear();
    const SweepWorkload& w = result_->spec().workloads[static_cast<std::size_t>(std::max(0, workload_->currentIndex()))];
    x_->clear();
    for (const SweepParameter& p : w.parameters)
        x_->addItem(QString::fromStdString(p.name));
    x_->setEnabled(w.parameters.size() > 1);
    // One selector per parameter; the one the curves run along is hidden.
    for (const SweepParameter& p : w.parameters) {
        auto* box = new QComboBox(this);
        box->setToolTip(tr("%1, held at this value").arg(QString::fromStdString(p.name)));
        for (const ParameterValue& v : p.values)
            box->addItem(QString::fromStdString(p.name + "=" + v.text));
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!filling_)
                replot();
        });
        held_layout_->addWidget(box);
        held_.push_back(box);
    }
    filling_ = was_filling;
}

std::vector<const SweepFigure*> SweepWindow::chosenFigures() const
{
    std::vector<const SweepFigure*> out;
    const QString chosen = figure_->currentData().toString();
    for (const SweepFigure& f : sweep_figures())
        if (chosen == qs(f.name) || chosen == kGroupPrefix + qs(f.group))
            out.push_back(&f);
    return out;
}

void SweepWindow::replot()
{
    if (!result_)
        return;
    CurveSelection sel;
    sel.machine = static_cast<std::size_t>(std::max(0, machine_->currentIndex()));
    sel.workload = static_cast<std::size_t>(std::max(0, workload_->currentIndex()));
    sel.features = static_cast<std::size_t>(std::max(0, features_->currentIndex()));
    sel.x = static_cast<std::size_t>(std::max(0, x_->currentIndex()));
    for (std::size_t i = 0; i < held_.size(); ++i) {
        sel.held.push_back(static_cast<std::size_t>(std::max(0, held_[i]->currentIndex())));
        held_[i]->setVisible(i != sel.x);
    }
    const SweepWorkload& w = result_->spec().workloads[sel.workload];
    const QString x_title = w.parameters.empty() ? tr("workload") : QString::fromStdString(w.parameters[sel.x].name);
    // The headline's name and unit are the workload's own.
    QString headline = tr("headline"), headline_unit;
    for (const PointResult* r : result_->by_index())
        if (r && result_->grid().point(r->index).workload == sel.workload) {
            headline = QString::fromStdString(r->headline.name);
            headline_unit = QString::fromStdString(r->headline.unit);
            break;
        }

    const std::vector<const SweepFigure*> figures = chosenFigures();
    while (charts_.size() > figures.size()) {
        delete charts_.back();
        charts_.pop_back();
    }
    while (charts_.size() < figures.size()) {
        auto* chart = new SweepChart(this);
        chart->setMinimumSize(240, 180);
        charts_.push_back(chart);
    }
    const int columns = figures.size() > 1 ? 2 : 1;
    const int rows = (static_cast<int>(figures.size()) + columns - 1) / columns;
    // Panels share the space equally; rows and columns left from a figure
    // with more panels take none.
    for (int r = 0; r < std::max(rows, panels_->rowCount()); ++r)
        panels_->setRowStretch(r, r < rows ? 1 : 0);
    for (int c = 0; c < std::max(columns, panels_->columnCount()); ++c)
        panels_->setColumnStretch(c, c < columns ? 1 : 0);
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const SweepFigure& f = *figures[i];
        const bool is_headline = f.source == SweepFigure::Source::Headline;
        const std::vector<Curve> curves = sweep_curves(result_->grid(), result_->by_index(), sel, f);
        charts_[i]->setCurves(curves,
                              {is_headline ? headline : qs(f.label), x_title, is_headline ? headline_unit : qs(f.unit)},
                              log_x_->isChecked(), log_y_->isChecked());
        panels_->addWidget(charts_[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    }
}

bool SweepWindow::setFigure(const QString& name)
{
    int at = figure_->findData(name);
    if (at < 0)
        at = figure_->findData(kGroupPrefix + name);
    if (at < 0)
        return false;
    figure_->setCurrentIndex(at);
    replot();
    return true;
}

void SweepWindow::setLogAxes(bool x, bool y)
{
    log_x_->setChecked(x);
    log_y_->setChecked(y);
}

void SweepWindow::setSelection(int machine, int workload, int features, int x_parameter)
{
    machine_->setCurrentIndex(machine);
    workload_->setCurrentIndex(workload);
    features_->setCurrentIndex(features);
    x_->setCurrentIndex(x_parameter);
    replot();
}

ExportFrame SweepWindow::exportFrame() const
{
    ExportFrame frame;
    if (!result_)
        return frame;
    const SweepSpec& spec = result_->spec();
    QString held;
    for (std::size_t i = 0; i < held_.size(); ++i)
        if (static_cast<int>(i) != x_->currentIndex())
            held += QStringLiteral(", ") + held_[i]->currentText();
    frame.title = tr("%1 on %2%3%4: the mean of %5 with its 95% interval")
                      .arg(workload_->currentText(), machine_->currentText(),
                           spec.features.size() > 1 ? QStringLiteral(", ") + features_->currentText() : QString(),
                           held, seeds_text(spec.seeds.size()));
    for (SweepChart* chart : charts_)
        frame.panels.push_back({chart, {}, {}});
    for (std::size_t p = 0; p < spec.policies.size(); ++p)
        frame.legend.push_back(
            {QString::fromStdString(spec.policies[p]), palette::policy_colour(static_cast<int>(p)), QString()});
    return frame;
}

bool SweepWindow::exportPicture(const QString& path, const QSize& size, QString* error) const
{
    // An axis swapped out (log on or off) leaves its drawing in the scene
    // until its deferred deletion: do it before the scene is drawn.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return write_export_frame(exportFrame(), size, path, error);
}

bool SweepWindow::exportCsv(const QString& path, QString* error) const
{
    if (!result_) {
        if (error)
            *error = tr("no sweep result is open");
        return false;
    }
    std::string text = points_csv_header(result_->grid());
    for (const PointResult& r : result_->points())
        text += points_csv_row(result_->grid(), r);
    return write_text_file(path, QString::fromStdString(text), error);
}

bool SweepWindow::exportJson(const QString& path, QString* error) const
{
    if (!result_) {
        if (error)
            *error = tr("no sweep result is open");
        return false;
    }
    if (path == result_path_)
        return true;
    QFile::remove(path);
    if (!QFile::copy(result_path_, path)) {
        if (error)
            *error = tr("%1: cannot write this file").arg(path);
        return false;
    }
    return true;
}

void SweepWindow::exportPictureDialog()
{
    if (!result_)
        return;
    ExportDialog dialog(tr("the sweep's curves"), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!exportPicture(dialog.path(), dialog.pictureSize(), &error))
        show_message_box(this, tr("Cannot export"), tr("Could not export the curves.\n%1").arg(error));
    else
        status_->setText(tr("exported %1").arg(dialog.path()));
}

void SweepWindow::exportFileDialog(bool csv)
{
    if (!result_)
        return;
    const QString path = QFileDialog::getSaveFileName(this, csv ? tr("Export the points") : tr("Export the result"),
                                                      QString(), csv ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!(csv ? exportCsv(path, &error) : exportJson(path, &error)))
        show_message_box(this, tr("Cannot export"), error);
    else
        status_->setText(tr("exported %1").arg(path));
}

}  // namespace wb
