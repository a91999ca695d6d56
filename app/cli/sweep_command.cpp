// SPDX-License-Identifier: Apache-2.0
#include "cli/sweep_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/args.h"
#include "cli/sweep_results_command.h"
#include "io/sweep_json.h"
#include "policies/registry.h"
#include "sweep/cluster_job.h"
#include "sweep/prepared_sweep.h"
#include "sweep/sweep_merge.h"
#include "sweep/sweep_run.h"

namespace wb::cli {

namespace {

const std::vector<OptionSpec> kSpecs{
    {"json", Value::Required, "OUT", "run the sweep (or --shard's share) and write its result; resumes from OUT.partial"},
    {"jobs", Value::Required, "J", "worker threads (default: the number of CPUs)"},
    {"shard", Value::Required, "I/N", "run shard I of N (0 <= I < N), balanced by estimated cost"},
    {"plan", Value::None, "", "print the points and their estimated CPU time; run nothing"},
    {"shards", Value::Required, "N", "with --plan: each shard's share; with --emit: the number of shards"},
    {"emit", Value::Required, "slurm|k8s", "write job files for a cluster into --out DIR and print the submit command"},
    {"out", Value::Required, "DIR", "with --emit: the folder for the job files (and, for Slurm, results and logs)"},
    {"cpus-per-task", Value::Required, "C", "with --emit: CPUs (threads) of each shard (default 1)"},
    {"time", Value::Required, "LIMIT", "with --emit slurm: each task's time limit (sbatch --time)"},
    {"partition", Value::Required, "P", "with --emit slurm: the partition (sbatch --partition)"},
    {"image", Value::Required, "IMAGE", "with --emit k8s: a container image with wakesim on its PATH"},
    {"claim", Value::Required, "PVC", "with --emit k8s: the PersistentVolumeClaim for results (default wakesim-results)"},
};

const std::vector<OptionSpec> kMergeSpecs{
    {"json", Value::Required, "OUT", "write the merged result"},
};

const char* const kUsage =
    "usage: wakesim sweep FILE --json OUT [--jobs J] [--shard I/N]\n"
    "       wakesim sweep FILE --plan [--shards N]\n"
    "       wakesim sweep FILE --emit slurm|k8s --shards N --out DIR [options]\n"
    "       wakesim sweep merge OUT.0 OUT.1 ... --json OUT\n"
    "       wakesim sweep curves OUT [--figure F] [--x PARAM] ...   the curves Results > Sweep plots\n"
    "       wakesim sweep csv OUT [--output FILE]                   the points as CSV\n";

std::atomic<bool> g_stop{false};

// The first Ctrl-C lets the runs under way finish (they are kept); the
// second stops at once, which loses only them: a line cut in the middle of
// its write is dropped when the sweep goes on.
extern "C" void on_interrupt(int)
{
    g_stop = true;
    const char message[] = "\nwakesim: stopping once the runs under way finish; Ctrl-C again to stop at once\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, message, sizeof message - 1);
    std::signal(SIGINT, SIG_DFL);
}

std::string duration_text(double seconds)
{
    char buf[64];
    if (seconds < 60)
        std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    else if (seconds < 3600)
        std::snprintf(buf, sizeof buf, "%dm %02ds", static_cast<int>(seconds / 60), static_cast<int>(seconds) % 60);
    else
        std::snprintf(buf, sizeof buf, "%dh %02dm", static_cast<int>(seconds / 3600),
                      static_cast<int>(seconds / 60) % 60);
    return buf;
}

std::string events_text(std::uint64_t events)
{
    char buf[32];
    if (events >= 1'000'000)
        std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(events) / 1e6);
    else if (events >= 1000)
        std::snprintf(buf, sizeof buf, "%.1fk", static_cast<double>(events) / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(events));
    return buf;
}

std::uint32_t shard_count(const Args& args, const char* what)
{
    if (!args.has("shards"))
        throw UsageError(std::string("sweep: ") + what + " needs --shards N");
    return static_cast<std::uint32_t>(parse_whole_number("sweep", "shards", *args.get("shards"), 1, 100000));
}

int plan(const PreparedSweep& s, const Args& args)
{
    const SweepGrid& grid = s.grid();
    const SweepSpec& spec = s.spec();
    const std::uint32_t shards = args.has("shards") ? shard_count(args, "--plan") : 1;
    const std::vector<std::uint32_t> owner = assign_shards(s.costs().events_by_point(), shards);
    std::printf("%-6s %-22s %-44s %-14s %-26s %6s %9s %9s%s\n", "point", "machine", "workload", "features",
                "policy", "seed", "events", "CPU", shards > 1 ? "  shard" : "");
    std::uint64_t events = 0;
    double cpu = 0;
    bool guessed = false;
    std::vector<double> shard_cpu(shards);
    std::vector<std::size_t> shard_points(shards);
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const SweepPoint p = grid.point(i);
        const PointCost& c = s.costs().at(i);
        std::printf("%-6zu %-22s %-44s %-14s %-26s %6llu %8s%s %9s", i, spec.machines[p.machine].c_str(),
                    grid.workload_spec(p).c_str(), spec.features[p.features].empty() ? "-" : spec.features[p.features].c_str(),
                    spec.policies[p.policy].c_str(), static_cast<unsigned long long>(spec.seeds[p.seed]),
                    events_text(c.events).c_str(), c.estimated ? " " : "?", duration_text(c.cpu_seconds).c_str());
        if (shards > 1)
            std::printf("  %5u", owner[i]);
        std::printf("\n");
        events += c.events;
        cpu += c.cpu_seconds;
        guessed |= !c.estimated;
        shard_cpu[owner[i]] += c.cpu_seconds;
        ++shard_points[owner[i]];
    }
    std::printf("\nsweep '%s': %zu points, about %s simulated events, %s of CPU on this host\n", spec.name.c_str(),
                grid.size(), events_text(events).c_str(), duration_text(cpu).c_str());
    if (guessed)
        std::printf("?: the workload reports no progress, so its cost is a guess (the median of the others)\n");
    if (shards > 1) {
        std::printf("shards (points, CPU):");
        for (std::uint32_t k = 0; k < shards; ++k)
            std::printf("%s %u: %zu, %s", k ? ";" : "", k, shard_points[k], duration_text(shard_cpu[k]).c_str());
        std::printf("\n");
    }
    return 0;
}

