/* gpusum.c - the GPU time breakdown of any window from kept runs and
 * per-lane positions (see gpusum.h). Owns what it keeps in selsum's
 * extension slot TT_SS_EXT_GPU; the trace frees it. */
#include "config.h"

#include "analysis/gpusum.h"

#include "analysis/classify.h"
#include "analysis/intervals.h"
#include "analysis/selsum.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

/* What gpu.h counts: kernels, memcpys, memsets by category, collectives
 * by class (a collective is also one of the three). */
enum { C_KERNEL, C_MEMCPY, C_MEMSET, C_COLL, N_COUNTS };

/* Runs kept per lane set: the classes, and the parts of communication
 * under computation and of copies under either. Their union is not kept
 * (as many runs again as computation): its length in a window is
 * computation + communication - communication under computation + copies
 * - copies under either, and its first and last edge are the classes'. */
enum { R_COMP, R_COMM, R_COPY, R_COMM_UNDER, R_COPY_UNDER, N_RUNS };

typedef struct pos_list {
    uint32_t *v;   /* increasing positions in the lane */
    size_t    n, cap;
} pos_list;

typedef struct runs {
    tt_ival *v;    /* sorted, disjoint */
    tt_ns   *pre;  /* pre[i] = total length of v[0, i) */
    size_t   n;
} runs;

typedef struct gset {
    bool      set;
    uint32_t *lanes;            /* NULL: every lane */
    size_t    n_lanes;
    runs      r[N_RUNS];
    tt_ns    *inst;             /* starts of the zero-length GPU events, sorted */
    size_t    n_inst;
    uint64_t  used;             /* clock of the last use, for eviction */
} gset;

typedef struct gpusum {
    tt_ss_ext ext;              /* first: selsum frees us through it */
    uint32_t  n_lanes;
    pos_list *pos;              /* n_lanes x N_COUNTS; NULL until built */
    gset      sets[TT_SS_UNIONS];
    uint64_t  clock;
} gpusum;

static void set_clear(gset *s)
{
    free(s->lanes);
    for (int k = 0; k < N_RUNS; k++) {
        free(s->r[k].v);
        free(s->r[k].pre);
    }
    free(s->inst);
    memset(s, 0, sizeof *s);
}

static void gpusum_free(tt_ss_ext *ext)
{
    gpusum *g = (gpusum *)ext;
    if (g->pos)
        for (size_t i = 0; i < (size_t)g->n_lanes * N_COUNTS; i++)
            free(g->pos[i].v);
    free(g->pos);
    for (int i = 0; i < TT_SS_UNIONS; i++)
        set_clear(&g->sets[i]);
    free(g);
}

static size_t gpusum_memory(const tt_ss_ext *ext)
{
    const gpusum *g = (const gpusum *)ext;
    size_t m = sizeof *g;
    if (g->pos)
        for (size_t i = 0; i < (size_t)g->n_lanes * N_COUNTS; i++)
            m += sizeof g->pos[i] + g->pos[i].cap * sizeof *g->pos[i].v;
    for (int i = 0; i < TT_SS_UNIONS; i++) {
        const gset *s = &g->sets[i];
        for (int k = 0; k < N_RUNS; k++)
            m += s->r[k].n * (sizeof *s->r[k].v + sizeof *s->r[k].pre) + sizeof *s->r[k].pre;
        m += s->n_inst * sizeof *s->inst + (s->lanes ? s->n_lanes * sizeof *s->lanes : 0);
    }
    return m;
}

/* What gpu.h counts event e as: a mask of (1 << C_*); 0 for no GPU event. */
static unsigned count_mask(tt_classifier *cls, const tt_event *e, tt_gpu_class *c)
{
    unsigned m;
    if ((*c = tt_classifier_gpu(cls, e)) == TT_GPU_NONE)
        return 0;
    switch (tt_classifier_category(cls, e)) {
    case TT_CAT_KERNEL:
    case TT_CAT_INSTRUCTION:
    case TT_CAT_COLLECTIVE: m = 1u << C_KERNEL; break;
    case TT_CAT_MEMSET: m = 1u << C_MEMSET; break;
    default: m = 1u << C_MEMCPY; break;
    }
    return *c == TT_GPU_COMM ? m | 1u << C_COLL : m;
}

