/* app_impl.h - internals of the timeline application, shared by its files:
 * app.c (life cycle, input dispatch, cursor and selection, frame), actions.c
 * (the key binding table, moves, search, the details panel, mouse),
 * boxact.c (box select, the statistics panel, name selection), markact.c
 * (markers and marker sets), annotact.c (warning annotations), overlay.c
 * (box, markers and annotations drawn over the timeline), bars.c (header,
 * status line, legend), help.c (help overlay), rankact.c (several
 * ranks: tabs, focus, the highlight over ranks, their panels) and the
 * modes of the lanes area (modes.c, mode_rank.c, mode_job.c,
 * mode_colls.c; see tt_view_def). Nothing outside src/tui/ includes it.
 *
 * Several ranks: the app always has one trace in focus (a->tr, with its
 * levels, colors, search state and details): the rank whose tab is shown,
 * or in the combined view the rank of the cursor's row. The window, the
 * cursor time and the box are kept on the focused rank's own clock, so
 * everything written for one trace works unchanged on the focused one;
 * when the focus moves to another rank they are shifted by the difference
 * of the two ranks' offsets (tt_app_focus), and the other ranks' rows are
 * drawn with the window shifted the same way. Marker times count from the
 * start of the job on the aligned axis (a->origin on the focused clock);
 * annotation times are on the aligned axis (a->off converts). With one
 * trace there is one rank, offset 0, and origin is the trace start.
 */
#ifndef TT_TUI_APP_IMPL_H
#define TT_TUI_APP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "tui/annot.h"
#include "tui/app.h"
#include "tui/collview.h"
#include "tui/ctview.h"
#include "tui/details.h"
#include "tui/hilite.h"
#include "tui/layout.h"
#include "tui/levels.h"
#include "tui/marks.h"
#include "tui/mstats.h"
#include "tui/ranks.h"
#include "tui/search.h"
#include "tui/statpanel.h"
#include "tui/spark.h"
#include "tui/theme.h"
#include "tui/timeline.h"
#include "tui/viewport.h"

typedef enum tt_mode {
    TT_MODE_MAIN = 0,
    TT_MODE_SEARCH,   /* typing a / pattern */
    TT_MODE_GOTO,     /* typing a : time */
    TT_MODE_TEXT,     /* typing a line for a panel action (file, name, note) */
    TT_MODE_CONFIRM   /* a yes/no question */
} tt_mode;

/* The panel below the lanes (one at a time). */
typedef enum tt_panel {
    TT_PANEL_NONE = 0,
    TT_PANEL_DETAILS,   /* Enter: the selected event */
    TT_PANEL_STATS,     /* a box or a name selection */
    TT_PANEL_MARKS,     /* ': markers and saved sets */
    TT_PANEL_ANNOTS,    /* !: warning annotations */
    TT_PANEL_RANKS,     /* #: the ranks, their files and offsets */
    TT_PANEL_COLL,      /* Enter in the collectives view: one collective */
    TT_PANEL_MSTATS,    /* a box over several ranks or over collectives */
    TT_PANEL_INFO,      /* I: the trace's metadata; F: the selected event's full name */
    TT_PANEL_CALLTREE,  /* c in a box's statistics: its call tree (ctpanel.c) */
    TT_PANEL_SQL        /* :sql SELECT ...: the query's rows (sqlpanel.c) */
} tt_panel;

/* What the info panel shows. */
typedef enum tt_info_kind {
    TT_INFO_META = 0,
    TT_INFO_NAME
} tt_info_kind;

/* What the lanes area shows (several ranks). */
typedef enum tt_view {
    TT_VIEW_RANK = 0,   /* one rank's whole timeline (its tab; the one trace) */
    TT_VIEW_JOB,        /* the combined view: every rank's device lanes */
    TT_VIEW_COLLS,      /* the collectives view */
    TT_VIEW_MATRIX      /* the communication matrix (mode_matrix.c) */
} tt_view;