// Progress on stderr: redrawn in place on a terminal, a line every ten
// seconds in a log (a batch job's output).
class ProgressLine {
public:
    explicit ProgressLine(double cpu_left, int jobs)
        : tty_(::isatty(STDERR_FILENO) != 0), cpu_left_(cpu_left), jobs_(jobs), start_(Clock::now())
    {
    }

    void operator()(const SweepProgress& p)
    {
        const auto now = Clock::now();
        const double shown = std::chrono::duration<double>(now - last_).count();
        const bool done = p.done == p.total;
        if (!done && p.done != p.resumed && shown < (tty_ ? 0.25 : 10.0))
            return;
        last_ = now;
        const double elapsed = std::chrono::duration<double>(now - start_).count();
        // Until a point has finished, the pilots' estimate; then the pace so far.
        const double eta = p.cost_run == 0 ? cpu_left_ / std::max(1, jobs_)
                                           : elapsed * static_cast<double>(p.cost_left) / static_cast<double>(p.cost_run);
        char line[160];
        std::snprintf(line, sizeof line, "sweep: %zu/%zu points done, %zu left, ETA %s", p.done, p.total,
                      p.total - p.done, done ? "-" : duration_text(eta).c_str());
        if (tty_)
            std::fprintf(stderr, "\r%-70s%s", line, done ? "\n" : "");
        else
            std::fprintf(stderr, "%s\n", line);
        std::fflush(stderr);
    }

private:
    using Clock = std::chrono::steady_clock;
    bool tty_;
    double cpu_left_;
    int jobs_;
    Clock::time_point start_;
    Clock::time_point last_{};
};

int run(const PreparedSweep& s, const Args& args, int jobs)
{
    SweepRunOptions options;
    options.jobs = jobs;
    if (auto text = args.get("shard")) {
        std::string error;
        options.shard = parse_shard(*text, error);
        if (!error.empty())
            throw UsageError("sweep: --shard '" + *text + "': " + error);
    }
    const std::string out = *args.get("json");
    const std::vector<std::size_t> share = sweep_share(s.costs(), s.grid().size(), options.shard);
    std::fprintf(stderr, "sweep '%s'%s: %zu points, about %s of CPU\n", s.spec().name.c_str(),
                 options.shard ? (" shard " + std::to_string(options.shard->index) + "/" +
                                  std::to_string(options.shard->count)).c_str()
                               : "",
                 share.size(), duration_text(s.cpu_seconds(share)).c_str());
    ProgressLine progress(s.cpu_seconds(share), jobs);
    options.progress = [&](const SweepProgress& p) { progress(p); };
    options.stop = &g_stop;
    std::signal(SIGINT, on_interrupt);
    const bool complete = run_sweep(s.grid(), s.machines(), s.costs(), out, options);
    std::signal(SIGINT, SIG_DFL);
    if (!complete) {
        std::fprintf(stderr, "wakesim: stopped; the finished points are in %s.partial: run the same command to go on\n",
                     out.c_str());
        return 130;
    }
    std::fprintf(stderr, "wrote %s\n", out.c_str());
    return 0;
}

