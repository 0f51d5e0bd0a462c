/* test_parallel.c - tt_parallel_run: every job runs exactly once whatever
 * the number of jobs and threads, never on more threads than asked for or
 * than there are jobs, and with one thread all on the caller, in order. */
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

int main(void)
{
    static const size_t jobs[] = {0, 1, 2, 7, 1000};
    static const unsigned threads[] = {0, 1, 2, 3, 64};
    ok(tt_parallel_cores() >= 1, "%u cores", tt_parallel_cores());
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
        for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++)
            run(jobs[i], threads[k]);
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
        }
    }
#endif
    return tap_done();
}
