// SPDX-License-Identifier: Apache-2.0
//
// The hook on machine states built by hand: 8 CPUs in two LLCs of 4, the
// waker (task 3) alone on CPU 1, p (task 7).
#include <cstdio>
#include <cstdlib>

#include <wakebench/testing.h>

#include "prefer_idle_prev_llc.h"

namespace {

int failures = 0;

void expect(bool ok, const char* what)
{
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
}

// A trace that keeps what the hook said.
struct Said final : wakebench::Trace {
    std::string branch, detail;
    int cpu = wakebench::kNoCpu;
    void step(std::string_view b, std::string d, int c) override
    {
        branch = b;
        detail = std::move(d);
        cpu = c;
    }
    void declined(std::string d) override { detail = std::move(d); }
    void scanned(int) override {}
};

}  // namespace

int main()
{
    const PreferIdlePrevLlc policy({true, true});
    wakebench::FakeSchedView m(8, 1, 4);
    m.set_running(1, 1);
    wakebench::Wakeup w;
    w.p = 7;
    w.this_cpu = 1;
    w.current = 3;
    w.prev_cpu = 2;

    Said said;
    expect(policy.before_wake_affine(m, w, 0, &said) == 2, "idle prev in the waker's LLC: prev");
    expect(said.branch == "prev idle, same LLC" && said.cpu == 2, "the step names the branch and the CPU");

    m.set_running(2, 1);
    expect(policy.before_wake_affine(m, w, 0, &said) == wakebench::kNoCpu, "busy prev: wake_affine() decides");
    expect(said.detail == "prev cpu 2 is busy (nr_running 1)", "the decline says why");

    m.set_running(2, 0);
    w.prev_cpu = 5;
    expect(policy.before_wake_affine(m, w, 0, nullptr) == wakebench::kNoCpu, "prev in another LLC: declined");
    expect(PreferIdlePrevLlc({false, true}).before_wake_affine(m, w, 0, nullptr) == 5, "same_llc off: any idle prev");

    w.prev_cpu = 2;
    w.sync = true;
    expect(PreferIdlePrevLlc({true, false}).before_wake_affine(m, w, 0, nullptr) == wakebench::kNoCpu,
           "sync off: WF_SYNC wakeups left alone");
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
