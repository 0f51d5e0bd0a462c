/* spark.c - counter sparklines (see spark.h). */
#include "config.h"

#include "tui/spark.h"

#include "tui/theme.h"

#include <stdlib.h>

#define BLOCK 64

tt_sparks *tt_sparks_new(const tt_trace *tr)
{
    tt_sparks *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tr = tr;
    s->bmax = calloc((size_t)tr->n_counters + 1, sizeof *s->bmax);
    if (!s->bmax) {
        free(s);
        return NULL;
    }
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        const tt_counter *c = &tr->counters[i];
        size_t nb = (c->n + BLOCK - 1) / BLOCK;
        s->bmax[i] = malloc((nb ? nb : 1) * sizeof **s->bmax);
        if (!s->bmax[i]) {
            tt_sparks_free(s);
            return NULL;
        }
        for (size_t b = 0; b < nb; b++) {
            size_t end = (b + 1) * BLOCK < c->n ? (b + 1) * BLOCK : c->n;
            double m = c->v[b * BLOCK];
            for (size_t k = b * BLOCK + 1; k < end; k++)
                if (c->v[k] > m)
                    m = c->v[k];
            s->bmax[i][b] = m;
        }
    }
    return s;
}

void tt_sparks_free(tt_sparks *s)
{
    if (!s)
        return;
    if (s->bmax)
        for (uint32_t i = 0; i < s->tr->n_counters; i++)
            free(s->bmax[i]);
    free(s->bmax);
    free(s);
}

void tt_spark_scale(const tt_counter *c, double *lo, double *hi)
{
    *lo = c->vmin < 0 ? c->vmin : 0;
    *hi = c->vmax;
    if (!(*hi > *lo))
        *hi = *lo + 1;
}

/* First sample index with t > x. */
static size_t upper(const tt_counter *c, tt_ns x)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->t[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool tt_spark_value_at(const tt_counter *c, tt_ns t, double *v)
{
    size_t i = upper(c, t);
    if (i == 0)
        return false;
    *v = c->v[i - 1];
    return true;
}

bool tt_spark_max(const tt_sparks *s, uint32_t counter, tt_ns a, tt_ns b, double *v)
{
    const tt_counter *c = &s->tr->counters[counter];
    const double *bm = s->bmax[counter];
    size_t i = upper(c, a), j;   /* samples in (a, b): [i, j) */
    bool have = false;
    double m = 0;
    if (i > 0) {
        m = c->v[i - 1];   /* the value holding at a */
        have = true;
    }
    j = i;
    while (j < c->n && c->t[j] < b) {
        if (j % BLOCK == 0 && j + BLOCK <= c->n && c->t[j + BLOCK - 1] < b) {
            if (!have || bm[j / BLOCK] > m)
                m = bm[j / BLOCK];
            have = true;
            j += BLOCK;
            continue;
        }
        if (!have || c->v[j] > m)
            m = c->v[j];
        have = true;
        j++;
    }
    if (have)
        *v = m;
    return have;
}

void tt_spark_row(const tt_sparks *s, uint32_t counter, const tt_viewport *vp, tt_grid *g,
                  int x0, int y, const uint32_t spark[9])
{
    const tt_counter *c = &s->tr->counters[counter];
    double lo, hi;
    if (c->n == 0)
        return;
    tt_spark_scale(c, &lo, &hi);
    for (int col = 0; col < vp->cols; col++) {
        double v, f;
        int level;
        if (!tt_spark_max(s, counter, tt_vp_time(vp, col), tt_vp_time(vp, col + 1), &v))
            continue;
        f = (v - lo) / (hi - lo);
        if (!(f > 0))
            level = lo < 0 ? 1 : 0;
        else
            level = 1 + (int)(f * 7.999);
        if (level > 8)
            level = 8;
        if (level > 0)
            tt_grid_set(g, x0 + col, y, spark[level], TT_R_COUNTER, 0);
    }
}
