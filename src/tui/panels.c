/* panels.c - the table of the panels below the lanes (see app_impl.h,
 * tt_panel_def): for each panel, the flag its bindings carry, how its
 * lines are built for a width, its line list and how it draws. The app
 * calls through the row of the open panel and never asks which one it is
 * (tmux's window modes); a new panel is a file plus a row here. */
#include "config.h"

#include "tui/app_impl.h"

#include <stdio.h>

/* ---------------------------------------------------------------- details */

static void details_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    if (!a->has_sel) {
        tt_panel_box(g, 0, y, w, ph, a->gl, "Details", "Esc close");
        if (ph > 2)
            tt_grid_text(g, 2, y + 1, w - 4, "No event under the cursor: move onto one.",
                         TT_R_PANEL, 0);
        return;
    }
    tt_details_draw(&a->det, g, 0, y, w, ph, a->gl, "Details");
}

/* ------------------------------------------------------------- statistics */

static int stats_sync(tt_app *a, int w)
{
    return tt_sp_build(&a->stp, w, a->utf8);
}

static tt_plist *stats_list(tt_app *a)
{
    return &a->stp.pl;
}

static void stats_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    char title[400];
    tt_sp_title(&a->stp, a->utf8, title, sizeof title);
    tt_plist_draw(&a->stp.pl, g, 0, y, w, ph, a->gl, title,
                  a->stp.kind == TT_SP_BOX ? "b by  o order  c calls  z zoom  e export  Esc close"
                                           : "Enter lane  z zoom  Esc close");
}

/* ---------------------------------------------------------------- markers */

static int marks_sync(tt_app *a, int w)
{
    return tt_marks_build(&a->mk, w, a->utf8);
}

static tt_plist *marks_list(tt_app *a)
{
    return &a->mk.pl;
}

static void marks_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    tt_plist_draw(&a->mk.pl, g, 0, y, w, ph, a->gl, "Markers",
                  "Enter go/load  r rename  n note  x delete  Space choose  S save");
}

/* ------------------------------------------------------------ annotations */

static int annots_sync(tt_app *a, int w)
{
    return tt_annview_build(&a->an, w, a->utf8);
}

static tt_plist *annots_list(tt_app *a)
{
    return &a->an.pl;
}

static void annots_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    char title[400];
    const char *hint;
    tt_annots_title(a, title, sizeof title, &hint);
    tt_plist_draw(&a->an.pl, g, 0, y, w, ph, a->gl, title, hint);
}

/* -------------------------------------------- several ranks (rankact.c) */

static void views_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    tt_app_draw_panel_views(a, g, y, w, ph);
}

/* ------------------------------------------------------------------- info */

static tt_plist *info_list(tt_app *a)
{
    return &a->info;
}

/* ------------------------------------------------------------------ table */

static const tt_panel_def details = {TT_PANEL_DETAILS, TT_IN_DETAILS, NULL, NULL, 0,
                                     NULL, NULL, details_draw, NULL};
static const tt_panel_def stats = {TT_PANEL_STATS, TT_IN_STATS, NULL, NULL, 0,
                                   stats_sync, stats_list, stats_draw, NULL};
static const tt_panel_def marks = {TT_PANEL_MARKS, TT_IN_MARKP, NULL, NULL, 0,
                                   marks_sync, marks_list, marks_draw, NULL};
static const tt_panel_def annots = {TT_PANEL_ANNOTS, TT_IN_ANNOTP, NULL, NULL, 0,
                                    annots_sync, annots_list, annots_draw, NULL};
static const tt_panel_def ranks = {TT_PANEL_RANKS, TT_IN_RANKSP, NULL, NULL, 0,
                                   tt_app_panels_sync, tt_app_panel_list_views, views_draw, NULL};
static const tt_panel_def coll = {TT_PANEL_COLL, TT_IN_COLLP, NULL, NULL, 0,
                                  tt_app_panels_sync, tt_app_panel_list_views, views_draw, NULL};
static const tt_panel_def mstats = {TT_PANEL_MSTATS, TT_IN_MSTATS, NULL, NULL, 0,
                                    tt_app_panels_sync, tt_app_panel_list_views, views_draw, NULL};
static const tt_panel_def info = {TT_PANEL_INFO, TT_IN_INFOP, NULL, NULL, 0,
                                  tt_app_info_sync, info_list, tt_app_info_draw, NULL};

/* The panels; a panel kept in a file of its own exports its row. */
static const tt_panel_def *const panels[] = {
    &details, &stats, &marks, &annots, &ranks, &coll, &mstats, &info, &tt_ct_panel,
    &tt_sql_panel,
};

const tt_panel_def *tt_panel_get(tt_panel p)
{
    for (size_t i = 0; i < sizeof panels / sizeof panels[0]; i++)
        if (panels[i]->id == p)
            return panels[i];
    return NULL;
}

const tt_panel_def *tt_panel_at(size_t i)
{
    return i < sizeof panels / sizeof panels[0] ? panels[i] : NULL;
}
