// SPDX-License-Identifier: Apache-2.0
//
// ScenarioPanel: the scenario as a form. Machine (shipped list, a machine
// file, a synthetic spec), the case shown and its workload with one field
// per parameter, one to four policies each with its switches, scheduler
// features, seed and runs. The panel only edits a copy: Apply hands the
// edited Scenario to the window, which checks it and keeps what it had if
// the scenario is bad. While the form differs from the scenario last set,
// the panel says so (hasUnappliedEdits()), so that what runs and what the
// form shows are never silently apart.
#pragma once

#include <QString>
#include <QWidget>
#include <string>
#include <vector>

#include "io/scenario_json.h"
#include "wakebench/policy_info.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
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
    // The form filled from `edited`, the scenario set staying what it
    // compares with: edits recovered after a crash show as unapplied.
    void showEdits(const Scenario& edited, int case_index);
    // The form's scenario: the one set, with the edits made since.
    Scenario scenario() const;
    int caseIndex() const;

    // What the form builds, part by part (also for tests).
    QString machineSpec() const;
    QString workloadSpec() const;
    QStringList policySpecs() const;
    QString featureChanges() const;

    // The form differs from the scenario last given to setScenario().
    bool hasUnappliedEdits() const { return unapplied_; }

    // Offers every policy of the catalog (policy_catalog()) in the policy
    // boxes, keeping what each shows and its switches: after a plugin is
    // loaded or reloaded. Cheap when the catalog has not changed.
    void refreshPolicyChoices();
    // The scenario's "plugins" as written in the file it was just saved to,
    // the rest of the form untouched.
    void setPlugins(const std::vector<std::string>& plugins);

signals:
    void applyRequested();
    void caseChosen(int index);
    void copyCommandRequested();
    void openMachineFileRequested();
    void importHostRequested();
    // Import and run the host benchmarks (topology import --sysfs --measure).
    void importMeasuredHostRequested();
    void unappliedEditsChanged(bool unapplied);
    // Any change of the form, by the user (not by setScenario()).
    void edited();

private:
    void fill(const Scenario& scenario, int case_index);
    void buildWorkloadForm(const QString& name);
    void fillWorkload(const QString& spec);
    void fillPolicyChoices(int row);
    void updateSwitchMenu(int row);
    // "switches (1 off)" and a tooltip naming the switches not at their default.
    void updateSwitchButton(int row);
    // Compares the form with the scenario set, after every edit.
    void updateUnappliedEdits();
    QString policySpec(int row) const;

    Scenario scenario_;
    // scenario() just after setScenario(): the form's own rendering of the
    // scenario set, so that formatting differences (spec order) are no edit.
    Scenario set_form_;
    bool loading_ = false;  // setScenario() is filling the form
    bool unapplied_ = false;
    QComboBox* machine_ = nullptr;
    QComboBox* case_ = nullptr;
    QComboBox* workload_ = nullptr;
    QFormLayout* params_ = nullptr;
    std::vector<QLineEdit*> param_edits_;
    std::vector<QString> param_names_;
    std::vector<const wakebench::PolicyInfo*> catalog_;  // what the policy boxes offer
    QComboBox* policies_[kPolicyRows] = {};
    QToolButton* switches_[kPolicyRows] = {};
    QListWidget* features_ = nullptr;
    QLineEdit* seed_ = nullptr;
    QSpinBox* runs_ = nullptr;
    QPushButton* apply_ = nullptr;
    QLabel* unapplied_label_ = nullptr;
};

}  // namespace wb
