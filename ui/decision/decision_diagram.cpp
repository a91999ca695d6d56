// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_diagram.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>
#include <QSet>
#include <QTextDocument>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "decision/decision_details.h"
#include "decision/decision_graph.h"
#include "decision/decision_items.h"
#include "decision/decision_text.h"
#include "policies/registry.h"

namespace wb {

namespace {

constexpr double kRowGap = 5;
constexpr double kIndent = 14;  // per call level
constexpr int kMaxIndent = 3;
constexpr double kMargin = 4;
// Below this the nodes would wrap every word: the view scrolls sideways
// instead.
constexpr double kMinLayoutWidth = 260;
constexpr double kZoomStep = 1.25;
constexpr int kDefaultInterval = 250;

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString coloured_name(const LabelledRecord& r)
{
    return QStringLiteral("<b style=\"color:%1\">%2</b>").arg(r.colour.name(), r.policy.toHtmlEscaped());
}

}  // namespace

struct DecisionDiagram::State {
    // One record's passage through a row.
    struct Visit {
        QStringList details;  // one per step that lit the row
        QStringList order;    // those steps' numbers
        bool final = false;
    };
    struct Row {
        QString key;
        int indent = 0;
        DecisionNodeItem* node = nullptr;
        std::map<int, Visit> visits;  // by lane, for the records shown
        // Every (function, branch) seen here, for the breakpoint menu of
        // nodes the fixed graph does not describe.
        std::vector<std::pair<QString, QString>> seen;
        // The branches the records shown took here, in lane order.
        std::vector<std::pair<QString, QString>> taken;
    };
    // One record being lit.
    struct Lane {
        LabelledRecord rec;
        std::size_t next = 0;
        bool chosen_lit = false;
        QStringList lit;
        std::vector<Row*> path;  // rows in the order reached, headers included
    };
    using EdgeKey = std::pair<QString, QString>;

    QGraphicsScene* scene = nullptr;
    QGraphicsTextItem* legend = nullptr;
    const DiagramInk* ink = &DiagramInk::light();
    std::vector<std::unique_ptr<Row>> owned;
    std::vector<Row*> rows;  // top to bottom
    std::map<QString, Row*> by_key;
    std::map<EdgeKey, DecisionEdgeItem*> mainline;
    std::map<std::tuple<int, QString, QString>, DecisionEdgeItem*> lane_edges;  // built once, hidden when not taken
    QSet<QString> policy_names;

    QTimer timer;
    int interval = kDefaultInterval;
    LabelledRecords shown;
    std::vector<Lane> lanes;
    bool done = true;
    std::vector<Row*> touched;
    std::vector<DecisionEdgeItem*> taken;

    QFont font;
    double width = 400;
    double zoom = 1;

    Row* row(const QString& key) const
    {
        const auto it = by_key.find(key);
        return it == by_key.end() ? nullptr : it->second;
    }

    Row* add_row(std::size_t position, const QString& key, const QString& title, const QString& note, int indent,
                 DecisionNodeItem::Kind kind)
    {
        auto r = std::make_unique<Row>();
        r->key = key;
        r->indent = indent;
        r->node = new DecisionNodeItem(key, title, note, kind);
        r->node->setInk(*ink);
        r->node->setBaseFont(font);
        scene->addItem(r->node);
        Row* raw = r.get();
        owned.push_back(std::move(r));
        rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(std::min(position, rows.size())), raw);
        by_key[key] = raw;
        return raw;
    }

    bool labelled() const
    {
        return std::any_of(shown.begin(), shown.end(), [](const LabelledRecord& r) { return !r.policy.isEmpty(); });
    }

    int lane_count() const { return std::max<int>(1, static_cast<int>(lanes.size())); }

    void apply_font(const QFont& f)
    {
        font = f;
        legend->setFont(f);
        for (Row* r : rows)
            r->node->setBaseFont(f);
    }

