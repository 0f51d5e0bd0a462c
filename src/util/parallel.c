/* parallel.c - run independent jobs on several threads (see parallel.h). */
#include "config.h"

#include "util/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct run {
    size_t        n;
    atomic_size_t next;
    void        (*work)(void *ctx, size_t job);
    void         *ctx;
} run;

static void *worker(void *arg)
{
    run *r = arg;
    for (;;) {
        size_t job = atomic_fetch_add(&r->next, 1);
        if (job >= r->n)
            return NULL;
        r->work(r->ctx, job);
    }
}

unsigned tt_parallel_cores(void)
{
    long c;
    const char *env = getenv("TRACETTY_THREADS");
    if (env && *env) {
        /* the user's (or a test's) choice: 1 forces the serial paths, more
         * than the cores exercises the parallel ones anywhere */
        char *end;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0' && v >= 1 && v <= 1024)
            return (unsigned)v;
    }
#ifdef HAVE_SCHED_GETAFFINITY
    /* the CPUs this process may run on: a job pinned to one core
     * (taskset, a batch scheduler's cgroup cpuset) gains nothing from a
     * second thread */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 1 ? (unsigned)c : 1;
}

unsigned tt_parallel_run(size_t n_jobs, unsigned max_threads,
                         void (*work)(void *ctx, size_t job), void *ctx)
{
    unsigned nt = max_threads ? max_threads : tt_parallel_cores(), started = 0;
    pthread_t *th = NULL;
    run r;
    r.n = n_jobs;
    atomic_init(&r.next, 0);
    r.work = work;
    r.ctx = ctx;
    if (nt > n_jobs)
        nt = n_jobs ? (unsigned)n_jobs : 1;
    if (nt > 1)
        th = malloc((nt - 1) * sizeof *th);
    for (unsigned t = 0; th && t + 1 < nt; t++) {
        if (pthread_create(&th[t], NULL, worker, &r) != 0)
            break;
        started = t + 1;
    }
    worker(&r);   /* the calling thread works too */
    for (unsigned t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
    return started + 1;
}