typedef struct tt_matrix_view tt_matrix_view;   /* mode_matrix.c's state */
typedef struct tt_sqlview tt_sqlview;           /* sqlpanel.c's state */

/* What a TT_MODE_TEXT line or a TT_MODE_CONFIRM question is for. */
typedef enum tt_ask {
    TT_ASK_EXPORT = 0,   /* file name for the box's tables */
    TT_ASK_MARK_NAME,    /* new name of marker ask_idx */
    TT_ASK_MARK_NOTE,    /* note of marker ask_idx */
    TT_ASK_SET_SAVE,     /* name to save the markers as */
    TT_ASK_SET_RENAME,   /* new name of set ask_arg */
    TT_ASK_QUIT,         /* quit with unsaved markers? */
    TT_ASK_LOAD_SET,     /* replace unsaved markers with set ask_arg? */
    TT_ASK_DELETE_SET,   /* delete set ask_arg? */
    TT_ASK_MS_EXPORT,    /* file name for the tables of a box over ranks */
    TT_ASK_REPLACE,      /* ask_path exists: overwrite it (TT_ASK_EXPORT)? */
    TT_ASK_MS_REPLACE    /* the same for TT_ASK_MS_EXPORT */
} tt_ask;

/* The box select: a time window over the lanes of a range of rows. */
typedef struct tt_box {
    bool       shown;       /* drawn: being selected or confirmed */
    bool       selecting;   /* being drawn (keyboard v, or a mouse drag) */
    bool       mouse;       /* ... by a mouse drag */
    tt_row     anchor;      /* the row it started on */
    tt_ns      a0, a1;      /* the cell it started on */
    tt_ns      from, to;    /* the window */
    tt_laneset lanes;
} tt_box;

struct tt_app {
    const tt_trace  *tr;           /* the rank in focus */
    bool             utf8;
    const tt_glyphs *gl;
    char             title[256];   /* sanitized */

    int              cols, rows;
    tt_screen        scr;
    int              label_want;
    tt_viewport      vp;           /* on the focused rank's clock */

    /* the ranks (one for one trace) and the focus */
    tt_vrank        *rk;
    size_t           n_rk;
    bool             multi;        /* several ranks: tabs, views, panels */
    size_t           focus;
    tt_ns            off;          /* the focused rank's offset */
    tt_ns            origin;       /* start of the job on the focused clock */
    tt_ns            job0, job1;   /* the job's span on the aligned axis */
    uint32_t        *base;         /* rank -> job-wide number of its first lane */
    uint32_t         n_glanes;
    tt_view          view, prev_view;
    bool            *rfold;        /* combined view: per rank, folded */
    bool             rfold_set;    /* the combined view has been laid out */
    char             align[300];   /* the alignment applied (sanitized) */
    char             align_opt[300];
    tt_collview      cv;           /* the collectives (built when first shown) */
    bool             cv_tried;
    tt_plist         rpl;          /* ranks panel */
    tt_plist         cpl;          /* collective panel */
    size_t           cpl_group;    /* the collective it shows */
    int              cpl_width;
    bool             cpl_built;
    tt_mstats        mst;          /* box over several ranks or collectives */
    char             cv_pat[256];  /* the last search of the collectives view */
    tt_matrix_view  *mx;           /* the matrix view's (built when first shown) */

    tt_levels       *lv;           /* the focused rank's (rk[focus]) */
    tt_sparks       *sp;
    tt_tl           *tl;

    tt_rows          list;         /* rows of the lanes area */
    bool            *collapsed;    /* per group of the focused rank */
    bool             depth0;       /* show only top-level events */
    size_t           top, cur;     /* first visible row, cursor row */

    tt_ns            t_cur;        /* cursor time */
    /* the last time typed with `:`: while the cursor is still on it, a box
     * edge put there is that exact time, not the cursor column's */
    tt_ns            t_typed;
    bool             typed;
    bool             has_sel;
    tt_evref         sel;
    tt_colorby       by;

