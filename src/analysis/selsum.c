/* selsum.c - lazily built summary levels for large selections (see
 * selsum.h). */
#include "config.h"

#include "analysis/selsum.h"

#include "analysis/intervals.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define N_KINDS (TT_KEY_ARG)   /* name, cat, opcode, lane, layer: indexes 0..4 */

typedef struct ss_keyed {
    int64_t     *own;          /* NULL when vals is the lane's shared array */
    const int64_t *vals;
    tt_ss_group *groups;
    size_t       n_groups;
} ss_keyed;

typedef struct ss_lane {
    tt_ns    *blk;             /* blk[j] = sum of dur over positions [0, j*BLOCK) */
    int64_t  *sorted;          /* every duration of the lane, sorted */
    tt_moments all;            /* moments of `sorted` */
    ss_keyed *keyed[N_KINDS];
    uint32_t *xpos;            /* positions of the transfers (bytes >= 0) */
    size_t    n_xpos;
} ss_lane;

typedef struct ss_union {
    uint32_t *lanes;           /* NULL: every lane */
    size_t    n_lanes;
    tt_ival  *runs;            /* sorted, disjoint, not touching */
    tt_ns    *pre;             /* pre[i] = total length of runs [0, i) */
    size_t    n_runs;
    uint64_t  used;            /* clock of the last use, for eviction */
} ss_union;

typedef struct tt_selsum {
    tt_trace_aux    aux;       /* first: the trace frees us through it */
    pthread_mutex_t lock;
    ss_lane        *lanes;
    uint32_t        n_lanes;
    ss_union        unions[TT_SS_UNIONS];
    uint64_t        clock;
    bool            has_xpos;  /* every lane's xpos is built */
    tt_ss_ext      *ext[TT_SS_EXT_N];
} tt_selsum;

static void keyed_free(ss_keyed *k)
{
    if (!k)
        return;
    free(k->own);
    free(k->groups);
    free(k);
}

static void union_clear(ss_union *u)
{
    free(u->lanes);
    free(u->runs);
    free(u->pre);
    memset(u, 0, sizeof *u);
}

static void selsum_free(tt_trace_aux *aux)
{
    tt_selsum *s = (tt_selsum *)aux;
    for (uint32_t l = 0; l < s->n_lanes; l++) {
        free(s->lanes[l].blk);
        free(s->lanes[l].sorted);
        free(s->lanes[l].xpos);
        for (int k = 0; k < N_KINDS; k++)
            keyed_free(s->lanes[l].keyed[k]);
    }
    for (int i = 0; i < TT_SS_UNIONS; i++)
        union_clear(&s->unions[i]);
    for (int i = 0; i < TT_SS_EXT_N; i++)
        if (s->ext[i])
            s->ext[i]->free_fn(s->ext[i]);
    pthread_mutex_destroy(&s->lock);
    free(s->lanes);
    free(s);
}

/* The trace's summaries, created (empty) on first use and locked. NULL
 * on OOM. */
static tt_selsum *lock_selsum(const tt_trace *tr)
{
    tt_trace *mtr = (tt_trace *)tr;   /* only the aux slot is written */
    tt_trace_aux *cur = __atomic_load_n(&mtr->aux, __ATOMIC_ACQUIRE);
    tt_selsum *s;
    if (!cur) {
        tt_trace_aux *expected = NULL;
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->lanes = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *s->lanes);
        if (!s->lanes || pthread_mutex_init(&s->lock, NULL)) {
            free(s->lanes);
            free(s);
            return NULL;
        }
        s->n_lanes = tr->n_lanes;
        s->aux.free_fn = selsum_free;
        if (__atomic_compare_exchange_n(&mtr->aux, &expected, &s->aux, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            cur = &s->aux;
        } else {
            selsum_free(&s->aux);   /* another thread was first */
            cur = expected;
        }
    }
    s = (tt_selsum *)cur;
    pthread_mutex_lock(&s->lock);
    return s;
}

