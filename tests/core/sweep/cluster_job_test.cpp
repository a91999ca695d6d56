// SPDX-License-Identifier: Apache-2.0
#include "sweep/cluster_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace wb {
namespace {

using ::testing::HasSubstr;

using Flat = std::map<std::string, std::string>;

// The YAML the manifests use, each document flattened to "a.b[0].c" ->
// value: block mappings, block sequences of mappings, one-line flow
// sequences and scalars (kept as written), literal block scalars ("|").
std::vector<Flat> flatten_yaml(const std::string& text)
{
    std::vector<Flat> docs(1);
    struct Frame {
        int indent;  // of its keys' parent: keys deeper than this belong to it
        std::string path;
    };
    std::vector<Frame> frames{{-1, ""}};
    std::map<std::string, int> items;
    std::string block_path;
    int block_indent = -1;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        const int indent = static_cast<int>(line.find_first_not_of(' '));
        if (indent >= 0 && block_indent >= 0 && indent > block_indent) {
            docs.back()[block_path] += line.substr(static_cast<std::size_t>(indent)) + "\n";
            continue;
        }
        block_indent = -1;
        if (indent < 0 || line[static_cast<std::size_t>(indent)] == '#')
            continue;
        if (line == "---") {
            docs.emplace_back();
            frames = {{-1, ""}};
            items.clear();
            continue;
        }
        std::string content = line.substr(static_cast<std::size_t>(indent));
        int at = indent;
        while (frames.back().indent >= at)
            frames.pop_back();
        if (content.starts_with("- ")) {
            const std::string item = frames.back().path + "[" + std::to_string(items[frames.back().path]++) + "]";
            frames.push_back({at + 1, item});
            content = content.substr(2);
            at += 2;
        }
        const std::size_t colon = content.find(": ") != std::string::npos ? content.find(": ") : content.find(':');
        const std::string key = content.substr(0, colon);
        const std::string value = colon + 1 < content.size() ? content.substr(colon + 2) : "";
        const std::string path = frames.back().path.empty() ? key : frames.back().path + "." + key;
        if (value.empty())
            frames.push_back({at, path});
        else if (value == "|") {
            block_path = path;
            block_indent = at;
        } else
            docs.back()[path] = value;
    }
    return docs;
}

ClusterJob job()
{
    ClusterJob j;
    j.name = "Hackbench Groups";
    j.wakesim = "/opt/wb/bin/wakesim";
    j.sweep_file = "/home/me/sweeps/hb.json";
    j.sweep_json = R"({"schema_version":1,"name":"Hackbench Groups"})";
    j.out_dir = "/scratch/me/hb";
    j.shards = 4;
    j.cpus_per_task = 2;
    j.image = "registry.example/wakebench:0.1";
    j.claim = "results";
    return j;
}

TEST(K8sManifest, IsAnIndexedJobOfTheShards)
{
    const std::vector<EmittedFile> files = k8s_files(job());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0].name, "job.yaml");
    const std::vector<Flat> docs = flatten_yaml(files[0].text);
    ASSERT_EQ(docs.size(), 2u);
    // The sweep travels in a ConfigMap the pods mount.
    EXPECT_EQ(docs[0].at("kind"), "ConfigMap");
    EXPECT_EQ(docs[0].at("data.sweep.json"), "{\"schema_version\":1,\"name\":\"Hackbench Groups\"}\n");
    const Flat& j = docs[1];
    EXPECT_EQ(j.at("apiVersion"), "batch/v1");
    EXPECT_EQ(j.at("kind"), "Job");
    EXPECT_EQ(j.at("metadata.name"), "wakesim-hackbench-groups");
    EXPECT_EQ(j.at("spec.completionMode"), "Indexed");
    EXPECT_EQ(j.at("spec.completions"), "4");
    EXPECT_EQ(j.at("spec.parallelism"), "4");
    EXPECT_EQ(j.at("spec.template.spec.restartPolicy"), "Never");
    EXPECT_EQ(j.at("spec.template.spec.containers[0].image"), "\"registry.example/wakebench:0.1\"");
    EXPECT_EQ(j.at("spec.template.spec.containers[0].resources.requests.cpu"), "\"2\"");
    // Each pod runs the shard of its completion index.
    EXPECT_THAT(j.at("spec.template.spec.containers[0].command"),
                HasSubstr("sweep /etc/wakesim/sweep.json --shard \\\"$JOB_COMPLETION_INDEX/4\\\" --jobs 2 "
                          "--json /results/result.json.\\\"$JOB_COMPLETION_INDEX\\\""));
    EXPECT_EQ(j.at("spec.template.spec.containers[0].volumeMounts[0].mountPath"), "/etc/wakesim");
    EXPECT_EQ(j.at("spec.template.spec.volumes[0].configMap.name"), "wakesim-hackbench-groups-sweep");
    EXPECT_EQ(j.at("spec.template.spec.volumes[1].persistentVolumeClaim.claimName"), "\"results\"");
}