/* The positions of every lane's GPU events, by count. 0, or -1 on OOM. */
static int build_positions(const tt_trace *tr, gpusum *g, tt_classifier *cls)
{
    if (!(g->pos = calloc((size_t)(tr->n_lanes ? tr->n_lanes : 1) * N_COUNTS, sizeof *g->pos)))
        return -1;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        pos_list *p = &g->pos[(size_t)l * N_COUNTS];
        for (size_t i = 0; i < ln->n; i++) {
            tt_gpu_class c;
            unsigned m = count_mask(cls, &ln->ev[i], &c);
            for (int k = 0; k < N_COUNTS; k++) {
                if (!(m & 1u << k))
                    continue;
                if (tt_grow_one((void **)&p[k].v, &p[k].cap, p[k].n, sizeof *p[k].v))
                    return -1;
                p[k].v[p[k].n++] = (uint32_t)i;
            }
        }
        for (int k = 0; k < N_COUNTS; k++) {
            /* keep exactly the positions */
            uint32_t *v = p[k].n ? realloc(p[k].v, p[k].n * sizeof *v) : NULL;
            if (!p[k].n) {
                free(p[k].v);
                p[k].v = NULL;
                p[k].cap = 0;
            } else if (v) {
                p[k].v = v;
                p[k].cap = p[k].n;
            }
        }
    }
    return 0;
}

/* Take a normalized list into r (the list is emptied), with prefix
 * lengths. 0, or -1 on OOM. */
static int take_runs(tt_ivals *a, runs *r)
{
    if (!(r->pre = malloc((a->n + 1) * sizeof *r->pre)))
        return -1;
    r->pre[0] = 0;
    for (size_t i = 0; i < a->n; i++)
        r->pre[i + 1] = r->pre[i] + (a->v[i].e - a->v[i].s);
    /* keep exactly the runs: the lists grow with spare room */
    r->v = a->n ? realloc(a->v, a->n * sizeof *a->v) : NULL;
    if (a->n && !r->v)
        r->v = a->v;
    else if (!a->n)
        free(a->v);
    r->n = a->n;
    a->v = NULL;
    a->n = a->cap = 0;
    return 0;
}

static int cmp_ns(const void *a, const void *b)
{
    tt_ns x = *(const tt_ns *)a, y = *(const tt_ns *)b;
    return (x > y) - (x < y);
}

/* The runs and instants of the selection's lanes, whole. 0, or -1 on OOM. */
static int build_set(const tt_trace *tr, const tt_sel *sel, tt_classifier *cls, gset *s)
{
    size_t nl = tt_sel_lane_count(tr, sel), cap_inst = 0;
    bool every = !sel->lanes || sel->n_lanes == tr->n_lanes;   /* sorted, no duplicates */
    tt_ivals iv[N_RUNS], cc;
    int rc = -1;
    for (int k = 0; k < N_RUNS; k++)
        tt_ivals_init(&iv[k]);
    tt_ivals_init(&cc);
    memset(s, 0, sizeof *s);
    for (size_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[tt_sel_lane(sel, li)];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_gpu_class c;
            if (!count_mask(cls, e, &c))
                continue;
            if (e->dur == 0) {
                if (tt_grow_one((void **)&s->inst, &cap_inst, s->n_inst, sizeof *s->inst))
                    goto out;
                s->inst[s->n_inst++] = e->start;
                continue;
            }
            if (tt_ivals_push(&iv[c == TT_GPU_COMM ? R_COMM : c == TT_GPU_MEMCPY ? R_COPY : R_COMP],
                              e->start, tt_event_end(e)))
                goto out;
        }
    }
    if (s->n_inst > 1)
        qsort(s->inst, s->n_inst, sizeof *s->inst, cmp_ns);
    if (tt_ivals_normalize(&iv[R_COMP]) || tt_ivals_normalize(&iv[R_COMM]) ||
        tt_ivals_normalize(&iv[R_COPY]) || tt_ivals_union(&iv[R_COMP], &iv[R_COMM], &cc) ||
        tt_ivals_intersect(&iv[R_COMM], &iv[R_COMP], &iv[R_COMM_UNDER]) ||
        tt_ivals_intersect(&iv[R_COPY], &cc, &iv[R_COPY_UNDER]))
        goto out;
    for (int k = 0; k < N_RUNS; k++)
        if (take_runs(&iv[k], &s->r[k]))
            goto out;
    if (!every && !(s->lanes = malloc((nl ? nl : 1) * sizeof *s->lanes)))
        goto out;
    if (!every)
        memcpy(s->lanes, sel->lanes, nl * sizeof *s->lanes);
    s->n_lanes = nl;
    s->set = true;
    rc = 0;
