/* scaling.h - N runs of one workload side by side: `tracetty diff
 * --scaling RUN...`, a row per measured thing, a column group per run
 * with its time, its speedup and its efficiency against the first run.
 *
 * A run is the traces of one job (the files of a run directory, or one
 * file). What is measured depends on the format:
 *   HugeCTR prof.json (every trace of every run): as HugeCTR's own
 *     scaling chart (tools/profiler): the "iteration" row is each host's
 *     avg_iter_time; a label's row is each of its events' average measured
 *     time, over every host, device and stream of the run that has the
 *     label. Ranks = hosts.
 *   anything else: the "step" row is each rank's mean step time
 *     (analysis/steps.h over the whole trace); a name's row is each
 *     rank's total time of events with that name (the ops breakdown by
 *     name, as `report --kind ops`). Ranks = traces.
 * Each thing gets two rows, "avg" (the mean of its values in the run)
 * and "max" (the largest). Runs may not mix HugeCTR with other formats.
 *
 *   speedup k    = T(run 1) / T(run k)
 *   efficiency k = speedup k * ranks(run 1) / ranks(run k)   (strong scaling)
 *                = T(run 1) / T(run k)                       (weak, --weak)
 * NAN where a run lacks the row or a time is 0.
 *
 * Rows: the iteration (or step) rows first, then the names by run 1's avg
 * time, descending, then by name (a name missing from run 1 after the
 * others, by name).
 *
 * Library code: no I/O. Ownership: a tt_scaling owns its rows, names and
 * labels (copied); the traces are only read while added.
 */
#ifndef TT_ANALYSIS_SCALING_H
#define TT_ANALYSIS_SCALING_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_scaling_row {
    const char *name;       /* "iteration", "step", a label or a name */
    bool        avg;        /* the "avg" row, else "max" */
    bool        whole;      /* the iteration or step row */
    double     *t;          /* per run, ns (NAN: the run lacks it) */
    double     *speedup;    /* per run */
    double     *eff;        /* per run */
} tt_scaling_row;

typedef struct tt_scaling_acc tt_scaling_acc;
struct tt_strtab;

typedef struct tt_scaling {
    bool             weak;
    bool             hugectr;      /* after finish: the runs are HugeCTR's */
    size_t           n_runs;
    char           **labels;       /* per run, as given */
    size_t          *ranks;        /* per run: hosts (HugeCTR) or traces */
    size_t          *no_steps;     /* per run: traces without steps */
    tt_scaling_row  *rows;         /* after tt_scaling_finish */
    size_t           n;
    /* private */
    struct tt_strtab *names;
    tt_scaling_acc  **acc;         /* per run, per name id */
    size_t           *n_acc;
    size_t            n_hugectr, n_other;
} tt_scaling;

tt_scaling *tt_scaling_new(bool weak);   /* NULL when out of memory */
void tt_scaling_free(tt_scaling *s);     /* NULL is a no-op */

/* Start the next run, labelled label (copied). 0, or -1 with err set. */
int tt_scaling_run_begin(tt_scaling *s, const char *label, tt_error *err);

/* Add one trace of the current run. 0, or -1 with err set (out of
 * memory, unreadable arguments). */
int tt_scaling_run_add(tt_scaling *s, const tt_trace *tr, tt_error *err);

/* Make the rows. 0, or -1 with err set: fewer than two runs, a run
 * without traces, HugeCTR mixed with other formats (TT_ERR_USAGE). */
int tt_scaling_finish(tt_scaling *s, tt_error *err);

#endif
