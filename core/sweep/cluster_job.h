// SPDX-License-Identifier: Apache-2.0
//
// A sweep handed to a cluster's own scheduler, as files to submit:
// `wakesim sweep FILE --emit slurm|k8s --shards N --out DIR`. Each shard is
// an array task (Slurm) or a completion index (a Kubernetes Indexed Job)
// running `wakesim sweep FILE --shard I/N`; a merge job runs after them all.
// Wakebench schedules nothing itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct ClusterJob {
    std::string name;           // the sweep's name; job names are made from it
    std::string wakesim;        // the program the tasks run (Slurm: this one's absolute path)
    std::vector<std::string> plugins;  // policy plugins to load first (--plugin), absolute paths
    std::string sweep_file;     // Slurm: the sweep file's absolute path
    std::string sweep_json;     // Kubernetes: the sweep's canonical JSON, carried in a ConfigMap
    std::string out_dir;        // where the files are written; Slurm's results and logs go there too
    std::uint32_t shards = 1;
    int cpus_per_task = 1;      // threads of each shard (--jobs)
    std::string time_limit;     // Slurm --time, empty for the partition's default
    std::string partition;      // Slurm --partition, empty for the default
    std::string image;          // Kubernetes: an image with wakesim on its PATH
    std::string claim;          // Kubernetes: the PersistentVolumeClaim results go to
    std::string estimate;       // "about 12 min of CPU in all, 3 min for the largest shard", for a comment
};

struct EmittedFile {
    std::string name;  // relative to the output folder: "sweep.sbatch"
    std::string text;
    bool executable = false;
};

// DIR/sweep.sbatch (the array job) and DIR/merge.sbatch (the merge).
std::vector<EmittedFile> slurm_files(const ClusterJob& job);
// Submits the array, then the merge with afterok on it.
std::string slurm_submit_command(const ClusterJob& job);

// DIR/job.yaml (a ConfigMap with the sweep and an Indexed Job of the shards)
// and DIR/merge.yaml (the merge, a Job of one pod).
std::vector<EmittedFile> k8s_files(const ClusterJob& job);
// Applies the job, waits for it to complete, applies the merge.
std::string k8s_submit_command(const ClusterJob& job);

// A name Kubernetes accepts (RFC 1123 label): lower case letters, digits
// and '-', at most `max` characters, starting and ending alphanumeric.
std::string k8s_name(const std::string& text, std::size_t max);

// `text` quoted for sh: as it is when it is safe, else in single quotes.
std::string shell_quote(const std::string& text);

}  // namespace wb
