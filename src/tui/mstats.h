/* mstats.h - statistics of a box over several ranks.
 *
 * In the combined view a box spans the device lanes of several ranks on
 * the job's time axis (a box over one rank's lanes gets that rank's
 * ordinary statistics panel, statpanel.h). Each rank's part is a
 * selection on its own clock (analysis/select.h: the box's window minus
 * the rank's offset, its lanes in the box) and gets the numbers of the
 * report engine: summary and GPU time breakdown per rank, and busy time
 * per lane. The breakdown by opcode, name, category or layer (cycled, as
 * in the one-trace panel) merges the ranks by the label's text: count,
 * total, average, median, min, max and stddev of the clipped durations of
 * all the ranks' events of that label; its Self and Dev self, each the sum
 * over the ranks of what the one-trace panel computes for the rank's part
 * (selfcols.h, the same code), and its Share: of the rows' self time, the
 * profiler's own span left out. So the counts, totals and self times of a
 * row are the sums of the same row in each rank's own breakdown, and the
 * panel says the per-rank `tracetty report` commands that give the
 * counts and totals.
 *
 * In the collectives view a box selects collectives (its rows) over a
 * window: those whose span meets the window count. Per rank: how many, how
 * long they took, how long it waited in them and how often it arrived
 * last; per collective name: count, average and largest start spread and
 * the total wait.
 *
 * From the panel: the events of a breakdown row (in the collectives view:
 * the kernels of a collective name in the box) on every rank, for the
 * view to highlight and step through; and the panel's tables written to a
 * CSV file (boxexport.h: with a Trace column, one group of rows per rank;
 * in the collectives view the report's rows of the collectives in the
 * box).
 *
 * Ownership: tt_mstats borrows the ranks (and collectives) and owns its
 * results and lines. Library code: no I/O but the export's file.
 */
#ifndef TT_TUI_MSTATS_H
#define TT_TUI_MSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/dist.h"
#include "analysis/gpu.h"
#include "analysis/key.h"
#include "analysis/select.h"
#include "analysis/stats.h"
#include "tui/collview.h"
#include "tui/plist.h"
#include "tui/ranks.h"
#include "tui/search.h"
#include "tui/table.h"
#include "util/error.h"

typedef enum tt_ms_kind {
    TT_MS_RANKS = 0,   /* device lanes of several ranks */
    TT_MS_COLLS        /* collectives */
} tt_ms_kind;

/* Item kinds of the panel's lines. */
enum {
    TT_MS_LINE_RANK = 1,   /* tag: rank index */
    TT_MS_LINE_LANE,       /* tag: rank index << 32 | lane */
    TT_MS_LINE_ROW         /* tag: breakdown row */
};

typedef struct tt_ms_rank {
    size_t      rank;      /* index of the rank */
    tt_laneset  lanes;     /* its lanes in the box */
    tt_sel      sel;       /* on its own clock */
    tt_summary *sum;
    tt_gpu_time gpu;
    bool        has_gpu;
    /* collectives */
    uint64_t    colls, late;
    tt_ns       dur, wait;
} tt_ms_rank;

typedef struct tt_ms_row {
    char   *label;     /* raw text ("" for none) */
    bool    none;
    tt_dist d;
    double  share;     /* of the total (self.share is the one shown) */
    tt_tab_self self;  /* ranks: Self, Dev self, Share (selfcols.h) */
    /* collectives: spread of each, and the waits */
    tt_ns   wait;
} tt_ms_row;

typedef struct tt_mstats {
    bool            valid;
    tt_ms_kind      kind;
    const tt_vrank *rk;
    size_t          n_rk;
    tt_ns           from, to;     /* the box, aligned */
    tt_ns           origin;       /* aligned time the view counts from */
    tt_ms_rank     *r;            /* ranks with a part in the box */
    size_t          n_r;
    size_t          n_lanes;
    tt_key          key;
    tt_brk_order    order;
    tt_ms_row      *rows;
    size_t          n_rows;
    uint64_t        events;
    tt_ns           total, total_clipped, sum_total;
    size_t          n_colls;      /* collectives in the box */
    const tt_collview *cv;        /* collectives: borrowed */
    uint32_t       *cgroups;      /* collectives: those in the box (n_colls) */
    /* lines */
    int             width;
    bool            utf8, built, fresh;
    tt_plist        pl;
} tt_mstats;

void tt_ms_init(tt_mstats *m);
void tt_ms_fini(tt_mstats *m);

/* Statistics of the box [from, to) (aligned) over job-wide lanes
 * glanes[0..n) (increasing; base[i] numbers rank i's first lane). 0, or
 * non-zero with err set. */
int tt_ms_ranks(tt_mstats *m, const tt_vrank *rk, size_t n_rk, const uint32_t *base,
                tt_ns from, tt_ns to, const uint32_t *glanes, size_t n, tt_error *err);

/* Statistics of the collectives groups[0..n) (indexes in cv) whose span
 * meets [from, to) (aligned). */
int tt_ms_colls(tt_mstats *m, const tt_vrank *rk, size_t n_rk, const tt_collview *cv,
                tt_ns from, tt_ns to, const uint32_t *groups, size_t n, tt_error *err);

/* Group by the next key (opcode, name, category, layer); ranks only. */
int tt_ms_cycle_key(tt_mstats *m, tt_error *err);

/* Sort by the next column (total, count, average); ranks only. */
void tt_ms_cycle_order(tt_mstats *m);

/* (Re)build the lines for an inner width. 0 or -1 on OOM. */
int tt_ms_build(tt_mstats *m, int width, bool utf8);

/* The events of breakdown row `row` (collectives: the kernels of the
 * collectives in the box under that row's name), per rank: hits[i] (for
 * rank index i, n_rk of them, each empty on entry) gets rank i's, on its
 * trace. *total receives their count. 0, or -1 on OOM (hits are then
 * emptied). */
int tt_ms_row_hits(const tt_mstats *m, size_t row, tt_hits *hits, uint64_t *total);

/* Write the panel's tables to path as CSV, atomically (boxexport.h). n
 * receives the number of tables written and what their names (e.g. "ops,
 * lanes, gpu"). 0, or non-zero with err set (nothing written then). */
int tt_ms_export(const tt_mstats *m, const char *path, size_t *n, char *what, size_t cap,
                 tt_error *err);

/* Panel title: "Box 1.2 ms – 5 ms (3.8 ms) · 6 lanes of 3 ranks". */
const char *tt_ms_title(const tt_mstats *m, bool utf8, char *buf, size_t n);

#endif