    // Top to bottom for `width`: the legend, then one node per row, each
    // as tall as its wrapped text.
    void layout()
    {
        const double gutter = DecisionEdgeItem::maxReach(lane_count());
        double y = 0;
        if (legend->isVisible()) {
            legend->setTextWidth(width);
            legend->setPos(0, 0);
            y += legend->boundingRect().height() + kRowGap;
        }
        for (Row* r : rows) {
            const double x = gutter + std::min(r->indent, kMaxIndent) * kIndent;
            // Two short of the width: the node's outline is drawn outside it.
            r->node->setWidth(std::max(80.0, width - x - 2));
            r->node->setPos(x, y);
            y += r->node->size().height() + kRowGap;
        }
        for (auto& [key, e] : mainline)
            e->updatePath();
        for (DecisionEdgeItem* e : taken)
            e->updatePath();
        // The arcs stay right of x = 0 (the gutter is their reach), so the
        // scene starts there and the nodes end at the view's right edge.
        scene->setSceneRect(QRectF(0, -kMargin, width, y + 2 * kMargin));
    }

    DecisionEdgeItem* lane_edge(int lane, Row* from, Row* to)
    {
        DecisionEdgeItem*& e = lane_edges[{lane, from->key, to->key}];
        if (!e) {
            e = new DecisionEdgeItem(from->node, to->node, lane);
            e->setInk(*ink);
            scene->addItem(e);
        }
        e->setVisible(true);
        return e;
    }

    // The node's look from its visits: badges, stripes, and the deciding
    // values, policies with the same text on one line.
    void restyle(Row* r)
    {
        std::vector<DecisionNodeItem::Visit> visits;
        std::vector<std::pair<QString, std::vector<int>>> texts;  // text, the lanes that wrote it
        for (const auto& [lane, v] : r->visits) {
            visits.push_back(
                {lanes[static_cast<std::size_t>(lane)].rec.colour, v.order.join(QLatin1Char(',')), v.final});
            const QString text = v.details.join(QLatin1Char('\n'));
            if (text.isEmpty())
                continue;
            auto same = std::find_if(texts.begin(), texts.end(), [&](const auto& t) { return t.first == text; });
            if (same == texts.end())
                texts.push_back({text, {lane}});
            else
                same->second.push_back(lane);
        }
        QStringList html;
        const bool names = labelled();
        for (const auto& [text, by] : texts) {
            QString line;
            if (names) {
                QStringList who;
                for (int lane : by)
                    who << coloured_name(lanes[static_cast<std::size_t>(lane)].rec);
                line = who.join(QStringLiteral(", ")) + QStringLiteral(": ");
            }
            line += text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
            html << line;
        }
        r->node->setVisits(std::move(visits));
        r->node->setDetailHtml(html.join(QStringLiteral("<br>")));
    }

    void reset()
    {
        timer.stop();
        for (Row* r : touched) {
            r->visits.clear();
            r->taken.clear();
            r->node->setVisits({});
            r->node->setDetailHtml(QString());
        }
        for (DecisionEdgeItem* e : taken) {
            e->setUntaken();
            e->setVisible(false);
        }
        touched.clear();
        taken.clear();
        lanes.clear();
        shown.clear();
        legend->setVisible(false);
        done = true;
    }

    Visit& visit_of(Row* r, int lane) { return r->visits[lane]; }

    void visit(int lane, Row* r)
    {
        Lane& l = lanes[static_cast<std::size_t>(lane)];
        if (!l.path.empty() && l.path.back() != r) {
            DecisionEdgeItem* e = lane_edge(lane, l.path.back(), r);
            e->setTaken(l.rec.colour);
            taken.push_back(e);
        }
        if (l.path.empty() || l.path.back() != r)
            l.path.push_back(r);
        if (std::find(touched.begin(), touched.end(), r) == touched.end())
            touched.push_back(r);
        visit_of(r, lane);
        restyle(r);
    }

    bool reached(int lane, const Row* r) const
    {
        const auto& path = lanes[static_cast<std::size_t>(lane)].path;
        return std::find(path.begin(), path.end(), r) != path.end();
    }