static void unlock_selsum(tt_selsum *s)
{
    pthread_mutex_unlock(&s->lock);
}

/* ----------------------------------------------------------- block sums */

static int ensure_blk(const tt_trace *tr, ss_lane *sl, uint32_t lane)
{
    const tt_lane *ln = &tr->lanes[lane];
    size_t nb = ln->n / TT_SS_BLOCK + 1;
    tt_ns acc = 0;
    if (sl->blk)
        return 0;
    if (!(sl->blk = malloc(nb * sizeof *sl->blk)))
        return -1;
    sl->blk[0] = 0;
    for (size_t j = 1; j < nb; j++) {
        for (size_t i = (j - 1) * TT_SS_BLOCK; i < j * TT_SS_BLOCK; i++)
            acc += ln->ev[i].dur;
        sl->blk[j] = acc;
    }
    return 0;
}

/* Sum of dur over [0, p): the block prefix plus the rest walked. */
static tt_ns prefix_total(const tt_lane *ln, const tt_ns *blk, size_t p)
{
    size_t j = p / TT_SS_BLOCK;
    tt_ns t = blk[j];
    for (size_t i = j * TT_SS_BLOCK; i < p; i++)
        t += ln->ev[i].dur;
    return t;
}

int tt_selsum_range_total(const tt_trace *tr, uint32_t lane, size_t a, size_t b, tt_ns *out)
{
    const tt_lane *ln = &tr->lanes[lane];
    tt_selsum *s;
    const tt_ns *blk;
    *out = 0;
    if (b <= a)
        return 0;
    if (b - a <= 2 * TT_SS_BLOCK) {
        for (size_t i = a; i < b; i++)
            *out += ln->ev[i].dur;
        return 0;
    }
    if (!(s = lock_selsum(tr)))
        return -1;
    if (ensure_blk(tr, &s->lanes[lane], lane)) {
        unlock_selsum(s);
        return -1;
    }
    blk = s->lanes[lane].blk;
    unlock_selsum(s);
    *out = prefix_total(ln, blk, b) - prefix_total(ln, blk, a);
    return 0;
}

/* ---------------------------------------------------------- keyed sorts */

/* Stable LSD radix sort of non-negative v[0..n) (with payload p when not
 * NULL) by 8-bit digits, skipping digits every value shares. tv/tp are
 * scratch of n elements. The result may end in the scratch arrays: the
 * return value says where (0: v/p, 1: tv/tp). */
