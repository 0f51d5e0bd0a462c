/* intervals.c - interval lists (see intervals.h). */
#include "config.h"

#include "analysis/intervals.h"
#include "util/bigalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void tt_ivals_init(tt_ivals *a)
{
    a->v = NULL;
    a->n = a->cap = 0;
}

void tt_ivals_fini(tt_ivals *a)
{
    free(a->v);
    tt_ivals_init(a);
}

static int reserve(tt_ivals *a, size_t want)
{
    if (want <= a->cap)
        return 0;
    {
        size_t nc = a->cap ? a->cap : 64;
        tt_ival *nv;
        while (nc < want)
            nc *= 2;
        nv = realloc(a->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        a->v = nv;
        a->cap = nc;
    }
    return 0;
}

int tt_ivals_reserve(tt_ivals *a, size_t n)
{
    if (n > SIZE_MAX / sizeof(tt_ival))
        return -1;
    if (a->n == 0 && n > a->cap) {
        /* an empty list: on huge pages when large (util/bigalloc.h), as
         * first touches of 4 KiB pages cost more than the pushes */
        tt_ival *nv = tt_bigalloc(n * sizeof *nv);
        if (!nv)
            return -1;
        free(a->v);
        a->v = nv;
        a->cap = n;
        return 0;
    }
    return reserve(a, n);
}

int tt_ivals_push(tt_ivals *a, tt_ns s, tt_ns e)
{
    if (e <= s)
        return 0;
    /* Events arrive in start order per lane: extend the last interval when
     * this one touches it, which keeps lists of nested slices short. */
    if (a->n && s >= a->v[a->n - 1].s && s <= a->v[a->n - 1].e) {
        if (e > a->v[a->n - 1].e)
            a->v[a->n - 1].e = e;
        return 0;
    }
    if (a->n == a->cap && reserve(a, a->n + 1))
        return -1;
    a->v[a->n].s = s;
    a->v[a->n].e = e;
    a->n++;
    return 0;
}

/* Merge sorted src[lo, mid) and src[mid, hi) into dst[lo, hi). */
static void merge(const tt_ival *src, tt_ival *dst, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        dst[k++] = src[j].s < src[i].s ? src[j++] : src[i++];
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

int tt_ivals_normalize(tt_ivals *a)
{
    size_t n = a->n, nruns = 0, w = 0;
    size_t *runs;
    tt_ival *buf, *src, *dst;

    if (n == 0)
        return 0;
    /* Run boundaries: positions where the start goes down. */
    for (size_t i = 1; i < n; i++)
        if (a->v[i].s < a->v[i - 1].s)
            nruns++;
    nruns++;
    if (nruns > 1) {
        runs = malloc((nruns + 1) * sizeof *runs);
        buf = malloc(n * sizeof *buf);
        if (!runs || !buf) {
            free(runs);
            free(buf);
            return -1;
        }
        nruns = 0;
        runs[nruns++] = 0;
        for (size_t i = 1; i < n; i++)
            if (a->v[i].s < a->v[i - 1].s)
                runs[nruns++] = i;
        runs[nruns] = n;
        src = a->v;
        dst = buf;
        /* Merge neighbouring runs pairwise until one is left. */
        while (nruns > 1) {
            size_t out = 0, r;
            for (r = 0; r + 1 < nruns; r += 2) {
                merge(src, dst, runs[r], runs[r + 1], runs[r + 2]);
                runs[out++] = runs[r];
            }
            if (r < nruns) {
                memcpy(dst + runs[r], src + runs[r], (runs[r + 1] - runs[r]) * sizeof *src);
                runs[out++] = runs[r];
            }
            runs[out] = n;
            nruns = out;
            {
                tt_ival *t = src;
                src = dst;
                dst = t;
            }
        }
        if (src != a->v)
            memcpy(a->v, src, n * sizeof *src);
        free(runs);
        free(buf);
    }
    /* Coalesce overlapping and touching intervals. */
    for (size_t i = 0; i < n; i++) {
        if (a->v[i].e <= a->v[i].s)
            continue;
        if (w && a->v[i].s <= a->v[w - 1].e) {
            if (a->v[i].e > a->v[w - 1].e)
                a->v[w - 1].e = a->v[i].e;
        } else {
            a->v[w++] = a->v[i];
        }
    }
    a->n = w;
    return 0;
}

tt_ns tt_ivals_length(const tt_ivals *a)
{
    tt_ns t = 0;
    for (size_t i = 0; i < a->n; i++)
        t += a->v[i].e - a->v[i].s;
    return t;
}

tt_ns tt_ivals_overlap_length(const tt_ivals *a, const tt_ivals *b)
{
    size_t i = 0, j = 0;
    tt_ns t = 0;
    while (i < a->n && j < b->n) {
        tt_ns s = a->v[i].s > b->v[j].s ? a->v[i].s : b->v[j].s;
        tt_ns e = a->v[i].e < b->v[j].e ? a->v[i].e : b->v[j].e;
        if (e > s)
            t += e - s;
        if (a->v[i].e < b->v[j].e)
            i++;
        else
            j++;
    }
    return t;
}

int tt_ivals_union(const tt_ivals *a, const tt_ivals *b, tt_ivals *out)
{
    size_t i = 0, j = 0;
    out->n = 0;
    if (reserve(out, a->n + b->n))
        return -1;
    while (i < a->n || j < b->n) {
        tt_ival x;
        if (j >= b->n || (i < a->n && a->v[i].s <= b->v[j].s))
            x = a->v[i++];
        else
            x = b->v[j++];
        if (out->n && x.s <= out->v[out->n - 1].e) {
            if (x.e > out->v[out->n - 1].e)
                out->v[out->n - 1].e = x.e;
        } else {
            out->v[out->n++] = x;
        }
    }
    return 0;
}

int tt_ivals_intersect(const tt_ivals *a, const tt_ivals *b, tt_ivals *out)
{
    size_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        tt_ns s = a->v[i].s > b->v[j].s ? a->v[i].s : b->v[j].s;
        tt_ns e = a->v[i].e < b->v[j].e ? a->v[i].e : b->v[j].e;
        if (s < e && tt_ivals_push(out, s, e))
            return -1;
        if (a->v[i].e < b->v[j].e)
            i++;
        else
            j++;
    }
    return 0;
}

size_t tt_runs_first_ending_after(const tt_ival *v, size_t n, tt_ns t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].e <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t tt_runs_first_starting_from(const tt_ival *v, size_t n, tt_ns t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].s < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

tt_ns tt_runs_length_in(const tt_ival *v, const tt_ns *pre, size_t n, tt_ns from, tt_ns to)
{
    size_t i0, i1;
    tt_ns len;
    if (from >= to)
        return 0;
    i0 = tt_runs_first_ending_after(v, n, from);
    i1 = tt_runs_first_starting_from(v, n, to);
    if (i1 <= i0)
        return 0;
    len = pre[i1] - pre[i0];
    if (v[i0].s < from)
        len -= from - v[i0].s;
    if (v[i1 - 1].e > to)
        len -= v[i1 - 1].e - to;
    return len;
}
