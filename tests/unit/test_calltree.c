/* test_calltree.c - analysis/calltree.h against a brute-force build on
 * random traces: nested host calls (ops, runtime launches, Python frames,
 * steps) on thread lanes, an async lane, kernels and copies on two streams
 * launched through correlation ids, device annotations, and random
 * windows and lane sets. The brute force finds every event's tree parent
 * from attrib.h's answers and the selection rule of select.h written out
 * again, computes clipped self times cell by cell, and adds up name paths
 * as strings; the tree must hold exactly those paths and numbers, its
 * siblings in weight order, its instances those events; the bottom-up
 * tree must hold the same self time in total.
 *
 * `test_calltree TRACE` instead prints the top-down tree of the whole
 * trace as CSV (path, calls, host total, host self, device total, device
 * self; the path's names joined by " > ", device nodes marked "[d] "), for
 * tests/tui/calltree_real.sh to compare with a python3 computation. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/attrib.h"
#include "analysis/calltree.h"
#include "decode/decode.h"
#include "util/strtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static uint32_t S(tt_trace *tr, const char *s) { return tt_trace_intern_cstr(tr, s); }

static void push(tt_trace *tr, uint32_t l, const char *name, const char *cat, tt_ns s, tt_ns d,
                 uint32_t corr)
{
    int64_t i = tt_trace_push_event(tr, l);
    tt_event *e = &tr->lanes[l].ev[i];
    e->name = S(tr, name);
    e->cat = S(tr, cat);
    e->start = s;
    e->dur = d;
    e->kind = d == 0 && rnd() % 2 ? TT_EV_INSTANT : TT_EV_SLICE;
    e->corr = corr;
}

typedef struct gen {
    tt_trace *tr;
    uint32_t  dev[2];
    uint32_t  corr;
} gen;

static const char *const ops[] = {"aten::linear", "aten::mm", "aten::add", "fwd.py", "aten::relu"};
static const char *const op_cats[] = {"cpu_op", "cpu_op", "cpu_op", "python_function", "cpu_op"};

/* Calls nested in [s, s+d) on lane l: children inside, launches with
 * kernels on a stream. */
static void calls(gen *g, uint32_t l, tt_ns s, tt_ns d, int depth)
{
    tt_ns t = s;
    while (t < s + d) {
        tt_ns len = (tt_ns)(rnd() % (uint64_t)(d / 2 + 2));
        tt_ns gap = (tt_ns)(rnd() % 6);
        if (t + gap + len > s + d)
            break;
        t += gap;
        if (depth > 0 && rnd() % 3 == 0) {
            /* a runtime launch and its kernel (or a copy), a few ns later */
            uint32_t c = ++g->corr;
            push(g->tr, l, "cudaLaunchKernel", "cuda_runtime", t, len, c);
            if (rnd() % 8)
                push(g->tr, g->dev[rnd() % 2], rnd() % 2 ? "gemm" : "elementwise",
                     rnd() % 5 ? "kernel" : "gpu_memcpy", t + (tt_ns)(rnd() % 40),
                     (tt_ns)(rnd() % 30) + 1, rnd() % 10 ? c : 0);
        } else {
            size_t k = rnd() % 5;
            push(g->tr, l, ops[k], op_cats[k], t, len, 0);
            if (depth < 4 && len > 3)
                calls(g, l, t, len, depth + 1);
        }
        t += len;
    }
}