out:
    for (int k = 0; k < N_RUNS; k++)
        tt_ivals_fini(&iv[k]);
    tt_ivals_fini(&cc);
    if (rc)
        set_clear(s);
    return rc;
}

static bool same_lanes(const tt_trace *tr, const tt_sel *sel, const gset *s)
{
    bool every = !sel->lanes || sel->n_lanes == tr->n_lanes;
    if (!s->set)
        return false;
    if (!s->lanes)
        return every;
    return !every && sel->n_lanes == s->n_lanes &&
           memcmp(sel->lanes, s->lanes, s->n_lanes * sizeof *s->lanes) == 0;
}

static tt_ns length_in(const runs *r, tt_ns from, tt_ns to)
{
    return tt_runs_length_in(r->v, r->pre, r->n, from, to);
}

/* Index of the first value of p at or after position a. */
static size_t pos_bound(const pos_list *p, size_t a)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->v[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Number of values of p in positions [a, b). */
static size_t count_in(const pos_list *p, size_t a, size_t b)
{
    return b > a ? pos_bound(p, b) - pos_bound(p, a) : 0;
}

/* Index of the first instant at or after t (after, when `after`). */
static size_t inst_bound(const gset *s, tt_ns t, bool after)
{
    size_t lo = 0, hi = s->n_inst;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->inst[mid] < t || (after && s->inst[mid] == t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct ask {
    const tt_sel *sel;
    tt_gpu_time  *out;
} ask;

/* The counts of the selection, lane by lane from its parts; *count gets
 * how many events it holds, *lane_events how many its lanes hold. With
 * positions NULL, only those two. 0, or -1 on OOM. */
static int sel_counts(const tt_trace *tr, const tt_sel *sel, const pos_list *pos, uint64_t *n,
                      uint64_t *count, uint64_t *lane_events)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    tt_sel_parts p;
    int rc = 0;
    tt_sel_parts_init(&p);
    *count = *lane_events = 0;
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        if ((rc = tt_sel_lane_parts(tr, sel, lane, &p)))
            break;
        *count += tt_sel_parts_count(&p);
        *lane_events += tr->lanes[lane].n;
        if (!pos)
            continue;
        for (int k = 0; k < N_COUNTS; k++) {
            const pos_list *pl = &pos[(size_t)lane * N_COUNTS + k];
            n[k] += count_in(pl, p.a, p.b) + count_in(pl, p.z, p.c);
            for (size_t i = 0; i < p.left.n; i++)
                n[k] += count_in(pl, p.left.v[i], p.left.v[i] + 1);
        }
    }
    tt_sel_parts_fini(&p);
    return rc;
}

/* Under selsum's lock: find or build, then answer. */
static int answer_locked(const tt_trace *tr, tt_ss_ext **ext, void *ctx)
{
    ask *a = ctx;
    const tt_sel *sel = a->sel;
    gpusum *g = (gpusum *)*ext;
    gset *s = NULL;
    tt_gpu_time *out = a->out;
    uint64_t n[N_COUNTS] = {0}, count, lane_events;
    bool nz = false, in = false;
    tt_ns fnz = 0, lnz = 0, fin = 0, lin = 0;

    for (int i = 0; g && i < TT_SS_UNIONS && !s; i++)
        if (same_lanes(tr, sel, &g->sets[i]))
            s = &g->sets[i];
    if (!s) {
        tt_classifier cls;
        int rc;
        /* building walks the lanes once: worth it for a large window only */
        if (sel_counts(tr, sel, NULL, NULL, &count, &lane_events))
            return -1;
        if (count * 4 < lane_events || count == 0)
            return 0;
        if (!g) {
            if (!(g = calloc(1, sizeof *g)))
                return -1;
            g->ext.free_fn = gpusum_free;
            g->ext.memory_fn = gpusum_memory;
            g->n_lanes = tr->n_lanes;
            *ext = &g->ext;
        }
        s = &g->sets[0];
        for (int i = 1; i < TT_SS_UNIONS; i++)
            if (g->sets[i].used < s->used)
                s = &g->sets[i];
        set_clear(s);
        if (tt_classifier_init(&cls, tr))
            return -1;
        rc = (!g->pos && build_positions(tr, g, &cls)) || build_set(tr, sel, &cls, s) ? -1 : 0;
        tt_classifier_fini(&cls);
        if (rc)
            return -1;
    }
    s->used = ++g->clock;
    if (sel_counts(tr, sel, g->pos, n, &count, &lane_events))
        return -1;
    memset(out, 0, sizeof *out);
    if (n[C_KERNEL] + n[C_MEMCPY] + n[C_MEMSET] == 0)
        return 1;   /* no GPU events: zeros, as the walk has them */
    {
        /* the first and last clipped edges: of the runs reaching into the
         * window (each holds an event that does: from < to), and of the
         * instants in it */
        size_t j0 = inst_bound(s, sel->from, false), j1 = inst_bound(s, sel->to,
                                                                       sel->to_inclusive);
        for (int k = R_COMP; k <= R_COPY; k++) {
            const runs *r = &s->r[k];
            size_t i0 = tt_runs_first_ending_after(r->v, r->n, sel->from);
            size_t i1 = tt_runs_first_starting_from(r->v, r->n, sel->to);
            tt_ns f, l;
            if (i1 <= i0)
                continue;
            f = r->v[i0].s > sel->from ? r->v[i0].s : sel->from;
            l = r->v[i1 - 1].e < sel->to ? r->v[i1 - 1].e : sel->to;
            fnz = !nz || f < fnz ? f : fnz;
            lnz = !nz || l > lnz ? l : lnz;
            nz = true;
        }
        if (j1 > j0) {
            in = true;
            fin = s->inst[j0];
            lin = s->inst[j1 - 1];
        }
    }
    if (!nz && !in)
        return 0;   /* cannot happen: counted events are in one or the other */
    out->kernels = n[C_KERNEL];
    out->memcpys = n[C_MEMCPY];
    out->memsets = n[C_MEMSET];
    out->collectives = n[C_COLL];
    out->first = nz && (!in || fnz < fin) ? fnz : fin;
    out->last = nz && (!in || lnz > lin) ? lnz : lin;
    out->computation = length_in(&s->r[R_COMP], sel->from, sel->to);
    out->communication = length_in(&s->r[R_COMM], sel->from, sel->to);
    out->memcpy = length_in(&s->r[R_COPY], sel->from, sel->to);
    out->exposed_communication =
        out->communication - length_in(&s->r[R_COMM_UNDER], sel->from, sel->to);
    out->exposed_memcpy = out->memcpy - length_in(&s->r[R_COPY_UNDER], sel->from, sel->to);
    /* |comp ∪ comm ∪ copy| = |comp ∪ comm| + |copy| - |copy ∩ (comp ∪ comm)| */
    out->busy = out->computation + out->exposed_communication + out->exposed_memcpy;
    out->total = out->last - out->first;
    out->idle = out->total - out->busy;
    return 1;
}

int tt_gpusum_answer(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out, tt_error *err)
{
    ask a = {sel, out};
    int rc;
    if (sel->from >= sel->to || tt_sel_lane_count(tr, sel) == 0)
        return 0;
    rc = tt_selsum_with_ext(tr, TT_SS_EXT_GPU, answer_locked, &a);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    return rc;
}
