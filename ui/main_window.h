// SPDX-License-Identifier: Apache-2.0
//
// MainWindow: the workbench shell. Left dock "Machine" (shipped machines, a
// machine file, a synthetic spec), the topology grid in the middle, right
// dock "Sched domains" for the selected CPU, machine facts in the status bar.
// A machine that fails to load is reported and the one shown stays.
#pragma once

#include <QMainWindow>
#include <QString>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;

namespace wb {

struct Machine;
class SchedDomains;
class TopologyView;
class DomainPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // Shows a load error; the default opens a modal QMessageBox, tests
    // replace it to read the message without blocking.
    using ErrorHandler = std::function<void(const QString& title, const QString& message)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // A shipped machine's name, a machine file or "synthetic:..." (the words
    // wakesim accepts). False when it cannot be loaded: the error handler
    // was told why and the previous machine is still shown.
    bool loadMachine(const QString& spec);
    // Shows an already loaded machine; `spec` is how it was named. Throws
    // what SchedDomains::build() throws.
    void setMachine(Machine machine, const QString& spec);

    bool hasMachine() const { return loaded_ != nullptr; }
    const Machine& machine() const;  // only when hasMachine()
    const SchedDomains& schedDomains() const;
    QString machineSpec() const;

    void selectCpu(int cpu);  // -1 clears
    void setErrorHandler(ErrorHandler handler);

    TopologyView* topologyView() const { return view_; }
    DomainPanel* domainPanel() const { return domains_; }
    QString statusText() const;

signals:
    void machineChanged();

private:
    struct Loaded;

    QWidget* buildMachinePanel();
    QMenu* buildMenus();  // returns the View menu, for the docks' toggles
    void openMachineFile();
    void loadSynthetic();
    void onCpuSelected(int cpu);
    void onDomainSelected(int domain_id);
    void syncMachinePanel();

    std::unique_ptr<Loaded> loaded_;
    ErrorHandler on_error_;
    TopologyView* view_ = nullptr;
    DomainPanel* domains_ = nullptr;
    QComboBox* shipped_ = nullptr;
    QLineEdit* synthetic_ = nullptr;
    QLabel* about_machine_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace wb
