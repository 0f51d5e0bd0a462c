/* job.h - reports across the ranks of a job: `--kind ranks` and
 * `--kind collectives`.
 *
 * Each rank is added once (its trace may be freed right after): only small
 * facts are kept (its GPU breakdown, step times, its collectives), so a job
 * of hundreds of ranks costs the memory of one trace. The comparison
 * across ranks happens when the report is written.
 *
 *   ranks        Rank,Steps,Avg Step (ns),Computation (ns),Communication (ns),
 *                Exposed Communication (ns),Idle (ns),Step vs Median (%),
 *                Computation vs Median (%),Trace
 *                one row per rank, sorted by rank; steps are the events named
 *                ProfilerStep#N; the last two columns compare the rank's
 *                average step and computation with the median over ranks
 *   collectives  Rank,Collective,Sequence,Start (ns),Start Offset (ns),
 *                Duration (ns),Wait (ns),Ranks,Trace
 *                one row per collective per rank (multi/collectives.h):
 *                Start on the aligned clock, its offset from the earliest
 *                rank (start times: only as good as the alignment), and
 *                the in-kernel wait for the last rank to arrive (from
 *                durations: needs no alignment); the definitions and notes
 *                on what the match cannot know are in multi/collectives.h
 *
 * Library code: writes only to the FILE it is given.
 */
#ifndef TT_REPORT_JOB_H
#define TT_REPORT_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/select.h"
#include "model/trace.h"
#include "multi/rankset.h"
#include "report/writer.h"
#include "util/error.h"

typedef enum tt_job_kind {
    TT_JOB_RANKS = 0,
    TT_JOB_COLLECTIVES
} tt_job_kind;

typedef struct tt_job_opts {
    tt_job_kind           kind;
    const tt_window_spec *window;   /* NULL = whole traces */
    const char           *lanes;    /* lane patterns, NULL = every lane */
    tt_align_spec         align;    /* how rank clocks line up (collectives) */
} tt_job_opts;

typedef struct tt_job tt_job;

int tt_job_new(const tt_job_opts *o, tt_job **out, tt_error *err);
void tt_job_free(tt_job *j);   /* NULL is a no-op */

/* Take what the report needs from one rank. rank: from tt_report_rank,
 * -1 when neither metadata nor the file name gave one (tt_job_write()
 * then gives it the lowest free rank, as the terminal UI does). */
int tt_job_add(tt_job *j, const tt_trace *tr, const char *name, int64_t rank, tt_error *err);

/* Compare the ranks and write the table. Two traces claiming one rank
 * are an error (TT_ERR_USAGE), before anything is written. */
int tt_job_write(tt_job *j, FILE *f, const tt_writer_opts *wo, tt_error *err);

/* The alignment actually applied ("absolute", "start", "event ...") after
 * tt_job_write, for the user. */
const char *tt_job_alignment(const tt_job *j);

/* After tt_job_write of collectives: notes on what the numbers cannot say
 * (clocks that contradict the waits, world_size above the ranks loaded,
 * point-to-point kernels), sentences separated by '\n'; "" when none.
 * Owned by the job. */
const char *tt_job_notes(const tt_job *j);

/* After tt_job_write of collectives: the ranks (in the order added) and
 * the offset the alignment added to rank i's times (*rank: its number). */
size_t tt_job_ranks(const tt_job *j);
tt_ns tt_job_offset(const tt_job *j, size_t i, int64_t *rank);

#endif
