// SPDX-License-Identifier: Apache-2.0
#include "widgets/scenario_panel.h"

#include <QAction>
#include <QComboBox>
#include <QFont>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "decision/palette.h"
#include "io/topology_library.h"
#include "policies/registry.h"
#include "sched/features.h"
#include "widgets/switch_menu.h"
#include "workload/workload_spec.h"

namespace wb {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

const PolicyInfo* policy_info(const QString& name)
{
    for (const PolicyInfo* info : policy_catalog())
        if (qs(info->name) == name)
            return info;
    return nullptr;
}

const WorkloadInfo* workload_info(const QString& name)
{
    for (const WorkloadInfo& info : workload_catalog())
        if (QString::fromStdString(info.name) == name)
            return &info;
    return nullptr;
}

// "name:a=1,b=2,3" -> name and {a: "1", b: "2,3"}: a piece without '='
// continues the previous value, as workload specs allow.
std::pair<QString, std::vector<std::pair<QString, QString>>> split_spec(const QString& spec)
{
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    std::pair<QString, std::vector<std::pair<QString, QString>>> out;
    out.first = colon < 0 ? spec : spec.left(colon);
    if (colon < 0)
        return out;
    for (const QString& piece : spec.mid(colon + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = piece.indexOf(QLatin1Char('='));
        if (eq < 0 && !out.second.empty())
            out.second.back().second += QLatin1Char(',') + piece;
        else
            out.second.emplace_back(piece.left(eq), eq < 0 ? QString() : piece.mid(eq + 1));
    }
    return out;
}

}  // namespace

ScenarioPanel::ScenarioPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    machine_ = new QComboBox(this);
    machine_->setObjectName(QStringLiteral("scenarioMachine"));
    machine_->setEditable(true);
    machine_->setInsertPolicy(QComboBox::NoInsert);
    machine_->setToolTip(tr("A shipped machine, a machine file, or synthetic:node=2,llc=8,core=8,smt=2"));
    for (const ShippedTopology& t : list_shipped_topologies()) {
        machine_->addItem(QString::fromStdString(t.name));
        machine_->setItemData(machine_->count() - 1, QString::fromStdString(t.description), Qt::ToolTipRole);
    }
    connect(machine_, &QComboBox::currentTextChanged, this, &ScenarioPanel::updateUnappliedEdits);
    auto* open_machine = new QToolButton(this);
    open_machine->setText(QStringLiteral("…"));
    open_machine->setToolTip(tr("Open a machine file"));
    connect(open_machine, &QToolButton::clicked, this, &ScenarioPanel::openMachineFileRequested);
    auto* import_host = new QToolButton(this);
    import_host->setObjectName(QStringLiteral("scenarioImportHost"));
    import_host->setText(tr("host"));
    import_host->setToolTip(
        tr("Import this machine's topology from /sys (costs stay at their defaults); "
           "the menu also offers to measure its costs"));
    connect(import_host, &QToolButton::clicked, this, &ScenarioPanel::importHostRequested);
    // Measuring takes half a minute and its own menu entry, so a click on
    // the button stays the quick import.
    auto* host_menu = new QMenu(import_host);
    host_menu->addAction(tr("import topology"), this, &ScenarioPanel::importHostRequested);
    QAction* measure = host_menu->addAction(tr("import and measure costs (about half a minute)"), this,
                                            &ScenarioPanel::importMeasuredHostRequested);
    measure->setObjectName(QStringLiteral("scenarioImportMeasuredHost"));
    measure->setToolTip(
        tr("Also run short benchmarks on this machine (pipe round trips, system call, "
           "cache-line ping-pong) and write the measured costs; see docs/measuring.md"));
    import_host->setMenu(host_menu);
    import_host->setPopupMode(QToolButton::MenuButtonPopup);
    auto* machine_row = new QHBoxLayout;
    machine_row->addWidget(machine_, 1);
    machine_row->addWidget(open_machine);
    machine_row->addWidget(import_host);
    form->addRow(tr("Machine"), machine_row);

