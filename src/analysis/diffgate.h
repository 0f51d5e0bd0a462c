/* diffgate.h - `tracetty diff --fail-if COND`: conditions on a diff for a
 * CI gate, parsed and evaluated here; the command prints and exits.
 *
 * Grammar: SUBJECT OP VALUE (spaces allowed around OP), OP one of
 * > >= < <=, VALUE a signed number with
 *   %            a relative delta: 100 * (B - A) / A (A = 0: 0% when B is
 *                0 too, else +inf%, so something new from nothing holds
 *                for any '>')
 *   ns us ms s   an absolute delta B - A (µs too)
 *   nothing      a count
 * Subjects:
 *   total        the sums of the Total columns of the kind in use; a count
 *                compares the sums of the Count columns (B - A)
 *   span         the compared regions' wall time (% or time)
 *   step         the mean step time of both (% or time); an error when a
 *                side has no steps
 *   added deleted increased decreased
 *                the number of rows with that status (a count)
 *   name:GLOB    the rows of the kind in use whose name matches the shell
 *                glob (fnmatch(3), case-sensitive; the "(none)" row never
 *                matches): their Total A and B summed (% or time), or
 *                their Count columns (a count: B - A)
 *   kernel:GLOB op:GLOB operator:GLOB
 *                the same over that kind's rows by name, whatever kind is
 *                in use (the caller computes that diff on demand)
 * The operator is the last '<' or '>' of the text (a glob may hold
 * template brackets: kernel:f<*>*>+10%).
 *
 * Library code: no I/O. Ownership: a tt_gate_cond owns its glob
 * (tt_gate_cond_fini frees it) and borrows its text.
 */
#ifndef TT_ANALYSIS_DIFFGATE_H
#define TT_ANALYSIS_DIFFGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/diff.h"
#include "util/error.h"

typedef enum tt_gate_subject {
    TT_GATE_TOTAL = 0,
    TT_GATE_SPAN,
    TT_GATE_STEP,
    TT_GATE_ADDED,
    TT_GATE_DELETED,
    TT_GATE_INCREASED,
    TT_GATE_DECREASED,
    TT_GATE_NAME,
    TT_GATE_KERNEL,
    TT_GATE_OP,
    TT_GATE_OPERATOR
} tt_gate_subject;

typedef enum tt_gate_cmp { TT_GATE_GT = 0, TT_GATE_GE, TT_GATE_LT, TT_GATE_LE } tt_gate_cmp;

typedef enum tt_gate_unit {
    TT_GATE_PCT = 0,    /* relative delta, % */
    TT_GATE_TIME,       /* absolute delta, ns */
    TT_GATE_COUNT       /* a count */
} tt_gate_unit;

typedef struct tt_gate_cond {
    const char     *text;      /* as given (borrowed) */
    tt_gate_subject subject;
    char           *glob;      /* name:, kernel:, op:, operator: (owned) */
    tt_gate_cmp     cmp;
    tt_gate_unit    unit;
    double          value;     /* TT_GATE_PCT, TT_GATE_COUNT */
    int64_t         ns;        /* TT_GATE_TIME */
} tt_gate_cond;

/* Parse text into *c. 0, or non-zero with err set: TT_ERR_USAGE at
 * err->column (1-based, in text; pos TT_POS_LINE, line 1) for a malformed
 * condition, TT_ERR_NOMEM. */
int tt_gate_cond_parse(const char *text, tt_gate_cond *c, tt_error *err);
void tt_gate_cond_fini(tt_gate_cond *c);

/* What an evaluation needs from the caller. */
typedef struct tt_gate_input {
    const tt_diff *diff;       /* the kind in use; NULL when it is not a
                                  name table (--kind gpu, steps) */
    int64_t        span_a, span_b;   /* ns */
    /* The diff by name of kind (kernel:, op:, operator:), borrowed until
     * the caller frees it; 0, or -1 with err set. */
    int (*diff_of)(void *ctx, tt_diff_kind kind, const tt_diff **out, tt_error *err);
    /* The mean step time of A and B, ns; 0, or -1 with err set (a side
     * without steps). */
    int (*step_mean)(void *ctx, double *a, double *b, tt_error *err);
    void *ctx;
} tt_gate_input;

typedef struct tt_gate_result {
    bool   holds;
    double a, b;         /* measured: ns or a count (row counts: b only) */
    double measured;     /* what was compared: %, ns or a count */
    size_t rows;         /* GLOB subjects: rows matched */
} tt_gate_result;

/* Evaluate c on in. 0, or -1 with err set (no steps, a name: condition
 * without a name table, the caller's diff_of failing). */
int tt_gate_eval(const tt_gate_cond *c, const tt_gate_input *in, tt_gate_result *r,
                 tt_error *err);

/* One line saying what was measured, for the command's report:
 * "total: A 1,200 ns, B 1,500 ns, delta +300 ns (+25.00%)". Returns buf. */
char *tt_gate_describe(const tt_gate_cond *c, const tt_gate_result *r, char *buf, size_t n);

#endif
