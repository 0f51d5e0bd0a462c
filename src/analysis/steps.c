/* steps.c - step-time breakdown (see steps.h). */
#include "config.h"

#include "analysis/steps.h"

#include "analysis/argvals.h"
#include "analysis/classify.h"
#include "analysis/intervals.h"
#include "util/grow.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const role_names[TT_ROLE__COUNT] = {
    "Kernel", "Memcpy", "Memset", "Runtime", "DataLoader", "CPU Exec", "Other",
};

const char *tt_step_role_name(tt_step_role r)
{
    return (unsigned)r < TT_ROLE__COUNT ? role_names[r] : "?";
}

/* ------------------------------------------------------------ roles */

/* What a category says, cached per string id (0 = not looked at yet). */
enum { CAT_NONE = 1, CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_RUNTIME, CAT_HOST };
/* What a host op's name says, cached per string id. */
enum { NAME_PLAIN = 1, NAME_DATALOADER, NAME_STEP };

/* The plugin's runtime categories (torch_tb_profiler trace.py), with the
 * driver and HIP calls newer Kineto and nsys write beside them. */
static const char *const runtime_cats[] = {
    "runtime", "cuda_runtime", "cuda_driver", "hip_runtime", "mtia_runtime",
    "glow_runtime", "xpu_runtime", "privateuse1_runtime",
};
/* Host ops: the plugin's Operator, Python and user annotation types, and
 * nsys NVTX ranges (the same kind of user annotation). */
static const char *const host_cats[] = {"cpu_op", "operator", "python", "user_annotation", "nvtx"};

#define PROFILER_STEP "ProfilerStep#"

typedef struct roles {
    const tt_trace *tr;
    tt_classifier   cl;
    uint8_t        *cat, *name;   /* per string id, see the enums */
    uint32_t        n;
} roles;

static int roles_init(roles *r, const tt_trace *tr)
{
    memset(r, 0, sizeof *r);
    r->tr = tr;
    r->n = tt_strtab_count(tr->strings);
    r->cat = calloc(r->n ? r->n : 1, 1);
    r->name = calloc(r->n ? r->n : 1, 1);
    if (!r->cat || !r->name || tt_classifier_init(&r->cl, tr)) {
        free(r->cat);
        free(r->name);
        return -1;
    }
    return 0;
}

static void roles_fini(roles *r)
{
    tt_classifier_fini(&r->cl);
    free(r->cat);
    free(r->name);
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(s, list[i]) == 0)
            return true;
    return false;
}

static uint8_t cat_of(roles *r, const tt_event *e)
{
    uint32_t id = e->cat;
    if (id < r->n && r->cat[id])
        return r->cat[id];
    {
        const char *s = id ? tt_str(r->tr, id) : "";
        uint8_t c = CAT_NONE;
        switch (tt_classifier_category(&r->cl, e)) {
        case TT_CAT_KERNEL:
        case TT_CAT_INSTRUCTION:
        case TT_CAT_COLLECTIVE: c = CAT_KERNEL; break;
        case TT_CAT_MEMCPY: c = CAT_MEMCPY; break;
        case TT_CAT_MEMSET: c = CAT_MEMSET; break;
        case TT_CAT_OTHER:
            if (in_list(s, runtime_cats, sizeof runtime_cats / sizeof *runtime_cats))
                c = CAT_RUNTIME;
            else if (in_list(s, host_cats, sizeof host_cats / sizeof *host_cats))
                c = CAT_HOST;
            break;
        }
        if (id < r->n)
            r->cat[id] = c;
        return c;
    }
}

static bool starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool ends_with(const char *s, const char *p)
{
    size_t n = strlen(s), m = strlen(p);
    return n >= m && memcmp(s + n - m, p, m) == 0;
}

