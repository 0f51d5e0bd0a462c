/* compare.h - opening the two sides of the compare view for `render
 * --compare A B` (and `diff A B` on a terminal): load both, name them for
 * their headers, and take the view's options from the shared timeline
 * options (show.h: --rules, --markers, --align and the load options).
 *
 * Ownership: a tt_compare owns the traces it loaded until
 * tt_compare_fini; the sides and options point into it and into the
 * tt_show it was opened with (which must outlive it).
 */
#ifndef TT_CLI_COMPARE_H
#define TT_CLI_COMPARE_H

#include <stddef.h>

#include "cli/show.h"
#include "tui/cmpview.h"

typedef struct tt_compare {
    tt_trace   *tr[2];
    char        name[2][300];
    tt_cmp_side side[2];
    tt_cmp_opts opts;
} tt_compare;

void tt_compare_init(tt_compare *c);
/* Load paths[0] as A and paths[1] as B (n must be 2). 0, or -1 after
 * printing why, prefixed with cmd. */
int tt_compare_open(tt_compare *c, const char *cmd, tt_show *show, char *const *paths,
                    size_t n);
void tt_compare_fini(tt_compare *c);

#endif
