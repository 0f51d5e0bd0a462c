/* collview.h - the collectives view: one row per collective of the job.
 *
 * A collective (a communication kernel, matched across ranks by name and
 * sequence number: multi/collectives.h) is drawn as one row on the job's
 * time axis, from its earliest start to its latest end: a thin line from
 * the first rank's arrival to the last one's (the start spread: everyone
 * else is waiting), then a bar while all ranks are in it, and after the
 * bar the rank that arrived last ("last r5": the one that waits 0, the
 * shortest in it, as multi/collectives.h defines it; on clocks with one
 * base usually also the latest start). The status line of a row
 * gives the spread, the last rank and the waits of the others, largest
 * first (the fastest ranks wait the longest); its panel gives every
 * rank's start offset, duration and wait, the numbers `tracetty report
 * --kind collectives` prints for the same alignment, what each is
 * measured from, and the report's notes as they apply to the collective
 * (start offsets that contradict the waits, world_size, point-to-point).
 *
 * Times are on the job's aligned axis (ranks.h); drawing takes the shift
 * from that axis to the clock the window is on.
 *
 * Ownership: tt_collview owns the matched list and its labels. Library
 * code: no I/O.
 */
#ifndef TT_TUI_COLLVIEW_H
#define TT_TUI_COLLVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "multi/collectives.h"
#include "rules/rules.h"
#include "tui/grid.h"
#include "tui/plist.h"
#include "tui/ranks.h"
#include "tui/theme.h"
#include "tui/viewport.h"
#include "util/error.h"

/* One collective: its entries c.v[first .. first + n), one per rank, in
 * rank order. */
typedef struct tt_cgroup {
    size_t   first;
    uint32_t n;
    tt_ns    t_first, t_last;   /* earliest and latest arrival (aligned start) */
    tt_ns    e_last;            /* latest end */
    size_t   late;              /* entry of the last to arrive (tt_coll.last) */
    int64_t  ann;               /* annotation about it (index in the list), or -1 */
} tt_cgroup;

/* Item kind of the collective panel's lines: tag = entry index in c.v. */
enum { TT_CV_LINE_RANK = 1 };

typedef struct tt_collview {
    tt_colls   c;
    tt_cgroup *g;
    size_t     n;
    char     **label;    /* per name index: short name, sanitized */
    size_t     n_label;
    bool       built;
} tt_collview;

void tt_collview_init(tt_collview *v);
void tt_collview_fini(tt_collview *v);

/* Match the collectives of every rank (their offsets applied). 0, or -1
 * with err set. */
int tt_collview_build(tt_collview *v, const tt_vrank *rk, size_t n, tt_error *err);

/* Mark each collective with the most severe annotation (lowest index in
 * ann, which is in severity order) that names one of its kernels. base[i]
 * is the job-wide number of rank i's first lane. 0 or -1 on OOM. */
int tt_collview_annotate(tt_collview *v, const tt_annotations *ann, const uint32_t *base);

/* The collective's full kernel name (raw: sanitize before showing). */
const char *tt_collview_name(const tt_collview *v, const tt_cgroup *g);

/* "#3 AllReduce_RING_LL128_Sum_float": the sequence, and the name without
 * the ncclKernel_ prefix and the parameter list (sanitized). */
const char *tt_collview_label(const tt_collview *v, const tt_cgroup *g, char *buf, size_t n);

/* Draw collective gi at row y from column x0 over vp; shift is what to
 * subtract from an aligned time to get vp's clock. */
void tt_collview_row(const tt_collview *v, size_t gi, const tt_vrank *rk, tt_grid *g, int x0,
                     int y, const tt_viewport *vp, tt_ns shift, const tt_glyphs *gl);

/* Status line text of collective gi (sanitized). */
void tt_collview_status(const tt_collview *v, size_t gi, const tt_vrank *rk, bool utf8,
                        char *out, size_t cap);

/* The collective panel's lines for an inner width; origin is the aligned
 * time the view counts from, align how the clocks were aligned and rk's
 * n_rk files what the batch command names. 0 or -1 on OOM. */
int tt_collview_panel(const tt_collview *v, size_t gi, const tt_vrank *rk, size_t n_rk,
                      tt_ns origin, const char *align, int width, bool utf8, tt_plist *pl);

/* Rows are in order of first arrival: the first collective whose first
 * arrival is at or after aligned time t (n when none). */
size_t tt_collview_lower(const tt_collview *v, tt_ns t);

#endif
