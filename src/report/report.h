/* report.h - `tracetty report`'s per-trace tables: selection statistics
 * (analysis/) turned into rows for the writer (writer.h) by the report
 * kinds of the table in kind.h (ops, lanes, transfers, gpu, events,
 * operators, kernels, steps, launch: each in its own kind_*.c, with its
 * columns documented there). Times in rows are relative to the trace
 * start. One engine: the numbers are exactly what analysis/ computes.
 *
 * This file owns what every per-trace kind shares: checking the options
 * against the kind's flags, the writer and its head, one title and
 * summary per trace, and the notes; it never asks which kind it runs.
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
#include "report/kind.h"
#include "report/writer.h"
#include "util/error.h"

/* A kind of the table (kind.h) by name; TT_ERR_USAGE listing them
 * otherwise. tt_report_new() takes the TT_KIND_PER_TRACE kinds only. */
int tt_report_kind_parse(const char *s, const tt_report_kind **k, tt_error *err);
const char *tt_report_kind_name(const tt_report_kind *k);

/* "csv", "json", "text"; TT_ERR_USAGE otherwise. */
int tt_report_format_parse(const char *s, tt_out_format *f, tt_error *err);

#define TT_REPORT_MAX_KEYS 16

typedef struct tt_report_opts {
    const tt_report_kind *kind;       /* a row of the table (kind.h) */
    tt_key                keys[TT_REPORT_MAX_KEYS];  /* --by: as the kind's flags say
                                                        (TT_KIND_BY...) */
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
    bool                  by_module;  /* operators: --by module, the innermost
                                         nn.Module (keys[0] stands for it) */
    bool                  ncu_join;   /* kernels: Nsight Compute metrics are joined
                                         to the traces (--metrics): their columns */
    const char *const    *metrics;    /* kernels with ncu_join: --metric names */
    size_t                n_metrics;
    bool                  totals;     /* --totals: only the total rows (TT_KIND_TOTALS) */
} tt_report_opts;

typedef struct tt_report tt_report;

/* Check the options without writing anything against the kind's flags
 * and check: TT_ERR_USAGE when a key, --sort or --by shape does not
 * apply to it. For a kind of another scope, only --sort and --by shape
 * (the CLI checks the rest). */
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

/* The gpu kind's trace_note (kind_gpu.c). Why a gpu report of tr is all
 * zeros: when tr holds no GPU event at all
 * (no kernel, memcpy, memset, instruction or collective, analysis/
 * classify.h), writes "no GPU kernels, memcpy or memset events: the
 * trace's categories are A, B, C" (the categories of its events, most
 * events first; trace strings, raw) to buf and returns 1; returns 0 when
 * tr has GPU events, -1 when out of memory. */
int tt_report_gpu_absent(const tt_trace *tr, char *buf, size_t cap);

#endif
