/* scaling.c - the N-run scaling table of `diff --scaling` (what it
 * measures in scaling.h). Values are gathered per run and per name as a
 * count, a sum and a maximum of ns; the rows are made once every run is
 * in, so a name first seen in run 3 still gets its (empty) cells in runs
 * 1 and 2.
 */
#include "config.h"

#include "analysis/scaling.h"
#include "analysis/stats.h"
#include "analysis/steps.h"
#include "util/grow.h"
#include "util/strtab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The values of one name in one run. Sums stay below 2^53 ns (about 104
 * days), so a double holds them exactly and the mean is one rounding. */
struct tt_scaling_acc {
    uint64_t n;
    double   sum, max;
};

/* Name id 0 of the table is the whole row ("iteration" or "step"). */
#define WHOLE 0u

static int oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

tt_scaling *tt_scaling_new(bool weak)
{
    tt_scaling *s = calloc(1, sizeof *s);
    if (!s || !(s->names = tt_strtab_new())) {
        free(s);
        return NULL;
    }
    s->weak = weak;
    return s;
}

void tt_scaling_free(tt_scaling *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_runs; i++) {
        free(s->labels[i]);
        free(s->acc[i]);
    }
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].t);
        free(s->rows[i].speedup);
        free(s->rows[i].eff);
    }
    free(s->rows);
    free(s->labels);
    free(s->ranks);
    free(s->no_steps);
    free(s->acc);
    free(s->n_acc);
    tt_strtab_free(s->names);
    free(s);
}

int tt_scaling_run_begin(tt_scaling *s, const char *label, tt_error *err)
{
    size_t k = s->n_runs;
    char **labels = realloc(s->labels, (k + 1) * sizeof *labels);
    size_t *ranks, *no_steps, *n_acc;
    tt_scaling_acc **acc;
    if (!labels)
        return oom(err);
    s->labels = labels;
    if (!(ranks = realloc(s->ranks, (k + 1) * sizeof *ranks)))
        return oom(err);
    s->ranks = ranks;
    if (!(no_steps = realloc(s->no_steps, (k + 1) * sizeof *no_steps)))
        return oom(err);
    s->no_steps = no_steps;
    if (!(n_acc = realloc(s->n_acc, (k + 1) * sizeof *n_acc)))
        return oom(err);
    s->n_acc = n_acc;
    if (!(acc = realloc(s->acc, (k + 1) * sizeof *acc)))
        return oom(err);
    s->acc = acc;
    if (!(labels[k] = strdup(label)))
        return oom(err);
    ranks[k] = 0;
    no_steps[k] = 0;
    n_acc[k] = 0;
    acc[k] = NULL;
    s->n_runs++;
    return 0;
}

/* Add value v to name [nm, nm+len) of the current run (WHOLE when nm is
 * NULL). */
static int add_value(tt_scaling *s, const char *nm, size_t len, double v, tt_error *err)
{
    size_t r = s->n_runs - 1;
    uint32_t id = nm ? tt_strtab_intern(s->names, nm, len) : WHOLE;
    tt_scaling_acc *a;
    if (nm && !len)
        return 0;   /* an unnamed event: id 0 is the whole row's */
    if (id == TT_STR_ERROR)
        return oom(err);
    if (id >= s->n_acc[r]) {
        size_t n = tt_strtab_count(s->names) + 16;
        if (!(a = realloc(s->acc[r], n * sizeof *a)))
            return oom(err);
        memset(a + s->n_acc[r], 0, (n - s->n_acc[r]) * sizeof *a);
        s->acc[r] = a;
        s->n_acc[r] = n;
    }
    a = &s->acc[r][id];
    if (!a->n || v > a->max)
        a->max = v;
    a->sum += v;
    a->n++;
    return 0;
}

/* A HugeCTR trace (decode/hugectr.c's model): per host group an
 * "iteration" lane whose slice is the average iteration, and the labels
 * as slices of category "kernel" on the device/stream lanes. */
static int add_hugectr(tt_scaling *s, const tt_trace *tr, tt_error *err)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        bool iter = strcmp(tt_str(tr, ln->key), "iteration") == 0;
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (e->kind != TT_EV_SLICE)
                continue;
            if (iter) {
                if (add_value(s, NULL, 0, (double)e->dur, err))
                    return -1;
                s->ranks[s->n_runs - 1]++;
            } else if (strcmp(tt_str(tr, e->cat), "kernel") == 0) {
                const char *nm = tt_str(tr, e->name);
                if (add_value(s, nm, strlen(nm), (double)e->dur, err))
                    return -1;
            }
        }
    }
    return 0;
}

/* Any other trace: one rank, its mean step time and its totals by name. */
static int add_other(tt_scaling *s, const tt_trace *tr, tt_error *err)
{
    tt_sel sel;
    tt_steps *st = NULL;
    tt_breakdown *b = NULL;
    tt_key key;
    int rc = -1;
    memset(&key, 0, sizeof key);
    memset(&sel, 0, sizeof sel);   /* every lane */
    tt_sel_window(tr, NULL, &sel);
    if (tt_key_parse("name", &key, err) || tt_steps_compute(tr, &sel, NULL, &st, err) ||
        tt_breakdown_compute(tr, &sel, &key, &b, err))
        goto done;
    s->ranks[s->n_runs - 1]++;
    if (st->n) {
        int64_t sum = 0;
        for (size_t i = 0; i < st->n; i++)
            sum += st->v[i].end - st->v[i].start;
        if (add_value(s, NULL, 0, (double)sum / (double)st->n, err))
            goto done;
    } else {
        s->no_steps[s->n_runs - 1]++;
    }
    for (size_t i = 0; i < b->n; i++) {
        const tt_brk_row *row = &b->rows[i];
        if (row->none)
            continue;
        if (add_value(s, row->label, strlen(row->label), (double)row->d.total, err))
            goto done;
    }
    rc = 0;
done:
    tt_steps_free(st);
    tt_breakdown_free(b);
    return rc;
}

