// SPDX-License-Identifier: Apache-2.0
//
// pipe: the guest side of wakesim's `pipe` workload, in the shape of `perf
// bench sched pipe` (tools/perf/bench/sched-pipe.c): two tasks hand an int
// back and forth over two pipes, `loops` times. Task 0 reads then writes,
// task 1 writes then reads, so each loop is two sync wakeups.
//
//   pipe [-l LOOPS] [-T] [-c CPULIST]
//     -l  round trips (perf's -l), default 1000000
//     -T  two threads of one process instead of two processes (perf's -T)
//     -c  both tasks pinned to these CPUs (taskset -c)
#include "guest_util.h"  // first: it defines _GNU_SOURCE

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

struct side {
    int nr;
    int in, out;
    unsigned long loops;
};

static void* run(void* arg)
{
    struct side* s = arg;
    name_task(s->nr == 0 ? "wb_pipe0" : "wb_pipe1");
    int token = 0;
    for (unsigned long i = 0; i < s->loops; ++i) {
        if (s->nr == 0) {
            if (read(s->in, &token, sizeof token) != sizeof token)
                die("pipe task 0: read");
            if (write(s->out, &token, sizeof token) != sizeof token)
                die("pipe task 0: write");
        } else {
            if (write(s->out, &token, sizeof token) != sizeof token)
                die("pipe task 1: write");
            if (read(s->in, &token, sizeof token) != sizeof token)
                die("pipe task 1: read");
        }
    }
    return NULL;
}

int main(int argc, char** argv)
{
    unsigned long loops = 1000000;
    int threads = 0;
    const char* cpus = "";
    for (int opt; (opt = getopt(argc, argv, "l:Tc:")) != -1;) {
        if (opt == 'l')
            loops = count_arg("l", optarg);
        else if (opt == 'T')
            threads = 1;
        else if (opt == 'c')
            cpus = optarg;
        else
            die("usage: pipe [-l LOOPS] [-T] [-c CPULIST]");
    }
    pin_to(cpus);
    int to_0[2], to_1[2];
    if (pipe(to_0) || pipe(to_1))
        die("pipe()");
    struct side sides[2] = {{0, to_0[0], to_1[1], loops}, {1, to_1[0], to_0[1], loops}};

    if (threads) {
        pthread_t t[2];
        for (int i = 0; i < 2; ++i)
            if (pthread_create(&t[i], NULL, run, &sides[i]))
                die("pthread_create");
        for (int i = 0; i < 2; ++i)
            pthread_join(t[i], NULL);
        return 0;
    }
    const pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        run(&sides[0]);
        return 0;
    }
    run(&sides[1]);
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        die("pipe task 0 failed");
    return 0;
}
