/* diff_gate.c - the --fail-if conditions of `tracetty diff` (see
 * diff_gate.h): parse, evaluate through analysis/diffgate.h, print. */
#include "config.h"

#include "cli/diff_gate.h"

#include "analysis/steps.h"
#include "cli/cli.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tt_diff_gate_add(tt_diff_gate *g, const char *text)
{
    tt_gate_cond *c = realloc(g->c, (g->n + 1) * sizeof *c);
    tt_error err;
    char safe[400];
    tt_error_clear(&err);
    if (!c) {
        tt_cli_error("diff: out of memory");
        return -1;
    }
    g->c = c;
    if (tt_gate_cond_parse(text, &c[g->n], &err)) {
        if (err.code == TT_ERR_USAGE)
            tt_cli_error("diff: --fail-if '%s': column %lld: %s",
                         tt_text_safe(text, safe, sizeof safe), (long long)err.column, err.what);
        else
            tt_cli_error("diff: %s", err.what);
        return -1;
    }
    g->n++;
    return 0;
}

bool tt_diff_gate_needs_all(const tt_diff_gate *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->c[i].subject == TT_GATE_STEP || g->c[i].subject == TT_GATE_KERNEL ||
            g->c[i].subject == TT_GATE_OP || g->c[i].subject == TT_GATE_OPERATOR)
            return true;
    return false;
}

/* The evaluation's context: the input and what was computed for it. */
typedef struct gate_ctx {
    const tt_diff_gate_in *in;
    tt_diff               *other[3];   /* per kind, by name */
    bool                   have_steps;
    int                    steps_rc;
    double                 step_a, step_b;
    tt_error               steps_err;
} gate_ctx;

static int diff_of(void *ctx, tt_diff_kind kind, const tt_diff **out, tt_error *err)
{
    gate_ctx *g = ctx;
    tt_diff_side *side[2] = {NULL, NULL};
    int rc = -1;
    if (g->in->diff && g->in->kind == kind && g->in->by_name) {
        *out = g->in->diff;
        return 0;
    }
    if (g->other[kind]) {
        *out = g->other[kind];
        return 0;
    }
    for (int i = 0; i < 2; i++)
        if (tt_diff_side_compute(g->in->tr[i], &g->in->sel[i], kind, NULL, &side[i], err))
            goto done;
    if (tt_diff_compute(side[0], side[1], g->in->map, &g->other[kind], err))
        goto done;
    *out = g->other[kind];
    rc = 0;
done:
    tt_diff_side_free(side[0]);
    tt_diff_side_free(side[1]);
    return rc;
}

/* The mean step time of one side into *mean; -1 with err set when it
 * has no steps. */
static int step_mean_of(const tt_trace *tr, const tt_sel *sel, const char *side, double *mean,
                        tt_error *err)
{
    tt_steps *st = NULL;
    int64_t sum = 0;
    if (tt_steps_compute(tr, sel, NULL, &st, err))
        return -1;
    if (!st->n) {
        tt_steps_free(st);
        return tt_error_set(err, TT_ERR_USAGE, "%s has no steps (no ProfilerStep#N or Step Id)",
                            side), -1;
    }
    for (size_t i = 0; i < st->n; i++)
        sum += st->v[i].end - st->v[i].start;
    *mean = (double)sum / (double)st->n;
    tt_steps_free(st);
    return 0;
}

static int step_mean(void *ctx, double *a, double *b, tt_error *err)
{
    gate_ctx *g = ctx;
    if (!g->have_steps) {
        tt_error_clear(&g->steps_err);
        g->steps_rc = step_mean_of(g->in->tr[0], &g->in->sel[0], "A", &g->step_a, &g->steps_err) ||
                      step_mean_of(g->in->tr[1], &g->in->sel[1], "B", &g->step_b, &g->steps_err);
        g->have_steps = true;
    }
    if (g->steps_rc) {
        *err = g->steps_err;
        return -1;
    }
    *a = g->step_a;
    *b = g->step_b;
    return 0;
}

int tt_diff_gate_check(const tt_diff_gate *g, const tt_diff_gate_in *in, bool quiet)
{
    gate_ctx ctx;
    tt_gate_input gi;
    size_t held = 0;
    int rc = TT_EXIT_OK;
    memset(&ctx, 0, sizeof ctx);
    ctx.in = in;
    memset(&gi, 0, sizeof gi);
    gi.diff = in->diff;
    gi.span_a = in->sel[0].to - in->sel[0].from;
    gi.span_b = in->sel[1].to - in->sel[1].from;
    gi.diff_of = diff_of;
    gi.step_mean = step_mean;
    gi.ctx = &ctx;
    for (size_t i = 0; i < g->n && rc != TT_EXIT_ERROR; i++) {
        tt_gate_result r;
        tt_error err;
        char line[600], safe[400], safe_line[700];
        tt_error_clear(&err);
        if (tt_gate_eval(&g->c[i], &gi, &r, &err)) {
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
            rc = TT_EXIT_ERROR;
            break;
        }
        if (!r.holds)
            continue;
        held++;
        tt_gate_describe(&g->c[i], &r, line, sizeof line);
        tt_cli_error("diff: --fail-if '%s' holds: %s", tt_text_safe(g->c[i].text, safe, sizeof safe),
                     tt_text_safe(line, safe_line, sizeof safe_line));
    }
    if (rc != TT_EXIT_ERROR) {
        if (held)
            rc = TT_EXIT_FINDINGS;
        else if (!quiet)
            fprintf(stderr, "tracetty: diff: --fail-if: none of %zu condition%s holds\n", g->n,
                    g->n == 1 ? "" : "s");
    }
    for (int k = 0; k < 3; k++)
        tt_diff_free(ctx.other[k]);
    return rc;
}

void tt_diff_gate_fini(tt_diff_gate *g)
{
    for (size_t i = 0; i < g->n; i++)
        tt_gate_cond_fini(&g->c[i]);
    free(g->c);
    g->c = NULL;
    g->n = 0;
}
