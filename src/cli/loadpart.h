/* loadpart.h - what a command that looks at one window and some lanes asks
 * a loader for (tt_load_opts.part), so that a .ttz decodes only the event
 * blocks that meet them. Owned by the caller: a tt_cli_part lives as long
 * as the loads that use it (it borrows the lane patterns).
 */
#ifndef TT_CLI_LOADPART_H
#define TT_CLI_LOADPART_H

#include "analysis/select.h"
#include "decode/decode.h"

typedef struct tt_cli_part {
    tt_load_part part;
    const char  *lanes;   /* patterns as --lanes takes them, or NULL */
} tt_cli_part;

/* Fill p for window w (NULL: the whole trace) and lane patterns (NULL:
 * every lane). Returns &p->part, or NULL when there is nothing to leave
 * out (no window edge and no pattern). */
const tt_load_part *tt_cli_part_init(tt_cli_part *p, const tt_window_spec *w,
                                     const char *lanes);

#endif