    QString header_detail(const DecisionRecord& rec, const QString& key) const
    {
        if (key == qstr(decision_graph::kEntry))
            return QStringLiteral("%1 on %2 wakes %3, prev %4, %5")
                .arg(waker_text(rec), cpu_text(rec.waker_cpu), task_text(rec.wakee), cpu_text(rec.prev_cpu),
                     wake_flags_text(rec.wake_flags));
        if (key == qstr(decision_graph::kIdleSibling))
            return QStringLiteral("target %1, prev %2").arg(cpu_text(rec.target), cpu_text(rec.prev_cpu));
        return {};
    }

    // Lights the implicit headers a fixed node hangs under, outermost first.
    void enter_headers(int lane, const QString& key)
    {
        const std::string bytes = key.toStdString();
        const std::string_view header = decision_graph::header_of(bytes);
        if (header.empty())
            return;
        Row* h = row(qstr(header));
        if (!h || reached(lane, h))
            return;
        enter_headers(lane, h->key);
        const QString detail = header_detail(lanes[static_cast<std::size_t>(lane)].rec.record, h->key);
        if (!detail.isEmpty())
            visit_of(h, lane).details = QStringList{detail};
        visit(lane, h);
    }

    Row* row_for(int lane, const QString& function, const QString& branch)
    {
        const std::string fn = function.toStdString();
        const std::string br = branch.toStdString();
        const std::string_view key = decision_graph::node_of(fn, br);
        if (!key.empty())
            return row(qstr(key));
        const bool policy = policy_names.contains(function);
        const QString dynamic_key = (policy ? QStringLiteral("policy:") : QStringLiteral("function:")) + function;
        if (Row* r = row(dynamic_key))
            return r;
        // Placed right after the step before it, so that a patch's step
        // reads in context; without one, at the top of the fair path.
        std::size_t position = 0;
        int indent = 1;
        const auto& path = lanes[static_cast<std::size_t>(lane)].path;
        if (!path.empty()) {
            Row* prev = path.back();
            position = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), prev) - rows.begin()) + 1;
            indent = std::clamp(prev->indent, 1, kMaxIndent);
        } else if (Row* entry = row(qstr(decision_graph::kEntry))) {
            position = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), entry) - rows.begin());
        }
        return add_row(position, dynamic_key, function,
                       policy ? QStringLiteral("the policy's own step") : QStringLiteral("not in the diagram"), indent,
                       policy ? DecisionNodeItem::Kind::Policy : DecisionNodeItem::Kind::Unknown);
    }

    // Lights lane `lane`'s next step and returns its row; null when the
    // lane has no step left.
    Row* light_step(int lane)
    {
        Lane& l = lanes[static_cast<std::size_t>(lane)];
        if (l.next >= l.rec.record.steps.size())
            return nullptr;
        const std::size_t index = l.next++;
        const DecisionStep& step = l.rec.record.steps[index];
        const QString function = qstr(step.function);
        const QString branch = qstr(step.branch);
        Row* r = row_for(lane, function, branch);
        enter_headers(lane, r->key);

        Visit& v = visit_of(r, lane);
        v.order << QString::number(index + 1);
        QString line = branch;
        if (!step.detail.empty())
            line += QStringLiteral(": ") + QString::fromStdString(step.detail);
        if (step.result != kNoCpu)
            line += QStringLiteral(" \u2192 ") + cpu_text(step.result);
        v.details << line;
        const std::pair taken_here(function, branch);
        if (std::find(r->taken.begin(), r->taken.end(), taken_here) == r->taken.end())
            r->taken.push_back(taken_here);
        if (std::find(r->seen.begin(), r->seen.end(), taken_here) == r->seen.end())
            r->seen.push_back(taken_here);
        visit(lane, r);
        l.lit << function + QStringLiteral(": ") + branch;
        return r;
    }

    void light_chosen(int lane)
    {
        Lane& l = lanes[static_cast<std::size_t>(lane)];
        l.chosen_lit = true;
        const DecisionRecord& rec = l.rec.record;
        // The node that decided: the last step that returned the chosen CPU.
        for (auto it = rec.steps.rbegin(); it != rec.steps.rend(); ++it) {
            if (it->result != rec.chosen || rec.chosen == kNoCpu)
                continue;
            if (Row* r = row_for(lane, qstr(it->function), qstr(it->branch))) {
                visit_of(r, lane).final = true;
                restyle(r);
            }
            break;
        }
        Row* chosen = row(qstr(decision_graph::kChosen));
        Visit& v = visit_of(chosen, lane);
        v.final = true;
        v.details = QStringList{QStringLiteral("%1 via %2; from waker %3: %4; from prev %5: %6")
                                    .arg(cpu_text(rec.chosen), qstr(wake_path_name(rec.path)), cpu_text(rec.waker_cpu),
                                         qstr(distance_class_name(rec.from_waker)), cpu_text(rec.prev_cpu),
                                         qstr(distance_class_name(rec.from_prev)))};
        visit(lane, chosen);
    }

    // "wakeup #41, paths part at step 3", then a line per policy:
    // "■ baseline → cpu 5". Which colour is whose, where each put the task,
    // and where to look. One line each, because Qt's text layout breaks a
    // name at its hyphens ("sync-waker-|v3") when entries share a line.
    void update_legend()
    {
        legend->setVisible(labelled());
        if (!legend->isVisible())
            return;
        bool same_wakeup = true;
        for (const LabelledRecord& r : shown)
            same_wakeup &= r.record.seq == shown.front().record.seq;
        QStringList heading;
        if (same_wakeup)
            heading << QStringLiteral("wakeup #%1").arg(shown.front().record.seq);
        // Where the first two part: the step to read first. Their n-th
        // wakeups are different ones once the runs have drifted apart.
        if (!same_wakeup)
            heading << QStringLiteral("different wakeups: the runs have drifted apart");
        else if (shown.size() > 1) {
            const int at = first_parting_step(shown[0].record, shown[1].record);
            heading << (at < 0 ? QStringLiteral("same path") : QStringLiteral("paths part at step %1").arg(at + 1));
        }
        QStringList lines;
        if (!heading.isEmpty())
            lines << heading.join(QStringLiteral(", "));
        for (const LabelledRecord& r : shown) {
            QString e =
                QStringLiteral("<span style=\"color:%1\">\u25a0</span> %2").arg(r.colour.name(), coloured_name(r));
            if (!same_wakeup)
                e += QStringLiteral(" #%1").arg(r.record.seq);
            lines << e + QStringLiteral(" \u2192 ") + cpu_text(r.record.chosen);
        }
        legend->setHtml(lines.join(QStringLiteral("<br>")));
    }
};