static int radix_sort(int64_t *v, uint32_t *p, size_t n, int64_t *tv, uint32_t *tp)
{
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    int where = 0;
    for (size_t i = 0; i < n; i++) {
        all_or |= (uint64_t)v[i];
        all_and &= (uint64_t)v[i];
    }
    for (int shift = 0; shift < 64; shift += 8) {
        size_t cnt[257];
        int64_t *sv = where ? tv : v, *dv = where ? v : tv;
        uint32_t *sp = where ? tp : p, *dp = where ? p : tp;
        if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
            continue;   /* the same digit everywhere */
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++)
            cnt[(((uint64_t)sv[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < n; i++) {
            size_t o = cnt[((uint64_t)sv[i] >> shift) & 0xff]++;
            dv[o] = sv[i];
            if (sp)
                dp[o] = sp[i];
        }
        where = !where;
    }
    return where;
}

static uint32_t event_gid(const tt_trace *tr, tt_key_kind kind, uint32_t lane, const tt_event *e)
{
    tt_key k;
    if (kind == TT_KEY_LANE)
        return lane;
    k.kind = kind;
    k.arg[0] = '\0';
    return tt_key_string_id(tr, &k, e);
}

/* Every duration of the lane sorted, and their moments. */
static int ensure_sorted(const tt_trace *tr, ss_lane *sl, uint32_t lane)
{
    const tt_lane *ln = &tr->lanes[lane];
    int64_t *v, *tv;
    if (sl->sorted || ln->n == 0)
        return 0;
    v = malloc(ln->n * sizeof *v);
    tv = malloc(ln->n * sizeof *tv);
    if (!v || !tv) {
        free(v);
        free(tv);
        return -1;
    }
    memset(&sl->all, 0, sizeof sl->all);
    for (size_t i = 0; i < ln->n; i++) {
        v[i] = ln->ev[i].dur;
        tt_moments_add(&sl->all, v[i]);
    }
    if (radix_sort(v, NULL, ln->n, tv, NULL)) {
        free(v);
        v = tv;
    } else {
        free(tv);
    }
    sl->sorted = v;
    return 0;
}

/* Build the keyed sort: group ids numbered densely in increasing order,
 * the durations radix-sorted with their group as payload, then a stable
 * counting sort by group. */
static ss_keyed *build_keyed(const tt_trace *tr, ss_lane *sl, uint32_t lane, tt_key_kind kind)
{
    const tt_lane *ln = &tr->lanes[lane];
    size_t n = ln->n;
    ss_keyed *k = calloc(1, sizeof *k);
    uint32_t *gid = NULL, *slot_of = NULL, *tp = NULL, *sp;
    int64_t *v = NULL, *tv = NULL, *sv;
    size_t *cnt = NULL, n_slots = 0;
    uint32_t max_gid = 0;
    bool one = true;

    if (!k)
        return NULL;
    if (n == 0)
        return k;
    if (!(gid = malloc(n * sizeof *gid)))
        goto oom;
    for (size_t i = 0; i < n; i++) {
        gid[i] = event_gid(tr, kind, lane, &ln->ev[i]);
        if (gid[i] > max_gid)
            max_gid = gid[i];
        if (gid[i] != gid[0])
            one = false;
    }
    if (one) {
        /* one group: the lane's shared sorted array */
        if (ensure_sorted(tr, sl, lane) || !(k->groups = calloc(1, sizeof *k->groups)))
            goto oom;
        k->vals = sl->sorted;
        k->n_groups = 1;
        k->groups[0].gid = gid[0];
        k->groups[0].n = n;
        k->groups[0].m = sl->all;
        free(gid);
        return k;
    }
    if (!(slot_of = calloc((size_t)max_gid + 1, sizeof *slot_of)))
        goto oom;
    for (size_t i = 0; i < n; i++)
        slot_of[gid[i]] = 1;
    for (size_t g = 0; g <= max_gid; g++)
        if (slot_of[g])
            slot_of[g] = (uint32_t)++n_slots;   /* slot + 1 */
    if (!(k->groups = calloc(n_slots, sizeof *k->groups)) ||
        !(cnt = calloc(n_slots + 1, sizeof *cnt)) || !(v = malloc(n * sizeof *v)) ||
        !(tv = malloc(n * sizeof *tv)) || !(tp = malloc(n * sizeof *tp)))
        goto oom;
    k->n_groups = n_slots;
    for (size_t g = 0; g <= max_gid; g++)
        if (slot_of[g])
            k->groups[slot_of[g] - 1].gid = (uint32_t)g;
    for (size_t i = 0; i < n; i++) {
        v[i] = ln->ev[i].dur;
        gid[i] = slot_of[gid[i]] - 1;   /* now the slot */
    }
    if (radix_sort(v, gid, n, tv, tp)) {
        sv = tv;
        sp = tp;
    } else {
        sv = v;
        sp = gid;
    }
    /* stable counting sort by slot into the other buffer */
    for (size_t i = 0; i < n; i++)
        cnt[sp[i] + 1]++;
    for (size_t g = 0; g < n_slots; g++) {
        k->groups[g].off = cnt[g];
        k->groups[g].n = cnt[g + 1];
        cnt[g + 1] += cnt[g];
    }
    {
        int64_t *dv = sv == v ? tv : v;
        for (size_t i = 0; i < n; i++) {
            size_t o = cnt[sp[i]]++;
            dv[o] = sv[i];
            tt_moments_add(&k->groups[sp[i]].m, sv[i]);
        }
        k->own = dv;
        free(dv == v ? tv : v);
    }
    k->vals = k->own;
    free(gid);
    free(slot_of);
    free(tp);
    free(cnt);
    return k;
oom:
    free(gid);
    free(slot_of);
    free(v);
    free(tv);
    free(tp);
    free(cnt);
    keyed_free(k);
    return NULL;
}

int tt_selsum_keyed(const tt_trace *tr, uint32_t lane, tt_key_kind kind, tt_ss_keyed *out)
{
    tt_selsum *s;
    ss_lane *sl;
    memset(out, 0, sizeof *out);
    if (!tt_selsum_keyable(kind) || (int)kind < 0 || (int)kind >= N_KINDS)
        return -1;
    if (!(s = lock_selsum(tr)))
        return -1;
    sl = &s->lanes[lane];
    if (!sl->keyed[kind] && !(sl->keyed[kind] = build_keyed(tr, sl, lane, kind))) {
        unlock_selsum(s);
        return -1;
    }
    out->vals = sl->keyed[kind]->vals;
    out->groups = sl->keyed[kind]->groups;
    out->n_groups = sl->keyed[kind]->n_groups;
    unlock_selsum(s);
    return 0;
}

/* ------------------------------------------------------------ transfers */

static int build_xpos(const tt_trace *tr, tt_selsum *s)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        ss_lane *sl = &s->lanes[l];
        size_t n = 0;
        for (size_t i = 0; i < ln->n; i++)
            n += ln->ev[i].bytes >= 0;
        if (n && !(sl->xpos = malloc(n * sizeof *sl->xpos))) {
            for (uint32_t k = 0; k < l; k++) {
                free(s->lanes[k].xpos);
                s->lanes[k].xpos = NULL;
                s->lanes[k].n_xpos = 0;
            }
            return -1;
        }
        for (size_t i = 0; i < ln->n; i++)
            if (ln->ev[i].bytes >= 0)
                sl->xpos[sl->n_xpos++] = (uint32_t)i;
    }
    s->has_xpos = true;
    return 0;
}

