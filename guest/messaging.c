// SPDX-License-Identifier: Apache-2.0
//
// messaging: the guest side of wakesim's `hackbench` workload, in the shape
// of hackbench (rt-tests) and perf's tools/perf/bench/sched-messaging.c.
// Each group has `fds` receivers, each reading its own pipe or
// socketpair(AF_UNIX, SOCK_STREAM), and `fds` senders that each write
// `loops` rounds of one `datasize`-byte message to every receiver of the
// group. Everyone reports ready on one pipe and waits for a go on another,
// so all start together; the main task then reaps them.
//
//   messaging [-g GROUPS] [-f FDS] [-l LOOPS] [-s DATASIZE] [-p] [-T] [-c CPULIST]
//     -p  pipes instead of sockets (hackbench's -p)
//     -T  threads of one process instead of processes (hackbench's -T)
#include "guest_util.h"  // first: it defines _GNU_SOURCE

#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long groups = 10, fds = 20, loops = 100, datasize = 100;
static int use_pipes, use_threads;
static int ready_pipe[2], go_pipe[2];

struct receiver {
    int in;
    unsigned long messages;
};

struct sender {
    int* out;  // the group's receivers' write ends
};

static void ready_and_wait(void)
{
    char c = 0;
    if (write(ready_pipe[1], &c, 1) != 1)
        die("ready write");
    struct pollfd p = {go_pipe[0], POLLIN, 0};
    if (poll(&p, 1, -1) != 1)
        die("poll for go");
}

static void* receive(void* arg)
{
    struct receiver* r = arg;
    name_task("wb_receiver");
    ready_and_wait();
    char* buf = malloc(datasize);
    for (unsigned long i = 0; i < r->messages; ++i) {
        unsigned long done = 0;
        while (done < datasize) {
            ssize_t n = read(r->in, buf + done, datasize - done);
            if (n <= 0)
                die("receiver read");
            done += (unsigned long)n;
        }
    }
    free(buf);
    return NULL;
}

static void* send_all(void* arg)
{
    struct sender* s = arg;
    name_task("wb_sender");
    ready_and_wait();
    char* buf = calloc(1, datasize);
    for (unsigned long i = 0; i < loops; ++i) {
        for (unsigned long j = 0; j < fds; ++j) {
            unsigned long done = 0;
            while (done < datasize) {
                ssize_t n = write(s->out[j], buf + done, datasize - done);
                if (n <= 0)
                    die("sender write");
                done += (unsigned long)n;
            }
        }
    }
    free(buf);
    return NULL;
}

// Starts `fn` as a process or a thread; a process's id goes to *pid.
static void start(void* (*fn)(void*), void* arg, pthread_t* thread, pid_t* pid)
{
    if (use_threads) {
        if (pthread_create(thread, NULL, fn, arg))
            die("pthread_create");
        return;
    }
    *pid = fork();
    if (*pid < 0)
        die("fork");
    if (*pid == 0) {
        fn(arg);
        exit(0);
    }
}

int main(int argc, char** argv)
{
    const char* cpus = "";
    for (int opt; (opt = getopt(argc, argv, "g:f:l:s:pTc:")) != -1;) {
        switch (opt) {
        case 'g': groups = count_arg("g", optarg); break;
        case 'f': fds = count_arg("f", optarg); break;
        case 'l': loops = count_arg("l", optarg); break;
        case 's': datasize = count_arg("s", optarg); break;
        case 'p': use_pipes = 1; break;
        case 'T': use_threads = 1; break;
        case 'c': cpus = optarg; break;
        default: die("usage: messaging [-g GROUPS] [-f FDS] [-l LOOPS] [-s DATASIZE] [-p] [-T] [-c CPULIST]");
        }
    }
    if (!groups || !fds || !datasize)
        die("groups, fds and datasize must be at least 1");
    pin_to(cpus);
    if (pipe(ready_pipe) || pipe(go_pipe))
        die("pipe()");
    const unsigned long tasks = groups * fds * 2;
    pthread_t* threads = calloc(tasks, sizeof *threads);
    pid_t* pids = calloc(tasks, sizeof *pids);
    unsigned long started = 0;
    for (unsigned long g = 0; g < groups; ++g) {
        struct sender* s = malloc(sizeof *s);
        s->out = calloc(fds, sizeof(int));
        for (unsigned long r = 0; r < fds; ++r) {
            int pair[2];
            if (use_pipes ? pipe(pair) : socketpair(AF_UNIX, SOCK_STREAM, 0, pair))
                die(use_pipes ? "pipe()" : "socketpair()");
            struct receiver* rc = malloc(sizeof *rc);
            rc->in = pair[0];
            rc->messages = fds * loops;
            start(receive, rc, &threads[started], &pids[started]);
            ++started;
            s->out[r] = pair[1];
            if (!use_threads)
                close(pair[0]);
        }
        for (unsigned long i = 0; i < fds; ++i) {
            start(send_all, s, &threads[started], &pids[started]);
            ++started;
        }
        if (!use_threads)
            for (unsigned long r = 0; r < fds; ++r)
                close(s->out[r]);
    }
    char c;
    for (unsigned long i = 0; i < tasks; ++i)
        if (read(ready_pipe[0], &c, 1) != 1)
            die("reading ready");
    if (write(go_pipe[1], &c, 1) != 1)
        die("writing go");
    for (unsigned long i = 0; i < tasks; ++i) {
        if (use_threads) {
            pthread_join(threads[i], NULL);
            continue;
        }
        int status = 0;
        if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            die("a sender or receiver failed");
    }
    return 0;
}