static uint8_t name_of(roles *r, const tt_event *e)
{
    uint32_t id = e->name;
    if (id < r->n && r->name[id])
        return r->name[id];
    {
        const char *s = tt_str(r->tr, id);
        uint8_t c = NAME_PLAIN;
        if (starts_with(s, PROFILER_STEP))
            c = NAME_STEP;
        else if ((starts_with(s, "enumerate(DataLoader)#") && ends_with(s, ".__next__")) ||
                 starts_with(s, "enumerate(DataPipe)#"))
            c = NAME_DATALOADER;
        if (id < r->n)
            r->name[id] = c;
        return c;
    }
}

/* The role of a slice, TT_ROLE__COUNT for none (a step counts for none). */
static tt_step_role role_of(roles *r, const tt_event *e)
{
    if (e->kind != TT_EV_SLICE)
        return TT_ROLE__COUNT;
    switch (cat_of(r, e)) {
    case CAT_KERNEL: return TT_ROLE_KERNEL;
    case CAT_MEMCPY: return TT_ROLE_MEMCPY;
    case CAT_MEMSET: return TT_ROLE_MEMSET;
    case CAT_RUNTIME: return TT_ROLE_RUNTIME;
    case CAT_HOST:
        switch (name_of(r, e)) {
        case NAME_DATALOADER: return TT_ROLE_DATALOADER;
        case NAME_STEP: return TT_ROLE__COUNT;
        default: return TT_ROLE_CPU_EXEC;
        }
    default: return TT_ROLE__COUNT;
    }
}

static bool is_device(tt_step_role r)
{
    return r == TT_ROLE_KERNEL || r == TT_ROLE_MEMCPY || r == TT_ROLE_MEMSET;
}

/* ------------------------------------------------------- step lists */

static int push_step(tt_steps *s, size_t *cap, const char *name, size_t name_len, tt_ns start,
                     tt_ns end)
{
    tt_step *st;
    if (tt_grow_one((void **)&s->v, cap, s->n, sizeof *s->v))
        return -1;
    st = &s->v[s->n];
    memset(st, 0, sizeof *st);
    if (!(st->name = malloc(name_len + 1)))
        return -1;
    memcpy(st->name, name, name_len);
    st->name[name_len] = '\0';
    st->start = start;
    st->end = end;
    s->n++;
    return 0;
}