TEST(K8sManifest, TheMergeReadsEveryShardByName)
{
    const Flat merge = flatten_yaml(k8s_files(job())[1].text).at(0);
    EXPECT_EQ(merge.at("kind"), "Job");
    EXPECT_EQ(merge.count("spec.completionMode"), 0u);
    EXPECT_EQ(merge.at("spec.completions"), "1");
    EXPECT_THAT(merge.at("spec.template.spec.containers[0].command"),
                HasSubstr("while [ \\\"$i\\\" -lt 4 ]; do set -- \\\"$@\\\" /results/result.json.\\\"$i\\\"; "
                          "i=$((i + 1)); done; exec /opt/wb/bin/wakesim sweep merge \\\"$@\\\" --json "
                          "/results/result.json"));
    EXPECT_EQ(k8s_submit_command(job()),
              "kubectl apply -f /scratch/me/hb/job.yaml && kubectl wait --for=condition=complete --timeout=24h "
              "job/wakesim-hackbench-groups && kubectl apply -f /scratch/me/hb/merge.yaml");
}

TEST(SlurmScripts, AnArrayOfShardsAndAMergeAfterIt)
{
    ClusterJob j = job();
    j.time_limit = "01:00:00";
    const std::vector<EmittedFile> files = slurm_files(j);
    ASSERT_EQ(files.size(), 2u);
    const std::string& sweep = files[0].text;
    EXPECT_TRUE(sweep.starts_with("#!/bin/sh\n"));
    EXPECT_THAT(sweep, HasSubstr("#SBATCH --array=0-3\n"));
    EXPECT_THAT(sweep, HasSubstr("#SBATCH --cpus-per-task=2\n#SBATCH --time=01:00:00\n"));
    EXPECT_THAT(sweep, HasSubstr("exec /opt/wb/bin/wakesim sweep /home/me/sweeps/hb.json --shard "
                                 "\"$SLURM_ARRAY_TASK_ID/4\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --json "
                                 "/scratch/me/hb/result.json.\"$SLURM_ARRAY_TASK_ID\"\n"));
    // sbatch reads #SBATCH lines only before the first command.
    EXPECT_LT(sweep.rfind("#SBATCH"), sweep.find("set -eu"));
    EXPECT_THAT(files[1].text, HasSubstr("sweep merge \"$@\" --json /scratch/me/hb/result.json\n"));
    EXPECT_TRUE(files[0].executable);
    EXPECT_EQ(slurm_submit_command(j),
              "jid=$(sbatch --parsable /scratch/me/hb/sweep.sbatch) && sbatch --dependency=afterok:\"${jid%%;*}\" "
              "/scratch/me/hb/merge.sbatch");
}

TEST(ShellQuote, QuotesOnlyWhatNeedsIt)
{
    EXPECT_EQ(shell_quote("/a/b-c_d.json"), "/a/b-c_d.json");
    EXPECT_EQ(shell_quote("/my sweeps/it's.json"), "'/my sweeps/it'\\''s.json'");
    EXPECT_EQ(shell_quote(""), "''");
}

TEST(K8sName, IsALowerCaseLabel)
{
    EXPECT_EQ(k8s_name("wakesim-Hackbench Groups!", 63), "wakesim-hackbench-groups");
    EXPECT_EQ(k8s_name("--x__y--", 63), "x-y");
    EXPECT_EQ(k8s_name("abcdef", 3), "abc");
    EXPECT_EQ(k8s_name("***", 10), "wakesim");
}

}  // namespace
}  // namespace wb
