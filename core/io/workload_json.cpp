// SPDX-License-Identifier: Apache-2.0
#include "io/workload_json.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/json_locator.h"
#include "io/json_parse.h"

namespace wb {

namespace {

using Json = nlohmann::json;

struct Problem {
    std::string pointer;
    std::string message;
    bool at_key = false;
};

class Reader {
public:
    std::vector<Problem> problems;

    void fail(const std::string& pointer, const std::string& message, bool at_key = false)
    {
        problems.push_back({pointer, message, at_key});
    }

    void unknown_keys(const Json& obj, const std::string& pointer, const std::set<std::string>& known)
    {
        std::string valid;
        for (const std::string& k : known)
            valid += (valid.empty() ? "" : ", ") + k;
        for (const auto& [key, value] : obj.items())
            if (!known.count(key))
                fail(pointer_append(pointer, key), "unknown key '" + key + "'; expected one of " + valid, true);
    }

    bool text(const Json& v, const std::string& pointer, std::string& out)
    {
        if (!v.is_string()) {
            fail(pointer, "expected a string");
            return false;
        }
        out = v.get<std::string>();
        return true;
    }

    void name(const Json& v, const std::string& pointer, std::string& out)
    {
        if (text(v, pointer, out) && out.empty())
            fail(pointer, "expected a non-empty name");
    }

    void count(const Json& v, const std::string& pointer, std::uint64_t min, std::uint64_t max, std::uint64_t& out)
    {
        if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
            v.get<std::uint64_t>() < min || v.get<std::uint64_t>() > max) {
            fail(pointer, "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max));
            return;
        }
        out = v.get<std::uint64_t>();
    }

    void duration(const Json& v, const std::string& pointer, Time& out)
    {
        std::string t;
        if (!v.is_string() || !parse_duration(v.get<std::string>(), out) || out <= Time()) {
            fail(pointer, "expected a duration above 0 as a string, such as \"500us\", \"2ms\" or \"1s\"");
            return;
        }
    }

    void flag(const Json& v, const std::string& pointer, bool& out)
    {
        if (!v.is_boolean()) {
            fail(pointer, "expected true or false");
            return;
        }
        out = v.get<bool>();
    }

    JsonPhase phase(const Json& v, const std::string& pointer)
    {
        static const std::map<std::string, JsonPhase::Kind> kKinds = {
            {"run", JsonPhase::Kind::Run},         {"sleep", JsonPhase::Kind::Sleep},
            {"timer", JsonPhase::Kind::Timer},     {"wait", JsonPhase::Kind::Wait},
            {"signal", JsonPhase::Kind::Signal},   {"yield", JsonPhase::Kind::Yield},
            {"barrier", JsonPhase::Kind::Barrier}, {"fork", JsonPhase::Kind::Fork}};
        JsonPhase ph;
        const char* expected = "expected an object with one of run, sleep, timer, wait, signal, yield, barrier, fork";
        if (!v.is_object()) {
            fail(pointer, expected);
            return ph;
        }
        std::string kind;
        for (const auto& [key, value] : v.items()) {
            if (!kKinds.count(key))
                continue;
            if (!kind.empty()) {
                fail(pointer_append(pointer, key), "a phase does only one thing; this one already has " + kind, true);
                continue;
            }
            kind = key;
        }
        if (kind.empty()) {
            fail(pointer, expected);
            return ph;
        }
        ph.kind = kKinds.at(kind);
        const std::string at = pointer_append(pointer, kind);
        const Json& body = v.at(kind);
        std::set<std::string> known = {kind};
        switch (ph.kind) {
        case JsonPhase::Kind::Run:
        case JsonPhase::Kind::Sleep:
        case JsonPhase::Kind::Timer:
            duration(body, at, ph.duration);
            break;
        case JsonPhase::Kind::Signal:
            known.insert("sync");
            known.insert("broadcast");
            if (v.contains("sync"))
                flag(v.at("sync"), pointer_append(pointer, "sync"), ph.sync);
            if (v.contains("broadcast"))
                flag(v.at("broadcast"), pointer_append(pointer, "broadcast"), ph.broadcast);
            name(body, at, ph.name);
            break;
        case JsonPhase::Kind::Wait:
        case JsonPhase::Kind::Barrier:
        case JsonPhase::Kind::Fork:
            name(body, at, ph.name);
            break;
        case JsonPhase::Kind::Yield:
            if (!body.is_boolean() || !body.get<bool>())
                fail(at, "expected true");
            break;
        }
        unknown_keys(v, pointer, known);
        return ph;
    }

