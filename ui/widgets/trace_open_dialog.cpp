// SPDX-License-Identifier: Apache-2.0
#include "widgets/trace_open_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

#include "io/topology_library.h"

namespace wb {

namespace {

enum MachineItem { kScenario = -1, kMachineFile = -2, kLscpu = -3 };

QWidget* with_browse(QLineEdit* line, QPushButton* button, QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(line, 1);
    h->addWidget(button);
    return row;
}

}  // namespace

TraceOpenDialog::TraceOpenDialog(const QString& scenario_machine, const QStringList& policies, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Open trace"));
    auto* form = new QFormLayout(this);

    path_ = new QLineEdit(this);
    path_->setObjectName(QStringLiteral("tracePath"));
    path_->setPlaceholderText(tr("tracefs, trace-cmd or perf script text, gzipped or not"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open trace"), path_->text(),
                                                       tr("Traces (*.txt *.gz *.dat.txt);;All files (*)"));
        if (!f.isEmpty())
            path_->setText(f);
    });
    form->addRow(tr("Trace"), with_browse(path_, browse, this));

    machine_ = new QComboBox(this);
    machine_->setObjectName(QStringLiteral("traceMachine"));
    machine_->addItem(tr("The scenario's machine (%1)").arg(scenario_machine), int(kScenario));
    machine_->addItem(tr("A machine file…"), int(kMachineFile));
    machine_->addItem(tr("The output of lscpu -p…"), int(kLscpu));
    machine_->insertSeparator(machine_->count());
    for (const ShippedTopology& t : list_shipped_topologies())
        machine_->addItem(QString::fromStdString(t.name), QString::fromStdString(t.name));
    machine_file_ = new QLineEdit(this);
    machine_file_->setObjectName(QStringLiteral("traceMachineFile"));
    machine_browse_ = new QPushButton(tr("Browse…"), this);
    connect(machine_browse_, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, machine_->currentText(), machine_file_->text());
        if (!f.isEmpty())
            machine_file_->setText(f);
    });
    form->addRow(tr("Recorded on"), machine_);
    form->addRow(tr("File"), with_browse(machine_file_, machine_browse_, this));
    connect(machine_, &QComboBox::currentIndexChanged, this, &TraceOpenDialog::machineChosen);

    policies_ = new QLineEdit(policies.join(QLatin1Char(',')), this);
    policies_->setObjectName(QStringLiteral("tracePolicies"));
    policies_->setToolTip(tr("Asked at each wakeup in the state the kernel decided in; the first is the reference"));
    form->addRow(tr("Policies"), policies_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("Replay"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    for (QLineEdit* e : {path_, machine_file_, policies_})
        connect(e, &QLineEdit::textChanged, this, &TraceOpenDialog::updateOk);
    machineChosen();
    resize(560, sizeHint().height());
}

void TraceOpenDialog::machineChosen()
{
    const QVariant v = machine_->currentData();
    const bool file = v.typeId() == QMetaType::Int && (v.toInt() == kMachineFile || v.toInt() == kLscpu);
    machine_file_->setEnabled(file);
    machine_browse_->setEnabled(file);
    updateOk();
}

void TraceOpenDialog::updateOk()
{
    const TraceRequest r = request();
    const QVariant v = machine_->currentData();
    const bool needs_file = v.typeId() == QMetaType::Int && v.toInt() != kScenario;
    ok_->setEnabled(!r.path.isEmpty() && !r.policies.isEmpty() && (!needs_file || !machine_file_->text().isEmpty()));
}

TraceRequest TraceOpenDialog::request() const
{
    TraceRequest r;
    r.path = path_->text().trimmed();
    const QVariant v = machine_->currentData();
    if (v.typeId() == QMetaType::Int) {
        if (v.toInt() == kMachineFile)
            r.machine = machine_file_->text().trimmed();
        else if (v.toInt() == kLscpu)
            r.machine = QStringLiteral("lscpu:") + machine_file_->text().trimmed();
    } else {
        r.machine = v.toString();
    }
    // As wakesim's --policies reads the list: "a:x=1,y=2,b" is two policies,
    // an item with '=' before any ':' being a switch of the one before.
    for (const QString& item : policies_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString p = item.trimmed();
        const qsizetype eq = p.indexOf(QLatin1Char('='));
        const qsizetype colon = p.indexOf(QLatin1Char(':'));
        if (eq >= 0 && (colon < 0 || eq < colon) && !r.policies.isEmpty())
            r.policies.back() += QLatin1Char(',') + p;
        else if (!p.isEmpty())
            r.policies << p;
    }
    return r;
}

}  // namespace wb
