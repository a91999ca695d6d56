// SPDX-License-Identifier: Apache-2.0
#include <string>

#include "sweep/cluster_job.h"

namespace wb {

namespace {

std::string result_file(const ClusterJob& job)
{
    return job.out_dir + "/result.json";
}

std::string wakesim_words(const ClusterJob& job)
{
    std::string words = "exec " + shell_quote(job.wakesim);
    for (const std::string& plugin : job.plugins)
        words += " --plugin " + shell_quote(plugin);
    return words;
}

std::string header(const ClusterJob& job, const std::string& what)
{
    return "#!/bin/sh\n"
           "# " + what + " of the sweep '" + job.name + "', written by wakesim sweep --emit slurm.\n"
           "# Submit both with:\n"
           "#   " + slurm_submit_command(job) + "\n";
}

}  // namespace

std::string shell_quote(const std::string& text)
{
    if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                "_-./=:,+@%") == std::string::npos)
        return text;
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::vector<EmittedFile> slurm_files(const ClusterJob& job)
{
    const std::string n = std::to_string(job.shards);
    std::string common = "#SBATCH --cpus-per-task=" + std::to_string(job.cpus_per_task) + "\n";
    if (!job.time_limit.empty())
        common += "#SBATCH --time=" + job.time_limit + "\n";
    if (!job.partition.empty())
        common += "#SBATCH --partition=" + job.partition + "\n";

    // Array task I runs shard I; a task that is requeued or run again goes
    // on from its own partial file.
    std::string sweep = header(job, "The shards");
    if (!job.estimate.empty())
        sweep += "# Estimated: " + job.estimate + ".\n";
    sweep += "#SBATCH --job-name=" + k8s_name("wakesim-" + job.name, 63) + "\n"
             "#SBATCH --array=0-" + std::to_string(job.shards - 1) + "\n"
             "#SBATCH --output=" + job.out_dir + "/logs/shard-%a.out\n" + common +
             "set -eu\n" + wakesim_words(job) + " sweep " + shell_quote(job.sweep_file) +
             " --shard \"$SLURM_ARRAY_TASK_ID/" + n + "\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --json " +
             shell_quote(result_file(job)) + ".\"$SLURM_ARRAY_TASK_ID\"\n";

    // The shards' files by name, not by a glob that would also take a
    // partial or temporary file lying beside them.
    std::string merge = header(job, "The merge") +
                        "#SBATCH --job-name=" + k8s_name("wakesim-" + job.name + "-merge", 63) + "\n"
                        "#SBATCH --output=" + job.out_dir + "/logs/merge.out\n"
                        "#SBATCH --cpus-per-task=1\n" +
                        (job.partition.empty() ? "" : "#SBATCH --partition=" + job.partition + "\n") +
                        "set -eu\n"
                        "set --\n"
                        "i=0\n"
                        "while [ \"$i\" -lt " + n + " ]; do set -- \"$@\" " + shell_quote(result_file(job)) +
                        ".\"$i\"; i=$((i + 1)); done\n" +
                        wakesim_words(job) + " sweep merge \"$@\" --json " + shell_quote(result_file(job)) + "\n";
    return {{"sweep.sbatch", sweep, true}, {"merge.sbatch", merge, true}};
}

std::string slurm_submit_command(const ClusterJob& job)
{
    const std::string dir = shell_quote(job.out_dir);
    return "jid=$(sbatch --parsable " + dir + "/sweep.sbatch) && sbatch --dependency=afterok:\"${jid%%;*}\" " + dir +
           "/merge.sbatch";
}

}  // namespace wb
