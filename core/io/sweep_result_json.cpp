// SPDX-License-Identifier: Apache-2.0
#include "io/sweep_result_json.h"

#include <fstream>
#include <limits>
#include <memory>

#include <nlohmann/json.hpp>

#include "io/input_file.h"
#include "io/json_locator.h"
#include "io/json_parse.h"
#include "io/sweep_json.h"
#include "io/sweep_value_json.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json latency_json(const LatencySummary& s)
{
    return {{"count", s.count}, {"p50", s.p50},     {"p90", s.p90},  {"p99", s.p99},
            {"p99_9", s.p99_9}, {"max", s.max},     {"mean", s.mean}};
}

// Reads the members of one point, each failure an InputError at its pointer.
class PointReader {
public:
    PointReader(const std::string& file, std::string pointer) : file_(file), pointer_(std::move(pointer)) {}

    [[noreturn]] void fail(const std::string& at, const std::string& message) const
    {
        throw InputError(Diagnostic{file_, 0, 0, pointer_ + at, message});
    }

    const Json& member(const Json& j, const std::string& at, const char* key) const
    {
        if (!j.is_object() || !j.contains(key))
            fail(at, std::string("missing \"") + key + "\"");
        return j[key];
    }
    template <class T>
    T get(const Json& j, const std::string& at, const char* key) const
    {
        const Json& v = member(j, at, key);
        // A figure that is not a number (no run to average) is written as null.
        if constexpr (std::is_floating_point_v<T>)
            if (v.is_null())
                return std::numeric_limits<T>::quiet_NaN();
        const bool ok = std::is_same_v<T, bool>          ? v.is_boolean()
                        : std::is_same_v<T, std::string> ? v.is_string()
                        : std::is_floating_point_v<T>    ? v.is_number()
                        : std::is_unsigned_v<T>          ? v.is_number_unsigned()
                                                         : v.is_number_integer();
        if (!ok)
            fail(at + "/" + key, std::is_same_v<T, bool>          ? "expected true or false"
                                 : std::is_same_v<T, std::string> ? "expected a string"
                                 : std::is_floating_point_v<T>    ? "expected a number"
                                                                  : "expected a whole number");
        return v.get<T>();
    }
    LatencySummary latency(const Json& j, const char* key) const
    {
        const Json& h = member(j, "", key);
        const std::string at = std::string("/") + key;
        return {get<std::uint64_t>(h, at, "count"), get<std::int64_t>(h, at, "p50"), get<std::int64_t>(h, at, "p90"),
                get<std::int64_t>(h, at, "p99"),    get<std::int64_t>(h, at, "p99_9"), get<std::int64_t>(h, at, "max"),
                get<double>(h, at, "mean")};
    }
    // The member must be what the grid says the point is.
    void expect(const Json& j, const char* key, const Json& wanted) const
    {
        const Json& v = member(j, "", key);
        if (v != wanted)
            fail(std::string("/") + key, "expected " + wanted.dump() + " (the sweep's point " +
                                             std::to_string(j["index"].get<std::size_t>()) + "), found " + v.dump());
    }

private:
    const std::string& file_;
    std::string pointer_;
};

Json identity_json(const SweepGrid& grid, std::size_t index)
{
    const SweepSpec& spec = grid.spec();
    const SweepPoint p = grid.point(index);
    Json params = Json::object();
    for (const auto& [name, value] : grid.parameters(p))
        params[name] = parameter_value_json(*value);
    return {{"index", index},
            {"machine", spec.machines[p.machine]},
            {"label", spec.workloads[p.workload].label},
            {"workload", grid.workload_spec(p)},
            {"parameters", std::move(params)},
            {"features", spec.features[p.features]},
            {"policy", spec.policies[p.policy]},
            {"seed", spec.seeds[p.seed]}};
}

PointResult point_from_json(const Json& j, const SweepGrid& grid, const std::string& file, const std::string& at)
{
    const PointReader in(file, at);
    PointResult r;
    r.index = in.get<std::size_t>(j, "", "index");
    if (r.index >= grid.size())
        in.fail("/index", "expected a point of the sweep, from 0 to " + std::to_string(grid.size() - 1));
    const Json identity = identity_json(grid, r.index);
    for (const auto& [key, wanted] : identity.items())
        in.expect(j, key.c_str(), wanted);
    r.finished = in.get<bool>(j, "", "finished");
    r.elapsed_ns = in.get<std::int64_t>(j, "", "elapsed_ns");
    r.events = in.get<std::uint64_t>(j, "", "events");
    const Json& h = in.member(j, "", "headline");
    r.headline = {in.get<std::string>(h, "/headline", "name"), in.get<double>(h, "/headline", "value"),
                  in.get<std::string>(h, "/headline", "unit"), in.get<bool>(h, "/headline", "lower_is_better")};
    const Json& figures = in.member(j, "", "figures");
    for (const RunFigureInfo& f : run_figure_table())
        r.figures.push_back(in.get<double>(figures, "/figures", std::string(f.name).c_str()));
    r.wakeup_latency_ns = in.latency(j, "wakeup_latency_ns");
    r.run_delay_ns = in.latency(j, "run_delay_ns");
    const Json& placement = in.member(j, "", "placement");
    for (std::size_t d = 0; d < kDistanceClassCount; ++d)
        r.placement[d] = in.get<double>(placement, "/placement", std::string(kDistanceClassNames[d]).c_str());
    return r;
}

