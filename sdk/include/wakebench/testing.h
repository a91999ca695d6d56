// SPDX-License-Identifier: Apache-2.0
//
// FakeSchedView: a small machine whose state a unit test sets by hand, to
// call a policy's hooks without running a simulation: symmetric CPUs,
// `smt` consecutive threads per core, `llc_cpus` consecutive CPUs per LLC,
// every CPU idle until set_running(). Domains: SMT (when smt > 1), MC (the
// LLC), and PKG over everything when there is more than one LLC.
//
//   wakebench::FakeSchedView m(8, 2, 4);   // 8 CPUs, SMT-2, two LLCs of 4
//   m.set_running(3, 1);                    // the waker alone on CPU 3
//   m.task(7).cpu = 2;                      // p last ran on CPU 2
//   int cpu = policy.before_select_idle_sibling(m, wakeup, 3, nullptr);
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wakebench/sched_view.h"

namespace wakebench {

class FakeSchedView : public SchedView {
public:
    struct FakeTask {
        int cpu = kNoCpu;
        int last_wakee = kNoTask;
        unsigned wakee_flips = 0;
        int recent_used_cpu = kNoCpu;
        bool sched_idle = false;
        unsigned long util = 0;
        std::vector<bool> allowed;  // empty: every CPU
    };

    FakeSchedView(int nr_cpus, int smt = 1, int llc_cpus = 0)
        : nr_cpus_(nr_cpus), smt_(smt < 1 ? 1 : smt), llc_cpus_(llc_cpus <= 0 ? nr_cpus : llc_cpus),
          running_(static_cast<std::size_t>(nr_cpus), 0), util_(static_cast<std::size_t>(nr_cpus), 0),
          capacity_(static_cast<std::size_t>(nr_cpus), 1024)
    {
        chains_.assign(static_cast<std::size_t>(nr_cpus), {});
        for (int cpu = 0; cpu < nr_cpus; ++cpu) {
            if (smt_ > 1)
                chains_[static_cast<std::size_t>(cpu)].push_back(add_domain("SMT", cpu / smt_ * smt_, smt_));
            chains_[static_cast<std::size_t>(cpu)].push_back(add_domain("MC", cpu / llc_cpus_ * llc_cpus_, llc_cpus_));
            if (llc_cpus_ < nr_cpus_)
                chains_[static_cast<std::size_t>(cpu)].push_back(add_domain("PKG", 0, nr_cpus_));
        }
    }

    // --- what a test sets ------------------------------------------------------
    void set_running(int cpu, unsigned nr) { running_[static_cast<std::size_t>(cpu)] = nr; }
    void set_util(int cpu, unsigned long util) { util_[static_cast<std::size_t>(cpu)] = util; }
    void set_capacity(int cpu, unsigned long capacity) { capacity_[static_cast<std::size_t>(cpu)] = capacity; }
    void set_idle_cores(bool has) { has_idle_cores_ = has; }
    void set_now_ns(std::int64_t ns) { now_ = ns; }
    FakeTask& task(int p) { return tasks_[p]; }
    // How many CPUs the hooks tested with choose_idle_cpu().
    int examined() const { return examined_; }

    // --- SchedView -----------------------------------------------------------------
    int nr_cpu_ids() const override { return nr_cpus_; }
    bool sched_smt_active() const override { return smt_ > 1; }
    bool sched_asym_cpucapacity() const override { return false; }
    bool sched_energy_enabled() const override { return false; }
    bool cpus_share_cache(int a, int b) const override { return a / llc_cpus_ == b / llc_cpus_; }
    CpuSet cpu_smt_mask(int cpu) const override
    {
        return smt_ > 1 ? sched_domain_span(chains_[static_cast<std::size_t>(cpu)].front()) : single(cpu);
    }
    std::span<const int> for_each_domain(int cpu) const override { return chains_[static_cast<std::size_t>(cpu)]; }
    CpuSet sched_domain_span(int sd) const override
    {
        return {domains_[static_cast<std::size_t>(sd)].words.data(), nr_cpus_};
    }
    unsigned sd_flags(int sd) const override
    {
        const std::string_view name = domains_[static_cast<std::size_t>(sd)].name;
        const unsigned balance = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;
        if (name == "SMT")
            return balance | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | SD_PREFER_SIBLING;
        if (name == "MC")
            return balance | SD_SHARE_LLC | SD_PREFER_SIBLING;
        return balance;
    }
    std::string_view sd_name(int sd) const override { return domains_[static_cast<std::size_t>(sd)].name; }
    int sd_llc(int cpu) const override { return chains_[static_cast<std::size_t>(cpu)][smt_ > 1 ? 1 : 0]; }
    int arch_asym_cpu_priority(int cpu) const override { return -cpu; }
    double cpu_speed(int) const override { return 1.0; }

