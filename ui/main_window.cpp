// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QStringList>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "io/input_error.h"
#include "io/topology_library.h"
#include "topology/machine.h"
#include "topology/sched_domains.h"
#include "views/topology_view.h"
#include "widgets/domain_panel.h"

namespace wb {

namespace {

// A message box taller than the screen hides its OK button; the rest goes
// into "Show Details...".
constexpr int kMaxProblemsShown = 12;

QString plural(int n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

// `message`: a summary line, then one problem per line.
void show_message_box(QWidget* parent, const QString& title, const QString& message)
{
    QStringList lines = message.split(QLatin1Char('\n'));
    QMessageBox box(QMessageBox::Warning, title, QStringLiteral("<b>%1</b>").arg(lines.takeFirst().toHtmlEscaped()),
                    QMessageBox::Ok, parent);
    if (lines.size() > kMaxProblemsShown)
        box.setDetailedText(lines.join(QLatin1Char('\n')));
    QString items;
    for (qsizetype i = 0; i < std::min<qsizetype>(lines.size(), kMaxProblemsShown); ++i)
        items += QStringLiteral("<li>%1</li>").arg(lines[i].toHtmlEscaped());
    if (lines.size() > kMaxProblemsShown)
        items += QObject::tr("<li>… and %1 more (Show Details)</li>").arg(lines.size() - kMaxProblemsShown);
    box.setInformativeText(QStringLiteral("<ul style='margin-left:-24px'>%1</ul>").arg(items));
    box.exec();
}

}  // namespace

struct MainWindow::Loaded {
    Machine machine;
    SchedDomains domains;
    QString spec;
};

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Wakebench"));
    on_error_ = [this](const QString& title, const QString& message) { show_message_box(this, title, message); };

    view_ = new TopologyView(this);
    view_->setObjectName(QStringLiteral("topologyView"));
    setCentralWidget(view_);

    auto* machine_dock = new QDockWidget(tr("Machine"), this);
    machine_dock->setObjectName(QStringLiteral("machineDock"));
    machine_dock->setWidget(buildMachinePanel());
    addDockWidget(Qt::LeftDockWidgetArea, machine_dock);

    domains_ = new DomainPanel(this);
    domains_->setObjectName(QStringLiteral("domainPanel"));
    auto* domain_dock = new QDockWidget(tr("Sched domains"), this);
    domain_dock->setObjectName(QStringLiteral("domainDock"));
    domain_dock->setWidget(domains_);
    addDockWidget(Qt::RightDockWidgetArea, domain_dock);
    resizeDocks({machine_dock, domain_dock}, {250, 320}, Qt::Horizontal);

    status_ = new QLabel(tr("No machine loaded"), this);
    status_->setObjectName(QStringLiteral("machineStatus"));
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(new QLabel(tr("click: select CPU · wheel: zoom · drag: pan · 0: fit"), this));

    QMenu* view_menu = buildMenus();
    view_menu->addAction(machine_dock->toggleViewAction());
    view_menu->addAction(domain_dock->toggleViewAction());

