/* test_parallel.c - tt_parallel_run: every job runs exactly once whatever
 * the number of jobs and threads, never on more threads than asked for or
 * than there are jobs, and with one thread all on the caller, in order.
 * tt_task: runs exactly once, done when tt_task_finish() returns; with a
 * budget of one thread on the caller, inside tt_task_finish(). */
#include "config.h"

#include "../tap.h"
#include "util/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct counts {
    atomic_int *runs;        /* per job */
    size_t     *order;       /* jobs in the order they ran (one thread) */
    atomic_size_t n_run;
    pthread_t   caller;
    atomic_bool elsewhere;   /* a job ran off the calling thread */
} counts;

static void work(void *ctx, size_t job)
{
    counts *c = ctx;
    size_t at = atomic_fetch_add(&c->n_run, 1);
    atomic_fetch_add(&c->runs[job], 1);
    c->order[at] = job;
    if (!pthread_equal(pthread_self(), c->caller))
        atomic_store(&c->elsewhere, true);
}

static void run(size_t n, unsigned max)
{
    counts c;
    unsigned used, limit = max ? max : tt_parallel_cores();
    bool once = true, in_order = true;
    c.runs = calloc(n + 1, sizeof *c.runs);
    c.order = calloc(n + 1, sizeof *c.order);
    atomic_init(&c.n_run, 0);
    atomic_init(&c.elsewhere, false);
    c.caller = pthread_self();
    if (!c.runs || !c.order) {
        ok(0, "memory for %zu jobs", n);
        return;
    }
    used = tt_parallel_run(n, max, work, &c);
    for (size_t i = 0; i < n; i++) {
        once = once && atomic_load(&c.runs[i]) == 1;
        in_order = in_order && c.order[i] == i;
    }
    ok(once && atomic_load(&c.n_run) == n, "%zu jobs, %u threads at most: each ran once", n, max);
    ok(used >= 1 && used <= limit && used <= (n ? n : 1),
       "%zu jobs, %u threads at most: %u threads ran", n, max, used);
    if (max == 1 || n <= 1)
        ok(used == 1 && !atomic_load(&c.elsewhere) && in_order,
           "%zu jobs, %u threads at most: all on the caller, in order", n, max);
    free(c.runs);
    free(c.order);
}

typedef struct task_ctx {
    atomic_int  runs;
    pthread_t   caller;
    atomic_bool elsewhere;
    atomic_bool caller_done;   /* set by the caller before tt_task_finish */
    atomic_bool ran_before;    /* the task ran before that (budget 1) */
} task_ctx;

static void task_work(void *ctx)
{
    task_ctx *c = ctx;
    if (!pthread_equal(pthread_self(), c->caller))
        atomic_store(&c->elsewhere, true);
    if (!atomic_load(&c->caller_done))
        atomic_store(&c->ran_before, true);
    atomic_fetch_add(&c->runs, 1);
}

static void task(unsigned threads)
{
    task_ctx c;
    tt_task t;
    unsigned budget = threads ? threads : tt_parallel_cores();
    atomic_init(&c.runs, 0);
    atomic_init(&c.elsewhere, false);
    atomic_init(&c.caller_done, false);
    atomic_init(&c.ran_before, false);
    c.caller = pthread_self();
    tt_task_start(&t, threads, task_work, &c);
    if (budget == 1)
        atomic_store(&c.caller_done, true);
    tt_task_finish(&t);
    ok(atomic_load(&c.runs) == 1, "task, budget %u: ran once by tt_task_finish", threads);
    if (budget == 1)
        ok(!atomic_load(&c.elsewhere) && !atomic_load(&c.ran_before),
           "task, budget %u (1): on the caller, inside tt_task_finish", threads);
    else
        ok(t.started == false, "task, budget %u: finished", threads);
}

int main(void)
{
    static const size_t jobs[] = {0, 1, 2, 7, 1000};
    static const unsigned threads[] = {0, 1, 2, 3, 64};
    ok(tt_parallel_cores() >= 1, "%u cores", tt_parallel_cores());
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
        for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++)
            run(jobs[i], threads[k]);
    task(1);
    task(2);
    task(0);
#ifdef HAVE_SCHED_GETAFFINITY
    {
        /* pinned to one CPU (as `taskset -c 0` or a batch slot of one
         * core), the process may use one core, whatever is online; the
         * last: the rest of the test runs on that CPU */
        cpu_set_t set, one;
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
            ok(tt_parallel_cores() == (unsigned)CPU_COUNT(&set),
               "the cores are those of the affinity mask (%d)", CPU_COUNT(&set));
            CPU_ZERO(&one);
            for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
                if (CPU_ISSET(cpu, &set)) {
                    CPU_SET(cpu, &one);
                    break;
                }
            ok(sched_setaffinity(0, sizeof one, &one) == 0, "pinned to one CPU");
            ok(tt_parallel_cores() == 1, "pinned: 1 core (got %u)", tt_parallel_cores());
            run(1000, 0);
            task(0);   /* pinned: the default budget is one thread */
        }
    }
#endif
    return tap_done();
}