DecisionDiagram::DecisionDiagram(QWidget* parent) : QGraphicsView(parent), d_(std::make_unique<State>())
{
    d_->scene = new QGraphicsScene(this);
    d_->scene->setItemIndexMethod(QGraphicsScene::NoIndex);
    d_->scene->setBackgroundBrush(d_->ink->background);
    setScene(d_->scene);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    // Always there, so that the width the text is laid out for does not
    // change when the scroll bar would come and go (and lay out again).
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setFocusPolicy(Qt::StrongFocus);

    d_->font = font();
    d_->legend = new QGraphicsTextItem;
    d_->legend->document()->setDocumentMargin(2);
    d_->legend->setFont(d_->font);
    // The scene's own ink, not the palette's: setDark() switches both.
    d_->legend->setDefaultTextColor(d_->ink->ink);
    d_->legend->setVisible(false);
    d_->scene->addItem(d_->legend);

    for (const PolicyInfo* info : policy_catalog())
        d_->policy_names.insert(qstr(info->name));

    for (const decision_graph::Node& n : decision_graph::nodes())
        d_->add_row(d_->rows.size(), qstr(n.key), qstr(n.title), qstr(n.note), n.indent, DecisionNodeItem::Kind::Fixed);
    for (const auto& [from, to] : decision_graph::edges()) {
        State::Row* a = d_->row(qstr(from));
        State::Row* b = d_->row(qstr(to));
        if (a && b && !d_->mainline.count({a->key, b->key})) {
            auto* e = new DecisionEdgeItem(a->node, b->node);
            e->setInk(*d_->ink);
            d_->scene->addItem(e);
            d_->mainline[{a->key, b->key}] = e;
        }
    }
    relayout();

    d_->timer.setSingleShot(false);
    connect(&d_->timer, &QTimer::timeout, this, &DecisionDiagram::lightNextStep);
}