    bool             help;
    size_t           help_top;
    tt_panel         panel;
    tt_details       det;
    /* the info panel (infoact.c): built for info_tr (and info_ev) at
     * info_width; rebuilt when the focus moves to another rank */
    tt_plist         info;
    tt_info_kind     info_kind;
    const tt_trace  *info_tr;
    tt_evref         info_ev;      /* TT_INFO_NAME: the event, in info_src */
    const tt_trace  *info_src;
    int              info_width;
    char            *clip;         /* bytes for the terminal's clipboard (OSC 52), owned */
    size_t           clip_n;

    tt_mode          mode;
    char             prompt[1024];
    size_t           plen;
    tt_ask           ask;          /* TT_MODE_TEXT, TT_MODE_CONFIRM */
    long             ask_idx;
    char             ask_arg[TT_MARK_NAME_MAX + 1];
    char             ask_label[64];
    char             ask_path[1024];   /* TT_ASK_REPLACE, TT_ASK_MS_REPLACE */
    char             question[400];
    char             last_search[1024];
    char             last_goto[1024];

    char             msg[300];
    bool             msg_err;

    /* search (/ n N), on the focused rank */
    uint8_t        **used;         /* per field, per string id: in use (lazy) */
    uint8_t        **match;        /* per string id (lazy) */
    bool             search_text;  /* the hits are a typed search (/) ... */
    char             search_raw[1024]; /* ... of this pattern, as typed */
    tt_hits          search;
    bool             has_search;
    char             search_pat[256];
    char             search_desc[400]; /* how n N name the hits: "for 'gemm'" */
    uint64_t         search_gen;   /* bumped by every new search or highlight */
    tt_hilite        hl;           /* the hits by row, for drawing */
    uint64_t         hl_gen;       /* search_gen hl was built for */
    /* a highlight over several ranks (rankact.c): the focused rank's part
     * is search, the others' rk[i].xhits (tt_app_focus swaps them); it
     * holds while search_gen is xhl_gen */
    bool             xhl;
    uint64_t         xhl_gen;
    uint64_t         xhl_id;       /* bumped by every new one */
    bool             xhl_has_last; /* the hit n N went to last ... */
    size_t           xhl_rank;     /* ... on this rank */
    tt_evref         xhl_last;
    /* occurrences of one name ([ ]) */
    tt_hits          occ;
    bool             has_occ;
    uint32_t         occ_name;
    /* longest events (L: of a lane or group, T: of the search matches) */
    tt_evref        *rank;
    size_t           n_rank, rank_k;
    bool             has_rank;
    int              rank_kind;    /* RANK_LANE, RANK_GROUP, RANK_SEARCH */
    uint64_t         rank_scope;   /* lane, group, or search_gen */

    /* mouse drag on the ruler */
    bool             drag;
    int              drag_x0, drag_x1;
    /* a left press in the lanes area: a click, or the start of a box drag */
    bool             press;
    int              press_col;
    size_t           press_row;

    /* box select, statistics panel; box.lanes are job-wide lane numbers
     * (base[rank] + lane; the lane itself with one trace), or in the
     * collectives view the collectives' indexes */
    tt_box           box;
    tt_statpanel     stp;
    tt_ctview        ctv;          /* the call tree of the box (ctpanel.c) */
    size_t           stp_rank;     /* the rank the statistics panel is about */
    /* markers, annotations */
    tt_marks         mk;
    /* the marker m last dropped at the selected event's start: m again,
     * with the cursor and the selection where they were, moves it to the
     * event's end */
    bool             mk_on_start;
    tt_evref         mk_ev;
    tt_ns            mk_tcur;
    char             mk_name[TT_MARK_NAME_MAX + 1];
    tt_annview       an;
    tt_sqlview      *sq;           /* :sql (sqlpanel.c), built by the first query */
};

typedef int (*tt_action_fn)(tt_app *a);

