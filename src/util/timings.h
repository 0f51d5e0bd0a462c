/* timings.h - wall and CPU time per phase of a run (tracetty --timings).
 *
 * The load path marks its phases (decode: read, decompress and parse, the
 * decoder's whole call; finalize: sort, nest, index) and the CLI prints
 * them after the command with the run's totals; what the total leaves is
 * the command's own work (rules, report, encode, output). Off unless
 * tt_timings_enable() is called (before any thread starts): a mark is then
 * one test of a flag.
 *
 * CPU time is the process's (CLOCK_PROCESS_CPUTIME_ID: every thread,
 * helpers included). Loads that run at the same time (the ranks of a
 * directory) add their times to the same phases, so with several traces
 * the phases are sums over loads and may exceed the run's wall time.
 *
 * Ownership: process-wide totals behind a mutex; nothing to free.
 */
#ifndef TT_UTIL_TIMINGS_H
#define TT_UTIL_TIMINGS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum tt_phase {
    TT_PHASE_DECODE,     /* the decoder: read, decompress, parse */
    TT_PHASE_FINALIZE,   /* tt_trace_finalize: sort, nest, index */
    TT_PHASE__N
} tt_phase;

/* Where a phase (or the run) started. */
typedef struct tt_phase_mark {
    double wall, cpu;    /* seconds: CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID */
} tt_phase_mark;

void tt_timings_enable(void);
bool tt_timings_enabled(void);

/* Mark the start of the run, on or off (the option that turns timings on
 * is parsed after the run started). */
void tt_timings_run_start(tt_phase_mark *m);
/* Mark the start of a phase; does nothing when off. */
void tt_phase_start(tt_phase_mark *m);
/* Add the time since m to phase p; does nothing when off. */
void tt_phase_stop(tt_phase p, const tt_phase_mark *m);

/* One line per phase on f, then the rest of the run since run_start
 * (the command's own work) and the total: "tracetty: timings: ...".
 * Does nothing when off. */
void tt_timings_print(FILE *f, const tt_phase_mark *run_start);

#endif
