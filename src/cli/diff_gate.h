/* diff_gate.h - `tracetty diff --fail-if COND`: the conditions of one
 * command line, parsed when the options are (a malformed one stops the
 * command before anything loads) and checked once the table is written,
 * with the diffs of other kinds and the step times computed only when a
 * condition asks for them (analysis/diffgate.h has the grammar).
 *
 * Ownership: a tt_diff_gate borrows the condition texts (argv) and owns
 * what it parsed and computed; tt_diff_gate_fini frees it.
 */
#ifndef TT_CLI_DIFF_GATE_H
#define TT_CLI_DIFF_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/diff.h"
#include "analysis/diffgate.h"
#include "analysis/select.h"
#include "model/trace.h"

typedef struct tt_diff_gate {
    tt_gate_cond *c;
    size_t        n;
} tt_diff_gate;

/* What the check reads: the two sides as the command compared them. */
typedef struct tt_diff_gate_in {
    const tt_trace  *tr[2];
    tt_sel           sel[2];
    const tt_diff   *diff;      /* the kind in use, or NULL */
    tt_diff_kind     kind;
    bool             by_name;   /* the diff in use is by name (no --by) */
    tt_diff_name_map map;       /* --normalize, or NULL */
} tt_diff_gate_in;

/* Parse one --fail-if; 0, or -1 after printing the positioned error. */
int tt_diff_gate_add(tt_diff_gate *g, const char *text);

/* Whether a condition needs more of the traces than the kind in use
 * reads (another kind's table, the steps): the command then loads them
 * whole. */
bool tt_diff_gate_needs_all(const tt_diff_gate *g);

/* Check every condition; list on stderr each that holds. TT_EXIT_OK
 * (none holds), TT_EXIT_FINDINGS (some hold), or TT_EXIT_ERROR after
 * printing why a condition could not be evaluated. */
int tt_diff_gate_check(const tt_diff_gate *g, const tt_diff_gate_in *in, bool quiet);

void tt_diff_gate_fini(tt_diff_gate *g);

#endif