enum {
    TT_SEC_MOVE = 0,
    TT_SEC_ZOOM,
    TT_SEC_FIND,
    TT_SEC_BOX,
    TT_SEC_MARKS,
    TT_SEC_VIEW,
    TT_SEC_PANEL,
    TT_SEC_DETAILS,
    TT_SEC_STATS,
    TT_SEC_MARKP,
    TT_SEC_ANNOTP,
    TT_SEC_RANKS,     /* several ranks only, from here on */
    TT_SEC_RANKSP,
    TT_SEC_COLLP,
    TT_SEC_MSTATS,
    TT_SEC__COUNT
};

/* Where a binding applies; while a box is being selected its bindings are
 * tried first, then those of the open panel, then the panels' common ones,
 * then the timeline's. */
enum {
    TT_IN_MAIN = 1,      /* the timeline */
    TT_IN_PANEL = 2,     /* any open panel */
    TT_IN_DETAILS = 4,
    TT_IN_STATS = 8,
    TT_IN_MARKP = 16,
    TT_IN_ANNOTP = 32,
    TT_IN_BOXSEL = 64,   /* while a box is being selected */
    TT_IN_RANKSP = 128,
    TT_IN_COLLP = 256,
    TT_IN_MSTATS = 512,
    TT_IN_INFOP = 1024
};

typedef struct tt_binding {
    uint32_t     keys[4];
    const char  *label;   /* keys as the help shows them */
    const char  *help;
    uint8_t      section;
    uint16_t     where;
    tt_action_fn fn;
} tt_binding;

/* A key and what it does, as the status line hints it. */
typedef struct tt_hint {
    const char *key, *what;
} tt_hint;

/* One panel below the lanes (panels.c holds the table, one row per
 * panel, as tmux's window modes): the app calls through the row of the
 * open panel and never asks which one it is. */
typedef struct tt_panel_def {
    tt_panel          id;
    uint16_t          where;     /* the TT_IN_ flag of its bindings in tt_bindings */
    /* its own bindings, tried before tt_bindings and listed by the help
     * under their own section title; NULL, 0: none */
    const char       *section;
    const tt_binding *keys;
    size_t            n_keys;
    /* build its lines for width w, after every input and at every size
     * (the keys act on them); NULL: nothing to build. 0, or -1 on OOM. */
    int             (*sync)(tt_app *a, int w);
    /* its line list; NULL: the details panel, which keeps its own */
    tt_plist       *(*list)(tt_app *a);
    void            (*draw)(tt_app *a, tt_grid *g, int y, int w, int ph);
    /* the status line's hints; NULL: bars.c's own choice */
    size_t          (*hints)(const tt_app *a, const tt_hint **out);
} tt_panel_def;

/* One mode of the lanes area (modes.c holds the table, one row per mode,
 * each row in its own file: mode_rank.c, mode_job.c, mode_colls.c), as
 * tmux's window modes and as tt_panel_def for the panels: app.c and the
 * action files call through the row of the current mode (tt_app_mode)
 * and never ask which one it is. What every mode shares stays in the app
 * (the trace or ranks, the focus, cursor time, panels, prompts, markers);
 * the tabs and the ranks' bookkeeping are rankact.c's.
 *
 * To add a mode: a tt_view value, a file mode_NAME.c exporting one const
 * tt_view_def with its hooks, and its row in modes.c's table. A hook left
 * NULL takes the timeline's own behaviour where the comment says so. The
 * rows a mode shows are built by build_rows into a->list, which the
 * common moves (j k, scroll, click) walk; a mode that shows more than one
 * list (the compare view: two traces stacked, each with its own rows and
 * scroll) keeps its own lists in its private state and fills a->list
 * with the half in focus, switching it with its own keys. */
