/* nsys_flows.c - the correlation flows of an Nsight Systems SQLite export,
 * linked once its lanes are sorted (see nsys_flows.h).
 *
 * The marked events are gathered (lane, position) and sorted by (pid,
 * correlation id), a merge of their few runs (merge_next()): ids follow
 * time, so each id's events are found near the previous id's, lane by
 * lane, and the walk stays in cache (the points' hashed keys sent it all
 * over memory). An id with one call and all its GPU work at or after the
 * call's start gets its flows here, from the call to each piece of work,
 * as finalize's resolving links them: points of an id in time order,
 * the start first at equal times, every end linked to the start before
 * it. Every other id goes to finalize as the points it always was, in the
 * order they were read, so finalize resolves (and reports) it exactly as
 * before.
 *
 * Finalize groups points by their hashed key, not by (pid, id): two pids
 * whose hashes could make two ids share a key (the high halves of their
 * mixed values equal; never seen, but possible) send every point to
 * finalize, so that the grouping stays finalize's.
 */
#include "config.h"

#include "decode/nsys_flows.h"
#include "util/bigalloc.h"
#include "util/hash.h"
#include "util/grow.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

uint64_t tt_nsys_flow_key(uint64_t pid, int64_t corr)
{
    return tt_hash_mix(tt_hash_mix(pid + 0x51) ^ (uint64_t)corr);
}

void tt_nsys_flow_mark(tt_event *e, uint64_t pid, int64_t corr, uint64_t seq, bool start)
{
    e->max_end = (tt_ns)((pid & 0xffffff) << 32 | (uint64_t)corr);
    /* non-zero: marked; the low bit tells a start from an end */
    e->busy_upto = (tt_ns)((seq + 1) << 1 | (start ? 0 : 1));
}

static tt_event *at(tt_trace *tr, uint64_t ref)
{
    return &tr->lanes[ref >> 32].ev[(uint32_t)ref];
}

static bool is_start(const tt_event *e)
{
    return (e->busy_upto & 1) == 0;
}

/* Where finalize binds event ref's point (TT_BIND_EXACT): the first event
 * of the sorted lane starting when it does with its duration and name, an
 * identical event before it, or itself. */
static tt_evref bound(tt_trace *tr, uint64_t ref)
{
    const tt_event *ev = tr->lanes[ref >> 32].ev;
    size_t i = (uint32_t)ref, j = i;
    while (j > 0 && ev[j - 1].start == ev[i].start)
        j--;
    while (j < i && !(ev[j].dur == ev[i].dur && ev[j].name == ev[i].name))
        j++;
    return (tt_evref){(uint32_t)(ref >> 32), (uint32_t)j};
}

/* Whether two of the pids could share a hashed key (see above). pids:
 * the distinct ones, n of them. */
static bool pids_may_collide(const uint64_t *pids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (((tt_hash_mix(pids[i] + 0x51) ^ tt_hash_mix(pids[j] + 0x51)) >> 32) == 0)
                return true;
    return false;
}

/* The points of the ids left to finalize (rest[0..n), keys: their read
 * order), pushed in that order. */
static int push_points(tt_trace *tr, tt_kv *rest, size_t n, uint32_t cat)
{
    if (tt_radix_sort(rest, n))
        return -1;
    for (size_t k = 0; k < n; k++) {
        const tt_event *e = at(tr, rest[k].val);
        uint64_t raw = (uint64_t)e->max_end;
        tt_flow_point p;
        memset(&p, 0, sizeof p);
        p.key = tt_nsys_flow_key(raw >> 32, (int64_t)(uint32_t)raw);
        p.ts = e->start;
        p.dur = e->dur;
        p.lane = (uint32_t)(rest[k].val >> 32);
        p.name = e->name;
        p.cat = cat;
        p.phase = (uint8_t)(is_start(e) ? TT_FLOW_START : TT_FLOW_END);
        p.bind = TT_BIND_EXACT;
        if (tt_trace_flow_point(tr, &p))
            return -1;
    }
    return 0;
}

#define MAX_RUNS 16

/* The marks in key order, stably, read from their sorted runs as they are
 * merged (no merged copy: fresh memory the size of the marks was a
 * twentieth of an export's summary, in page faults). The marks come lane
 * by lane, each lane's in id order (ids follow time), so they are a few
 * ascending runs. */
typedef struct merge {
    const tt_kv *a;
    size_t       head[MAX_RUNS], end[MAX_RUNS], nr;
} merge;