    connect(view_, &TopologyView::cpuSelected, this, &MainWindow::onCpuSelected);
    connect(domains_, &DomainPanel::domainSelected, this, &MainWindow::onDomainSelected);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildMachinePanel()
{
    auto* panel = new QWidget(this);

    shipped_ = new QComboBox(panel);
    shipped_->setObjectName(QStringLiteral("shippedMachines"));
    shipped_->setPlaceholderText(tr("(other machine)"));
    for (const ShippedTopology& t : list_shipped_topologies()) {
        shipped_->addItem(QString::fromStdString(t.name), QString::fromStdString(t.path));
        shipped_->setItemData(shipped_->count() - 1, QString::fromStdString(t.description), Qt::ToolTipRole);
    }
    if (shipped_->count() == 0) {
        shipped_->setPlaceholderText(tr("no shipped machines found"));
        shipped_->setEnabled(false);
    }
    shipped_->setCurrentIndex(-1);
    // activated, not currentIndexChanged: only a user's choice loads; putting
    // the combo back after a failed load must not load again.
    connect(shipped_, &QComboBox::activated, this, [this](int index) { loadMachine(shipped_->itemText(index)); });

    auto* open = new QPushButton(tr("Open machine file…"), panel);
    open->setObjectName(QStringLiteral("openMachineFile"));
    connect(open, &QPushButton::clicked, this, &MainWindow::openMachineFile);

    synthetic_ = new QLineEdit(panel);
    synthetic_->setObjectName(QStringLiteral("syntheticSpec"));
    synthetic_->setPlaceholderText(QStringLiteral("synthetic:node=2,llc=4,core=8,smt=2"));
    synthetic_->setClearButtonEnabled(true);
    synthetic_->setToolTip(
        tr("A synthetic machine: counts per parent, e.g. node=2,llc=4,core=8,smt=2; "
           "also cluster, pkg, arch, numbering, distance, capacity. Press Enter to load."));
    connect(synthetic_, &QLineEdit::returnPressed, this, &MainWindow::loadSynthetic);
    auto* build = new QPushButton(tr("Build"), panel);
    connect(build, &QPushButton::clicked, this, &MainWindow::loadSynthetic);
    auto* synthetic_row = new QHBoxLayout;
    synthetic_row->addWidget(synthetic_, 1);
    synthetic_row->addWidget(build);

    about_machine_ = new QLabel(panel);
    about_machine_->setObjectName(QStringLiteral("aboutMachine"));
    about_machine_->setWordWrap(true);
    about_machine_->setTextFormat(Qt::RichText);
    about_machine_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    about_machine_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* legend = new QLabel(panel);
    legend->setTextFormat(Qt::RichText);
    legend->setWordWrap(true);
    legend->setText(
        tr("<span style='color:#0072b2'>&#9632;</span> selected CPU<br>"
           "<span style='color:#e69f00'>&#9633;</span> span of the selected domain<br>"
           "<span style='color:#cc79a7'>&#9644;</span> capacity below 1024 (bar length = capacity)<br>"
           "<span style='color:#9ca7b2'>&#9635;</span> core: its SMT siblings<br>"
           "<span style='color:#7d8995'>&#11034;</span> dashed: a cluster (shared L2 or LLC tags)"));

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    form->addRow(tr("Shipped machine"), shipped_);
    form->addRow(open);
    form->addRow(tr("Synthetic machine"), synthetic_row);

    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(form);
    layout->addSpacing(8);
    // Machine files cite their sources at length; scroll rather than push
    // the legend off the panel.
    auto* about = new QScrollArea(panel);
    about->setWidget(about_machine_);
    about->setWidgetResizable(true);
    about->setFrameShape(QFrame::NoFrame);
    about->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    about->viewport()->setAutoFillBackground(false);
    about_machine_->setAutoFillBackground(false);
    layout->addWidget(about, 1);
    layout->addWidget(legend);
    return panel;
}

QMenu* MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open machine file…"), this, &MainWindow::openMachineFile);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit machine in view"), view_, &TopologyView::fitAll);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    return view;
}