typedef struct tt_view_def {
    tt_view     id;
    const char *name;
    /* its own bindings, tried in the timeline before tt_bindings and
     * listed by the help under section; NULL, 0: none */
    const char       *section;
    const tt_binding *keys;
    size_t            n_keys;
    /* entering it: open prepares what it needs (-1: it cannot open, and
     * said why), arrive puts the cursor where the same thing is shown
     * (was: the row the cursor was on, when had) after its rows are
     * built, message says what the mode shows once the view is set;
     * leave keeps what it wants to come back to; NULL: nothing to do */
    int     (*open)(tt_app *a);
    void    (*arrive)(tt_app *a, const tt_row *was, bool had);
    void    (*message)(tt_app *a);
    void    (*leave)(tt_app *a);
    /* the rows of the lanes area into a->list; 0, or -1 on OOM */
    int     (*build_rows)(tt_app *a);
    /* the row that stands for row when row is hidden (folded): its
     * group's or rank's header; -1: none */
    int64_t (*row_home)(const tt_app *a, const tt_row *row);
    /* the window's bounds, on the focused clock */
    void    (*bounds)(const tt_app *a, tt_ns *t0, tt_ns *t1);
    /* the fold flag of a row (NULL: it does not fold), and every fold
     * flag of the mode for C (NULL: nothing folds; no_fold, no_fold_all
     * say so) */
    bool   *(*fold_flag)(tt_app *a, const tt_row *row);
    /* the flag that hides a rank's lane (NULL: it is not hidden here) */
    bool   *(*lane_fold)(tt_app *a, size_t rank, uint32_t lane);
    /* the header row of a rank; NULL: the mode has none */
    int64_t (*rank_row)(const tt_app *a, size_t rank);
    bool   *(*folds)(tt_app *a, size_t *n);
    const char *no_fold, *no_fold_all;
    /* the focused rank's lane has a row here; NULL: every lane */
    bool    (*shows_lane)(const tt_app *a, uint32_t lane);
    /* the rank a row is about (the focus follows the cursor's row when
     * it is not the focused one when focus_follows_row) */
    size_t  (*row_rank)(const tt_app *a, const tt_row *row);
    bool    focus_follows_row;
    /* drawing: the label column it wants, a row's timeline cells (NULL:
     * only lane rows, drawn by app.c), a lane row's label (false: the
     * focused trace's), the status
     * line text of the cursor's row (NULL: the timeline's), the header's
     * title, the legend at x (NULL: the timeline's by-name legend;
     * legend_by: after the "by X:" head) and the status line's hints */
    int     (*label_want)(const tt_app *a);
    void    (*draw_row)(tt_app *a, tt_grid *g, const tt_row *row, int x0, int y);
    bool    (*lane_label)(const tt_app *a, const tt_row *row, char *out, size_t cap);
    void    (*row_info)(tt_app *a, const tt_row *row, char *out, size_t cap);
    void    (*title)(const tt_app *a, char *out, size_t cap);
    void    (*legend)(tt_app *a, tt_grid *g, int x, int y);
    bool    legend_by;
    size_t  (*hints)(const tt_app *a, const tt_hint **out);
    const char *box_unit;          /* what the box's lanes are: "lane" */
    /* actions: Enter on a non-lane row (NULL: fold a group), f (NULL:
     * fit the selected event), / and n N (NULL: events by name),
     * confirming a box (NULL: the statistics of the focused trace), the
     * lanes a row stands for in a box (NULL: the focused trace's lane or
     * group), every lane it shows (for markers' boxes) */
    int     (*enter)(tt_app *a);
    int     (*fit)(tt_app *a);
    void    (*search)(tt_app *a, const char *pat);
    int     (*search_step)(tt_app *a, int dir);
    int     (*box_confirm)(tt_app *a);
    bool    (*row_lanes)(const tt_app *a, const tt_row *row, bool folded_only,
                         tt_laneset *out, int *rc);
    int     (*all_lanes)(const tt_app *a, tt_laneset *out);
    /* draws the whole lanes area itself, ruler rows included (NULL: the
     * ruler and the rows); 0, or -1 on OOM */
    int     (*draw_area)(tt_app *a, tt_grid *g);
} tt_view_def;