int emit(const PreparedSweep& s, const Args& args)
{
    namespace fs = std::filesystem;
    const std::string kind = *args.get("emit");
    if (kind != "slurm" && kind != "k8s")
        throw UsageError("sweep: --emit '" + kind + "': expected slurm or k8s");
    if (!args.has("out"))
        throw UsageError("sweep: --emit needs --out DIR, the folder for the job files");
    ClusterJob job;
    job.name = s.spec().name;
    job.shards = shard_count(args, "--emit");
    job.cpus_per_task = static_cast<int>(
        args.has("cpus-per-task") ? parse_whole_number("sweep", "cpus-per-task", *args.get("cpus-per-task"), 1, 1024)
                                  : 1);
    job.time_limit = args.get("time").value_or("");
    job.partition = args.get("partition").value_or("");
    job.claim = args.get("claim").value_or("wakesim-results");
    std::error_code ec;
    job.out_dir = fs::absolute(*args.get("out")).lexically_normal().string();
    while (job.out_dir.size() > 1 && job.out_dir.back() == '/')
        job.out_dir.pop_back();
    for (const std::string& plugin : policy_plugins(s.spec().policies))
        job.plugins.push_back(fs::absolute(plugin).string());
    if (kind == "slurm") {
        job.wakesim = fs::read_symlink("/proc/self/exe", ec).string();
        if (ec)
            job.wakesim = "wakesim";
        job.sweep_file = fs::absolute(s.file()).lexically_normal().string();
    } else {
        if (!args.has("image"))
            throw UsageError("sweep: --emit k8s needs --image IMAGE, a container image with wakesim on its PATH");
        job.image = *args.get("image");
        job.wakesim = "wakesim";
        job.sweep_json = sweep_to_json(s.spec());
    }
    const std::vector<std::uint32_t> owner = assign_shards(s.costs().events_by_point(), job.shards);
    std::vector<double> shard_cpu(job.shards);
    double cpu = 0;
    for (std::size_t i = 0; i < s.grid().size(); ++i) {
        shard_cpu[owner[i]] += s.costs().at(i).cpu_seconds;
        cpu += s.costs().at(i).cpu_seconds;
    }
    job.estimate = "about " + duration_text(cpu) + " of CPU in all, " +
                   duration_text(*std::max_element(shard_cpu.begin(), shard_cpu.end())) +
                   " for the largest shard (on the host that wrote this file)";

    fs::create_directories(job.out_dir + (kind == "slurm" ? "/logs" : ""), ec);
    if (ec)
        throw UsageError("sweep: --out '" + job.out_dir + "': cannot create this folder: " + ec.message());
    for (const EmittedFile& f : kind == "slurm" ? slurm_files(job) : k8s_files(job)) {
        const std::string path = job.out_dir + "/" + f.name;
        std::ofstream file(path, std::ios::trunc);
        if (!(file << f.text).flush())
            throw UsageError("sweep: cannot write " + path);
        if (f.executable)
            fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                            fs::perm_options::add, ec);
        std::fprintf(stderr, "wrote %s\n", path.c_str());
    }
    std::fprintf(stderr, "%s; submit with:\n", job.estimate.c_str());
    std::printf("%s\n", kind == "slurm" ? slurm_submit_command(job).c_str() : k8s_submit_command(job).c_str());
    return 0;
}

int merge(const std::vector<std::string>& argv)
{
    const Args args = parse_args(argv, kMergeSpecs, "sweep merge");
    if (!args.has("json") || args.positionals.empty())
        throw UsageError("sweep merge: expected the shards' result files and --json OUT\n" + std::string(kUsage));
    for (const std::string& file : args.positionals)
        for (const char* suffix : {".partial", ".merging", ".tmp"})
            if (file.ends_with(suffix))
                throw UsageError("sweep merge: '" + file + "' is the working file of a run that has not finished; "
                                 "expected the shards' finished results");
    merge_sweep_results(args.positionals, *args.get("json"));
    std::fprintf(stderr, "merged %zu files into %s\n", args.positionals.size(), args.get("json")->c_str());
    return 0;
}

}  // namespace

int sweep_command(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv[0] == "--help" || argv[0] == "help") {
        std::cout << kUsage << describe_options(kSpecs);
        return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "merge")
        return merge({argv.begin() + 1, argv.end()});
    if (argv[0] == "curves")
        return sweep_curves_command({argv.begin() + 1, argv.end()});
    if (argv[0] == "csv")
        return sweep_csv_command({argv.begin() + 1, argv.end()});
    const Args args = parse_args(argv, kSpecs, "sweep");
    if (args.positionals.size() != 1)
        throw UsageError("sweep: expected one sweep file\n" + std::string(kUsage));
    const int modes = args.has("json") + args.has("plan") + args.has("emit");
    if (modes != 1)
        throw UsageError("sweep: expected one of --json OUT (run), --plan or --emit slurm|k8s\n" + std::string(kUsage));
    if (args.has("shard") && !args.has("json"))
        throw UsageError("sweep: --shard I/N runs a share: it needs --json OUT");
    if (args.has("shards") && args.has("json"))
        throw UsageError("sweep: --shards N goes with --plan or --emit; to run one share, --shard I/N");
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const int jobs =
        static_cast<int>(args.has("jobs") ? parse_whole_number("sweep", "jobs", *args.get("jobs"), 1, 1024) : hw);
    const PreparedSweep sweep(args.positionals[0], jobs);
    if (args.has("plan"))
        return plan(sweep, args);
    if (args.has("emit"))
        return emit(sweep, args);
    return run(sweep, args, jobs);
}

}  // namespace wb::cli