static tt_trace *make(void)
{
    tt_trace *tr = tt_trace_new();
    uint32_t gh = tt_trace_group(tr, S(tr, "host")), gd = tt_trace_group(tr, S(tr, "gpu"));
    uint32_t host[2], async;
    gen g;
    tt_error err;
    g.tr = tr;
    g.corr = 0;
    host[0] = tt_trace_lane(tr, gh, S(tr, "1"), TT_LANE_THREAD);
    host[1] = tt_trace_lane(tr, gh, S(tr, "2"), TT_LANE_THREAD);
    async = tt_trace_lane(tr, gh, S(tr, "3"), TT_LANE_ASYNC);
    g.dev[0] = tt_trace_lane(tr, gd, S(tr, "7"), TT_LANE_THREAD);
    g.dev[1] = tt_trace_lane(tr, gd, S(tr, "8"), TT_LANE_THREAD);
    for (int l = 0; l < 2; l++) {
        tt_ns t = 0;
        for (int step = 0; step < 3; step++) {
            tt_ns len = 100 + (tt_ns)(rnd() % 200);
            char name[32];
            snprintf(name, sizeof name, "ProfilerStep#%d", step + 1);
            push(tr, host[l], name, "user_annotation", t, len, 0);
            calls(&g, host[l], t, len, 0);
            t += len + (tt_ns)(rnd() % 20);
        }
        /* a partly overlapping stray call: nests oddly */
        push(tr, host[l], "stray", "cpu_op", (tt_ns)(rnd() % 500), 50, 0);
    }
    for (int i = 0; i < 20; i++)
        push(tr, async, "async_thing", "cpu_op", (tt_ns)(rnd() % 800), (tt_ns)(rnd() % 60), 0);
    for (int i = 0; i < 6; i++)
        push(tr, g.dev[i % 2], "annot", "gpu_user_annotation", (tt_ns)(rnd() % 700), 80, 0);
    /* instants at the trace's very end (a TUI box over the whole trace
     * ends there, exclusive, and leaves them out): sometimes a launch
     * whose kernel (clocks skewed) ran just before it, which the box
     * then holds without its launch op, sometimes an op on a host lane */
    {
        tt_ns end = 0;
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (size_t i = 0; i < tr->lanes[l].n; i++)
                if (tr->lanes[l].ev[i].start + tr->lanes[l].ev[i].dur > end)
                    end = tr->lanes[l].ev[i].start + tr->lanes[l].ev[i].dur;
        if (rnd() % 2) {
            uint32_t c = ++g.corr;
            push(tr, host[rnd() % 2], "cudaLaunchKernel", "cuda_runtime", end, 0, c);
            push(tr, g.dev[rnd() % 2], "gemm", "kernel", end - 5, 5, c);
        }
        if (rnd() % 2)
            push(tr, host[rnd() % 2], "aten::add", "cpu_op", end, 0, 0);
    }
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* ------------------------------------------------------- brute force */

static bool lane_in(const tt_sel *sel, uint32_t lane)
{
    if (!sel->lanes)
        return true;
    for (size_t i = 0; i < sel->n_lanes; i++)
        if (sel->lanes[i] == lane)
            return true;
    return false;
}

static bool in_sel(const tt_trace *tr, const tt_sel *sel, tt_evref r)
{
    const tt_event *e;
    if (!tt_evref_ok(r) || !lane_in(sel, r.lane))
        return false;
    e = tt_trace_event(tr, r);
    if (e->dur > 0)
        return e->start < sel->to && e->start + e->dur > sel->from;
    return (e->start >= sel->from && e->start < sel->to) ||
           (sel->to_inclusive && e->start == sel->to);
}

static void clip(const tt_sel *sel, const tt_event *e, tt_ns *s, tt_ns *t)
{
    *s = e->start > sel->from ? e->start : sel->from;
    *t = e->start + e->dur < sel->to ? e->start + e->dur : sel->to;
    if (*t < *s)
        *t = *s;
}

/* The tree parent of a selected event (TT_NO_EVENT: a root). */
static tt_evref b_parent(const tt_trace *tr, const tt_attrib *at, const tt_sel *sel, tt_evref r)
{
    tt_evref p = tt_attrib_parent(at, r);
    if (tt_attrib_is_device(at, r)) {
        tt_evref lo = tt_attrib_launch_op(at, r);
        if (in_sel(tr, sel, lo))
            return lo;
        return in_sel(tr, sel, p) ? p : TT_NO_EVENT;
    }
    return in_sel(tr, sel, p) && !tt_attrib_is_device(at, p) ? p : TT_NO_EVENT;
}

static void b_path(const tt_trace *tr, const tt_attrib *at, const tt_sel *sel, tt_evref r,
                   char *out, size_t cap)
{
    char tmp[1024];
    out[0] = '\0';
    for (; tt_evref_ok(r); r = b_parent(tr, at, sel, r)) {
        snprintf(tmp, sizeof tmp, "%s%.100s%s%.900s", tt_attrib_is_device(at, r) ? "@" : "",
                 tt_str(tr, tt_trace_event(tr, r)->name), out[0] ? "/" : "", out);
        snprintf(out, cap, "%s", tmp);
    }
}

static void t_path(const tt_calltree *ct, uint32_t n, char *out, size_t cap)
{
    char tmp[1024];
    out[0] = '\0';
    for (; n != TT_CT_NONE; n = ct->v[n].parent) {
        snprintf(tmp, sizeof tmp, "%s%.100s%s%.900s", ct->v[n].device ? "@" : "",
                 tt_str(ct->tr, ct->v[n].name), out[0] ? "/" : "", out);
        snprintf(out, cap, "%s", tmp);
    }
}

typedef struct bnode {
    char     path[1024];
    uint64_t calls;
    tt_ns    ht, hs, dt, ds;
} bnode;

static bnode *find(bnode *v, size_t *n, const char *path)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(v[i].path, path))
            return &v[i];
    memset(&v[*n], 0, sizeof v[*n]);
    snprintf(v[*n].path, sizeof v[*n].path, "%s", path);
    return &v[(*n)++];
}