    bool idle_cpu(int cpu) const override { return running_[static_cast<std::size_t>(cpu)] == 0; }
    bool available_idle_cpu(int cpu) const override { return idle_cpu(cpu); }
    bool sched_idle_cpu(int) const override { return false; }
    bool choose_idle_cpu(int cpu, int) const override
    {
        ++examined_;
        return available_idle_cpu(cpu);
    }
    unsigned nr_running(int cpu) const override { return running_[static_cast<std::size_t>(cpu)]; }
    unsigned h_nr_runnable(int cpu) const override { return running_[static_cast<std::size_t>(cpu)]; }
    unsigned long capacity_of(int cpu) const override { return capacity_[static_cast<std::size_t>(cpu)]; }
    unsigned long arch_scale_cpu_capacity(int cpu) const override { return capacity_of(cpu); }
    unsigned long cpu_util_cfs(int cpu) const override { return util_[static_cast<std::size_t>(cpu)]; }
    bool cpu_overutilized(int) const override { return false; }
    bool test_idle_cores(int) const override { return has_idle_cores_; }
    int util_fits_cpu(unsigned long util, unsigned long, unsigned long, int cpu) const override
    {
        return util * 1280 < capacity_of(cpu) * 1024 ? 1 : 0;  // fits_capacity(): 20% headroom
    }
    bool asym_fits_cpu(unsigned long, unsigned long, unsigned long, int) const override { return true; }

    bool cpus_allowed(int p, int cpu) const override
    {
        const FakeTask* t = find(p);
        return cpu >= 0 && cpu < nr_cpus_ &&
               (!t || t->allowed.empty() || (static_cast<std::size_t>(cpu) < t->allowed.size() &&
                                             t->allowed[static_cast<std::size_t>(cpu)]));
    }
    int task_cpu(int p) const override { return find(p) ? find(p)->cpu : kNoCpu; }
    int last_wakee(int p) const override { return find(p) ? find(p)->last_wakee : kNoTask; }
    unsigned wakee_flips(int p) const override { return find(p) ? find(p)->wakee_flips : 0; }
    int recent_used_cpu(int p) const override { return find(p) ? find(p)->recent_used_cpu : kNoCpu; }
    bool sched_idle_task(int p) const override { return find(p) && find(p)->sched_idle; }
    unsigned long task_util_est(int p) const override { return find(p) ? find(p)->util : 0; }
    bool task_fits_cpu(int p, int cpu) const override { return util_fits_cpu(task_util_est(p), 0, 1024, cpu) > 0; }
    std::int64_t now_ns() const override { return now_; }

private:
    struct Domain {
        std::string name;
        int first = 0;
        int count = 0;
        std::vector<std::uint64_t> words;
    };

    int add_domain(const std::string& name, int first, int count)
    {
        for (std::size_t i = 0; i < domains_.size(); ++i)
            if (domains_[i].name == name && domains_[i].first == first)
                return static_cast<int>(i);
        Domain d{name, first, count, std::vector<std::uint64_t>(static_cast<std::size_t>((nr_cpus_ + 63) / 64), 0)};
        for (int cpu = first; cpu < first + count && cpu < nr_cpus_; ++cpu)
            d.words[static_cast<std::size_t>(cpu / 64)] |= std::uint64_t{1} << (cpu % 64);
        domains_.push_back(std::move(d));
        return static_cast<int>(domains_.size() - 1);
    }
    CpuSet single(int cpu) const
    {
        singles_[cpu] = std::vector<std::uint64_t>(static_cast<std::size_t>((nr_cpus_ + 63) / 64), 0);
        singles_[cpu][static_cast<std::size_t>(cpu / 64)] |= std::uint64_t{1} << (cpu % 64);
        return {singles_[cpu].data(), nr_cpus_};
    }
    const FakeTask* find(int p) const
    {
        const auto it = tasks_.find(p);
        return it == tasks_.end() ? nullptr : &it->second;
    }

    int nr_cpus_;
    int smt_;
    int llc_cpus_;
    std::vector<unsigned> running_;
    std::vector<unsigned long> util_;
    std::vector<unsigned long> capacity_;
    std::vector<Domain> domains_;
    std::vector<std::vector<int>> chains_;
    std::map<int, FakeTask> tasks_;
    mutable std::map<int, std::vector<std::uint64_t>> singles_;
    bool has_idle_cores_ = false;
    std::int64_t now_ = 0;
    mutable int examined_ = 0;
};

}  // namespace wakebench