/* The runs of a[0..n): false when there are more than MAX_RUNS (the
 * caller sorts them into one). */
static bool merge_init(merge *m, const tt_kv *a, size_t n)
{
    m->a = a;
    m->nr = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || a[i].key < a[i - 1].key) {
            if (m->nr == MAX_RUNS)
                return false;
            if (m->nr)
                m->end[m->nr - 1] = i;
            m->head[m->nr++] = i;
        }
    if (m->nr)
        m->end[m->nr - 1] = n;
    return true;
}

/* The next mark in key order, the lowest run first among equal keys (the
 * stable order); NULL after the last. */
static inline __attribute__((always_inline)) const tt_kv *merge_next(merge *m)
{
    size_t best = m->nr;
    for (size_t r = 0; r < m->nr; r++)
        if (m->head[r] < m->end[r] &&
            (best == m->nr || m->a[m->head[r]].key < m->a[m->head[best]].key))
            best = r;
    return best == m->nr ? NULL : &m->a[m->head[best]++];
}

#define MAX_PIDS 64

int tt_nsys_flows_resolve(tt_trace *tr, size_t n, bool placed, uint32_t cat)
{
    tt_kv *kv, *rest = NULL, *grp = NULL;
    const tt_kv *x;
    merge mg;
    uint64_t pids[MAX_PIDS], last_pid = UINT64_MAX;
    size_t k = 0, nrest = 0, cap_rest = 0, cap_grp = 0, npids = 0;
    int rc = -1;
    if (n == 0)
        return 0;
    if (!(kv = tt_bigalloc(n * sizeof *kv)))
        return -1;
    for (uint32_t li = 0; li < tr->n_lanes; li++) {
        const tt_lane *l = &tr->lanes[li];
        for (size_t i = 0; i < l->n && k < n; i++) {
            uint64_t raw = (uint64_t)l->ev[i].max_end, pid = raw >> 32;
            if (!l->ev[i].busy_upto)
                continue;
            kv[k++] = (tt_kv){raw, (uint64_t)li << 32 | i};
            if (pid != last_pid) {
                size_t m = 0;
                while (m < npids && pids[m] != pid)
                    m++;
                if (m == npids && npids < MAX_PIDS)
                    pids[npids++] = pid;
                else if (m == npids)
                    placed = false;   /* too many to check: finalize groups them */
                last_pid = pid;
            }
        }
    }
    n = k;
    if (pids_may_collide(pids, npids))
        placed = false;
    /* many runs: sorted into one first (stably, as the merge would) */
    if (!merge_init(&mg, kv, n) && (tt_radix_sort(kv, n) || !merge_init(&mg, kv, n)))
        goto out;
    /* a group at a time: the marks of one key, in grp[0..j) */
    for (x = merge_next(&mg); x;) {
        uint64_t key = x->key, start = 0;
        size_t j = 0, starts = 0;
        bool simple;
        do {
            if (tt_grow_one((void **)&grp, &cap_grp, j, sizeof *grp))
                goto out;
            grp[j++] = *x;
        } while ((x = merge_next(&mg)) && x->key == key);
        for (size_t m = 0; m < j; m++)
            if (is_start(at(tr, grp[m].val))) {
                starts++;
                start = grp[m].val;
            }
        simple = placed && starts == 1;
        for (size_t m = 0; simple && m < j; m++)
            simple = at(tr, grp[m].val)->start >= at(tr, start)->start;
        if (!simple) {
            for (size_t m = 0; m < j; m++) {
                if (tt_grow_one((void **)&rest, &cap_rest, nrest, sizeof *rest))
                    goto out;
                rest[nrest++] = (tt_kv){(uint64_t)at(tr, grp[m].val)->busy_upto, grp[m].val};
            }
            continue;
        }
        for (size_t m = 0; m < j; m++) {
            tt_evref from = bound(tr, start), to;
            if (grp[m].val == start)
                continue;
            to = bound(tr, grp[m].val);
            if ((from.lane != to.lane || from.idx != to.idx) &&
                tt_trace_flow_resolved(tr, from, to, at(tr, grp[m].val)->name, cat))
                goto out;
        }
    }
    /* the points read their events' marks: clear them after */
    if (push_points(tr, rest, nrest, cat))
        goto out;
    rc = 0;
out:
    for (size_t m = 0; m < k; m++) {
        tt_event *e = at(tr, kv[m].val);
        e->max_end = e->busy_upto = 0;
    }
    free(kv);
    free(rest);
    free(grp);
    return rc;
}