int tt_scaling_run_add(tt_scaling *s, const tt_trace *tr, tt_error *err)
{
    bool hugectr = tr->format && strcmp(tr->format, "hugectr-json") == 0;
    if (!s->n_runs)
        return tt_error_set(err, TT_ERR_USAGE, "a trace added before any run"), -1;
    if (hugectr) {
        s->n_hugectr++;
        return add_hugectr(s, tr, err);
    }
    s->n_other++;
    return add_other(s, tr, err);
}

/* The acc of name id in run r, or NULL when the run has no value. */
static const tt_scaling_acc *acc_of(const tt_scaling *s, size_t r, uint32_t id)
{
    return id < s->n_acc[r] && s->acc[r][id].n ? &s->acc[r][id] : NULL;
}

static double value_of(const tt_scaling *s, size_t r, uint32_t id, bool avg)
{
    const tt_scaling_acc *a = acc_of(s, r, id);
    if (!a)
        return NAN;
    return avg ? a->sum / (double)a->n : a->max;
}

static const tt_scaling *sort_s;   /* qsort has no context argument */

static int cmp_names(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    double va = value_of(sort_s, 0, a, true), vb = value_of(sort_s, 0, b, true);
    if (!isnan(va) && isnan(vb))
        return -1;
    if (isnan(va) && !isnan(vb))
        return 1;
    if (!isnan(va) && va != vb)
        return va > vb ? -1 : 1;
    return strcmp(tt_strtab_get(sort_s->names, a), tt_strtab_get(sort_s->names, b));
}

static int make_row(tt_scaling *s, uint32_t id, bool avg, tt_error *err)
{
    tt_scaling_row *row = &s->rows[s->n];
    size_t k = s->n_runs;
    memset(row, 0, sizeof *row);
    row->name = id == WHOLE ? (s->hugectr ? "iteration" : "step") : tt_strtab_get(s->names, id);
    row->avg = avg;
    row->whole = id == WHOLE;
    row->t = malloc(k * sizeof *row->t);
    row->speedup = malloc(k * sizeof *row->speedup);
    row->eff = malloc(k * sizeof *row->eff);
    s->n++;   /* freed with the others whatever happens */
    if (!row->t || !row->speedup || !row->eff)
        return oom(err);
    for (size_t r = 0; r < k; r++)
        row->t[r] = value_of(s, r, id, avg);
    for (size_t r = 0; r < k; r++) {
        double t1 = row->t[0], tk = row->t[r];
        if (isnan(t1) || isnan(tk) || tk <= 0 || t1 <= 0) {
            row->speedup[r] = row->eff[r] = NAN;
            continue;
        }
        row->speedup[r] = t1 / tk;
        row->eff[r] = s->weak ? t1 / tk
                              : row->speedup[r] * (double)s->ranks[0] / (double)s->ranks[r];
    }
    return 0;
}

int tt_scaling_finish(tt_scaling *s, tt_error *err)
{
    uint32_t n_names = tt_strtab_count(s->names), *order;
    size_t n = 0;
    int rc = 0;
    if (s->n_runs < 2)
        return tt_error_set(err, TT_ERR_USAGE, "--scaling compares two runs or more"), -1;
    for (size_t r = 0; r < s->n_runs; r++)
        if (!s->ranks[r])
            return tt_error_set(err, TT_ERR_USAGE, "run %zu (%s) holds no trace to measure", r + 1,
                                s->labels[r]), -1;
    if (s->n_hugectr && s->n_other)
        return tt_error_set(err, TT_ERR_USAGE, "--scaling: the runs mix HugeCTR prof.json with "
                            "other formats; compare like with like"), -1;
    s->hugectr = s->n_hugectr > 0;
    /* ids 1.. are names (the table's id 0 is its empty string, used as
     * WHOLE above); every id ever interned has a value in some run */
    if (!(order = malloc((n_names ? n_names : 1) * sizeof *order)))
        return oom(err);
    for (uint32_t id = 1; id < n_names; id++)
        order[n++] = id;
    sort_s = s;
    qsort(order, n, sizeof *order, cmp_names);
    sort_s = NULL;
    if (!(s->rows = calloc(2 * (n + 1), sizeof *s->rows))) {
        free(order);
        return oom(err);
    }
    for (size_t r = 0; r < s->n_runs; r++)
        if (acc_of(s, r, WHOLE)) {
            rc = make_row(s, WHOLE, true, err) || make_row(s, WHOLE, false, err) ? -1 : 0;
            break;
        }
    for (size_t i = 0; i < n && !rc; i++)
        rc = make_row(s, order[i], true, err) || make_row(s, order[i], false, err) ? -1 : 0;
    free(order);
    return rc;
}
