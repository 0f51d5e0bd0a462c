/* compare.h - opening the two sides of the compare view for `render
 * --compare A B` and `view --compare A B`: A and B are what `tracetty
 * diff` takes (cli/diffinput.h: files of any format, DIR:N for a rank,
 * TRACE@FROM:TO for a window, TRACE@markers:SET:A:B), loaded and resolved
 * by the same code, named for their headers as the user wrote them; the
 * view's options come from the shared timeline options (show.h: --rules,
 * --markers, --align and the load options).
 *
 * Ownership: a tt_compare owns the traces it loaded until
 * tt_compare_fini; the sides and options point into it and into the
 * tt_show it was opened with (which must outlive it).
 */
#ifndef TT_CLI_COMPARE_H
#define TT_CLI_COMPARE_H

#include <stddef.h>

#include "cli/diffinput.h"
#include "cli/show.h"
#include "tui/cmpview.h"

typedef struct tt_compare {
    tt_din_spec   spec;
    tt_din_inputs in;
    tt_cmp_side   side[2];
    tt_cmp_opts   opts;
} tt_compare;

/* The compare view's sides of loaded diff inputs (pointing into spec
 * and in, which must outlive them): what `tracetty diff A B` hands to
 * tt_compare_view_run (tui/term.h) on a terminal. */
void tt_compare_sides(const tt_din_spec *spec, const tt_din_inputs *in, tt_cmp_side out[2]);

void tt_compare_init(tt_compare *c);
/* Load paths[0] as A and paths[1] as B (n must be 2; one of them may be
 * standard input). A region, rank or marker that does not exist is an
 * error naming those that do. 0, or -1 after printing why, prefixed with
 * cmd. */
int tt_compare_open(tt_compare *c, const char *cmd, tt_show *show, char *const *paths,
                    size_t n);
void tt_compare_fini(tt_compare *c);

#endif
