/* app.h - the timeline application: state and actions, no terminal.
 *
 * The app knows the trace, the view (window, rows, cursor, selection,
 * panels, prompts) and what every input does; it draws itself into a cell
 * grid. It knows nothing of curses: term.c feeds it input events and copies
 * the grid to the screen, `tracetty render` feeds it the --keys events and
 * prints the grid. Both run exactly this code.
 *
 * Several traces of one job (tt_app_job: one per rank, with the offsets
 * that align their clocks) are shown as rank tabs, a combined view of
 * every rank's device lanes and a collectives view (ranks.h, collview.h).
 *
 * Ownership: the app borrows the trace or the job's traces (which must
 * outlive it) and owns everything else. Library code: never prints, never
 * exits; the only files it touches are those the user asks for (marker
 * sets beside the trace, through src/markers; the box's CSV tables,
 * atomically).
 */
#ifndef TT_TUI_APP_H
#define TT_TUI_APP_H

#include <stdbool.h>

#include "model/trace.h"
#include "rules/rules.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/error.h"

typedef struct tt_app tt_app;

/* One rank of a job. */
typedef struct tt_app_rank {
    const tt_trace *tr;
    const char     *path;     /* its file */
    int64_t         rank;     /* rank number */
    tt_ns           offset;   /* added to its times to put it on the job's axis */
    const char     *source;   /* how the rank was found: "metadata", "file name",
                                 "order" (static) */
} tt_app_rank;

/* The ranks of a job, in rank order (multi/rankset.h loads and aligns
 * them). */
typedef struct tt_app_job {
    const tt_app_rank *r;
    size_t             n;
    const char        *align;      /* the alignment applied, described
                                      ("absolute", "start", "event X#1") */
    const char        *align_opt;  /* the same as a --align value */
} tt_app_job;

typedef struct tt_app_opts {
    const char            *title;   /* shown in the header (the file name); NULL = none */
    bool                   utf8;    /* Unicode glyphs; else ASCII */
    const char            *path;    /* the trace file, for its marker sets and the
                                       default export name; NULL or "-" = none */
    const tt_rules_config *rules;   /* run these rules when the view opens and draw
                                       their annotations; NULL = no annotations */
    const char            *markers; /* load this saved marker set; NULL = none */
    const tt_app_job      *job;     /* several ranks (the trace argument of
                                       tt_app_new is then ignored); NULL = one
                                       trace. Marker sets are those of the first
                                       rank's file, their times from the start
                                       of the job on the aligned axis. */
} tt_app_opts;

/* Reaction flags returned by tt_app_input. */
enum {
    TT_REACT_NONE = 0,
    TT_REACT_REDRAW = 1,   /* draw a new frame */
    TT_REACT_FULL = 2,     /* repaint the whole terminal (Ctrl-L) */
    TT_REACT_QUIT = 4
};

/* A view of a finalized trace on a cols x rows screen. NULL with err set
 * when out of memory. */
tt_app *tt_app_new(const tt_trace *tr, int cols, int rows, const tt_app_opts *opts,
                   tt_error *err);
void tt_app_free(tt_app *a);   /* NULL is a no-op */

/* Handle one input event (key, mouse or resize). */
int tt_app_input(tt_app *a, const tt_input *in);

/* Draw the current frame; the grid is resized to the app's size first.
 * Returns 0, or -1 when memory runs out (the frame is then incomplete). */
int tt_app_draw(tt_app *a, tt_grid *g);

/* Bytes the user asked to copy (y) since the last call, for the terminal
 * owner to send as OSC 52; NULL when none. Borrowed: valid until the next
 * input. */
const char *tt_app_take_clip(tt_app *a, size_t *n);

/* The screen size the app lays out for. */
void tt_app_size(const tt_app *a, int *cols, int *rows);

/* Bytes the view holds beside the traces (rows per depth, busy unions,
 * collectives, row lists, colors): what opening a view costs, for
 * budgets. */
size_t tt_app_memory(const tt_app *a);

/* Load marker set `name` from the trace's sidecar into the view (as the
 * markers panel does). 0, or non-zero with the reason in the status line
 * and in err. */
int tt_app_load_markers(tt_app *a, const char *name, tt_error *err);

#endif
