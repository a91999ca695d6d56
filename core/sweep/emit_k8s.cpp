// SPDX-License-Identifier: Apache-2.0
#include <cctype>
#include <string>

#include "sweep/cluster_job.h"

namespace wb {

namespace {

// Inside the pods: the ConfigMap's sweep and the claim's results.
constexpr const char* kSweepMount = "/etc/wakesim";
constexpr const char* kResultsMount = "/results";

std::string job_name(const ClusterJob& job)
{
    return k8s_name("wakesim-" + job.name, 52);  // an Indexed Job's pods add "-<index>-<random>"
}

// A YAML double-quoted scalar.
std::string yaml_quote(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    return out + "\"";
}

std::string wakesim_words(const ClusterJob& job)
{
    std::string words = "exec " + shell_quote(job.wakesim);
    for (const std::string& plugin : job.plugins)
        words += " --plugin " + shell_quote(plugin);
    return words;
}

// The pod spec both Jobs share: one container running `script` with the
// sweep and the results mounted.
std::string pod_spec(const ClusterJob& job, const std::string& container, const std::string& script, int cpus)
{
    return "  template:\n"
           "    spec:\n"
           "      restartPolicy: Never\n"
           "      containers:\n"
           "        - name: " + container + "\n"
           "          image: " + yaml_quote(job.image) + "\n"
           "          command: [\"sh\", \"-c\", " + yaml_quote(script) + "]\n"
           "          resources:\n"
           "            requests:\n"
           "              cpu: \"" + std::to_string(cpus) + "\"\n"
           "          volumeMounts:\n"
           "            - name: sweep\n"
           "              mountPath: " + kSweepMount + "\n"
           "              readOnly: true\n"
           "            - name: results\n"
           "              mountPath: " + kResultsMount + "\n"
           "      volumes:\n"
           "        - name: sweep\n"
           "          configMap:\n"
           "            name: " + job_name(job) + "-sweep\n"
           "        - name: results\n"
           "          persistentVolumeClaim:\n"
           "            claimName: " + yaml_quote(job.claim) + "\n";
}

std::string header(const ClusterJob& job, const std::string& what)
{
    return "# " + what + " of the sweep '" + job.name + "', written by wakesim sweep --emit k8s.\n"
           "# Results go to the PersistentVolumeClaim '" + job.claim + "' (" + kResultsMount + " in the pods).\n"
           "# Submit with:\n"
           "#   " + k8s_submit_command(job) + "\n";
}

}  // namespace

std::string k8s_name(const std::string& text, std::size_t max)
{
    std::string out;
    for (char c : text) {
        const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool ok = std::isalnum(static_cast<unsigned char>(lower)) != 0;
        if (out.size() < max && (ok || (!out.empty() && out.back() != '-')))
            out += ok ? lower : '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "wakesim" : out;
}

std::vector<EmittedFile> k8s_files(const ClusterJob& job)
{
    const std::string n = std::to_string(job.shards);
    const std::string results = std::string(kResultsMount) + "/result.json";
    const std::string sweep_script = wakesim_words(job) + " sweep " + kSweepMount + "/sweep.json --shard \"$JOB_COMPLETION_INDEX/" + n +
                                     "\" --jobs " + std::to_string(job.cpus_per_task) + " --json " + results +
                                     ".\"$JOB_COMPLETION_INDEX\"";
    std::string text = header(job, "The shards") +
                       "apiVersion: v1\n"
                       "kind: ConfigMap\n"
                       "metadata:\n"
                       "  name: " + job_name(job) + "-sweep\n"
                       "data:\n"
                       "  sweep.json: |\n"
                       "    " + job.sweep_json + "\n"
                       "---\n"
                       "apiVersion: batch/v1\n"
                       "kind: Job\n"
                       "metadata:\n"
                       "  name: " + job_name(job) + "\n"
                       "spec:\n"
                       "  completionMode: Indexed\n"
                       "  completions: " + n + "\n"
                       "  parallelism: " + n + "\n"
                       // A failed pod is retried (it goes on from its partial
                       // file); a few failures a shard before the Job fails.
                       "  backoffLimit: " + std::to_string(3 * job.shards) + "\n" +
                       pod_spec(job, "shard", sweep_script, job.cpus_per_task);
    const std::string merge_script = "set --; i=0; while [ \"$i\" -lt " + n + " ]; do set -- \"$@\" " + results +
                                     ".\"$i\"; i=$((i + 1)); done; " + wakesim_words(job) +
                                     " sweep merge \"$@\" --json " + results;
    std::string merge = header(job, "The merge") +
                        "apiVersion: batch/v1\n"
                        "kind: Job\n"
                        "metadata:\n"
                        "  name: " + job_name(job) + "-merge\n"
                        "spec:\n"
                        "  completions: 1\n"
                        "  backoffLimit: 2\n" +
                        pod_spec(job, "merge", merge_script, 1);
    return {{"job.yaml", text, false}, {"merge.yaml", merge, false}};
}

std::string k8s_submit_command(const ClusterJob& job)
{
    const std::string d = shell_quote(job.out_dir);
    return "kubectl apply -f " + d + "/job.yaml && kubectl wait --for=condition=complete --timeout=24h job/" +
           job_name(job) + " && kubectl apply -f " + d + "/merge.yaml";
}

}  // namespace wb