/* Clipped self time by unit cells: the event's clipped cells no selected
 * child (an event whose attrib parent it is) covers. */
static tt_ns b_self(const tt_trace *tr, const tt_attrib *at, const tt_sel *sel, tt_evref r)
{
    static uint8_t cov[4096];
    tt_ns s, t, self = 0;
    const tt_lane *l = &tr->lanes[r.lane];
    clip(sel, tt_trace_event(tr, r), &s, &t);
    if (t - s > 4096)
        return -1;
    memset(cov, 0, (size_t)(t - s));
    for (uint32_t j = 0; j < l->n; j++) {
        tt_evref c = {r.lane, j};
        tt_evref p = tt_attrib_parent(at, c);
        tt_ns cs, ce;
        if (!tt_evref_ok(p) || p.idx != r.idx || !in_sel(tr, sel, c))
            continue;
        clip(sel, &l->ev[j], &cs, &ce);
        for (tt_ns x = cs; x < ce; x++)
            if (x >= s && x < t)
                cov[x - s] = 1;
    }
    for (tt_ns x = s; x < t; x++)
        self += !cov[x - s];
    return self;
}

static int check(const tt_trace *tr, const tt_sel *sel, const char *what)
{
    const tt_attrib *at;
    tt_calltree *ct = NULL, *bu = NULL;
    tt_error err;
    bnode *bv = calloc(20000, sizeof *bv);
    size_t bn = 0, nev = 0, bad = 0, order_bad = 0;
    tt_ns hs_td = 0, hs_bu = 0, ds_td = 0, ds_bu = 0;
    char path[1024], msg[1400] = "";
    tt_error_clear(&err);
    at = tt_attrib_get(tr, &err);
    if (!bv || !at || tt_calltree_build(tr, sel, &ct, &err) || tt_calltree_bottom_up(ct, &bu, &err)) {
        ok(0, "%s: builds (%s)", what, err.what);
        free(bv);
        return 1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (uint32_t j = 0; j < tr->lanes[l].n; j++) {
            tt_evref r = {l, j};
            tt_evref p;
            tt_ns s, t;
            bnode *b;
            if (!in_sel(tr, sel, r))
                continue;
            nev++;
            b_path(tr, at, sel, r, path, sizeof path);
            b = find(bv, &bn, path);
            clip(sel, tt_trace_event(tr, r), &s, &t);
            b->calls++;
            if (tt_attrib_is_device(at, r)) {
                b->ds += t - s;
                /* its device time counts in every node up the path, and
                 * in its tree parent's device self when that is a host */
                for (tt_evref a = r; tt_evref_ok(a); a = b_parent(tr, at, sel, a)) {
                    b_path(tr, at, sel, a, path, sizeof path);
                    find(bv, &bn, path)->dt += t - s;
                }
                p = b_parent(tr, at, sel, r);
                if (tt_evref_ok(p) && !tt_attrib_is_device(at, p)) {
                    b_path(tr, at, sel, p, path, sizeof path);
                    find(bv, &bn, path)->ds += t - s;
                }
            } else {
                b->ht += t - s;
                b->hs += b_self(tr, at, sel, r);
            }
        }
    ok(ct->n_ev == nev, "%s: the tree holds the selection's %zu events (%zu)", what, nev,
       ct->n_ev);
    ok(ct->n == bn, "%s: %zu name paths (%zu)", what, bn, ct->n);
    for (size_t i = 0; i < ct->n; i++) {
        const tt_ctnode *nd = &ct->v[i];
        bnode *b;
        size_t before = bn;
        t_path(ct, (uint32_t)i, path, sizeof path);
        b = find(bv, &bn, path);
        if (bn != before || b->calls != nd->calls || b->ht != nd->host_total ||
            b->hs != nd->host_self || b->dt != nd->dev_total || b->ds != nd->dev_self) {
            if (!bad++)
                snprintf(msg, sizeof msg,
                         "%s: calls %llu/%llu host %lld/%lld self %lld/%lld dev %lld/%lld "
                         "dself %lld/%lld",
                         path, (unsigned long long)nd->calls, (unsigned long long)b->calls,
                         (long long)nd->host_total, (long long)b->ht, (long long)nd->host_self,
                         (long long)b->hs, (long long)nd->dev_total, (long long)b->dt,
                         (long long)nd->dev_self, (long long)b->ds);
        }
        if (nd->next != TT_CT_NONE &&
            tt_calltree_weight(ct, (uint32_t)i) < tt_calltree_weight(ct, nd->next))
            order_bad++;
        hs_td += nd->host_self;
        ds_td += nd->device ? nd->dev_self : 0;
    }
    ok(bad == 0, "%s: every node's calls, host total/self, device total/self are the brute "
       "force's%s%s", what, bad ? ": " : "", msg);
    ok(order_bad == 0, "%s: siblings in descending weight", what);
    /* instances: as many as the calls, each with the node's path */
    {
        tt_evref *inst = NULL;
        size_t n = 0, cap = 0, wrong = 0;
        for (size_t i = 0; i < ct->n && wrong == 0; i += 1 + ct->n / 7) {
            char p2[1024];
            n = 0;
            if (tt_calltree_instances(ct, (uint32_t)i, &inst, &n, &cap)) {
                wrong++;
                break;
            }
            t_path(ct, (uint32_t)i, path, sizeof path);
            wrong += n != ct->v[i].calls;
            for (size_t k = 0; k < n; k++) {
                b_path(tr, at, sel, inst[k], p2, sizeof p2);
                wrong += strcmp(p2, path) != 0;
            }
        }
        ok(wrong == 0, "%s: a node's instances are its calls, with its path", what);
        /* a bottom-up root's instances: every event of the name */
        wrong = 0;
        for (uint32_t r = bu->root; r != TT_CT_NONE && wrong == 0; r = bu->v[r].next) {
            size_t want = 0;
            n = 0;
            if (tt_calltree_instances(bu, r, &inst, &n, &cap)) {
                wrong++;
                break;
            }
            for (size_t s = 0; s < ct->n_ev; s++)
                want += tt_trace_event(tr, ct->ev[s])->name == bu->v[r].name &&
                        tt_attrib_is_device(at, ct->ev[s]) == bu->v[r].device;
            wrong += n != want;
        }
        ok(wrong == 0, "%s: a bottom-up root's instances are every event of its name", what);
        free(inst);
    }
    for (uint32_t r = bu->root; r != TT_CT_NONE; r = bu->v[r].next) {
        hs_bu += bu->v[r].host_self;
        ds_bu += bu->v[r].device ? bu->v[r].dev_self : 0;
    }
    ok(hs_bu == hs_td && ds_bu == ds_td,
       "%s: bottom-up roots hold all the self time (host %lld/%lld, device %lld/%lld)", what,
       (long long)hs_bu, (long long)hs_td, (long long)ds_bu, (long long)ds_td);
    /* self sums by name: brute force over the selection */
    {
        uint32_t ids[64];
        tt_ns host[64], dev[64], bh[64] = {0}, bd[64] = {0};
        size_t n = 0, wrong = 0;
        tt_key key;
        memset(&key, 0, sizeof key);
        key.kind = TT_KEY_NAME;
        for (uint32_t id = 0; id < tt_strtab_count(tr->strings) && n < 64; id++)
            ids[n++] = id;
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (uint32_t j = 0; j < tr->lanes[l].n; j++) {
                tt_evref r = {l, j}, lo;
                tt_ns s, t;
                if (!in_sel(tr, sel, r))
                    continue;
                bh[tt_trace_event(tr, r)->name] += b_self(tr, at, sel, r);
                lo = tt_attrib_launch_op(at, r);
                if (tt_attrib_is_device(at, r) && in_sel(tr, sel, lo)) {
                    clip(sel, tt_trace_event(tr, r), &s, &t);
                    bd[tt_trace_event(tr, lo)->name] += t - s;
                }
            }
        if (tt_calltree_self_by(tr, sel, &key, ids, n, host, dev, &err))
            wrong++;
        for (size_t i = 0; i < n && !wrong; i++)
            wrong += host[i] != bh[ids[i]] || dev[i] != bd[ids[i]];
        ok(wrong == 0, "%s: self times summed by name are the brute force's", what);
    }
    tt_calltree_free(bu);
    tt_calltree_free(ct);
    free(bv);
    return bad != 0;
}

static void csv_field(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void dump_path(FILE *f, const tt_calltree *ct, uint32_t n)
{
    if (ct->v[n].parent != TT_CT_NONE) {
        dump_path(f, ct, ct->v[n].parent);
        fputs(" > ", f);
    }
    if (ct->v[n].device)
        fputs("[d] ", f);
    fputs(tt_str(ct->tr, ct->v[n].name), f);
}

static int dump(const char *path)
{
    tt_load_opts opts;
    tt_trace *tr = NULL;
    tt_calltree *ct = NULL;
    tt_error err;
    tt_sel sel;
    memset(&opts, 0, sizeof opts);
    tt_error_clear(&err);
    if (tt_load(path, &opts, &tr, NULL, &err) || (tt_sel_window(tr, NULL, &sel), 0) ||
        (sel.lanes = NULL, tt_calltree_build(tr, &sel, &ct, &err))) {
        fprintf(stderr, "test_calltree: %s: %s\n", path, err.what);
        tt_trace_free(tr);
        return 1;
    }
    printf("path,calls,host_total,host_self,dev_total,dev_self,has_links\n");
    for (uint32_t n = 0; n < ct->n; n++) {
        const tt_ctnode *nd = &ct->v[n];
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            return 1;
        dump_path(f, ct, n);
        fclose(f);
        csv_field(buf);
        free(buf);
        printf(",%llu,%lld,%lld,%lld,%lld,%d\n", (unsigned long long)nd->calls,
               (long long)nd->host_total, (long long)nd->host_self, (long long)nd->dev_total,
               (long long)nd->dev_self, ct->has_links);
    }
    tt_calltree_free(ct);
    tt_trace_free(tr);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0;
    if (argc > 1)
        return dump(argv[1]);
    for (int round = 0; round < 12 && !failed; round++) {
        tt_trace *tr = make();
        tt_sel sel;
        uint32_t lanes[8];
        size_t n = 0;
        char what[64];
        if (!tr) {
            ok(0, "random trace %d finalizes", round);
            return tap_done();
        }
        memset(&sel, 0, sizeof sel);
        /* the whole trace, then a random window over random lanes */
        sel.from = tr->t0;
        sel.to = tr->t1;
        sel.to_inclusive = true;
        snprintf(what, sizeof what, "trace %d, whole", round);
        failed |= check(tr, &sel, what);
        /* the same ending exclusive: every event but the instants at the
         * end, answered from the sums kept per lane unless one of those
         * instants launched device work */
        sel.to_inclusive = false;
        snprintf(what, sizeof what, "trace %d, whole, exclusive end", round);
        failed |= check(tr, &sel, what);
        /* the whole range over some lanes: the self sums kept per lane
         * (selfsum.h), with launch ops or kernels outside the box */
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 2)
                lanes[n++] = l;
        sel.lanes = lanes;
        sel.n_lanes = n;
        snprintf(what, sizeof what, "trace %d, whole range of %zu lanes", round, n);
        failed |= check(tr, &sel, what);
        sel.to_inclusive = true;
        snprintf(what, sizeof what, "trace %d, whole range of %zu lanes, inclusive", round, n);
        failed |= check(tr, &sel, what);
        n = 0;
        sel.lanes = NULL;
        sel.n_lanes = 0;
        sel.from = tr->t0 + (tt_ns)(rnd() % 400);
        sel.to = sel.from + (tt_ns)(rnd() % 600);
        sel.to_inclusive = rnd() % 2;
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 3)
                lanes[n++] = l;
        sel.lanes = lanes;
        sel.n_lanes = n;
        snprintf(what, sizeof what, "trace %d, window and %zu lanes", round, n);
        failed |= check(tr, &sel, what);
        tt_trace_free(tr);
    }
    return tap_done();
}