DecisionDiagram::~DecisionDiagram() = default;

void DecisionDiagram::setDark(bool dark)
{
    d_->ink = dark ? &DiagramInk::dark() : &DiagramInk::light();
    d_->scene->setBackgroundBrush(d_->ink->background);
    d_->legend->setDefaultTextColor(d_->ink->ink);
    for (const auto& row : d_->owned)
        if (row->node)
            row->node->setInk(*d_->ink);
    for (const auto& [key, edge] : d_->mainline)
        edge->setInk(*d_->ink);
    for (const auto& [key, edge] : d_->lane_edges)
        if (edge)
            edge->setInk(*d_->ink);
}

const DiagramInk& DecisionDiagram::ink() const
{
    return *d_->ink;
}

void DecisionDiagram::setAnimationInterval(int ms)
{
    d_->interval = std::max(0, ms);
    if (d_->timer.isActive()) {
        if (d_->interval == 0)
            finishAnimation();
        else
            d_->timer.start(d_->interval);
    }
}

int DecisionDiagram::animationInterval() const
{
    return d_->interval;
}

bool DecisionDiagram::isAnimating() const
{
    return !d_->done;
}

void DecisionDiagram::showRecord(const DecisionRecord& rec, const QColor& policy_colour)
{
    showRecords({LabelledRecord{QString(), policy_colour, rec}});
}

void DecisionDiagram::showRecords(const LabelledRecords& records)
{
    d_->reset();
    d_->shown = records;
    for (const LabelledRecord& r : records)
        d_->lanes.push_back({r, 0, false, {}, {}});
    d_->update_legend();
    d_->done = d_->lanes.empty();
    emit recordsChanged();
    if (d_->done) {
        relayout();
        return;
    }
    if (d_->interval == 0) {
        finishAnimation();
        return;
    }
    // An animated record is read from the top, legend first; the view then
    // follows the steps as they light.
    verticalScrollBar()->setValue(verticalScrollBar()->minimum());
    lightNextStep();
    if (!d_->done)
        d_->timer.start(d_->interval);
}

void DecisionDiagram::finishAnimation()
{
    d_->timer.stop();
    if (d_->done)
        return;
    // One layout at the end, not one per step.
    const int interval = std::exchange(d_->interval, 0);
    while (!d_->done)
        lightNextStep();
    d_->interval = interval;
}

void DecisionDiagram::clear()
{
    d_->reset();
    emit recordsChanged();
    relayout();
}

// One tick: every record lights its next step, or its chosen CPU once it
// has none left, so that the policies' paths grow side by side.
void DecisionDiagram::lightNextStep()
{
    if (d_->done)
        return;
    // The first tick leaves the view at the top, where showRecords() put
    // it, so that the legend is read first.
    const bool first_tick =
        std::all_of(d_->lanes.begin(), d_->lanes.end(), [](const State::Lane& l) { return l.next == 0; });
    State::Row* first_lit = nullptr;
    int step_index = -1;
    bool all_done = true;
    for (int lane = 0; lane < static_cast<int>(d_->lanes.size()); ++lane) {
        State::Lane& l = d_->lanes[static_cast<std::size_t>(lane)];
        if (l.chosen_lit)
            continue;
        if (State::Row* r = d_->light_step(lane)) {
            if (!first_lit)
                first_lit = r;
            step_index = static_cast<int>(l.next) - 1;
        } else {
            d_->light_chosen(lane);
        }
        all_done &= l.chosen_lit;
    }
    if (d_->interval > 0 || all_done)
        relayout();
    if (d_->interval > 0 && first_lit && !first_tick)
        ensureVisible(first_lit->node, 20, 40);
    if (step_index >= 0)
        emit stepLit(step_index);
    if (all_done) {
        d_->done = true;
        d_->timer.stop();
        emit animationFinished();
    }
}

