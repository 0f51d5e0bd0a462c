/* layout.h - where things go on the screen.
 *
 * Rows: the lanes area is a list of rows built from the trace: per group
 * (process/device) a header row, then (unless the group is collapsed) each
 * lane's depth rows (only depth 0 when the "top level only" setting is on),
 * then the group's counter tracks. The list is rebuilt when a group is
 * folded or the depth setting changes; lane_row maps a lane to its first
 * row.
 *
 * With several ranks (ranks.h, collview.h) the other views build their
 * rows with tt_rows_begin/tt_rows_push: the combined view's rank headers
 * and device lanes (every row says its rank; lane_row is then indexed by
 * the job-wide lane number base[rank] + lane), the collectives view's one
 * row per collective.
 *
 * Screen: header, tab bar (several ranks only), ruler, lanes area, legend
 * and status line, with a label column left of the timeline. Small
 * terminals drop pieces in this order: tab bar, legend, header, ruler,
 * label column; nothing is ever placed outside the grid, down to 1x1.
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_LAYOUT_H
#define TT_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

typedef enum tt_row_kind {
    TT_ROW_GROUP = 0,
    TT_ROW_LANE,
    TT_ROW_COUNTER,
    TT_ROW_RANK,      /* combined view: a rank's header, its summary lane */
    TT_ROW_COLL       /* collectives view: one collective */
} tt_row_kind;

typedef struct tt_row {
    uint8_t  kind;      /* tt_row_kind */
    uint16_t depth;     /* TT_ROW_LANE */
    uint32_t group;
    uint32_t lane;      /* TT_ROW_LANE; TT_ROW_COLL: the collective's index */
    uint32_t counter;   /* TT_ROW_COUNTER */
    uint32_t rank;      /* index of the rank the row shows (0 for one trace) */
} tt_row;

typedef struct tt_rows {
    tt_row   *v;
    size_t    n, cap;
    int64_t  *lane_row;     /* lane -> row of its depth 0, -1 when folded */
    uint32_t  n_lanes;
    const uint32_t *base;   /* rows of several ranks: lane_row is indexed by
                               base[rank] + lane; NULL: one trace's lanes */
} tt_rows;

void tt_rows_init(tt_rows *r);
void tt_rows_fini(tt_rows *r);

/* (Re)build the rows. collapsed[g] folds group g. 0 or -1 on OOM. The
 * rows say rank 0; tt_rows_set_rank changes that. */
int tt_rows_build(tt_rows *r, const tt_trace *tr, const bool *collapsed, bool depth0);

/* Say which rank every row shows (a rank's tab). */
void tt_rows_set_rank(tt_rows *r, uint32_t rank);

/* Start a list of rows of another kind: n_lanes lane slots (all -1),
 * indexed by base[rank] + lane when base is not NULL (borrowed). 0 or -1
 * on OOM. */
int tt_rows_begin(tt_rows *r, uint32_t n_lanes, const uint32_t *base);

/* Append a row; a lane row at depth 0 fills its lane slot. 0 or -1. */
int tt_rows_push(tt_rows *r, tt_row row);

/* Row of (lane, depth), or -1 when it is not shown. */
int64_t tt_rows_find(const tt_rows *r, uint32_t lane, uint32_t depth);

/* The same for rows of several ranks (rank is ignored when the rows are
 * one trace's). */
int64_t tt_rows_find_rank(const tt_rows *r, uint32_t rank, uint32_t lane, uint32_t depth);

/* Row of a group's header. */
int64_t tt_rows_group(const tt_rows *r, uint32_t group);

/* Row of a rank's header (combined view), or -1. */
int64_t tt_rows_rank(const tt_rows *r, uint32_t rank);

typedef struct tt_screen {
    int cols, rows;
    int header_y;     /* -1 when dropped */
    int tabs_y;       /* the rank tabs; -1 when dropped or one trace */
    int ruler_y;      /* -1 when dropped */
    int area_y, area_h;
    int legend_y;     /* -1 when dropped */
    int status_y;     /* -1 only for a 0-row screen */
    int label_w;      /* 0 when the label column is dropped */
    int tl_x, tl_w;   /* timeline columns; tl_w >= 1 */
} tt_screen;

/* Place everything for a cols x rows screen; label_want is the widest
 * label (the column gets at most a third of the width). */
void tt_screen_layout(tt_screen *s, int cols, int rows, int label_want);

/* The same with a row for the rank tabs under the header (kept from 12
 * rows up). */
void tt_screen_layout_tabs(tt_screen *s, int cols, int rows, int label_want, bool tabs);

#endif
