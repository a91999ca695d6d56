// SPDX-License-Identifier: Apache-2.0
//
// sync-waker-v3: prefer the waker's CPU for non-SMT reciprocal sync wakeups.
//
// Models patch v3 by an Ampere engineer (July 2026, on v7.2-rc5). Why: a
// ping-pong pair (pipes, request/response over sockets) on a machine without
// SMT wakes its partner with WF_SYNC and then sleeps; mainline's
// select_idle_sibling() still sends the wakee to some idle CPU of the LLC, so
// every round trip crosses CPUs (an IPI, a cold L1/L2, an idle exit). When
// the waker is alone on its CPU, placing the wakee right there lets it run
// as soon as the waker blocks.
//
// Where: select_task_rq_fair(), when the affine domain is found and before
// wake_affine(). All of: sync; SMT not active; p->last_wakee == current; the
// waker's CPU runs exactly one runnable fair task; on asym-capacity systems
// p (its util refreshed) fits the waker's CPU. Then the waker's CPU is the
// answer: neither wake_affine() nor select_idle_sibling() runs.
//
// Expected effect: pipe-like pairs stack on one CPU and their round trip
// drops to two context switches; other wakeups are untouched. Without the
// SMT condition (smt_check=off) the reviewers saw the pipe benchmark get
// much slower on SMT-2: the pair shares one hardware thread while the
// sibling thread idles.
#pragma once

#include <string>

#include "sched/placement_policy.h"

namespace wb {

// The five conditions both sync-waker versions test; each switched off is
// treated as met.
struct SyncWakerChecks {
    bool sync = true;
    bool smt_check = true;
    bool reciprocal = true;
    bool waker_alone = true;
    bool fits = true;
};

// Whether the conditions hold for this wakeup. With `why` (only when a
// record is made) *why receives the values that made them hold, or else the
// first condition that failed ("SMT active").
bool sync_waker_conditions(const SchedState& s, const WakeupArgs& w, const SyncWakerChecks& checks, std::string* why);

class SyncWakerV3 final : public PlacementPolicy {
public:
    enum Switch { kSync, kSmtCheck, kReciprocal, kWakerAlone, kFits };
    static const PolicyInfo& info();
    explicit SyncWakerV3(std::vector<bool> on);

    CpuId before_wake_affine(const SchedState& s, const WakeupArgs& w, int sd, DecisionRecord* rec) const override;

private:
    SyncWakerChecks checks_;
};

}  // namespace wb