int tt_selsum_transfer_positions(const tt_trace *tr, uint32_t lane, bool build,
                                 const uint32_t **pos, size_t *n)
{
    tt_selsum *s;
    int rc = 1;
    *pos = NULL;
    *n = 0;
    if (!(s = lock_selsum(tr)))
        return -1;
    if (!s->has_xpos && (!build || build_xpos(tr, s)))
        rc = build ? -1 : 0;
    if (rc == 1) {
        *pos = s->lanes[lane].xpos;
        *n = s->lanes[lane].n_xpos;
    }
    unlock_selsum(s);
    return rc;
}

/* ----------------------------------------------------------- lane unions */

/* Whether the selection's lanes are the set u was built for. */
static bool same_lanes(const tt_trace *tr, const tt_sel *sel, const ss_union *u)
{
    bool every = !sel->lanes || sel->n_lanes == tr->n_lanes;   /* sorted, no duplicates */
    if (!u->runs && !u->pre)
        return false;
    if (!u->lanes)
        return every;
    if (every || sel->n_lanes != u->n_lanes)
        return false;
    return memcmp(sel->lanes, u->lanes, u->n_lanes * sizeof *u->lanes) == 0;
}

static int build_union(const tt_trace *tr, const tt_sel *sel, ss_union *u)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    bool every = !sel->lanes || sel->n_lanes == tr->n_lanes;
    tt_ivals iv;
    tt_ivals_init(&iv);
    memset(u, 0, sizeof *u);
    for (size_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[tt_sel_lane(sel, li)];
        for (size_t i = 0; i < ln->n; i++)
            if (tt_ivals_push(&iv, ln->ev[i].start, tt_event_end(&ln->ev[i])))
                goto oom;
    }
    if (tt_ivals_normalize(&iv))
        goto oom;
    if (!every && !(u->lanes = malloc((nl ? nl : 1) * sizeof *u->lanes)))
        goto oom;
    if (!every)
        memcpy(u->lanes, sel->lanes, nl * sizeof *u->lanes);
    u->n_lanes = nl;
    if (!(u->pre = malloc((iv.n + 1) * sizeof *u->pre)))
        goto oom;
    u->pre[0] = 0;
    for (size_t i = 0; i < iv.n; i++)
        u->pre[i + 1] = u->pre[i] + (iv.v[i].e - iv.v[i].s);
    u->n_runs = iv.n;
    /* keep exactly the runs (the list may have grown with spare room) */
    if (iv.n == 0) {
        tt_ivals_fini(&iv);
        u->runs = NULL;
    } else {
        tt_ival *shrunk = realloc(iv.v, iv.n * sizeof *iv.v);
        u->runs = shrunk ? shrunk : iv.v;
    }
    return 0;