Json shard_json(const ShardId& s)
{
    return {{"index", s.index}, {"count", s.count}};
}

std::optional<ShardId> shard_from_json(const Json& j)
{
    if (j.is_null())
        return std::nullopt;
    if (!j.is_object() || !j.contains("index") || !j.contains("count") || !j["index"].is_number_unsigned() ||
        !j["count"].is_number_unsigned() || j["count"] == 0 || j["index"] >= j["count"])
        throw std::invalid_argument("expected {\"index\": I, \"count\": N} with I below N");
    return ShardId{j["index"].get<std::uint32_t>(), j["count"].get<std::uint32_t>()};
}

// Builds the document as nlohmann's DOM parser would, except the elements
// of the top-level "points" array: each is handed over as soon as it is
// complete, and dropped. Elements that come before the sweep they belong to
// (a file whose keys a tool reordered) wait until it has been read.
class ResultSax : public nlohmann::json_sax<Json> {
public:
    std::function<void(Json, std::size_t)> on_element;  // a point and its index in "points"
    Json root;
    std::string error;
    std::size_t error_offset = 0;

    bool null() override { return value(nullptr); }
    bool boolean(bool v) override { return value(v); }
    bool number_integer(number_integer_t v) override { return value(v); }
    bool number_unsigned(number_unsigned_t v) override { return value(v); }
    bool number_float(number_float_t v, const string_t&) override { return value(v); }
    bool string(string_t& v) override { return value(v); }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool key(string_t& k) override
    {
        key_ = k;
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
    {
        error = e.what();
        if (std::size_t colon = error.find(": "); error.starts_with("[json.exception") && colon != std::string::npos)
            error = error.substr(colon + 2);
        error_offset = position > 0 ? position - 1 : 0;
        return false;
    }

private:
    // The place a value being read goes: the member `key_` of an object,
    // the end of an array, or the root.
    Json* place(Json v)
    {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        Json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        parent[key_] = std::move(v);
        return &parent[key_];
    }
    bool value(Json v)
    {
        place(std::move(v));
        if (stack_.size() == 2 && in_points_)
            hand_over();
        return true;
    }
    bool open(Json container)
    {
        if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            error = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
            return false;
        }
        const bool points = stack_.size() == 1 && key_ == "points" && container.is_array();
        stack_.push_back(place(std::move(container)));
        in_points_ = in_points_ || points;
        return true;
    }
    bool close()
    {
        stack_.pop_back();
        if (stack_.size() == 2 && in_points_)
            hand_over();
        else if (stack_.size() == 1)
            in_points_ = false;
        return true;
    }
    void hand_over()
    {
        Json& points = *stack_.back();
        on_element(std::move(points.back()), handed_++);
        points.erase(points.size() - 1);
    }

    std::vector<Json*> stack_;
    std::string key_;
    bool in_points_ = false;
    std::size_t handed_ = 0;
};

// The line and column of byte `offset` of a file, read in pieces.
TextPosition file_position(const std::string& path, std::size_t offset)
{
    std::ifstream in(path, std::ios::binary);
    std::string piece(1 << 16, '\0');
    std::string tail;  // the current line so far, for its column
    std::size_t read = 0;
    int line = 1;
    while (read < offset) {
        in.read(piece.data(), static_cast<std::streamsize>(std::min(piece.size(), offset - read)));
        if (in.gcount() <= 0)
            break;
        const std::string_view got(piece.data(), static_cast<std::size_t>(in.gcount()));
        read += got.size();
        for (char c : got)
            if (c == '\n') {
                ++line;
                tail.clear();
            } else {
                tail += c;
            }
    }
    const TextPosition in_line = position_at_offset(tail, tail.size());
    return {line, in_line.column};
}

}  // namespace

std::string point_to_json_line(const SweepGrid& grid, const PointResult& r)
{
    Json j = identity_json(grid, r.index);
    j["finished"] = r.finished;
    j["elapsed_ns"] = r.elapsed_ns;
    j["events"] = r.events;
    j["headline"] = {{"name", r.headline.name},
                     {"value", r.headline.value},
                     {"unit", r.headline.unit},
                     {"lower_is_better", r.headline.lower_is_better}};
    Json figures = Json::object();
    const auto table = run_figure_table();
    for (std::size_t i = 0; i < table.size() && i < r.figures.size(); ++i)
        figures[std::string(table[i].name)] = r.figures[i];
    j["figures"] = std::move(figures);
    j["wakeup_latency_ns"] = latency_json(r.wakeup_latency_ns);
    j["run_delay_ns"] = latency_json(r.run_delay_ns);
    Json placement = Json::object();
    for (std::size_t d = 0; d < kDistanceClassCount; ++d)
        placement[std::string(kDistanceClassNames[d])] = r.placement[d];
    j["placement"] = std::move(placement);
    return j.dump();
}

