// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_grid.h"

#include <algorithm>
#include <optional>

namespace wb {

SweepGrid::SweepGrid(const SweepSpec& spec) : spec_(spec)
{
    per_combination_ = spec.features.size() * spec.policies.size() * spec.seeds.size();
    for (std::size_t w = 0; w < spec.workloads.size(); ++w) {
        workload_first_.push_back(per_machine_);
        per_machine_ += combinations(w) * per_combination_;
    }
    size_ = per_machine_ * spec.machines.size();
}

std::size_t combination_count(const SweepWorkload& workload)
{
    std::size_t n = 1;
    for (const SweepParameter& p : workload.parameters)
        n *= p.values.size();
    return n;
}

std::vector<std::pair<std::string, const ParameterValue*>> combination_values(const SweepWorkload& workload,
                                                                              std::size_t combination)
{
    const std::vector<SweepParameter>& params = workload.parameters;
    std::vector<std::pair<std::string, const ParameterValue*>> out(params.size());
    for (std::size_t i = params.size(); i-- > 0;) {
        const std::size_t n = params[i].values.size();
        out[i] = {params[i].name, &params[i].values[combination % n]};
        combination /= n;
    }
    return out;
}

SweepPoint SweepGrid::point(std::size_t index) const
{
    SweepPoint p;
    p.machine = index / per_machine_;
    std::size_t rest = index % per_machine_;
    // The last workload whose block starts at or before `rest`.
    p.workload = static_cast<std::size_t>(std::upper_bound(workload_first_.begin(), workload_first_.end(), rest) -
                                          workload_first_.begin()) - 1;
    rest -= workload_first_[p.workload];
    p.combination = rest / per_combination_;
    rest %= per_combination_;
    const std::size_t per_features = spec_.policies.size() * spec_.seeds.size();
    p.features = rest / per_features;
    rest %= per_features;
    p.policy = rest / spec_.seeds.size();
    p.seed = rest % spec_.seeds.size();
    return p;
}

std::size_t SweepGrid::index_of(const SweepPoint& p) const
{
    return p.machine * per_machine_ + workload_first_[p.workload] + p.combination * per_combination_ +
           (p.features * spec_.policies.size() + p.policy) * spec_.seeds.size() + p.seed;
}

std::string SweepGrid::workload_spec(const SweepPoint& p) const
{
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [name, value] : parameters(p))
        values.emplace_back(name, value->text);
    return with_parameters(spec_.workloads[p.workload].workload, values);
}

std::string with_parameters(std::string_view spec, const std::vector<std::pair<std::string, std::string>>& values)
{
    if (values.empty())
        return std::string(spec);
    const std::size_t colon = spec.find(':');
    const std::string name(spec.substr(0, colon));
    // The spec's own parameters, split as make_workload() splits them: an
    // item without '=' continues the previous value. One with nothing to
    // continue is kept as written, for make_workload() to refuse.
    struct Item {
        std::string name;
        std::optional<std::string> value;
    };
    std::vector<Item> items;
    if (colon != std::string_view::npos) {
        std::string_view body = spec.substr(colon + 1);
        while (!body.empty()) {
            const std::size_t comma = body.find(',');
            const std::string_view item = body.substr(0, comma);
            body = comma == std::string_view::npos ? std::string_view() : body.substr(comma + 1);
            const std::size_t eq = item.find('=');
            if (eq == std::string_view::npos && !items.empty() && items.back().value)
                *items.back().value += "," + std::string(item);
            else if (eq == std::string_view::npos)
                items.push_back({std::string(item), std::nullopt});
            else
                items.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
        }
    }
    for (const auto& [key, value] : values) {
        const std::string& wanted = key;  // clang 14 (the fuzz build) cannot capture a structured binding
        auto it = std::find_if(items.begin(), items.end(), [&](const Item& item) { return item.name == wanted; });
        if (it != items.end())
            it->value = value;
        else
            items.push_back({key, value});
    }
    std::string out = name + ":";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? "," : "") + items[i].name + (items[i].value ? "=" + *items[i].value : "");
    return out;
}

}  // namespace wb