QStringList DecisionDiagram::litSteps(int index) const
{
    if (index < 0 || index >= static_cast<int>(d_->lanes.size()))
        return {};
    return d_->lanes[static_cast<std::size_t>(index)].lit;
}

const DecisionRecord* DecisionDiagram::record() const
{
    return d_->shown.empty() ? nullptr : &d_->shown.front().record;
}

const LabelledRecords& DecisionDiagram::records() const
{
    return d_->shown;
}

DecisionNodeItem* DecisionDiagram::nodeFor(const QString& function, const QString& branch) const
{
    const std::string fn = function.toStdString();
    const std::string br = branch.toStdString();
    const std::string_view key = decision_graph::node_of(fn, br);
    State::Row* r = !key.empty() ? d_->row(qstr(key)) : d_->row(QStringLiteral("policy:") + function);
    if (!r)
        r = d_->row(QStringLiteral("function:") + function);
    return r ? r->node : nullptr;
}

QString DecisionDiagram::detailFor(const QString& function, const QString& branch) const
{
    DecisionNodeItem* node = nodeFor(function, branch);
    return node ? node->detailText() : QString();
}

int DecisionDiagram::nodeCount() const
{
    return static_cast<int>(d_->rows.size());
}

const QGraphicsTextItem* DecisionDiagram::legend() const
{
    return d_->legend;
}

// --- layout and zoom ------------------------------------------------------------

void DecisionDiagram::relayout()
{
    if (font() != d_->font)
        d_->apply_font(font());
    // One pixel short of the viewport, so that rounding never brings up a
    // horizontal scroll bar at "fit".
    d_->width = std::max(kMinLayoutWidth, (viewport()->width() - 1) / d_->zoom);
    d_->layout();
    setTransform(QTransform::fromScale(d_->zoom, d_->zoom));
}

double DecisionDiagram::zoom() const
{
    return d_->zoom;
}

void DecisionDiagram::setZoom(double zoom)
{
    zoomAround(zoom, viewport()->height() / 2);
}

void DecisionDiagram::zoomIn()
{
    setZoom(d_->zoom * kZoomStep);
}

void DecisionDiagram::zoomOut()
{
    setZoom(d_->zoom / kZoomStep);
}

void DecisionDiagram::fitToWidth()
{
    setZoom(kMinZoom);
}

void DecisionDiagram::zoomAround(double zoom, int view_y)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    // Snap to "fit" when a step lands within a hair of it.
    if (std::abs(zoom - kMinZoom) < 0.01)
        zoom = kMinZoom;
    if (zoom == d_->zoom)
        return;
    // The text wraps anew at every zoom, so a scene point does not stay
    // put: keep the node under `view_y`, at the same fraction of its height.
    const double scene_y = mapToScene(QPoint(0, view_y)).y();
    State::Row* anchor = nullptr;
    for (State::Row* r : d_->rows)
        if (r->node->y() <= scene_y)
            anchor = r;
    const double fraction =
        anchor ? std::clamp((scene_y - anchor->node->y()) / std::max(1.0, anchor->node->size().height()), 0.0, 1.0)
               : 0.0;
    d_->zoom = zoom;
    relayout();
    if (anchor) {
        const double target = anchor->node->y() + fraction * anchor->node->size().height();
        const double now = mapToScene(QPoint(0, view_y)).y();
        verticalScrollBar()->setValue(verticalScrollBar()->value() +
                                      static_cast<int>(std::lround((target - now) * zoom)));
    }
    emit zoomChanged(zoom);
}

