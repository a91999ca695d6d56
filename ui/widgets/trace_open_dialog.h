// SPDX-License-Identifier: Apache-2.0
//
// TraceOpenDialog: File ▸ Open trace…: the trace file, the machine it was
// recorded on (the scenario's by default, another shipped machine, a
// machine file or the output of `lscpu -p`) and the policies to ask at each
// of its wakeups, the first the reference (the scenario's by default).
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace wb {

struct TraceRequest {
    QString path;
    // Empty: the scenario's machine; "lscpu:FILE": `lscpu -p` output;
    // otherwise a machine spec (a shipped name or a machine file).
    QString machine;
    QStringList policies;
};

class TraceOpenDialog : public QDialog {
    Q_OBJECT

public:
    TraceOpenDialog(const QString& scenario_machine, const QStringList& policies, QWidget* parent = nullptr);

    TraceRequest request() const;

private:
    void machineChosen();
    void updateOk();

    QLineEdit* path_ = nullptr;
    QComboBox* machine_ = nullptr;
    QLineEdit* machine_file_ = nullptr;
    QPushButton* machine_browse_ = nullptr;
    QLineEdit* policies_ = nullptr;
    QPushButton* ok_ = nullptr;
};

}  // namespace wb
