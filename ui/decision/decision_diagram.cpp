// SPDX-License-Identifier: Apache-2.0
#include "decision/decision_diagram.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QFont>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMenu>
#include <QSet>
#include <QTimer>
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "decision/decision_graph.h"
#include "decision/decision_items.h"
#include "decision/decision_text.h"
#include "policies/registry.h"
#include "sched/decision.h"

namespace wb {

namespace {

constexpr double kPitch = 42;    // one node per row
constexpr double kIndent = 22;   // per call level
constexpr double kGutter = 170;  // room for the edges' arcs, left of the nodes
constexpr int kMaxIndent = 3;
constexpr double kDetailGap = 18;
constexpr double kDetailWidth = 380;  // what fitting the width leaves room for
constexpr int kDefaultInterval = 250;

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

double detail_x()
{
    return kGutter + kMaxIndent * kIndent + DecisionNodeItem::size().width() + kDetailGap;
}

}  // namespace

struct DecisionDiagram::State {
    struct Row {
        QString key;
        int indent = 0;
        DecisionNodeItem* node = nullptr;
        QGraphicsSimpleTextItem* detail = nullptr;
        QStringList details;  // this record's, one per visit
        QStringList order;    // this record's step numbers
        // Every (function, branch) seen here, for the breakpoint menu of
        // nodes the fixed graph does not describe.
        std::vector<std::pair<QString, QString>> seen;
        QString last_function;  // the branch this record last took here
        QString last_branch;
    };
    struct Edge {
        DecisionEdgeItem* item = nullptr;
        bool fixed = false;  // from the mainline graph: stays drawn while untaken
    };

    QGraphicsScene* scene = nullptr;
    std::vector<std::unique_ptr<Row>> owned;
    std::vector<Row*> rows;  // top to bottom
    std::map<QString, Row*> by_key;
    std::map<std::pair<QString, QString>, Edge> edges;
    QSet<QString> policy_names;

