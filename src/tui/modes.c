/* modes.c - the table of the modes of the lanes area (see app_impl.h,
 * tt_view_def): one row per tt_view, each defined in its own file
 * (mode_rank.c, mode_job.c, mode_colls.c, mode_matrix.c). The app calls through the row
 * of the current mode and never asks which one it is (tmux's window
 * modes); a new mode is a file plus a row here. */
#include "config.h"

#include "tui/app_impl.h"

/* indexed by tt_view */
static const tt_view_def *const modes[] = {
    &tt_mode_rank,
    &tt_mode_job,
    &tt_mode_colls,
    &tt_mode_matrix,
};

const tt_view_def *tt_view_get(tt_view v)
{
    return (size_t)v < sizeof modes / sizeof modes[0] ? modes[v] : modes[0];
}

const tt_view_def *tt_view_at(size_t i)
{
    return i < sizeof modes / sizeof modes[0] ? modes[i] : NULL;
}

const tt_view_def *tt_app_mode(const tt_app *a)
{
    return tt_view_get(a->view);
}
