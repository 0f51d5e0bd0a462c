/* loadpart.c - a tt_load_part from --window and --lanes (loadpart.h). The
 * lanes are matched by tt_laneset_match(), exactly as the report matches
 * them afterwards, so the lanes a .ttz loads are the lanes reported. */
#include "config.h"

#include "cli/loadpart.h"

#include <string.h>

static int keep_lanes(void *ctx, const tt_trace *tr, unsigned char *keep, tt_error *err)
{
    const tt_cli_part *p = ctx;
    tt_laneset ls;
    tt_laneset_init(&ls);
    if (tt_laneset_match(tr, p->lanes, &ls, err)) {
        tt_laneset_fini(&ls);
        return -1;
    }
    for (size_t i = 0; i < ls.n; i++)
        keep[ls.v[i]] = 1;
    tt_laneset_fini(&ls);
    return 0;
}

const tt_load_part *tt_cli_part_init(tt_cli_part *p, const tt_window_spec *w, const char *lanes)
{
    memset(p, 0, sizeof *p);
    if (w) {
        p->part.has_from = w->has_from;
        p->part.has_to = w->has_to;
        p->part.from = w->from;
        p->part.to = w->to;
    }
    if (lanes) {
        p->lanes = lanes;
        p->part.lanes = keep_lanes;
        p->part.lanes_ctx = p;
    }
    return p->part.has_from || p->part.has_to || p->part.lanes ? &p->part : NULL;
}
