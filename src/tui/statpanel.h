/* statpanel.h - the statistics panel: what a box select holds, or every
 * event of one name.
 *
 * A box is a time window over a set of lanes (analysis/select.h). Its
 * numbers come from the same engine as `tracetty report` (analysis/stats.h,
 * transfers.h, gpu.h), computed once when the box is confirmed:
 *   summary    events, total and busy time, utilization per lane
 *   breakdown  by opcode, name, category or layer (cycled), sorted by total,
 *              count or average (cycled): count, total, self (the time
 *              nothing nested in the events covers, so nesting does not
 *              count twice), device self (device time the events launched
 *              directly, calltree.h), avg (and on a wide panel median,
 *              min, max, stddev), share
 *   transfers  sizes and throughput of the events that carry bytes, when
 *              there are any
 *   GPU time   the temporal breakdown, when the lanes hold GPU work
 * so each number equals what `tracetty report --window FROM:TO --lanes ...`
 * prints for the same window and lanes (the panel says that command).
 *
 * A name selection (`*`, double click) is every event of one name in the
 * whole trace on every lane, as chrome://tracing shows it: its row of the
 * trace-wide breakdown by name (count, total, avg, median, min, max,
 * stddev, share) and where the events run, lane by lane.
 *
 * The panel's lines are built for a width (plist.h); lane lines and
 * breakdown rows are items the app acts on (go to the lane, highlight the
 * row's events).
 *
 * Ownership: a tt_statpanel borrows the trace and owns its results and
 * lines. Library code: no I/O.
 */
#ifndef TT_TUI_STATPANEL_H
#define TT_TUI_STATPANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/gpu.h"
#include "analysis/key.h"
#include "analysis/select.h"
#include "analysis/stats.h"
#include "analysis/transfers.h"
#include "model/trace.h"
#include "tui/plist.h"
#include "tui/search.h"
#include "tui/table.h"
#include "util/error.h"

typedef enum tt_sp_kind {
    TT_SP_BOX = 0,    /* a time window over lanes */
    TT_SP_NAME        /* every event of one name */
} tt_sp_kind;

/* Item kinds of the panel's lines. */
enum {
    TT_SP_LINE_LANE = 1,   /* tag: lane index */
    TT_SP_LINE_ROW         /* tag: breakdown row index */
};

typedef struct tt_sp_lane {
    uint32_t lane;
    tt_dist  d;            /* durations of the name's events on the lane */
} tt_sp_lane;

typedef struct tt_statpanel {
    bool            valid;
    tt_sp_kind      kind;
    const tt_trace *tr;
    tt_ns           origin;    /* the title's times count from it (the trace
                                  start unless the app says otherwise) */
    const char     *path;      /* the trace's file, for the batch command
                                  (borrowed; NULL: read from stdin) */
    tt_laneset      lanes;     /* the box's lanes (box) */
    /* the breakdown rows' self times (box; analysis/calltree.h), by row
     * id (0 for the none row), sorted by id; n_self 0: none kept (an
     * argument key) */
    uint32_t       *self_id;
    tt_tab_self    *self;
    size_t          n_self;
    tt_sel          sel;
    tt_summary     *sum;
    tt_key          key;
    tt_brk_order    order;
    tt_breakdown   *brk;
    tt_transfers   *xfer;      /* NULL when nothing in the box carries bytes */
    tt_gpu_time     gpu;
    bool            has_gpu;
    /* name selection */
    uint32_t        name;
    tt_dist         nd;
    double          nshare;    /* percent of the time of all events */
    tt_ns           nfirst, nlast;
    tt_sp_lane     *nl;
    size_t          n_nl;
    /* lines */
    int             width;
    bool            utf8;
    bool            built;
    bool            fresh;     /* not shown yet: the cursor goes to the first row */
    tt_plist        pl;
} tt_statpanel;

void tt_sp_init(tt_statpanel *s);
void tt_sp_fini(tt_statpanel *s);   /* forgets everything (valid = false) */

/* Statistics of the box [from, to) over lanes[0..n) (increasing). The
 * breakdown is by opcode when an event in the box has one, else by name.
 * 0, or non-zero with err set (out of memory). */
int tt_sp_box(tt_statpanel *s, const tt_trace *tr, tt_ns from, tt_ns to, const uint32_t *lanes,
              size_t n, tt_error *err);

/* Statistics of every event named `name`; hits are those events (as
 * tt_hits_build_name finds them). 0, or non-zero with err set. */
int tt_sp_name(tt_statpanel *s, const tt_trace *tr, uint32_t name, const tt_hits *hits,
               tt_error *err);

/* Group by the next key: opcode, name, category, layer (box only). */
int tt_sp_cycle_key(tt_statpanel *s, tt_error *err);

/* Sort by the next column: total, count, average (box only). */
void tt_sp_cycle_order(tt_statpanel *s);

/* (Re)build the lines for an inner width (no-op when built for it). 0 or
 * -1 on OOM. */
int tt_sp_build(tt_statpanel *s, int width, bool utf8);

/* Mark the lines as out of date (after a change of key or order). */
static inline void tt_sp_touch(tt_statpanel *s) { s->built = false; }

/* Panel title: "Box 12.5 ms – 80 ms (67.5 ms) · 3 lanes" or "All 'NAME'". */
const char *tt_sp_title(const tt_statpanel *s, bool utf8, char *buf, size_t n);

/* The events of breakdown row `row` in the box, as hits. 0, or -1 on OOM. */
int tt_sp_row_hits(const tt_statpanel *s, size_t row, tt_hits *out);

/* The `tracetty report` command giving the box's tables (--kind ops),
 * naming the trace's file (shell-quoted; TRACE when it came from stdin).
 * Trace strings in it are raw: sanitize before showing. */
const char *tt_sp_command(const tt_statpanel *s, char *buf, size_t n);

/* A time as an exact, unit-carrying token: "12.345678ms", "0ns". */
const char *tt_sp_time_token(int64_t rel_ns, char *buf, size_t n);

/* Lane patterns matching exactly these lanes' full names (select.h):
 * every glob character and comma escaped. Returns buf (cut when it does
 * not fit; *cut set then). */
const char *tt_sp_lane_patterns(const tt_trace *tr, const uint32_t *lanes, size_t n, char *buf,
                                size_t cap, bool *cut);

#endif
