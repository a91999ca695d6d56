// SPDX-License-Identifier: Apache-2.0
//
// SweepWindow (Results > Sweep): a sweep's result as curves. Any figure
// against a swept parameter, one line per policy with its 95% band over the
// seeds (SweepChart); the machine, workload, feature set and the workload's
// other parameters held at a value each; log axes on request. A figure with
// several parts (the latency percentiles, the placement classes) gets a
// panel per part. It opens a result file, or runs a sweep file in the
// background (SweepJob) and opens what it writes.
//
// Export: the panels as a picture (PNG or SVG at the export dialog's sizes,
// composed as the main window's charts are), the points as CSV (what
// `wakesim sweep csv` writes), and the result as JSON (the file itself).
#pragma once

#include <QSize>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "export/export_frame.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace wb {

class SweepChart;
class SweepJob;
class SweepResult;
struct SweepFigure;

class SweepWindow : public QWidget {
    Q_OBJECT

public:
    explicit SweepWindow(QWidget* parent = nullptr);
    ~SweepWindow() override;

    // False, with *error saying what is wrong with the file, when it could
    // not be read; the window keeps what it showed.
    bool openResult(const QString& path, QString* error);
    // Runs `sweep_file` into `out` on the background, then opens it.
    void runSweep(const QString& sweep_file, const QString& out, int jobs);

    // A figure by its name in sweep_figures(), or a group ("wakeup latency").
    bool setFigure(const QString& name);
    void setLogAxes(bool x, bool y);
    // The other selectors, by index into the sweep's lists.
    void setSelection(int machine, int workload, int features, int x_parameter);

    const std::vector<SweepChart*>& charts() const { return charts_; }
    const SweepResult* result() const { return result_.get(); }
    bool running() const;

    bool exportCsv(const QString& path, QString* error) const;
    bool exportJson(const QString& path, QString* error) const;
    bool exportPicture(const QString& path, const QSize& size, QString* error) const;
    ExportFrame exportFrame() const;

signals:
    void resultOpened();
    void sweepFailed(const QString& message);

private:
    void fillSelectors();
    void fillHeldSelectors();
    void replot();
    std::vector<const SweepFigure*> chosenFigures() const;
    void exportPictureDialog();
    void exportFileDialog(bool csv);

    std::shared_ptr<SweepResult> result_;
    QString result_path_;
    QComboBox* figure_ = nullptr;
    QComboBox* machine_ = nullptr;
    QComboBox* workload_ = nullptr;
    QComboBox* features_ = nullptr;
    QComboBox* x_ = nullptr;
    QHBoxLayout* held_layout_ = nullptr;
    std::vector<QComboBox*> held_;
    QCheckBox* log_x_ = nullptr;
    QCheckBox* log_y_ = nullptr;
    QGridLayout* panels_ = nullptr;
    std::vector<SweepChart*> charts_;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    SweepJob* job_ = nullptr;
    bool filling_ = false;  // selectors being refilled: no replot per change
};

}  // namespace wb