    case_ = new QComboBox(this);
    case_->setObjectName(QStringLiteral("scenarioCase"));
    connect(case_, &QComboBox::activated, this, [this](int index) {
        fillWorkload(QString::fromStdString(scenario_.cases[static_cast<std::size_t>(index)].workload));
        emit caseChosen(index);
    });
    form->addRow(tr("Case"), case_);

    workload_ = new QComboBox(this);
    workload_->setObjectName(QStringLiteral("scenarioWorkload"));
    for (const WorkloadInfo& info : workload_catalog()) {
        workload_->addItem(QString::fromStdString(info.name));
        workload_->setItemData(workload_->count() - 1, QString::fromStdString(info.summary), Qt::ToolTipRole);
    }
    connect(workload_, &QComboBox::activated, this, [this](int) {
        buildWorkloadForm(workload_->currentText());
        updateUnappliedEdits();
    });
    form->addRow(tr("Workload"), workload_);
    params_ = new QFormLayout;
    params_->setContentsMargins(12, 0, 0, 0);
    form->addRow(params_);

    catalog_ = policy_catalog();
    for (int row = 0; row < kPolicyRows; ++row) {
        auto* combo = new QComboBox(this);
        combo->setObjectName(QStringLiteral("scenarioPolicy%1").arg(row));
        combo->setEditable(true);  // composite specs ("a+b") are typed
        combo->setInsertPolicy(QComboBox::NoInsert);
        auto* sw = new QToolButton(this);
        sw->setObjectName(QStringLiteral("scenarioSwitches%1").arg(row));
        sw->setText(tr("switches"));
        sw->setPopupMode(QToolButton::InstantPopup);
        sw->setMenu(new SwitchMenu(sw));
        policies_[row] = combo;
        switches_[row] = sw;
        fillPolicyChoices(row);
        connect(combo, &QComboBox::currentTextChanged, this, [this, row] {
            updateSwitchMenu(row);
            updateUnappliedEdits();
        });
        // The first choice (baseline) has no switches: the button says so
        // from the start, not only once the box has changed.
        updateSwitchMenu(row);
        auto* line = new QHBoxLayout;
        auto* swatch = new QLabel(this);
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(
            QStringLiteral("background:%1;border-radius:2px").arg(palette::policy_colour(row).name()));
        line->addWidget(swatch);
        line->addWidget(combo, 1);
        line->addWidget(sw);
        form->addRow(row == 0 ? tr("Policies") : QString(), line);
    }

    features_ = new QListWidget(this);
    features_->setObjectName(QStringLiteral("scenarioFeatures"));
    for (const FeatInfo& f : kFeatInfo) {
        auto* item = new QListWidgetItem(qs(f.name), features_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(f.default_on ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(qs(f.doc));
    }
    features_->setMaximumHeight(110);
    connect(features_, &QListWidget::itemChanged, this, &ScenarioPanel::updateUnappliedEdits);
    form->addRow(tr("Features"), features_);

    seed_ = new QLineEdit(this);
    seed_->setObjectName(QStringLiteral("scenarioSeed"));
    seed_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), seed_));
    runs_ = new QSpinBox(this);
    runs_->setObjectName(QStringLiteral("scenarioRuns"));
    runs_->setRange(1, 100000);
    runs_->setToolTip(tr("Runs per policy for the comparison (charts, exports); the grids show the first seed"));
    connect(seed_, &QLineEdit::textChanged, this, &ScenarioPanel::updateUnappliedEdits);
    connect(runs_, &QSpinBox::valueChanged, this, &ScenarioPanel::updateUnappliedEdits);
    auto* seed_row = new QHBoxLayout;
    seed_row->addWidget(seed_, 1);
    seed_row->addWidget(new QLabel(tr("runs"), this));
    seed_row->addWidget(runs_);
    form->addRow(tr("Seed"), seed_row);
    layout->addLayout(form);

    apply_ = new QPushButton(tr("Apply and restart"), this);
    apply_->setObjectName(QStringLiteral("scenarioApply"));
    connect(apply_, &QPushButton::clicked, this, &ScenarioPanel::applyRequested);
    unapplied_label_ = new QLabel(tr("unapplied edits: the grids still run the scenario before them"), this);
    unapplied_label_->setObjectName(QStringLiteral("scenarioUnapplied"));
    unapplied_label_->setWordWrap(true);
    unapplied_label_->setVisible(false);
    auto* copy = new QPushButton(tr("Copy as wakesim command"), this);
    copy->setObjectName(QStringLiteral("copyWakesimCommand"));
    connect(copy, &QPushButton::clicked, this, &ScenarioPanel::copyCommandRequested);
    layout->addWidget(unapplied_label_);
    layout->addWidget(apply_);
    layout->addWidget(copy);
    layout->addStretch(1);
    set_form_ = scenario();
}

