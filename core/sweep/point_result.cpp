// SPDX-License-Identifier: Apache-2.0
#include "sweep/point_result.h"

#include <string>

#include "engine/batch.h"
#include "metrics/run_summary.h"

namespace wb {

namespace {

LatencySummary latency_summary(const Histogram& h)
{
    return {h.count(),           h.percentile(0.50), h.percentile(0.90), h.percentile(0.99),
            h.percentile(0.999), h.max(),            h.mean()};
}

std::vector<std::string> prefixed(std::string_view prefix)
{
    std::vector<std::string> out;
    for (std::string_view name : kDistanceClassNames)
        out.push_back(std::string(prefix) + std::string(name));
    return out;
}

std::vector<SweepFigure> make_figures()
{
    using S = SweepFigure::Source;
    std::vector<SweepFigure> out;
    out.push_back({"headline", "headline", "", "", S::Headline, 0});
    const auto table = run_figure_table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].name != "headline")  // the entry above, with the workload's unit
            out.push_back({table[i].name, table[i].label, "", "", S::RunFigure, i});
    out.push_back({"wakeup_latency_p50_us", "wakeup latency p50", "us", "wakeup latency", S::WakeupLatency, 0});
    out.push_back({"wakeup_latency_p90_us", "wakeup latency p90", "us", "wakeup latency", S::WakeupLatency, 1});
    out.push_back({"wakeup_latency_p99_us", "wakeup latency p99", "us", "wakeup latency", S::WakeupLatency, 2});
    out.push_back({"wakeup_latency_p99_9_us", "wakeup latency p99.9", "us", "wakeup latency", S::WakeupLatency, 3});
    out.push_back({"run_delay_p50_us", "run delay p50", "us", "run delay", S::RunDelay, 0});
    out.push_back({"run_delay_p90_us", "run delay p90", "us", "run delay", S::RunDelay, 1});
    out.push_back({"run_delay_p99_us", "run delay p99", "us", "run delay", S::RunDelay, 2});
    out.push_back({"run_delay_p99_9_us", "run delay p99.9", "us", "run delay", S::RunDelay, 3});
    static const std::vector<std::string> kNames = prefixed("placement_");
    static const std::vector<std::string> kLabels = prefixed("wakeups placed: ");
    for (std::size_t d = 0; d < kDistanceClassCount; ++d)
        out.push_back({kNames[d], kLabels[d], "fraction", "placement", S::Placement, d});
    return out;
}

double percentile_us(const LatencySummary& s, std::size_t slot)
{
    const std::int64_t ns[] = {s.p50, s.p90, s.p99, s.p99_9};
    return static_cast<double>(ns[slot]) / 1000.0;
}

}  // namespace

PointResult point_result(std::size_t index, const RunOutcome& o)
{
    PointResult r;
    r.index = index;
    r.finished = o.finished;
    r.elapsed_ns = o.elapsed.ns();
    r.events = o.metrics.events;
    r.headline = o.headline;
    const RunFigures f = run_figures(o.metrics, o.elapsed, o.ops, o.headline);
    for (const RunFigureInfo& info : run_figure_table())
        r.figures.push_back(f.*info.field);
    r.wakeup_latency_ns = latency_summary(o.metrics.wakeup_latency);
    r.run_delay_ns = latency_summary(o.metrics.run_delay);
    r.placement = placement_fractions(o.metrics.placement_from_waker);
    return r;
}

bool operator==(const PointResult& a, const PointResult& b)
{
    const Headline& x = a.headline;
    const Headline& y = b.headline;
    return a.index == b.index && a.finished == b.finished && a.elapsed_ns == b.elapsed_ns && a.events == b.events &&
           x.name == y.name && x.value == y.value && x.unit == y.unit && x.lower_is_better == y.lower_is_better &&
           a.figures == b.figures && a.wakeup_latency_ns == b.wakeup_latency_ns && a.run_delay_ns == b.run_delay_ns &&
           a.placement == b.placement;
}

std::span<const SweepFigure> sweep_figures()
{
    static const std::vector<SweepFigure> kFigures = make_figures();
    return kFigures;
}

double figure_value(const SweepFigure& f, const PointResult& r)
{
    switch (f.source) {
    case SweepFigure::Source::Headline:
        return r.headline.value;
    case SweepFigure::Source::RunFigure:
        return f.slot < r.figures.size() ? r.figures[f.slot] : 0.0;
    case SweepFigure::Source::WakeupLatency:
        return percentile_us(r.wakeup_latency_ns, f.slot);
    case SweepFigure::Source::RunDelay:
        return percentile_us(r.run_delay_ns, f.slot);
    case SweepFigure::Source::Placement:
        return r.placement[f.slot];
    }
    return 0.0;
}

const SweepFigure* find_sweep_figure(std::string_view name)
{
    for (const SweepFigure& f : sweep_figures())
        if (f.name == name)
            return &f;
    return nullptr;
}

}  // namespace wb