oom:
    tt_ivals_fini(&iv);
    union_clear(u);
    return -1;
}

int tt_selsum_union(const tt_trace *tr, const tt_sel *sel, bool build, tt_ns *busy)
{
    tt_selsum *s;
    ss_union *u = NULL;
    *busy = 0;
    if (!(s = lock_selsum(tr)))
        return -1;
    for (int i = 0; i < TT_SS_UNIONS && !u; i++)
        if (same_lanes(tr, sel, &s->unions[i]))
            u = &s->unions[i];
    if (!u && build) {
        /* replace the least recently used set */
        u = &s->unions[0];
        for (int i = 1; i < TT_SS_UNIONS; i++)
            if (s->unions[i].used < u->used)
                u = &s->unions[i];
        union_clear(u);
        if (build_union(tr, sel, u)) {
            unlock_selsum(s);
            return -1;
        }
    }
    if (u) {
        u->used = ++s->clock;
        *busy = tt_runs_length_in(u->runs, u->pre, u->n_runs, sel->from, sel->to);
    }
    unlock_selsum(s);
    return u ? 1 : 0;
}

int tt_selsum_with_ext(const tt_trace *tr, int slot,
                       int (*fn)(const tt_trace *tr, tt_ss_ext **ext, void *ctx), void *ctx)
{
    tt_selsum *s;
    int rc;
    if (slot < 0 || slot >= TT_SS_EXT_N || !(s = lock_selsum(tr)))
        return -1;
    rc = fn(tr, &s->ext[slot], ctx);
    unlock_selsum(s);
    return rc;
}

size_t tt_selsum_memory(const tt_trace *tr)
{
    tt_selsum *s = (tt_selsum *)__atomic_load_n(&((tt_trace *)tr)->aux, __ATOMIC_ACQUIRE);
    size_t m;
    if (!s)
        return 0;
    pthread_mutex_lock(&s->lock);
    m = sizeof *s + s->n_lanes * sizeof *s->lanes;
    for (uint32_t l = 0; l < s->n_lanes; l++) {
        const ss_lane *sl = &s->lanes[l];
        size_t n = tr->lanes[l].n;
        if (sl->blk)
            m += (n / TT_SS_BLOCK + 1) * sizeof *sl->blk;
        if (sl->sorted)
            m += n * sizeof *sl->sorted;
        m += sl->n_xpos * sizeof *sl->xpos;
        for (int k = 0; k < N_KINDS; k++) {
            const ss_keyed *kd = sl->keyed[k];
            if (!kd)
                continue;
            m += sizeof *kd + kd->n_groups * sizeof *kd->groups;
            if (kd->own)
                m += n * sizeof *kd->own;
        }
    }
    for (int i = 0; i < TT_SS_EXT_N; i++)
        if (s->ext[i] && s->ext[i]->memory_fn)
            m += s->ext[i]->memory_fn(s->ext[i]);
    for (int i = 0; i < TT_SS_UNIONS; i++) {
        const ss_union *u = &s->unions[i];
        if (u->pre)
            m += u->n_runs * sizeof *u->runs + (u->n_runs + 1) * sizeof *u->pre +
                 (u->lanes ? u->n_lanes * sizeof *u->lanes : 0);
    }
    pthread_mutex_unlock(&s->lock);
    return m;
}