PointResult parse_point_line(std::string_view line, const SweepGrid& grid, const std::string& file_label)
{
    return point_from_json(parse_json_text<Json>(line, file_label), grid, file_label, "");
}

std::string partial_header_line(const PartialHeader& h)
{
    Json j = {{"wakesim_sweep_partial", 1}, {"fingerprint", h.fingerprint}, {"points", h.points}};
    j["shard"] = h.shard ? shard_json(*h.shard) : Json(nullptr);
    return j.dump();
}

std::optional<PartialHeader> parse_partial_header(std::string_view line)
{
    try {
        const Json j = Json::parse(line);
        if (!j.is_object() || j.value("wakesim_sweep_partial", 0) != 1 || !j["fingerprint"].is_string() ||
            !j["points"].is_number_unsigned())
            return std::nullopt;
        return PartialHeader{j["fingerprint"].get<std::string>(), j["points"].get<std::size_t>(),
                             shard_from_json(j.value("shard", Json(nullptr)))};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string result_head(const SweepSpec& spec, const std::optional<ShardId>& shard)
{
    std::string out = "{\n  \"schema_version\": 1,\n  \"fingerprint\": \"" + sweep_fingerprint(spec) + "\",\n";
    out += "  \"points_in_sweep\": " + std::to_string(SweepGrid(spec).size()) + ",\n";
    if (shard)
        out += "  \"shard\": " + shard_json(*shard).dump() + ",\n";
    return out + "  \"sweep\": " + sweep_to_json(spec) + ",\n  \"points\": [\n";
}

std::string result_point(const std::string& line, bool last)
{
    return "    " + line + (last ? "\n" : ",\n");
}

std::string result_tail()
{
    return "  ]\n}\n";
}

void read_sweep_result(const std::string& path, const std::function<void(const SweepResultHead&)>& on_head,
                       const std::function<void(PointResult)>& on_point)
{
    require_regular_file(path, "sweep result");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(Diagnostic{path, 0, 0, "", "cannot open: " + errno_text() + "; expected a sweep result"});
    std::optional<SweepResultHead> head;
    std::optional<SweepGrid> grid;
    std::vector<std::pair<Json, std::size_t>> waiting;
    ResultSax sax;
    auto deliver = [&](const Json& element, std::size_t i) {
        on_point(point_from_json(element, *grid, path, "/points/" + std::to_string(i)));
    };
    // The head is complete once "sweep" has been read (it holds the grid).
    auto read_head = [&] {
        const Json& root = sax.root;
        auto fail = [&](const std::string& at, const std::string& message) {
            throw InputError(Diagnostic{path, 0, 0, at, message});
        };
        if (!root.contains("schema_version") || root["schema_version"] != 1)
            fail("/schema_version", "expected \"schema_version\": 1 (a result of wakesim sweep)");
        if (!root.contains("fingerprint") || !root["fingerprint"].is_string())
            fail("/fingerprint", "expected the sweep's fingerprint, a string");
        if (!root.contains("sweep"))
            fail("", "missing \"sweep\": expected the sweep the points belong to");
        head.emplace();
        try {
            head->spec = parse_sweep_json(root["sweep"].dump(), path + " /sweep", SweepChecks::Structure);
        } catch (const InputError& e) {
            fail("/sweep" + e.diagnostics().front().pointer, e.diagnostics().front().message);
        }
        head->fingerprint = root["fingerprint"].get<std::string>();
        if (head->fingerprint != sweep_fingerprint(head->spec))
            fail("/fingerprint", "expected " + sweep_fingerprint(head->spec) +
                                     ", the fingerprint of the sweep this file holds: the file was changed");
        try {
            head->shard = shard_from_json(root.value("shard", Json(nullptr)));
        } catch (const std::invalid_argument& e) {
            fail("/shard", e.what());
        }
        grid.emplace(head->spec);
        on_head(*head);
        for (auto& [element, i] : waiting)
            deliver(element, i);
        waiting.clear();
    };
    sax.on_element = [&](Json element, std::size_t i) {
        if (!head && sax.root.contains("sweep") && sax.root.contains("fingerprint"))
            read_head();
        if (head)
            deliver(element, i);
        else
            waiting.emplace_back(std::move(element), i);
    };
    if (!Json::sax_parse(in, &sax)) {
        const TextPosition at = file_position(path, sax.error_offset);
        throw InputError(Diagnostic{path, sax.error_offset ? at.line : 0, sax.error_offset ? at.column : 0, "",
                                    "invalid JSON: " + sax.error});
    }
    if (!sax.root.is_object())
        throw InputError(Diagnostic{path, 0, 0, "", "expected a JSON object (a result of wakesim sweep)"});
    if (!sax.root.contains("points") || !sax.root["points"].is_array())
        throw InputError(Diagnostic{path, 0, 0, "/points", "expected \"points\", an array"});
    if (!head)
        read_head();
}

}  // namespace wb
