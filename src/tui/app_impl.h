/* app_impl.h - internals of the timeline application, shared by its files:
 * app.c (life cycle, input dispatch, cursor and selection), actions.c (the
 * key bindings and what they do, mouse), bars.c (header, status line,
 * legend) and help.c (help overlay). Nothing outside src/tui/ includes it.
 */
#ifndef TT_TUI_APP_IMPL_H
#define TT_TUI_APP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/app.h"
#include "tui/details.h"
#include "tui/layout.h"
#include "tui/levels.h"
#include "tui/search.h"
#include "tui/spark.h"
#include "tui/theme.h"
#include "tui/timeline.h"
#include "tui/viewport.h"

typedef enum tt_mode {
    TT_MODE_MAIN = 0,
    TT_MODE_SEARCH,   /* typing a / pattern */
    TT_MODE_GOTO      /* typing a : time */
} tt_mode;

struct tt_app {
    const tt_trace  *tr;
    bool             utf8;
    const tt_glyphs *gl;
    char             title[256];   /* sanitized */

    int              cols, rows;
    tt_screen        scr;
    int              label_want;
    tt_viewport      vp;

    tt_levels       *lv;
    tt_sparks       *sp;
    tt_tl            tl;

    tt_rows          list;         /* rows of the lanes area */
    bool            *collapsed;    /* per group */
    bool             depth0;       /* show only top-level events */
    size_t           top, cur;     /* first visible row, cursor row */

    tt_ns            t_cur;        /* cursor time */
    bool             has_sel;
    tt_evref         sel;
    tt_colorby       by;

    bool             help;
    size_t           help_top;
    bool             details;
    tt_details       det;

    tt_mode          mode;
    char             prompt[256];
    size_t           plen;
    char             last_search[256];
    char             last_goto[256];

    char             msg[300];
    bool             msg_err;

    /* search (/ n N) */
    uint8_t         *used[2];      /* per field, per string id: in use (lazy) */
    uint8_t         *match;
    tt_hits          search;
    bool             has_search;
    char             search_pat[256];
    uint64_t         search_gen;   /* bumped by every new search */
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
};

typedef int (*tt_action_fn)(tt_app *a);

enum {
    TT_SEC_MOVE = 0,
    TT_SEC_ZOOM,
    TT_SEC_FIND,
    TT_SEC_VIEW,
    TT_SEC_PANEL,
    TT_SEC__COUNT
};

enum {
    TT_IN_MAIN = 1,    /* the timeline */
    TT_IN_PANEL = 2    /* the details panel (tried first while it is open) */
};

typedef struct tt_binding {
    uint32_t     keys[4];
    const char  *label;   /* keys as the help shows them */
    const char  *help;
    uint8_t      section;
    uint8_t      where;
    tt_action_fn fn;
} tt_binding;

/* actions.c */
extern const tt_binding tt_bindings[];
extern const size_t tt_n_bindings;
extern const char *const tt_section_names[TT_SEC__COUNT];
int tt_app_key(tt_app *a, uint32_t key);
int tt_app_mouse(tt_app *a, const tt_input *in);
int tt_app_prompt_key(tt_app *a, uint32_t key);

/* app.c: shared helpers */
void tt_app_relayout(tt_app *a);
int tt_app_rebuild_rows(tt_app *a);
int tt_app_lanes_h(const tt_app *a);          /* visible rows of the lanes area */
int tt_app_panel_h(const tt_app *a);          /* rows of the details panel (0 closed) */
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