static int cmp_step(const void *a, const void *b)
{
    const tt_step *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* A host call or device event of the widening: its span and correlation. */
typedef struct link_ev {
    tt_ns    s, e;
    uint32_t corr;
    uint32_t idx;      /* runtimes: own index before sorting; device: 0 */
    bool     matched;  /* device: launched inside some step */
} link_ev;

/* Sort v[0..n) by start (by_corr false) or by correlation (true) with a
 * stable radix sort (util/sort.h): on a 100k-event rank qsort's
 * comparisons here were most of `check`'s slow-card facts. Runtimes are
 * pushed with idx their position, so stable by start is qsort's (start,
 * idx) order. Device events with one correlation stay in the order pushed
 * rather than by start: widen() only looks them up by correlation and
 * takes their minimum, maximum and matched flags, which no order changes.
 * 0, or -1 when out of memory. */
static int sort_links(link_ev *v, size_t n, bool by_corr)
{
    tt_kv *kv;
    tt_ns lo = INT64_MAX;
    int rc;
    if (n < 2)
        return 0;
    if (!(kv = malloc(n * sizeof *kv)))
        return -1;
    for (size_t i = 0; !by_corr && i < n; i++)
        if (v[i].s < lo)
            lo = v[i].s;
    for (size_t i = 0; i < n; i++) {
        /* times lie within +-TT_TIME_LIMIT: s - lo fits */
        kv[i].key = by_corr ? v[i].corr : (uint64_t)(v[i].s - lo);
        kv[i].val = i;
    }
    rc = tt_radix_sort(kv, n) || tt_apply_order(v, n, sizeof *v, kv) ? -1 : 0;
    free(kv);
    return rc;
}

/* First device event with correlation corr in dev (sorted by corr). */
static size_t first_corr(const link_ev *dev, size_t n, uint32_t corr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dev[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The widening of steps.h over ProfilerStep spans s->v (sorted by
 * start): runtimes and device events of every lane. */
static int widen(const tt_trace *tr, roles *ro, tt_steps *s)
{
    link_ev *rt = NULL, *dev = NULL;
    size_t n_rt = 0, cap_rt = 0, n_dev = 0, cap_dev = 0;
    tt_ns *dmin = NULL, *dmax = NULL;
    size_t *matched = NULL, n = s->n;
    tt_u64map owner;   /* corr -> index (before sorting) of its first runtime */
    bool any = false;
    int rc = -1;

    tt_u64map_init(&owner);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_step_role r = role_of(ro, e);
            link_ev x;
            if (r != TT_ROLE_RUNTIME && !is_device(r))
                continue;
            x.s = e->start;
            x.e = tt_event_end(e);
            x.corr = e->corr;
            x.matched = false;
            if (r == TT_ROLE_RUNTIME) {
                x.idx = (uint32_t)n_rt;
                if (e->corr && !tt_u64map_get(&owner, e->corr) &&
                    tt_u64map_put(&owner, e->corr, x.idx))
                    goto out;
                if (tt_grow_one((void **)&rt, &cap_rt, n_rt, sizeof *rt))
                    goto out;
                rt[n_rt++] = x;
            } else {   /* without a correlation too: it may end before step 0 */
                x.idx = 0;
                if (tt_grow_one((void **)&dev, &cap_dev, n_dev, sizeof *dev))
                    goto out;
                dev[n_dev++] = x;
            }
        }
    }
    if (sort_links(rt, n_rt, false) || sort_links(dev, n_dev, true))
        goto out;
    dmin = malloc(n * sizeof *dmin);
    dmax = malloc(n * sizeof *dmax);
    matched = calloc(n, sizeof *matched);
    if (!dmin || !dmax || !matched)
        goto out;
    for (size_t i = 0; i < n; i++) {
        dmin[i] = INT64_MAX;
        dmax[i] = INT64_MIN;
    }

    /* The plugin's two-way merge: a runtime inside step i's host span
     * gives step i its device events; one across an edge gives nothing. */
    {
        size_t i = 0, k = 0;
        while (i < n && k < n_rt) {
            const link_ev *x = &rt[k];
            if (x->s < s->v[i].start) {
                k++;
            } else if (x->e <= s->v[i].end) {
                uint32_t *own = x->corr ? tt_u64map_get(&owner, x->corr) : NULL;
                if (own && *own == x->idx)
                    for (size_t d = first_corr(dev, n_dev, x->corr);
                         d < n_dev && dev[d].corr == x->corr; d++) {
                        if (dev[d].s < dmin[i])
                            dmin[i] = dev[d].s;
                        if (dev[d].e > dmax[i])
                            dmax[i] = dev[d].e;
                        dev[d].matched = true;
                        matched[i]++;
                        any = true;
                    }
                k++;
            } else if (x->s < s->v[i].end) {
                k++;
            } else {
                i++;
            }
        }
    }

    if (any) {
        tt_ns prev = s->v[0].start;
        size_t keep = n, last;
        if (dmin[0] != INT64_MAX)
            for (size_t d = 0; d < n_dev; d++)
                if (!dev[d].matched && dev[d].e < dmin[0] && dev[d].e > prev)
                    prev = dev[d].e;
        for (size_t i = 0; i < n; i++) {
            tt_ns start = s->v[i].start > prev ? s->v[i].start : prev;
            tt_ns end = s->v[i].end;
            if (dmin[i] == INT64_MAX) {
                if (end < start)
                    end = start;
            } else {
                if (dmax[i] > end)
                    end = dmax[i];
                if (end < start)
                    end = start;
            }
            s->v[i].start = start;
            s->v[i].end = end;
            prev = end;
        }
        /* trailing steps whose kernels the profiler may have missed */
        if (n > 1) {
            last = n - 1;
            while (last > 0 && matched[last] == 0)
                last--;
            keep = last + 1;
            if (last > 0 && (double)matched[last - 1] * 0.8 > (double)matched[last])
                keep = last;
            for (size_t i = keep; i < n; i++)
                free(s->v[i].name);
            s->dropped = n - keep;
            s->n = keep;
        }
    }
    rc = 0;
out:
    tt_u64map_fini(&owner);
    free(rt);
    free(dev);
    free(dmin);
    free(dmax);
    free(matched);
    return rc;
}

/* ProfilerStep#N slices of the host lanes, widened. */
static int find_profiler_steps(const tt_trace *tr, roles *ro, tt_steps *s, size_t *cap)
{
    size_t plen = strlen(PROFILER_STEP);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            const char *name;
            if (e->kind != TT_EV_SLICE || cat_of(ro, e) != CAT_HOST || name_of(ro, e) != NAME_STEP)
                continue;
            name = tt_str(tr, e->name) + plen;
            if (push_step(s, cap, name, strlen(name), e->start, tt_event_end(e)))
                return -1;
        }
    }
    if (s->n == 0)
        return 0;
    s->source = TT_STEPS_PROFILER;
    qsort(s->v, s->n, sizeof *s->v, cmp_step);
    return widen(tr, ro, s);
}

