/* parallel.h - run independent jobs on several threads.
 *
 * The calling thread works too: with one thread, the jobs simply run in
 * order on the caller. Jobs are handed out in order, each to the next
 * thread that is free. Used by the parallel load of many traces
 * (multi/rankset.c) and the snapshot reader's argument chunks
 * (snapshot/argcols.c).
 */
#ifndef TT_UTIL_PARALLEL_H
#define TT_UTIL_PARALLEL_H

#include <stddef.h>

/* The cores this process may use (its CPU affinity mask where the system
 * has one, else the online cores), at least 1; the environment variable
 * TRACETTY_THREADS=N (1 to 1024) overrides it (1: every serial path). */
unsigned tt_parallel_cores(void);

/* Run work(ctx, job) once for every job in [0, n_jobs) on up to
 * max_threads threads (0: one per core it may use, tt_parallel_cores), never more threads than
 * jobs, the caller included; returns when all have run. work must be safe
 * to run concurrently for different jobs. When a thread cannot be started
 * the others (at least the caller) do its share. Returns the number of
 * threads it ran, the caller included. */
unsigned tt_parallel_run(size_t n_jobs, unsigned max_threads,
                         void (*work)(void *ctx, size_t job), void *ctx);

#endif
