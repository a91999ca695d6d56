// SPDX-License-Identifier: Apache-2.0
#include "export/window_export.h"

#include <QChart>
#include <QChartView>
#include <QPalette>
#include <algorithm>

#include "charts/charts_panel.h"
#include "charts/headline_chart.h"
#include "charts/latency_cdf_chart.h"
#include "charts/placement_chart.h"
#include "charts/throughput_chart.h"
#include "decision/decision_diagram.h"
#include "decision/recent_wakeups.h"
#include "base/sim_time.h"
#include "main_window.h"
#include "metrics/comparison.h"
#include "sim/sim_session.h"
#include "topology/machine.h"
#include "views/topology_view.h"
#include "widgets/policy_grid.h"
#include "window_text.h"

namespace wb {

namespace {

QString qstr(const std::string& s)
{
    return QString::fromStdString(s);
}

// As the grid's header writes it: "usecs/op 3.407", "Time 0.009 s".
QString figure_text(const std::string& name, double value, const std::string& unit)
{
    QString text = QStringLiteral("%1 %2").arg(qstr(name)).arg(value, 0, 'f', 3);
    if (!qstr(name).contains(QLatin1Char('/')) && !unit.empty())
        text += QLatin1Char(' ') + qstr(unit);
    return text;
}

// The headline chart holds the full comparison once it has run; its
// figures are then the means over the runs, not the one seed on screen.
bool shows_comparison(const MainWindow& window, ExportTarget target)
{
    return export_target_needs_comparison(target) && window.comparison();
}

QString title_for(const MainWindow& window, bool comparison)
{
    if (!window.hasScenario())
        return QStringLiteral("Wakebench");
    const Scenario& scenario = window.scenario();
    QStringList parts{qstr(scenario.name)};
    if (window.hasMachine())
        parts << qstr(window.machine().name);
    if (comparison) {
        parts << QStringLiteral("every case, %1 per policy").arg(plural(window.comparison()->runs, "run", "runs"));
        return parts.join(QStringLiteral(" \u00b7 "));
    }
    const auto case_index = static_cast<std::size_t>(window.caseIndex());
    if (case_index < scenario.cases.size())
        parts << QStringLiteral("%1: %2").arg(qstr(scenario.cases[case_index].label),
                                              qstr(scenario.cases[case_index].workload));
    const SimSession* session = window.session();
    if (session->hasFrame() && !session->lastFrame().runs.empty()) {
        Time now;
        for (const RunSnapshot& run : session->lastFrame().runs)
            now = std::max(now, run.now);
        parts << QStringLiteral("simulated %1").arg(duration_text(now));
    }
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString figure_for(const MainWindow& window, int policy, bool comparison)
{
    const auto p = static_cast<std::size_t>(policy);
    if (comparison) {
        const Comparison& c = *window.comparison();
        const auto case_index = static_cast<std::size_t>(window.caseIndex());
        if (p >= c.policies.size() || case_index >= c.cases.size())
            return {};
        const ComparisonCell& cell = c.cell(p, case_index);
        return QStringLiteral("%1 (%2, mean)")
            .arg(figure_text(cell.metric, cell.summary.mean, cell.unit), qstr(cell.case_label));
    }
    const SimSession* session = window.session();
    if (!session->hasFrame() || p >= session->lastFrame().runs.size())
        return {};
    const Headline& h = session->lastFrame().runs[p].headline;
    return figure_text(h.name, h.value, h.unit);
}

ExportFrame captioned(const MainWindow& window, bool comparison)
{
    ExportFrame frame;
    frame.title = title_for(window, comparison);
    for (int i = 0; i < window.gridCount(); ++i) {
        const PolicyGrid* grid = window.grid(i);
        frame.legend.push_back({grid->policy(), grid->colour(), figure_for(window, i, comparison)});
    }
    frame.background = window.palette().color(QPalette::Base);
    frame.text = window.palette().color(QPalette::Text);
    return frame;
}

ExportPanel grid_panel(const PolicyGrid* grid)
{
    return {grid->view(), grid->policy(), grid->colour()};
}

}  // namespace

ExportFrame window_export_frame(MainWindow& window, ExportTarget target)
{
    if (target == ExportTarget::Window) {
        ExportFrame frame;
        frame.panels = {{&window, {}, {}}};
        frame.background = window.palette().color(QPalette::Window);
        return frame;
    }
    ExportFrame frame = captioned(window, shows_comparison(window, target));
    const ChartsPanel* charts = window.chartsPanel();
    switch (target) {
    case ExportTarget::Window:
        break;
    case ExportTarget::Grids:
        for (int i = 0; i < window.gridCount(); ++i)
            frame.panels.push_back(grid_panel(window.grid(i)));
        break;
    case ExportTarget::Decision:
        frame.panels = {{window.decisionDiagram(), {}, {}}};
        break;
    case ExportTarget::Throughput:
        frame.panels = {{charts->throughput(), {}, {}}};
        break;
    case ExportTarget::Latency:
        frame.panels = {{charts->latency(), {}, {}}};
        break;
    case ExportTarget::Headline:
        frame.panels = {{charts->headline(), {}, {}}};
        break;
    case ExportTarget::Placement:
        frame.panels = {{charts->placement(), {}, {}}};
        break;
    }
    return frame;
}

ExportFrame window_export_frame(MainWindow& window, QWidget* view)
{
    const bool headline = view == window.chartsPanel()->headline();
    ExportFrame frame = captioned(window, headline && window.comparison());
    for (int i = 0; i < window.gridCount(); ++i) {
        if (window.grid(i)->view() == view) {
            frame.panels = {grid_panel(window.grid(i))};
            return frame;
        }
    }
    frame.panels = {{view, {}, {}}};
    return frame;
}

QString window_view_label(MainWindow& window, QWidget* view)
{
    for (int i = 0; i < window.gridCount(); ++i)
        if (window.grid(i)->view() == view)
            return QStringLiteral("%1's grid").arg(window.grid(i)->policy());
    if (view == window.decisionDiagram())
        return QStringLiteral("the decision diagram");
    if (view == window.recentWakeups())
        return QStringLiteral("the recent wakeups");
    if (auto* chart = qobject_cast<QChartView*>(view))
        return chart->chart()->title();
    return QStringLiteral("the view");
}

}  // namespace wb