/* Steps from the "Step Id" argument of device events. */
static int find_step_ids(const tt_trace *tr, roles *ro, tt_steps *s, size_t *cap, tt_error *err)
{
    static const char *const keys[] = {"Step Id"};
    const tt_event **ev = NULL;
    size_t n = 0, cap_ev = 0;
    tt_argvals av;
    tt_ns *lo = NULL, *hi = NULL;
    uint32_t n_ids;
    int rc = -1;

    memset(&av, 0, sizeof av);
    if (tr->lacks & TT_TRACE_NO_ARGS)
        return 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++)
            if (ln->ev[i].args && is_device(role_of(ro, &ln->ev[i]))) {
                if (tt_grow_one((void **)&ev, &cap_ev, n, sizeof *ev)) {
                    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                    goto out;
                }
                ev[n++] = &ln->ev[i];
            }
    }
    if (n == 0) {
        rc = 0;
        goto out;
    }
    {
        int frc = tt_argvals_fetch(tr, ev, n, keys, 1, true, &av, err);
        if (frc)
            goto out;
    }
    n_ids = tt_strtab_count(av.text);
    lo = malloc((n_ids ? n_ids : 1) * sizeof *lo);
    hi = malloc((n_ids ? n_ids : 1) * sizeof *hi);
    if (!lo || !hi) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (uint32_t k = 0; k < n_ids; k++) {
        lo[k] = INT64_MAX;
        hi[k] = INT64_MIN;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t c = av.val[i];
        if (!c)
            continue;
        c = (c >> 1) - 1;
        if (ev[i]->start < lo[c])
            lo[c] = ev[i]->start;
        if (tt_event_end(ev[i]) > hi[c])
            hi[c] = tt_event_end(ev[i]);
    }
    for (uint32_t k = 0; k < n_ids; k++) {
        const char *name = tt_strtab_get(av.text, k);
        if (lo[k] == INT64_MAX)
            continue;
        if (push_step(s, cap, name, strlen(name), lo[k], hi[k])) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
    }
    if (s->n) {
        s->source = TT_STEPS_STEP_ID;
        qsort(s->v, s->n, sizeof *s->v, cmp_step);
    }
    rc = 0;
out:
    tt_argvals_fini(&av);
    free(ev);
    free(lo);
    free(hi);
    return rc;
}

/* Keep the steps that meet the window, cut at its edges. */
static void clip_steps(tt_steps *s, const tt_sel *sel)
{
    size_t w = 0;
    for (size_t i = 0; i < s->n; i++) {
        tt_step st = s->v[i];
        bool in = st.end > st.start ? st.start < sel->to && st.end > sel->from
                                    : st.start >= sel->from &&
                                          (st.start < sel->to ||
                                           (sel->to_inclusive && st.start == sel->to));
        if (!in) {
            free(st.name);
            s->outside++;
            continue;
        }
        if (st.start < sel->from)
            st.start = sel->from;
        if (st.end > sel->to)
            st.end = sel->to;
        s->v[w++] = st;
    }
    s->n = w;
}