namespace {

enum class ZoomKey { None, In, Out, Fit };

ZoomKey zoom_key(const QKeyEvent* e)
{
    if (!(e->modifiers() & Qt::ControlModifier))
        return ZoomKey::None;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        return ZoomKey::In;
    case Qt::Key_Minus:
        return ZoomKey::Out;
    case Qt::Key_0:
        return ZoomKey::Fit;
    default:
        return ZoomKey::None;
    }
}

}  // namespace

bool DecisionDiagram::event(QEvent* event)
{
    // The window's Ctrl+0 fits the machine in the grids; while the diagram
    // has the focus, its zoom keys are the diagram's.
    if (event->type() == QEvent::ShortcutOverride && zoom_key(static_cast<QKeyEvent*>(event)) != ZoomKey::None) {
        event->accept();
        return true;
    }
    return QGraphicsView::event(event);
}

void DecisionDiagram::keyPressEvent(QKeyEvent* event)
{
    switch (zoom_key(event)) {
    case ZoomKey::In:
        zoomIn();
        return;
    case ZoomKey::Out:
        zoomOut();
        return;
    case ZoomKey::Fit:
        fitToWidth();
        return;
    case ZoomKey::None:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

void DecisionDiagram::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches != 0)
        zoomAround(d_->zoom * std::pow(kZoomStep, notches), static_cast<int>(event->position().y()));
    event->accept();
}

void DecisionDiagram::changeEvent(QEvent* event)
{
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        relayout();
}

void DecisionDiagram::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    relayout();
}

// --- breakpoints ------------------------------------------------------------------

QMenu* DecisionDiagram::createBranchMenu(const QPoint& view_pos, QWidget* parent)
{
    DecisionNodeItem* node = nullptr;
    for (QGraphicsItem* item : items(view_pos)) {
        if (item->type() == DecisionNodeItem::Type) {
            node = static_cast<DecisionNodeItem*>(item);
            break;
        }
    }
    if (!node)
        return nullptr;
    const State::Row* r = d_->row(node->key());
    std::vector<std::pair<QString, QString>> known;
    const std::string key = node->key().toStdString();
    for (const decision_graph::Branch& b : decision_graph::branches())
        if (b.node == key)
            known.emplace_back(qstr(b.function), qstr(b.branch));
    for (const auto& seen : r->seen)
        if (std::find(known.begin(), known.end(), seen) == known.end())
            known.push_back(seen);
    if (known.empty())
        return nullptr;

    auto* menu = new QMenu(parent);
    auto request = [this](const QString& function, const QString& branch) {
        return [this, function, branch] { emit breakOnBranchRequested(function, branch); };
    };
    // The branch each record shown took here, the last one first: two
    // policies that part at this node offer both.
    for (auto it = r->taken.rbegin(); it != r->taken.rend(); ++it) {
        const auto& [function, branch] = *it;
        QAction* taken = menu->addAction(QStringLiteral("Pause when this branch is taken: %1").arg(branch));
        taken->setToolTip(function + QStringLiteral(": ") + branch);
        connect(taken, &QAction::triggered, this, request(function, branch));
    }
    if (r->taken.empty())
        menu->addAction(QStringLiteral("Pause when this branch is taken"))->setEnabled(false);
    QMenu* others = menu->addMenu(QStringLiteral("Pause when another branch of %1 is taken").arg(node->title()));
    for (const auto& [function, branch] : known) {
        QAction* a = others->addAction(function + QStringLiteral(": ") + branch);
        connect(a, &QAction::triggered, this, request(function, branch));
    }
    return menu;
}

void DecisionDiagram::contextMenuEvent(QContextMenuEvent* event)
{
    std::unique_ptr<QMenu> menu(createBranchMenu(event->pos(), this));
    if (!menu) {
        QGraphicsView::contextMenuEvent(event);
        return;
    }
    menu->exec(event->globalPos());
}

}  // namespace wb