    JsonTask task(const Json& v, const std::string& pointer, const JsonLocator& locator)
    {
        JsonTask t;
        if (!v.is_object()) {
            fail(pointer, "expected a task object");
            return t;
        }
        unknown_keys(v, pointer, {"name", "instances", "cpus", "nice", "policy", "loop", "start", "phases"});
        if (v.contains("name"))
            name(v.at("name"), pointer_append(pointer, "name"), t.name);
        else
            fail(pointer, "missing key 'name'; expected the task's name");
        if (v.contains("instances"))
            count(v.at("instances"), pointer_append(pointer, "instances"), 1, 100000, t.instances);
        if (v.contains("loop"))
            count(v.at("loop"), pointer_append(pointer, "loop"), 1, 1'000'000'000, t.loop);
        if (v.contains("cpus")) {
            const std::string at = pointer_append(pointer, "cpus");
            text(v.at("cpus"), at, t.cpus);
            const TextPosition pos = locator.locate(at);
            t.cpus_line = pos.line;
            t.cpus_column = pos.column;
        }
        if (v.contains("nice")) {
            const Json& n = v.at("nice");
            if (!n.is_number_integer() || n.get<std::int64_t>() < -20 || n.get<std::int64_t>() > 19)
                fail(pointer_append(pointer, "nice"), "expected a whole number from -20 to 19");
            else
                t.nice = static_cast<int>(n.get<std::int64_t>());
        }
        if (v.contains("policy")) {
            std::string p;
            const std::string at = pointer_append(pointer, "policy");
            if (text(v.at("policy"), at, p)) {
                if (p == "normal" || p == "other")
                    t.policy = SchedPolicy::Normal;
                else if (p == "batch")
                    t.policy = SchedPolicy::Batch;
                else if (p == "idle")
                    t.policy = SchedPolicy::Idle;
                else
                    fail(at, "unknown policy '" + p + "'; expected normal, batch or idle");
            }
        }
        if (v.contains("start"))
            flag(v.at("start"), pointer_append(pointer, "start"), t.start);
        const std::string at = pointer_append(pointer, "phases");
        if (!v.contains("phases") || !v.at("phases").is_array() || v.at("phases").empty()) {
            fail(v.contains("phases") ? at : pointer, "expected 'phases', a non-empty array of phases");
            return t;
        }
        const Json& phases = v.at("phases");
        for (std::size_t i = 0; i < phases.size(); ++i)
            t.phases.push_back(phase(phases[i], pointer_append(at, i)));
        return t;
    }

    WorkloadFile file(const Json& root, const JsonLocator& locator)
    {
        WorkloadFile f;
        if (!root.is_object()) {
            fail("", "expected an object with 'tasks'");
            return f;
        }
        unknown_keys(root, "", {"tasks"});
        if (!root.contains("tasks") || !root.at("tasks").is_array() || root.at("tasks").empty()) {
            fail(root.contains("tasks") ? "/tasks" : "", "expected 'tasks', a non-empty array of tasks");
            return f;
        }
        const Json& tasks = root.at("tasks");
        for (std::size_t i = 0; i < tasks.size(); ++i)
            f.tasks.push_back(task(tasks[i], pointer_append("/tasks", i), locator));
        check_references(f);
        return f;
    }

    // Names used across tasks: unique task names, fork targets that exist,
    // and something started at all.
    void check_references(const WorkloadFile& f)
    {
        std::map<std::string, std::size_t> names;
        bool any_started = false;
        for (std::size_t i = 0; i < f.tasks.size(); ++i) {
            const JsonTask& t = f.tasks[i];
            any_started |= t.start;
            if (t.name.empty())
                continue;
            if (auto [it, fresh] = names.emplace(t.name, i); !fresh)
                fail(pointer_append(pointer_append("/tasks", i), "name"),
                     "task name '" + t.name + "' is already used by /tasks/" + std::to_string(it->second) +
                         "; expected unique names");
        }
        for (std::size_t i = 0; i < f.tasks.size(); ++i)
            for (std::size_t j = 0; j < f.tasks[i].phases.size(); ++j) {
                const JsonPhase& ph = f.tasks[i].phases[j];
                if (ph.kind == JsonPhase::Kind::Fork && !ph.name.empty() && !names.count(ph.name))
                    fail(fork_pointer(i, j),
                         "no task named '" + ph.name + "'; expected the name of a task in this file");
            }
        if (!f.tasks.empty() && !any_started)
            fail("/tasks", "every task has \"start\": false; expected at least one task to start");
        if (names.size() == f.tasks.size())  // each name is one task
            check_fork_cycles(f, names);
        std::uint64_t started = 0;
        for (const JsonTask& t : f.tasks)
            started += t.start ? t.instances : 0;
        if (started > kMaxJsonWorkloadTasks)
            fail("/tasks", "the tasks that start add up to " + std::to_string(started) +
                               " instances; a json workload starts at most " + std::to_string(kMaxJsonWorkloadTasks) +
                               " tasks (docs/reliability.md)");
    }

    static std::string fork_pointer(std::size_t task, std::size_t phase)
    {
        return pointer_append(pointer_append(pointer_append(pointer_append("/tasks", task), "phases"), phase), "fork");
    }

    // A fork that leads back to the task that made it (a forks b, b forks a;
    // or a forks a) starts the cycle again in every new task: the run
    // grows without end. Found by a depth-first walk of the fork graph,
    // without recursion (a file may hold many templates).
    void check_fork_cycles(const WorkloadFile& f, const std::map<std::string, std::size_t>& names)
    {
        enum class Mark { New, OnPath, Done };
        std::vector<Mark> mark(f.tasks.size(), Mark::New);
        struct Frame {
            std::size_t task;
            std::size_t phase = 0;  // the next phase to follow
        };
        for (std::size_t root = 0; root < f.tasks.size(); ++root) {
            if (mark[root] != Mark::New)
                continue;
            std::vector<Frame> path{{root}};
            mark[root] = Mark::OnPath;
            while (!path.empty()) {
                Frame& top = path.back();
                const std::vector<JsonPhase>& phases = f.tasks[top.task].phases;
                if (top.phase == phases.size()) {
                    mark[top.task] = Mark::Done;
                    path.pop_back();
                    continue;
                }
                const std::size_t j = top.phase++;
                const auto target = names.find(phases[j].name);
                if (phases[j].kind != JsonPhase::Kind::Fork || target == names.end())
                    continue;  // not a fork, or one whose name is reported already
                const std::size_t next = target->second;
                if (mark[next] == Mark::OnPath) {
                    std::string cycle;
                    for (auto it =
                             std::find_if(path.begin(), path.end(), [&](const Frame& fr) { return fr.task == next; });
                         it != path.end(); ++it)
                        cycle += f.tasks[it->task].name + " -> ";
                    fail(fork_pointer(top.task, j),
                         "a fork cycle (" + cycle + f.tasks[next].name +
                             "): every task it starts would fork the cycle again, without end; expected forks that "
                             "end");
                } else if (mark[next] == Mark::New) {
                    mark[next] = Mark::OnPath;
                    path.push_back({next});
                }
            }
        }
    }
};

}  // namespace

WorkloadFile parse_workload_json(std::string_view text, const std::string& file_label)
{
    const Json root = parse_json_text<Json>(text, file_label);

    const JsonLocator locator(text);
    Reader reader;
    WorkloadFile f = reader.file(root, locator);
    f.path = file_label;
    for (const JsonLocator::Duplicate& d : locator.duplicates())
        reader.problems.push_back({d.pointer, "duplicate key: a key may appear only once in an object", true});
    if (reader.problems.empty())
        return f;
    std::vector<Diagnostic> diagnostics;
    for (const Problem& p : reader.problems) {
        const TextPosition at = p.at_key ? locator.locate_key(p.pointer) : locator.locate(p.pointer);
        diagnostics.push_back({file_label, at.line, at.column, p.pointer, p.message});
    }
    throw_in_reading_order(std::move(diagnostics));
}

WorkloadFile load_workload_file(const std::string& path)
{
    return parse_workload_json(read_input_file(path, "workload JSON file"), path);
}

}  // namespace wb
