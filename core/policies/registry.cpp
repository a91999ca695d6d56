// SPDX-License-Identifier: Apache-2.0
#include "policies/registry.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>

#include "io/input_error.h"
#include "policies/asym_stable_core.h"
#include "policies/prev_cpu_hot.h"
#include "policies/prev_cpu_hot_v2.h"
#include "policies/sis_sync_stack.h"
#include "policies/smt_active_balance.h"
#include "policies/smt_asym_packing.h"
#include "policies/sync_waker_v3.h"
#include "policies/sync_waker_v4.h"
#include "policies/waker_idle_core.h"

namespace wb {

namespace {

using Factory = std::function<std::unique_ptr<PlacementPolicy>(std::vector<bool>)>;

struct Entry {
    const PolicyInfo* info;
    Factory make;
    std::string plugin;  // the plugin file it came from; empty for a shipped policy
};

template <typename P>
std::unique_ptr<PlacementPolicy> construct(std::vector<bool> on)
{
    return std::make_unique<P>(std::move(on));
}

std::unique_ptr<PlacementPolicy> construct_baseline(std::vector<bool>)
{
    return std::make_unique<PlacementPolicy>();
}

const std::vector<Entry>& shipped()
{
    static const std::vector<Entry> kEntries{
        {&PlacementPolicy::baseline_info(), &construct_baseline, {}},
        {&SyncWakerV3::info(), &construct<SyncWakerV3>, {}},
        {&SyncWakerV4::info(), &construct<SyncWakerV4>, {}},
        {&SisSyncStack::info(), &construct<SisSyncStack>, {}},
        {&WakerIdleCore::info(), &construct<WakerIdleCore>, {}},
        {&AsymStableCore::info(), &construct<AsymStableCore>, {}},
        {&PrevCpuHot::info(), &construct<PrevCpuHot>, {}},
        {&PrevCpuHotV2::info(), &construct<PrevCpuHotV2>, {}},
        {&SmtAsymPacking::info(), &construct<SmtAsymPacking>, {}},
        {&SmtActiveBalance::info(), &construct<SmtActiveBalance>, {}},
    };
    return kEntries;
}

// Plugins' policies, added at run time (from the CLI's --plugin, a scenario's
// "plugins", the window's menu) while other threads may parse specs.
std::mutex g_plugins_mutex;
std::vector<Entry> g_plugin_entries;

// Every policy, shipped first: a copy, so no lock is held while it is used.
std::vector<Entry> entries()
{
    std::vector<Entry> out = shipped();
    const std::lock_guard<std::mutex> lock(g_plugins_mutex);
    out.insert(out.end(), g_plugin_entries.begin(), g_plugin_entries.end());
    return out;
}

std::string join_names(const std::vector<std::string_view>& names)
{
    std::string out;
    for (std::string_view n : names) {
        if (!out.empty())
            out += ", ";
        out += n;
    }
    return out;
}

// One piece of the spec and where it starts (0-based).
struct Piece {
    std::string_view text;
    std::size_t at = 0;
};

std::vector<Piece> split(std::string_view text, std::size_t at, char sep)
{
    std::vector<Piece> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(sep, start);
        out.push_back(
            {text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start), at + start});
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

class SpecParser {
public:
    SpecParser(std::string_view spec, std::string_view source)
        : spec_(spec), file_(std::string(source) + " '" + std::string(spec) + "'")
    {
    }

    std::unique_ptr<PlacementPolicy> parse()
    {
        std::vector<std::unique_ptr<PlacementPolicy>> parts;
        std::vector<std::string_view> seen;
        for (const Piece& part : split(spec_, 0, '+')) {
            const std::size_t colon = part.text.find(':');
            const Piece name{part.text.substr(0, colon), part.at};
            if (name.text.empty()) {
                fail(name.at, "expected a policy name: one of " + policy_names(), "nothing");
                continue;
            }
            const Entry* entry = find(name.text);
            if (!entry) {
                fail(name.at, "expected one of " + policy_names(), "'" + std::string(name.text) + "'");
                continue;
            }
            if (std::find(seen.begin(), seen.end(), name.text) != seen.end()) {
                fail(name.at, "expected each policy once", "'" + std::string(name.text) + "' again");
                continue;
            }
            seen.push_back(name.text);
            const PolicyInfo& info = *entry->info;
            std::vector<bool> on;
            for (const PolicySwitch& sw : info.switches)
                on.push_back(sw.default_on);
            if (colon != std::string_view::npos)
                parse_switches(info, Piece{part.text.substr(colon + 1), part.at + colon + 1}, on);
            parts.push_back(entry->make(std::move(on)));
        }
        if (!problems_.empty())
            throw InputError(std::move(problems_));
        if (parts.size() == 1)
            return std::move(parts.front());
        return std::make_unique<CompositePolicy>(std::move(parts));
    }

private:
    const Entry* find(std::string_view name) const
    {
        for (const Entry& e : entries_)
            if (e.info->name == name)
                return &e;
        return nullptr;
    }