ScenarioPanel::~ScenarioPanel() = default;

void ScenarioPanel::setScenario(const Scenario& scenario, int case_index)
{
    scenario_ = scenario;
    fill(scenario, case_index);
    set_form_ = this->scenario();
    updateUnappliedEdits();
}

void ScenarioPanel::showEdits(const Scenario& edited, int case_index)
{
    fill(edited, case_index);
    updateUnappliedEdits();
}

void ScenarioPanel::fill(const Scenario& scenario, int case_index)
{
    loading_ = true;
    // A scenario file may have brought plugins whose policies it names.
    refreshPolicyChoices();
    machine_->setCurrentText(QString::fromStdString(scenario.machine));
    case_->clear();
    for (const ScenarioCase& c : scenario.cases)
        case_->addItem(QString::fromStdString(c.label), QString::fromStdString(c.workload));
    case_->setCurrentIndex(case_index);
    if (case_index >= 0 && static_cast<std::size_t>(case_index) < scenario.cases.size())
        fillWorkload(QString::fromStdString(scenario.cases[static_cast<std::size_t>(case_index)].workload));
    for (int row = 0; row < kPolicyRows; ++row) {
        const QString spec = static_cast<std::size_t>(row) < scenario.policies.size()
                                 ? QString::fromStdString(scenario.policies[static_cast<std::size_t>(row)])
                                 : QString();
        // The switches menu rebuilds from the name, then takes the spec's settings.
        const auto [name, values] = split_spec(spec);
        policies_[row]->setCurrentText(policy_info(name) && !spec.contains(QLatin1Char('+')) ? name : spec);
        // The same policy keeps its menu: switches the spec does not name go
        // back to their default, not to what was toggled before.
        for (QAction* a : switches_[row]->menu()->actions()) {
            a->setChecked(a->data().toBool());
            for (const auto& [k, v] : values)
                if (a->text() == k)
                    a->setChecked(v == QLatin1String("on"));
        }
        updateSwitchButton(row);
    }
    FeatureSet feats;
    feats.apply(scenario.features);
    for (std::size_t i = 0; i < kFeatCount; ++i)
        features_->item(static_cast<int>(i))->setCheckState(feats(static_cast<Feat>(i)) ? Qt::Checked : Qt::Unchecked);
    seed_->setText(QString::number(scenario.seed));
    runs_->setValue(scenario.runs);
    loading_ = false;
}

void ScenarioPanel::updateUnappliedEdits()
{
    if (loading_)
        return;
    emit edited();
    const bool unapplied = scenario() != set_form_;
    if (unapplied == unapplied_)
        return;
    unapplied_ = unapplied;
    // The bullet and the bold face mark the button that would apply them.
    apply_->setText(unapplied ? tr("Apply and restart \u2022") : tr("Apply and restart"));
    QFont font = apply_->font();
    font.setBold(unapplied);
    apply_->setFont(font);
    apply_->setToolTip(unapplied ? tr("The form differs from the scenario running: apply to restart with it")
                                 : QString());
    unapplied_label_->setVisible(unapplied);
    emit unappliedEditsChanged(unapplied);
}

