/* report.h - the report kinds of `tracetty report`: selection statistics
 * (analysis/) turned into rows for the writer (writer.h).
 *
 *   ops        breakdown by a key, the columns of `nsys stats` summaries:
 *              Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),
 *              Max (ns),StdDev (ns),Name; sorted by total time descending
 *   lanes      Lane,Events,Busy (ns),Busy (%),First (ns),Last (ns)
 *   transfers  Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),
 *              StdDev (MB),Operation,Throughput (MB/s)   (MB = 10^6 bytes)
 *   gpu        Rank,Total (ns),Busy (ns),Idle (ns),Computation (ns),
 *              Communication (ns),Exposed Communication (ns),Memcpy (ns),
 *              Exposed Memcpy (ns),Idle (%)   one row per trace
 *   events     Start (ns),Duration (ns),Lane,Name,Category,Bytes and one
 *              column per extra key
 *   steps      Rank,Step,Start (ns),Step Time (ns) and its parts per step
 *              (report/kind_steps.h, analysis/steps.h)
 *   launch     one row per launched device event: launch delay, host and
 *              device durations (report/kind_launch.h)
 * Times in rows are relative to the trace start. One engine: the numbers are
 * exactly what analysis/stats.h, transfers.h and gpu.h compute.
 *
 * Library code: writes the report to the FILE it is given and nothing else;
 * errors come back in tt_error.
 */
#ifndef TT_REPORT_REPORT_H
#define TT_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "report/writer.h"
#include "util/error.h"

typedef enum tt_report_kind {
    TT_REPORT_OPS = 0,
    TT_REPORT_LANES,
    TT_REPORT_TRANSFERS,
    TT_REPORT_GPU,
    TT_REPORT_EVENTS,
    TT_REPORT_ANNOTATIONS,  /* whole traces, written by report/annotations.h */
    TT_REPORT_RANKS,        /* across ranks, written by report/job.h */
    TT_REPORT_COLLECTIVES,  /* across ranks, written by report/job.h */
    TT_REPORT_OPERATORS,    /* report/kind_operators.h */
    TT_REPORT_KERNELS,      /* report/kind_kernels.h */
    TT_REPORT_STEPS,        /* per trace, rows by report/kind_steps.h */
    TT_REPORT_LAUNCH        /* per trace, rows by report/kind_launch.h */
} tt_report_kind;

/* "ops", "lanes", "transfers", "gpu", "events", "annotations", "ranks",
 * "collectives", "operators", "kernels", "steps", "launch"; TT_ERR_USAGE
 * otherwise. tt_report_new() takes the per-trace kinds only (ops to
 * events, operators, kernels, steps, launch). */
int tt_report_kind_parse(const char *s, tt_report_kind *k, tt_error *err);
const char *tt_report_kind_name(tt_report_kind k);

/* "csv", "json", "text"; TT_ERR_USAGE otherwise. */
int tt_report_format_parse(const char *s, tt_out_format *f, tt_error *err);

#define TT_REPORT_MAX_KEYS 16

typedef struct tt_report_opts {
    tt_report_kind        kind;
    tt_key                keys[TT_REPORT_MAX_KEYS];  /* ops, transfers: at most one
                                                        (default name); events: extra
                                                        columns; lanes, gpu: none */
    size_t                n_keys;
    const tt_window_spec *window;     /* NULL = the whole trace */
    const char           *lanes;      /* lane patterns (select.h); NULL = every lane */
    tt_out_format         format;
    bool                  sanitize;   /* output is a terminal (writer.h) */
    bool                  utf8;       /* text bars in block characters */
    bool                  several;    /* more than one trace: Trace column */
    const char           *group_title; /* title of that column (NULL = "Trace"),
                                          e.g. "Interval" for marker intervals */
    const char           *sort;       /* operators: --sort (NULL = device-self) */
    bool                  by_shape;   /* operators: --by shape (keys[0] is
                                         arg:Input Dims) */
} tt_report_opts;

typedef struct tt_report tt_report;

/* Check the options without writing anything: TT_ERR_USAGE when a key
 * does not apply to the kind. */
int tt_report_check(const tt_report_opts *o, tt_error *err);

/* Check the options and start the report on f (the CSV header, the JSON
 * document head). */
int tt_report_new(FILE *f, const tt_report_opts *o, tt_report **out, tt_error *err);

/* Add one trace, `name` as given by the user (its Trace cell), `position`
 * its rank of last resort (tt_report_fallback_ranks(); 0 for one trace).
 * *no_lanes is set when the lane patterns matched no lane of this trace (its
 * table is then empty). */
/* The same with a window of its own for this group (NULL = the report's
 * window), e.g. the interval between two markers of this trace. */
int tt_report_add_window(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                         const tt_window_spec *window, bool *no_lanes, tt_error *err);

int tt_report_add(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                  bool *no_lanes, tt_error *err);

/* Add one trace over an explicit selection (window and lane list, e.g. a
 * box the terminal UI selected): the report's own window and lane
 * patterns do not apply. The rows are those tt_report_add_window writes
 * when its window and patterns resolve to the same selection. */
int tt_report_add_sel(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                      const tt_sel *sel, tt_error *err);

/* Add one trace whose steps are the given intervals (--kind steps with
 * marker intervals): one table over the whole trace and the report's lane
 * patterns. */
int tt_report_add_spans(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                        const tt_step_spans *spans, bool *no_lanes, tt_error *err);

/* Why the table of the trace added last is empty or cut short (e.g. "no
 * steps in this trace"), for the caller to show; NULL when nothing to say.
 * Trace strings may appear in it raw. Valid until the next add. */
const char *tt_report_note(const tt_report *r);

/* Finish and flush. Non-zero with err set when writing failed. */
int tt_report_finish(tt_report *r, tt_error *err);

void tt_report_free(tt_report *r);   /* NULL is a no-op */

/* Rank of a trace: distributedInfo.rank from its metadata, else from its
 * file name (tt_rank_from_name: rank-3, rank_3, rank3, -3-of-8, worker3),
 * else `fallback` (tt_report_fallback_ranks()), or -1 when fallback is
 * negative. */
int64_t tt_report_rank(const tt_trace *tr, const char *name, int64_t fallback);

/* Ranks for traces that neither metadata nor their name rank, before they
 * load: the lowest ranks no file name claims, in the order given (as
 * tt_ranks_resolve() gives them once every rank is known). NULL when out
 * of memory; the caller frees. */
int64_t *tt_report_fallback_ranks(char *const *files, size_t n);

/* Why a gpu report of tr is all zeros: when tr holds no GPU event at all
 * (no kernel, memcpy, memset, instruction or collective, analysis/
 * classify.h), writes "no GPU kernels, memcpy or memset events: the
 * trace's categories are A, B, C" (the categories of its events, most
 * events first; trace strings, raw) to buf and returns 1; returns 0 when
 * tr has GPU events, -1 when out of memory. */
int tt_report_gpu_absent(const tt_trace *tr, char *buf, size_t cap);

#endif
