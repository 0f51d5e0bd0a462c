/* nsys_flows.c - the correlation flows of an Nsight Systems SQLite export,
 * linked once its lanes are sorted (see nsys_flows.h).
 *
 * The marked events are gathered (lane, position) and sorted by (pid,
 * correlation id), a merge of their few runs (sort_marks()): ids follow
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

/* Sort the n marks of *kv by key, stably, with *rest (room for n) as
 * scratch: the two arrays may trade places. The marks come lane by lane,
 * each lane's in id order (ids follow time), so they are a few ascending
 * runs: merging those in one pass, the lowest run first among equal keys
 * (the stable order), costs a fraction of the radix sort's passes that
 * scatter over the whole array. Many runs go to the radix sort. 0 or -1
 * (out of memory). */
static int sort_marks(tt_kv **kv, tt_kv **rest, size_t n)
{
    const tt_kv *a = *kv;
    tt_kv *o = *rest;
    size_t head[MAX_RUNS], end[MAX_RUNS], nr = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || a[i].key < a[i - 1].key) {
            if (nr == MAX_RUNS)
                return tt_radix_sort(*kv, n);
            if (nr)
                end[nr - 1] = i;
            head[nr++] = i;
        }
    if (nr <= 1)
        return 0;
    end[nr - 1] = n;
    for (size_t m = 0; m < n; m++) {
        size_t best = nr;
        for (size_t r = 0; r < nr; r++)
            if (head[r] < end[r] && (best == nr || a[head[r]].key < a[head[best]].key))
                best = r;
        o[m] = a[head[best]++];
    }
    *rest = *kv;
    *kv = o;
    return 0;
}

#define MAX_PIDS 64

int tt_nsys_flows_resolve(tt_trace *tr, size_t n, bool placed, uint32_t cat)
{
    tt_kv *kv, *rest = NULL;
    uint64_t pids[MAX_PIDS], last_pid = UINT64_MAX;
    size_t k = 0, nrest = 0, npids = 0;
    int rc = -1;
    if (n == 0)
        return 0;
    kv = tt_bigalloc(n * sizeof *kv);
    rest = tt_bigalloc(n * sizeof *rest);
    if (!kv || !rest)
        goto out;
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
    if (sort_marks(&kv, &rest, n))
        goto out;
    for (size_t i = 0, j; i < n; i = j) {
        size_t starts = 0;
        uint64_t start = 0;
        bool simple;
        for (j = i; j < n && kv[j].key == kv[i].key; j++)
            if (is_start(at(tr, kv[j].val))) {
                starts++;
                start = kv[j].val;
            }
        simple = placed && starts == 1;
        for (size_t m = i; simple && m < j; m++)
            simple = at(tr, kv[m].val)->start >= at(tr, start)->start;
        if (!simple) {
            for (size_t m = i; m < j; m++)
                rest[nrest++] = (tt_kv){(uint64_t)at(tr, kv[m].val)->busy_upto, kv[m].val};
            continue;
        }
        for (size_t m = i; m < j; m++) {
            tt_evref from = bound(tr, start), to;
            if (kv[m].val == start)
                continue;
            to = bound(tr, kv[m].val);
            if ((from.lane != to.lane || from.idx != to.idx) &&
                tt_trace_flow_resolved(tr, from, to, at(tr, kv[m].val)->name, cat))
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
    return rc;
}