    QTimer timer;
    int interval = kDefaultInterval;
    std::unique_ptr<DecisionRecord> rec;
    QColor colour;
    std::size_t next = 0;
    bool done = true;
    QStringList lit;
    std::vector<Row*> path;  // rows in the order reached, headers included
    std::vector<Row*> touched;
    std::vector<DecisionEdgeItem*> taken;

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
        scene->addItem(r->node);
        r->detail = new QGraphicsSimpleTextItem;
        QFont f;
        f.setPointSizeF(8);
        r->detail->setFont(f);
        r->detail->setBrush(QColor(0x22, 0x22, 0x22));
        r->detail->setVisible(false);
        r->detail->setZValue(20);
        scene->addItem(r->detail);
        Row* raw = r.get();
        owned.push_back(std::move(r));
        rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(std::min(position, rows.size())), raw);
        by_key[key] = raw;
        return raw;
    }

    void layout()
    {
        const double dx = detail_x();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            Row* r = rows[i];
            const double y = static_cast<double>(i) * kPitch;
            r->node->setPos(kGutter + r->indent * kIndent, y);
            r->detail->setPos(dx, y + (DecisionNodeItem::size().height() - r->detail->boundingRect().height()) / 2);
        }
        for (auto& [key, edge] : edges)
            edge.item->updatePath();
        update_scene_rect();
    }

    void update_scene_rect()
    {
        QRectF r = scene->itemsBoundingRect();
        r.setLeft(std::min(r.left(), 0.0));
        scene->setSceneRect(r.adjusted(-12, -12, 12, 12));
    }

    DecisionEdgeItem* edge(Row* from, Row* to)
    {
        Edge& e = edges[{from->key, to->key}];
        if (!e.item) {
            e.item = new DecisionEdgeItem(from->node, to->node);
            scene->addItem(e.item);
        }
        e.item->setVisible(true);
        return e.item;
    }

    void reset()
    {
        timer.stop();
        for (Row* r : touched) {
            r->node->setUnlit();
            r->details.clear();
            r->order.clear();
            r->last_function.clear();
            r->last_branch.clear();
            r->detail->setText(QString());
            r->detail->setVisible(false);
        }
        for (DecisionEdgeItem* e : taken) {
            e->setUntaken();
            if (!edges[{e->from()->key(), e->to()->key()}].fixed)
                e->setVisible(false);
        }
        touched.clear();
        taken.clear();
        path.clear();
        lit.clear();
        next = 0;
        done = true;
    }

    void visit(Row* r)
    {
        if (!path.empty() && path.back() != r) {
            DecisionEdgeItem* e = edge(path.back(), r);
            e->setTaken(colour);
            taken.push_back(e);
        }
        if (path.empty() || path.back() != r)
            path.push_back(r);
        if (std::find(touched.begin(), touched.end(), r) == touched.end())
            touched.push_back(r);
        r->node->setLit(colour, r->order.join(QLatin1Char(',')));
    }

    bool reached(const Row* r) const { return std::find(path.begin(), path.end(), r) != path.end(); }

    void set_detail(Row* r, const QString& text)
    {
        r->detail->setText(text);
        r->detail->setVisible(!text.isEmpty());
    }

    QString header_detail(const QString& key) const
    {
        if (key == qstr(decision_graph::kEntry))
            return QStringLiteral("%1 on %2 wakes %3, prev %4, %5")
                .arg(waker_text(*rec), cpu_text(rec->waker_cpu), task_text(rec->wakee), cpu_text(rec->prev_cpu),
                     wake_flags_text(rec->wake_flags));
        if (key == qstr(decision_graph::kIdleSibling))
            return QStringLiteral("target %1, prev %2").arg(cpu_text(rec->target), cpu_text(rec->prev_cpu));
        return {};
    }

    // Lights the implicit headers a fixed node hangs under, outermost first.
    void enter_headers(const QString& key)
    {
        const std::string bytes = key.toStdString();
        const std::string_view header = decision_graph::header_of(bytes);
        if (header.empty())
            return;
        Row* h = row(qstr(header));
        if (!h || reached(h))
            return;
        enter_headers(h->key);
        visit(h);
        set_detail(h, header_detail(h->key));
    }

    Row* row_for(const QString& function, const QString& branch)
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
        if (!path.empty()) {
            Row* prev = path.back();
            position = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), prev) - rows.begin()) + 1;
            indent = std::clamp(prev->indent, 1, kMaxIndent);
        } else if (Row* entry = row(qstr(decision_graph::kEntry))) {
            position = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), entry) - rows.begin());
        }
        Row* r = add_row(position, dynamic_key, function,
                         policy ? QStringLiteral("the policy's own step") : QStringLiteral("not in the diagram"),
                         indent, policy ? DecisionNodeItem::Kind::Policy : DecisionNodeItem::Kind::Unknown);
        layout();
        return r;
    }
};

DecisionDiagram::DecisionDiagram(QWidget* parent) : QGraphicsView(parent), d_(std::make_unique<State>())
{
    d_->scene = new QGraphicsScene(this);
    d_->scene->setItemIndexMethod(QGraphicsScene::NoIndex);
    d_->scene->setBackgroundBrush(QColor(0xfb, 0xfb, 0xfc));
    setScene(d_->scene);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);

    for (const PolicyInfo* info : policy_catalog())
        d_->policy_names.insert(qstr(info->name));

    for (const decision_graph::Node& n : decision_graph::nodes())
        d_->add_row(d_->rows.size(), qstr(n.key), qstr(n.title), qstr(n.note), n.indent, DecisionNodeItem::Kind::Fixed);
    for (const auto& [from, to] : decision_graph::edges()) {
        State::Row* a = d_->row(qstr(from));
        State::Row* b = d_->row(qstr(to));
        if (a && b)
            d_->edges[{a->key, b->key}] = {d_->edge(a, b), true};
    }
    d_->layout();

    d_->timer.setSingleShot(false);
    connect(&d_->timer, &QTimer::timeout, this, &DecisionDiagram::lightNextStep);
}

DecisionDiagram::~DecisionDiagram() = default;

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
    d_->reset();
    d_->rec = std::make_unique<DecisionRecord>(rec);
    d_->colour = policy_colour;
    d_->done = false;
    if (d_->interval == 0) {
        finishAnimation();
        return;
    }
    lightNextStep();
    if (!d_->done)
        d_->timer.start(d_->interval);
}