void ScenarioPanel::fillWorkload(const QString& spec)
{
    const auto [name, values] = split_spec(spec);
    workload_->setCurrentText(name);
    buildWorkloadForm(name);
    for (const auto& [k, v] : values)
        for (std::size_t i = 0; i < param_names_.size(); ++i)
            if (param_names_[i] == k)
                param_edits_[i]->setText(v);
}

void ScenarioPanel::buildWorkloadForm(const QString& name)
{
    while (params_->rowCount() > 0)
        params_->removeRow(0);
    param_edits_.clear();
    param_names_.clear();
    const WorkloadInfo* info = workload_info(name);
    if (!info)
        return;
    for (const WorkloadParam& p : info->params) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(QStringLiteral("param_%1").arg(QString::fromStdString(p.name)));
        edit->setPlaceholderText(QString::fromStdString(p.default_value));
        edit->setToolTip(QString::fromStdString(p.doc));
        connect(edit, &QLineEdit::textChanged, this, &ScenarioPanel::updateUnappliedEdits);
        params_->addRow(QString::fromStdString(p.name), edit);
        param_edits_.push_back(edit);
        param_names_.push_back(QString::fromStdString(p.name));
    }
}

void ScenarioPanel::refreshPolicyChoices()
{
    std::vector<const PolicyInfo*> catalog = policy_catalog();
    if (catalog == catalog_)
        return;
    catalog_ = std::move(catalog);
    for (int row = 0; row < kPolicyRows; ++row) {
        // The switches as the user left them, by name: a rebuilt plugin's
        // policy has a new PolicyInfo, perhaps with other switches.
        std::vector<std::pair<QString, bool>> toggled;
        for (QAction* a : switches_[row]->menu()->actions())
            toggled.emplace_back(a->text(), a->isChecked());
        fillPolicyChoices(row);
        updateSwitchMenu(row);
        for (QAction* a : switches_[row]->menu()->actions())
            for (const auto& [name, on] : toggled)
                if (a->text() == name)
                    a->setChecked(on);
        updateSwitchButton(row);
    }
    updateUnappliedEdits();
}

// The row's box offers catalog_ and still shows what it showed.
void ScenarioPanel::fillPolicyChoices(int row)
{
    QComboBox* combo = policies_[row];
    const bool filled = combo->count() > 0;  // a new box shows its first choice
    const QString text = combo->currentText();
    const QSignalBlocker quiet(combo);
    combo->clear();
    if (row > 0)
        combo->addItem(QString());
    for (const PolicyInfo* info : catalog_) {
        combo->addItem(qs(info->name));
        const QString plugin = QString::fromStdString(policy_plugin(info->name));
        combo->setItemData(combo->count() - 1,
                           plugin.isEmpty() ? qs(info->summary) : tr("%1\n(plugin %2)").arg(qs(info->summary), plugin),
                           Qt::ToolTipRole);
    }
    if (filled)
        combo->setCurrentText(text);
}

void ScenarioPanel::setPlugins(const std::vector<std::string>& plugins)
{
    scenario_.plugins = plugins;
    set_form_.plugins = plugins;
}

void ScenarioPanel::updateSwitchMenu(int row)
{
    QMenu* menu = switches_[row]->menu();
    menu->clear();
    const PolicyInfo* info = policy_info(policies_[row]->currentText());
    switches_[row]->setEnabled(info && !info->switches.empty());
    if (info) {
        for (const PolicySwitch& sw : info->switches) {
            QAction* a = menu->addAction(qs(sw.name));
            a->setCheckable(true);
            a->setChecked(sw.default_on);
            a->setToolTip(tr("%1\n(default %2)").arg(qs(sw.meaning), sw.default_on ? tr("on") : tr("off")));
            a->setData(sw.default_on);
            connect(a, &QAction::toggled, this, [this, row] {
                updateSwitchButton(row);
                updateUnappliedEdits();
            });
        }
    }
    updateSwitchButton(row);
}

