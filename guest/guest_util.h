// SPDX-License-Identifier: Apache-2.0
//
// What the guest workload programs share: naming a task (its comm is how
// the host's trace import picks the workload's tasks out of the trace:
// every workload task is called wb_*), pinning to a cpulist, and dying
// with a message. Header-only: each program is one translation unit,
// built with `cc -static` when `wakesim kernel run` needs it.
#pragma once

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

static inline void die(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "wakebench guest program: ");
    vfprintf(stderr, fmt, ap);
    if (errno)
        fprintf(stderr, ": %s", strerror(errno));
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static inline void name_task(const char* name)
{
    if (prctl(PR_SET_NAME, name, 0, 0, 0) != 0)
        die("prctl(PR_SET_NAME, %s)", name);
}

// "0-3,8" as taskset -c takes it; "" leaves the affinity alone.
static inline void pin_to(const char* list)
{
    if (!list || !*list)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    const char* p = list;
    while (*p) {
        char* end;
        long first = strtol(p, &end, 10);
        long last = first;
        if (end == p)
            die("cpulist '%s': expected N or N-M items", list);
        if (*end == '-') {
            p = end + 1;
            last = strtol(p, &end, 10);
            if (end == p)
                die("cpulist '%s': expected N-M", list);
        }
        for (long c = first; c <= last && c < CPU_SETSIZE; ++c)
            CPU_SET((int)c, &set);
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            die("cpulist '%s': unexpected '%c'", list, *end);
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        die("sched_setaffinity(%s)", list);
}

static inline unsigned long count_arg(const char* opt, const char* text)
{
    char* end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (errno || end == text || *end)
        die("-%s '%s': expected a whole number", opt, text);
    return v;
}