/* ----------------------------------------------------------- breakdown */

/* Length of the part of normalized list a inside [s, e). */
static tt_ns covered(const tt_ivals *a, tt_ns s, tt_ns e)
{
    size_t lo = 0, hi = a->n;
    tt_ns len = 0;
    while (lo < hi) {   /* first interval ending after s */
        size_t mid = lo + (hi - lo) / 2;
        if (a->v[mid].e <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < a->n && a->v[i].s < e; i++) {
        tt_ns x = a->v[i].s > s ? a->v[i].s : s;
        tt_ns y = a->v[i].e < e ? a->v[i].e : e;
        if (y > x)
            len += y - x;
    }
    return len;
}

/* Role intervals of the selected lanes, then cumulative unions: cum[r]
 * is what roles 0..r cover. Each step's part of role r is then what
 * cum[r] covers of it less what cum[r-1] does. */
static int breakdown(const tt_trace *tr, roles *ro, const tt_sel *sel, tt_steps *s)
{
    enum { NR = TT_ROLE_OTHER };   /* the roles with intervals */
    tt_ivals role[NR], cum[NR];
    size_t nl = tt_sel_lane_count(tr, sel);
    int rc = -1;

    for (int r = 0; r < NR; r++) {
        tt_ivals_init(&role[r]);
        tt_ivals_init(&cum[r]);
    }
    for (size_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[tt_sel_lane(sel, li)];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_step_role r = role_of(ro, e);
            if (r < (tt_step_role)NR && tt_ivals_push(&role[r], e->start, tt_event_end(e)))
                goto out;
        }
    }
    for (int r = 0; r < NR; r++) {
        if (tt_ivals_normalize(&role[r]))
            goto out;
        if (r == 0) {
            cum[0] = role[0];
            tt_ivals_init(&role[0]);   /* moved */
        } else if (tt_ivals_union(&cum[r - 1], &role[r], &cum[r])) {
            goto out;
        }
    }
    for (size_t i = 0; i < s->n; i++) {
        tt_step *st = &s->v[i];
        tt_ns before = 0;
        for (int r = 0; r < NR; r++) {
            tt_ns c = covered(&cum[r], st->start, st->end);
            st->part[r] = c - before;
            before = c;
        }
        st->part[TT_ROLE_OTHER] = (st->end - st->start) - before;
    }
    rc = 0;
out:
    for (int r = 0; r < NR; r++) {
        tt_ivals_fini(&role[r]);
        tt_ivals_fini(&cum[r]);
    }
    return rc;
}

/* ---------------------------------------------------------------- api */

void tt_steps_free(tt_steps *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].name);
    free(s->v);
    free(s);
}

int tt_steps_compute(const tt_trace *tr, const tt_sel *sel, const tt_step_spans *given,
                     tt_steps **out, tt_error *err)
{
    tt_steps *s = calloc(1, sizeof *s);
    size_t cap = 0;
    roles ro;

    *out = NULL;
    if (!s)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    if (roles_init(&ro, tr)) {
        free(s);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    if (given) {
        for (size_t i = 0; i < given->n; i++)
            if (push_step(s, &cap, given->names[i], strlen(given->names[i]), given->from[i],
                          given->to[i]))
                goto nomem;
        s->source = TT_STEPS_GIVEN;
    } else {
        if (find_profiler_steps(tr, &ro, s, &cap))
            goto nomem;
        if (s->n == 0 && find_step_ids(tr, &ro, s, &cap, err))
            goto fail;
    }
    clip_steps(s, sel);
    if (breakdown(tr, &ro, sel, s))
        goto nomem;
    roles_fini(&ro);
    *out = s;
    return 0;
nomem:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
fail:
    roles_fini(&ro);
    tt_steps_free(s);
    return -1;
}