bool MainWindow::loadMachine(const QString& spec)
{
    const QString shown = loaded_ ? loaded_->spec : QString();
    auto fail = [&](const QString& why) {
        const QString keep = shown.isEmpty() ? tr("No machine is loaded.") : tr("Still showing %1.").arg(shown);
        on_error_(tr("Cannot load machine"), tr("Could not load %1. %2\n%3").arg(spec, keep, why));
        syncMachinePanel();
        return false;
    };
    try {
        setMachine(resolve_machine(spec.toStdString()), spec);
        return true;
    } catch (const InputError& e) {
        return fail(QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        // Not the user's fault, but the window must survive it all the same.
        return fail(tr("internal error: %1").arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::setMachine(Machine machine, const QString& spec)
{
    SchedDomains domains = SchedDomains::build(machine);
    loaded_ = std::make_unique<Loaded>(Loaded{std::move(machine), std::move(domains), spec});

    domains_->clear();
    view_->setMachine(loaded_->machine);
    const Machine& m = loaded_->machine;
    setWindowTitle(tr("Wakebench — %1").arg(QString::fromStdString(m.name)));
    status_->setText(tr("%1 · %2 · %3")
                         .arg(QString::fromStdString(m.name), plural(m.nr_cpus(), "CPU", "CPUs"),
                              plural(m.nr_llcs(), "LLC", "LLCs")));
    syncMachinePanel();
    emit machineChanged();
}

const Machine& MainWindow::machine() const
{
    return loaded_->machine;
}

const SchedDomains& MainWindow::schedDomains() const
{
    return loaded_->domains;
}

QString MainWindow::machineSpec() const
{
    return loaded_ ? loaded_->spec : QString();
}

QString MainWindow::statusText() const
{
    return status_->text();
}

void MainWindow::selectCpu(int cpu)
{
    view_->selectCpu(cpu);
}

void MainWindow::setErrorHandler(ErrorHandler handler)
{
    on_error_ = std::move(handler);
}

void MainWindow::openMachineFile()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open machine file"), QString::fromStdString(topologies_dir()),
                                     tr("Machine files (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadMachine(path);
}

void MainWindow::loadSynthetic()
{
    QString spec = synthetic_->text().trimmed();
    if (spec.isEmpty())
        spec = synthetic_->placeholderText();
    // resolve_machine() reads the prefix to tell a spec from a file name.
    const QString prefix = QStringLiteral("synthetic:");
    if (!spec.startsWith(prefix))
        spec.prepend(prefix);
    loadMachine(spec);
}

void MainWindow::onCpuSelected(int cpu)
{
    if (!loaded_ || cpu < 0) {
        domains_->clear();
        view_->showSpan(CpuMask());
        return;
    }
    domains_->showCpu(loaded_->machine, loaded_->domains, cpu);
}

void MainWindow::onDomainSelected(int domain_id)
{
    if (!loaded_ || domain_id < 0) {
        view_->showSpan(CpuMask());
        return;
    }
    view_->showSpan(loaded_->domains.domain(domain_id).span);
}

void MainWindow::syncMachinePanel()
{
    if (!loaded_) {
        shipped_->setCurrentIndex(-1);
        about_machine_->clear();
        return;
    }
    int index = -1;
    for (int i = 0; i < shipped_->count(); ++i)
        if (loaded_->spec == shipped_->itemText(i) || loaded_->spec == shipped_->itemData(i).toString())
            index = i;
    shipped_->setCurrentIndex(index);

    const Machine& m = loaded_->machine;
    auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString text = QStringLiteral("<b>%1</b>").arg(esc(m.name));
    // A synthetic spec is one long word; let it wrap after its commas.
    if (!m.description.empty())
        text += QStringLiteral("<br>%1").arg(esc(m.description).replace(QLatin1Char(','), QStringLiteral(",&#8203;")));
    QStringList counts{plural(m.nr_nodes(), "node", "nodes"), plural(m.nr_packages(), "package", "packages"),
                       plural(m.nr_llcs(), "LLC", "LLCs")};
    // One cluster per core is how a machine without clusters is stored: not news.
    if (m.nr_clusters() != m.nr_cores())
        counts << plural(m.nr_clusters(), "cluster", "clusters");
    counts << plural(m.nr_cores(), "core", "cores") << plural(m.nr_cpus(), "CPU", "CPUs");
    text += QStringLiteral("<br><br>") + counts.join(QStringLiteral(" · "));
    text += tr("<br>arch %1%2")
                .arg(QString::fromLatin1(arch_name(m.arch).data(), qsizetype(arch_name(m.arch).size())),
                     m.asym_packing ? tr(", asym packing") : QString());
    if (!m.source.empty())
        text += QStringLiteral("<br><br><i>%1</i>").arg(esc(m.source));
    about_machine_->setText(text);
}

}  // namespace wb