    std::string policy_names() const
    {
        std::vector<std::string_view> names;
        for (const Entry& e : entries_)
            names.push_back(e.info->name);
        return join_names(names);
    }

    void parse_switches(const PolicyInfo& info, const Piece& body, std::vector<bool>& on)
    {
        std::vector<std::string_view> names;
        for (const PolicySwitch& sw : info.switches)
            names.push_back(sw.name);
        const std::string expected = names.empty() ? "expected no switches: " + std::string(info.name) + " has none"
                                                   : "expected a switch of " + std::string(info.name) + " (" +
                                                         join_names(names) + ") set to on or off";
        std::vector<std::string_view> given;
        for (const Piece& item : split(body.text, body.at, ',')) {
            const std::size_t eq = item.text.find('=');
            const std::string_view key = item.text.substr(0, eq);
            const auto it = std::find(names.begin(), names.end(), key);
            if (it == names.end()) {
                fail(item.at, expected,
                     item.text.empty() ? std::string("nothing") : "'" + std::string(item.text) + "'");
                continue;
            }
            if (std::find(given.begin(), given.end(), key) != given.end()) {
                fail(item.at, "expected each switch once", "'" + std::string(key) + "' again");
                continue;
            }
            given.push_back(key);
            const std::string_view value = eq == std::string_view::npos ? std::string_view() : item.text.substr(eq + 1);
            if (eq == std::string_view::npos || (value != "on" && value != "off")) {
                fail(item.at + (eq == std::string_view::npos ? item.text.size() : eq + 1),
                     "expected " + std::string(key) + "=on or " + std::string(key) + "=off",
                     eq == std::string_view::npos ? std::string("no value") : "'" + std::string(value) + "'");
                continue;
            }
            on[static_cast<std::size_t>(it - names.begin())] = value == "on";
        }
    }

    // Diagnostics name the spec as their file and give the column in the
    // message: the spec is one line, and front ends print it quoted.
    void fail(std::size_t at, const std::string& expected, const std::string& found)
    {
        problems_.push_back(
            Diagnostic{file_, 0, 0, "", expected + " (found " + found + " at column " + std::to_string(at + 1) + ")"});
    }

    std::string_view spec_;
    std::string file_;
    std::vector<Entry> entries_ = entries();
    std::vector<Diagnostic> problems_;
};

}  // namespace

std::vector<const PolicyInfo*> policy_catalog()
{
    std::vector<const PolicyInfo*> out;
    for (const Entry& e : entries())
        out.push_back(e.info);
    return out;
}

std::string policy_plugin(std::string_view name)
{
    for (const Entry& e : entries())
        if (e.info->name == name)
            return e.plugin;
    return {};
}

std::vector<std::string> policy_plugins(const std::vector<std::string>& specs)
{
    std::vector<std::string> out;
    for (const std::string& spec : specs)
        for (const Piece& part : split(spec, 0, '+')) {
            const std::string plugin = policy_plugin(part.text.substr(0, part.text.find(':')));
            if (!plugin.empty() && std::find(out.begin(), out.end(), plugin) == out.end())
                out.push_back(plugin);
        }
    return out;
}

void register_plugin_policies(const std::string& plugin, std::vector<PluginPolicyEntry> policies)
{
    for (const PluginPolicyEntry& p : policies)
        for (const Entry& e : shipped())
            if (e.info->name == p.info->name)
                throw InputError(Diagnostic{plugin, 0, 0, "",
                                            "expected policies with names of their own; '" + std::string(p.info->name) +
                                                "' is a shipped policy's name"});
    const std::lock_guard<std::mutex> lock(g_plugins_mutex);
    // A name another plugin already gave is refused, and then the plugin's
    // earlier build (if any) stays loaded; otherwise a plugin loaded again
    // (rebuilt) replaces what it gave before.
    for (const PluginPolicyEntry& p : policies)
        for (const Entry& e : g_plugin_entries)
            if (e.plugin != plugin && e.info->name == p.info->name)
                throw InputError(Diagnostic{plugin, 0, 0, "",
                                            "expected policies with names of their own; '" + std::string(p.info->name) +
                                                "' is already given by " + e.plugin});
    std::erase_if(g_plugin_entries, [&](const Entry& e) { return e.plugin == plugin; });
    for (PluginPolicyEntry& p : policies)
        g_plugin_entries.push_back(Entry{p.info, std::move(p.make), plugin});
}

std::unique_ptr<PlacementPolicy> make_policy(std::string_view spec, std::string_view source)
{
    return SpecParser(spec, source).parse();
}

}  // namespace wb