/* modes.c: the row of a mode (never NULL for a tt_view), the i-th row
 * (NULL past the end), the current mode's row. */
const tt_view_def *tt_view_get(tt_view v);
const tt_view_def *tt_view_at(size_t i);
const tt_view_def *tt_app_mode(const tt_app *a);
extern const tt_view_def tt_mode_rank, tt_mode_job, tt_mode_colls, tt_mode_matrix;

/* mode_matrix.c: B (the matrix view, again: back), freeing its state */
int tt_act_view_matrix(tt_app *a);
void tt_matrix_view_free(tt_app *a);

/* panels.c: the row of a panel (NULL for TT_PANEL_NONE), the i-th row
 * (NULL past the end). */
const tt_panel_def *tt_panel_get(tt_panel p);
const tt_panel_def *tt_panel_at(size_t i);

/* ctpanel.c: the call tree panel's row, and c in a box's statistics */
extern const tt_panel_def tt_ct_panel;
int tt_act_sp_calltree(tt_app *a);

/* sqlpanel.c: the :sql panel's row, `:sql SELECT ...` typed at the :
 * prompt (the text after "sql"), freeing its state */
extern const tt_panel_def tt_sql_panel;
int tt_app_sql(tt_app *a, const char *sql);
void tt_app_sql_free(tt_app *a);