void DecisionDiagram::finishAnimation()
{
    d_->timer.stop();
    while (!d_->done)
        lightNextStep();
}

void DecisionDiagram::clear()
{
    d_->reset();
    d_->rec.reset();
    d_->update_scene_rect();
}

void DecisionDiagram::lightNextStep()
{
    if (!d_->rec || d_->done)
        return;
    if (d_->next >= d_->rec->steps.size()) {
        lightChosen();
        return;
    }
    const std::size_t index = d_->next++;
    const DecisionStep& step = d_->rec->steps[index];
    const QString function = qstr(step.function);
    const QString branch = qstr(step.branch);
    State::Row* r = d_->row_for(function, branch);
    d_->enter_headers(r->key);

    r->order << QString::number(index + 1);
    QString line = branch;
    if (!step.detail.empty())
        line += QStringLiteral(": ") + QString::fromStdString(step.detail);
    if (step.result != kNoCpu)
        line += QStringLiteral(" \u2192 ") + cpu_text(step.result);
    r->details << line;
    d_->set_detail(r, r->details.join(QStringLiteral("  |  ")));
    r->last_function = function;
    r->last_branch = branch;
    if (std::find(r->seen.begin(), r->seen.end(), std::pair(function, branch)) == r->seen.end())
        r->seen.emplace_back(function, branch);
    d_->visit(r);
    d_->lit << function + QStringLiteral(": ") + branch;
    d_->update_scene_rect();
    if (d_->interval > 0)
        ensureVisible(r->node, 20, 40);
    emit stepLit(static_cast<int>(index));
}

void DecisionDiagram::lightChosen()
{
    const DecisionRecord& rec = *d_->rec;
    // The node that decided: the last step that returned the chosen CPU.
    for (auto it = rec.steps.rbegin(); it != rec.steps.rend(); ++it) {
        if (it->result != rec.chosen || rec.chosen == kNoCpu)
            continue;
        if (State::Row* r = d_->row_for(qstr(it->function), qstr(it->branch)))
            r->node->setFinal(true);
        break;
    }
    State::Row* chosen = d_->row(qstr(decision_graph::kChosen));
    d_->visit(chosen);
    chosen->node->setFinal(true);
    chosen->node->setNote(QStringLiteral("%1 (%2)").arg(cpu_text(rec.chosen), qstr(wake_path_name(rec.path))));
    d_->set_detail(chosen, QStringLiteral("%1 via %2; from waker %3: %4; from prev %5: %6")
                               .arg(cpu_text(rec.chosen), qstr(wake_path_name(rec.path)), cpu_text(rec.waker_cpu),
                                    qstr(distance_class_name(rec.from_waker)), cpu_text(rec.prev_cpu),
                                    qstr(distance_class_name(rec.from_prev))));
    d_->update_scene_rect();
    d_->done = true;
    d_->timer.stop();
    emit animationFinished();
}

QStringList DecisionDiagram::litSteps() const
{
    return d_->lit;
}

const DecisionRecord* DecisionDiagram::record() const
{
    return d_->rec.get();
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
    if (!node)
        return {};
    const State::Row* r = d_->row(node->key());
    return r->detail->isVisible() ? r->detail->text() : QString();
}

int DecisionDiagram::nodeCount() const
{
    return static_cast<int>(d_->rows.size());
}

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
    if (!r->last_branch.isEmpty()) {
        QAction* taken = menu->addAction(QStringLiteral("Pause when this branch is taken: %1").arg(r->last_branch));
        taken->setToolTip(r->last_function + QStringLiteral(": ") + r->last_branch);
        connect(taken, &QAction::triggered, this, request(r->last_function, r->last_branch));
    } else {
        menu->addAction(QStringLiteral("Pause when this branch is taken"))->setEnabled(false);
    }
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

void DecisionDiagram::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    fitWidth();
}

void DecisionDiagram::fitWidth()
{
    // Scale the nodes and a typical detail line to the width; longer details
    // scroll rather than shrinking the diagram past legibility.
    const double wanted = detail_x() + kDetailWidth;
    const double scale = std::clamp(viewport()->width() / wanted, 0.5, 1.0);
    setTransform(QTransform::fromScale(scale, scale));
}

}  // namespace wb
