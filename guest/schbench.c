// SPDX-License-Identifier: Apache-2.0
//
// schbench: the guest side of wakesim's `schbench` workload, in the shape of
// schbench (github.com/masoncl/schbench, message.c and worker.c) as the
// model runs it: message threads, each with its workers. A worker with
// nothing to do adds itself to its message thread's list, posts the message
// thread's futex and waits on its own; woken, it does one request (`work`
// of spinning on the clock) and comes back. A message thread takes its list
// and posts each worker's futex in turn (futex wakes: no WF_SYNC); if it
// woke anyone it naps `sleep` and looks again, else it waits on its futex.
// All are threads of one process; the main thread stops them after
// warmup + runtime.
//
//   schbench [-m MESSAGE_THREADS] [-t WORKERS] [-r RUNTIME_US] [-n WORK_US] [-s SLEEP_US] [-w WARMUP_US]
#include "guest_util.h"  // first: it defines _GNU_SOURCE

#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { FUTEX_RUNNING = 0, FUTEX_BLOCKED = 1 };

struct thread {
    atomic_int futex;
    struct thread* owner;           // a worker's message thread
    _Atomic(struct thread*) list;   // a message thread's waiting workers (a lock-free stack)
    struct thread* next;            // a worker's link in that list
    pthread_t id;
};

static unsigned long message_threads = 2, workers = 16, runtime_us = 1000000, work_us = 20, sleep_us = 100,
                     warmup_us = 0;
static atomic_int stopping;

static void fwait(atomic_int* f)
{
    while (atomic_load(f) == FUTEX_BLOCKED && !atomic_load(&stopping))
        syscall(SYS_futex, f, FUTEX_WAIT_PRIVATE, FUTEX_BLOCKED, NULL, NULL, 0);
}

static void fpost(atomic_int* f)
{
    int blocked = FUTEX_BLOCKED;
    if (atomic_compare_exchange_strong(f, &blocked, FUTEX_RUNNING))
        syscall(SYS_futex, f, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static unsigned long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL;
}

static void* worker(void* arg)
{
    struct thread* w = arg;
    name_task("wb_worker");
    while (!atomic_load(&stopping)) {
        atomic_store(&w->futex, FUTEX_BLOCKED);
        struct thread* head = atomic_load(&w->owner->list);
        do
            w->next = head;
        while (!atomic_compare_exchange_weak(&w->owner->list, &head, w));
        fpost(&w->owner->futex);
        fwait(&w->futex);
        const unsigned long long end = now_us() + work_us;
        while (now_us() < end)
            ;
    }
    return NULL;
}

static void* message(void* arg)
{
    struct thread* m = arg;
    name_task("wb_msg");
    while (!atomic_load(&stopping)) {
        atomic_store(&m->futex, FUTEX_BLOCKED);
        struct thread* list = atomic_exchange(&m->list, NULL);
        if (!list) {
            fwait(&m->futex);
            continue;
        }
        // The stack pops newest first; wake in the order they came.
        struct thread* fifo = NULL;
        while (list) {
            struct thread* next = list->next;
            list->next = fifo;
            fifo = list;
            list = next;
        }
        for (; fifo; fifo = fifo->next)
            fpost(&fifo->futex);
        usleep(sleep_us);
    }
    return NULL;
}

int main(int argc, char** argv)
{
    for (int opt; (opt = getopt(argc, argv, "m:t:r:n:s:w:")) != -1;) {
        switch (opt) {
        case 'm': message_threads = count_arg("m", optarg); break;
        case 't': workers = count_arg("t", optarg); break;
        case 'r': runtime_us = count_arg("r", optarg); break;
        case 'n': work_us = count_arg("n", optarg); break;
        case 's': sleep_us = count_arg("s", optarg); break;
        case 'w': warmup_us = count_arg("w", optarg); break;
        default: die("usage: schbench [-m MSG] [-t WORKERS] [-r RUNTIME_US] [-n WORK_US] [-s SLEEP_US] [-w WARMUP_US]");
        }
    }
    if (!message_threads || !workers)
        die("at least one message thread and one worker");
    struct thread* all = calloc(message_threads * (workers + 1), sizeof *all);
    for (unsigned long m = 0; m < message_threads; ++m) {
        struct thread* msg = &all[m * (workers + 1)];
        for (unsigned long w = 1; w <= workers; ++w)
            msg[w].owner = msg;
    }
    for (unsigned long i = 0; i < message_threads * (workers + 1); ++i) {
        struct thread* t = &all[i];
        if (pthread_create(&t->id, NULL, t->owner ? worker : message, t))
            die("pthread_create");
    }
    usleep(warmup_us + runtime_us);
    atomic_store(&stopping, 1);
    for (unsigned long i = 0; i < message_threads * (workers + 1); ++i) {
        atomic_store(&all[i].futex, FUTEX_RUNNING);
        syscall(SYS_futex, &all[i].futex, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
    for (unsigned long i = 0; i < message_threads * (workers + 1); ++i)
        pthread_join(all[i].id, NULL);
    return 0;
}