/* actions.c */
extern const tt_binding tt_bindings[];
extern const size_t tt_n_bindings;
extern const char *const tt_section_names[TT_SEC__COUNT];
int tt_app_key(tt_app *a, uint32_t key);
int tt_app_mouse(tt_app *a, const tt_input *in);
int tt_app_prompt_key(tt_app *a, uint32_t key);
int tt_app_after_view_change(tt_app *a);   /* cursor back in the window; REDRAW */
void tt_app_show_time(tt_app *a, tt_ns t); /* window onto t, cursor at t */
/* Start a text prompt (TT_MODE_TEXT) with a label and a prefilled text. */
void tt_app_ask_text(tt_app *a, tt_ask ask, const char *label, const char *text);
/* Ask a yes/no question (TT_MODE_CONFIRM). */
void tt_app_ask_yes(tt_app *a, tt_ask ask, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Make hits the found events n N step through (and the highlight);
 * desc says what they are ("of opcode 'X' in the box"). */
void tt_app_set_hits(tt_app *a, tt_hits *hits, const char *pat, const char *desc);
/* Run the last typed search again on the focused trace (after the focus
 * moved), without moving. 0, or -1 when it finds nothing or fails. */
int tt_app_search_rerun(tt_app *a);

/* boxact.c: box select, statistics panel, name selection */
int tt_act_box_start(tt_app *a);
int tt_act_box_confirm(tt_app *a);
int tt_act_box_cancel(tt_app *a);
int tt_act_box_reopen(tt_app *a);
int tt_act_same_name(tt_app *a);
int tt_act_clear(tt_app *a);
int tt_act_sp_key(tt_app *a);
int tt_act_sp_order(tt_app *a);
int tt_act_sp_zoom(tt_app *a);
int tt_act_sp_export(tt_app *a);
int tt_act_sp_enter(tt_app *a);
int tt_act_sp_marks(tt_app *a);
void tt_box_follow(tt_app *a);                 /* far corner := cursor cell and row */
void tt_box_mouse_drag(tt_app *a, int col, size_t row);
int tt_box_mouse_release(tt_app *a);
int tt_box_select(tt_app *a, tt_ns from, tt_ns to, const uint32_t *lanes, size_t n);
int tt_box_text(tt_app *a, tt_ask ask, const char *text);
bool tt_box_row_in(const tt_app *a, const tt_row *row);   /* row drawn inside the box */
int tt_same_name_of(tt_app *a, tt_evref ev);

/* markact.c: markers */
int tt_act_mark_drop(tt_app *a);
int tt_act_mark_next(tt_app *a);
int tt_act_mark_prev(tt_app *a);
int tt_act_marks_panel(tt_app *a);
int tt_act_mk_enter(tt_app *a);
int tt_act_mk_rename(tt_app *a);
int tt_act_mk_note(tt_app *a);
int tt_act_mk_delete(tt_app *a);
int tt_act_mk_choose(tt_app *a);
int tt_act_mk_save(tt_app *a);
int tt_act_mk_box(tt_app *a);
int tt_act_mk_move(tt_app *a);
int tt_mark_at(tt_app *a, tt_ns t);            /* drop a marker at absolute time t */
int tt_marks_text(tt_app *a, tt_ask ask, const char *text);
int tt_marks_yes(tt_app *a, tt_ask ask);

/* annotact.c: annotations */
int tt_act_annots_panel(tt_app *a);
int tt_act_annots_toggle(tt_app *a);
int tt_act_an_enter(tt_app *a);   /* list: open the finding; detail: go to it */
int tt_act_an_back(tt_app *a);    /* detail: back to the list; list: close */
int tt_act_an_filter(tt_app *a);  /* only the rule of the finding, or all again */
void tt_annots_info(tt_app *a, char *out, size_t cap);   /* status text on one, or "" */
/* The panel's title and key hint (the list, filtered or not, or a detail). */
void tt_annots_title(const tt_app *a, char *out, size_t cap, const char **hint);

/* rankact.c: several ranks */
int tt_act_rank0(tt_app *a);                  /* `: rank 0's tab */
int tt_act_rank1(tt_app *a);                  /* 1..9: that rank's tab */
int tt_act_rank2(tt_app *a);
int tt_act_rank3(tt_app *a);
int tt_act_rank4(tt_app *a);
int tt_act_rank5(tt_app *a);
int tt_act_rank6(tt_app *a);
int tt_act_rank7(tt_app *a);
int tt_act_rank8(tt_app *a);
int tt_act_rank9(tt_app *a);
int tt_act_rank_prev(tt_app *a);
int tt_act_rank_next(tt_app *a);
int tt_act_view_job(tt_app *a);
int tt_act_view_colls(tt_app *a);
int tt_act_ranks_panel(tt_app *a);
int tt_act_rp_enter(tt_app *a);
int tt_act_cp_enter(tt_app *a);
int tt_act_ms_key(tt_app *a);
int tt_act_ms_order(tt_app *a);
int tt_act_ms_enter(tt_app *a);
int tt_act_ms_zoom(tt_app *a);
int tt_act_ms_export(tt_app *a);
int tt_app_ms_text(tt_app *a, const char *text);   /* TT_ASK_MS_EXPORT answered */
bool tt_app_xhl_on(const tt_app *a);           /* a highlight over several ranks holds */
int tt_app_xhl_step(tt_app *a, int dir);      /* n N over it, in job-time order */
const tt_hilite *tt_app_rank_hl(tt_app *a, size_t rank);   /* its part on another rank */
int tt_act_ms_marks(tt_app *a);
int tt_app_ranks_init(tt_app *a, const tt_trace *tr, const tt_app_opts *opts);
void tt_app_ranks_fini(tt_app *a);
void tt_app_focus(tt_app *a, size_t rank);    /* move the focus (see above) */
int tt_app_show_rank(tt_app *a, size_t rank); /* that rank's tab */
int tt_app_set_view(tt_app *a, tt_view v);
void tt_app_job_folds(tt_app *a);            /* the combined view's first folds */
bool tt_app_row_rank(const tt_app *a, const tt_row *row, size_t *rank);
bool *tt_app_fold_flag(tt_app *a, const tt_row *row);   /* NULL: not foldable */
/* shared by the modes' rows (tt_view_def): the rank a row carries, the
 * job's span on the focused clock, a collective holding a highlighted
 * kernel, an offset short enough for a column */
size_t tt_app_row_own_rank(const tt_app *a, const tt_row *row);
void tt_app_job_bounds(const tt_app *a, tt_ns *t0, tt_ns *t1);
bool tt_app_coll_lit(const tt_app *a, size_t gi);
const char *tt_app_fmt_offset(char *buf, size_t n, tt_ns off);
void tt_app_tabs_draw(tt_app *a, tt_grid *g);
int tt_app_tabs_click(tt_app *a, int x);
bool tt_app_rows_lanes_views(const tt_app *a, const tt_row *row, bool folded_only,
                             tt_laneset *out, int *rc);
uint32_t tt_app_glane(const tt_app *a, size_t rank, uint32_t lane);
bool tt_app_ann_in_view(const tt_app *a, const tt_annotation *an, bool ruler);
void tt_app_refocus_select(tt_app *a, size_t rank, tt_evref ev);
int tt_app_panels_sync(tt_app *a, int w);     /* the new panels' lines */
tt_plist *tt_app_panel_list_views(tt_app *a);
void tt_app_draw_panel_views(tt_app *a, tt_grid *g, int y, int w, int ph);
int64_t tt_app_annot_at_row(const tt_app *a, const tt_row *row, tt_ns from, tt_ns to);

/* infoact.c: the info panel (metadata, full name) and copying a name */
int tt_act_info_meta(tt_app *a);              /* I */
int tt_act_info_name(tt_app *a);              /* F */
int tt_act_copy_name(tt_app *a);              /* y */
void tt_app_info_open_if_empty(tt_app *a);    /* at start: no events, metadata */
int tt_app_info_sync(tt_app *a, int w);
void tt_app_info_draw(tt_app *a, tt_grid *g, int y, int w, int ph);
void tt_app_info_fini(tt_app *a);

/* overlay.c: drawn over the lanes and the ruler after the rows */
void tt_overlay_rows(tt_app *a, tt_grid *g);
void tt_overlay_ruler(tt_app *a, tt_grid *g);

/* app.c: shared helpers */
void tt_app_relayout(tt_app *a);
int tt_app_rebuild_rows(tt_app *a);
int tt_app_lanes_h(const tt_app *a);          /* visible rows of the lanes area */
int tt_app_panel_h(const tt_app *a);          /* rows of the open panel (0 closed) */
/* Width the panels' lines are built for: the panel's inner width, never
 * under 4, so the lines (what keys act on) exist whatever the window size,
 * drawn or not. */
int tt_app_panel_w(const tt_app *a);
void tt_app_open_panel(tt_app *a, tt_panel p);/* open (or switch to) a panel */
int64_t tt_app_row_index(const tt_app *a, const tt_row *row);   /* where a row is now */
int64_t tt_app_group_home(const tt_app *a, const tt_row *row);  /* its group's header */
void tt_app_scroll_to_cursor(tt_app *a);
int64_t tt_app_cursor_col(const tt_app *a);   /* clamped to the window */
void tt_app_hit(tt_app *a);                   /* selection := what the cursor cell shows */
void tt_app_select(tt_app *a, tt_evref ev);   /* select, show, put the cursor on it */
void tt_app_cursor_into_view(tt_app *a);      /* keep the cursor time in the window */
void tt_app_message(tt_app *a, bool err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const tt_row *tt_app_row(const tt_app *a);    /* cursor row or NULL */

/* bars.c */
void tt_bars_header(tt_app *a, tt_grid *g);
void tt_bars_status(tt_app *a, tt_grid *g);
void tt_bars_legend(tt_app *a, tt_grid *g);
void tt_bars_label(tt_app *a, tt_grid *g, const tt_row *row, int y, bool cur);
int tt_bars_label_want(const tt_app *a);

/* help.c */
void tt_help_draw(tt_app *a, tt_grid *g);
size_t tt_help_lines(const tt_app *a);
int tt_help_inner_h(const tt_app *a);

#endif