void ScenarioPanel::updateSwitchButton(int row)
{
    int off = 0;
    int on = 0;
    QStringList changed;
    for (QAction* a : switches_[row]->menu()->actions()) {
        if (a->isChecked() == a->data().toBool())
            continue;
        ++(a->isChecked() ? on : off);
        changed << tr("%1 %2 (default %3)")
                       .arg(a->text(), a->isChecked() ? tr("on") : tr("off"), a->isChecked() ? tr("off") : tr("on"));
    }
    QStringList counts;
    if (off > 0)
        counts << tr("%1 off").arg(off);
    if (on > 0)
        counts << tr("%1 on").arg(on);
    QToolButton* button = switches_[row];
    button->setText(counts.isEmpty() ? tr("switches") : tr("switches (%1)").arg(counts.join(QStringLiteral(", "))));
    button->setToolTip(changed.isEmpty() ? tr("Every switch at its default")
                                         : tr("Not at their default:\n%1").arg(changed.join(QLatin1Char('\n'))));
}

QString ScenarioPanel::policySpec(int row) const
{
    const QString text = policies_[row]->currentText().trimmed();
    if (text.isEmpty() || !policy_info(text))
        return text;
    QStringList changed;
    for (QAction* a : switches_[row]->menu()->actions())
        if (a->isChecked() != a->data().toBool())
            changed << QStringLiteral("%1=%2").arg(a->text(),
                                                   a->isChecked() ? QStringLiteral("on") : QStringLiteral("off"));
    return changed.isEmpty() ? text : text + QLatin1Char(':') + changed.join(QLatin1Char(','));
}

QString ScenarioPanel::machineSpec() const
{
    return machine_->currentText().trimmed();
}

QString ScenarioPanel::workloadSpec() const
{
    QStringList set;
    for (std::size_t i = 0; i < param_edits_.size(); ++i)
        if (!param_edits_[i]->text().trimmed().isEmpty())
            set << param_names_[i] + QLatin1Char('=') + param_edits_[i]->text().trimmed();
    const QString name = workload_->currentText();
    return set.isEmpty() ? name : name + QLatin1Char(':') + set.join(QLatin1Char(','));
}

QStringList ScenarioPanel::policySpecs() const
{
    QStringList out;
    for (int row = 0; row < kPolicyRows; ++row)
        if (const QString spec = policySpec(row); !spec.isEmpty())
            out << spec;
    return out;
}

QString ScenarioPanel::featureChanges() const
{
    QStringList out;
    for (std::size_t i = 0; i < kFeatCount; ++i) {
        const bool on = features_->item(static_cast<int>(i))->checkState() == Qt::Checked;
        if (on != kFeatInfo[i].default_on)
            out << (on ? QString() : QStringLiteral("NO_")) + qs(kFeatInfo[i].name);
    }
    return out.join(QLatin1Char(','));
}

int ScenarioPanel::caseIndex() const
{
    return case_->currentIndex();
}

Scenario ScenarioPanel::scenario() const
{
    Scenario s = scenario_;
    s.machine = machineSpec().toStdString();
    const int c = caseIndex();
    if (c >= 0 && static_cast<std::size_t>(c) < s.cases.size())
        s.cases[static_cast<std::size_t>(c)].workload = workloadSpec().toStdString();
    s.policies.clear();
    for (const QString& p : policySpecs())
        s.policies.push_back(p.toStdString());
    s.features = featureChanges().toStdString();
    s.seed = seed_->text().toULongLong();
    s.runs = runs_->value();
    return s;
}

}  // namespace wb
