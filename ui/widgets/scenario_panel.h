// SPDX-License-Identifier: Apache-2.0
//
// ScenarioPanel: the scenario as a form. Machine (shipped list, a machine
// file, a synthetic spec), the case shown and its workload with one field
// per parameter, one to four policies each with its switches, scheduler
// features, seed and runs. The panel only edits a copy: Apply hands the
// edited Scenario to the window, which checks it and keeps what it had if
// the scenario is bad.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "io/scenario_json.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QToolButton;

namespace wb {

class ScenarioPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kPolicyRows = 4;

    explicit ScenarioPanel(QWidget* parent = nullptr);
    ~ScenarioPanel() override;

    void setScenario(const Scenario& scenario, int case_index);
    // The form's scenario: the one set, with the edits made since.
    Scenario scenario() const;
    int caseIndex() const;

    // What the form builds, part by part (also for tests).
    QString machineSpec() const;
    QString workloadSpec() const;
    QStringList policySpecs() const;
    QString featureChanges() const;

signals:
    void applyRequested();
    void caseChosen(int index);
    void copyCommandRequested();
    void openMachineFileRequested();
    void importHostRequested();

private:
    void buildWorkloadForm(const QString& name);
    void fillWorkload(const QString& spec);
    void updateSwitchMenu(int row);
    QString policySpec(int row) const;

    Scenario scenario_;
    QComboBox* machine_ = nullptr;
    QComboBox* case_ = nullptr;
    QComboBox* workload_ = nullptr;
    QFormLayout* params_ = nullptr;
    std::vector<QLineEdit*> param_edits_;
    std::vector<QString> param_names_;
    QComboBox* policies_[kPolicyRows] = {};
    QToolButton* switches_[kPolicyRows] = {};
    QListWidget* features_ = nullptr;
    QLineEdit* seed_ = nullptr;
    QSpinBox* runs_ = nullptr;
};

}  // namespace wb
