/* test_attribsec.c - the attribution kept in a .ttz (format 4,
 * snapshot/attribsec.h): a reopen restores it (the trace holds it before
 * anyone asks) and every query answers as the one built from the source
 * did, on a trace whose slots, device totals and self times need their
 * escape tables (a parent 70000 events back, a self time and a device
 * total past 2^32 ns, device self neither 0 nor the total); a reopen
 * without flows or of a window rebuilds it instead; a small trace stores
 * none unless TRACETTY_TTZ_ATTRIB_FROM says so; a format 3 file (no such
 * section) still reads, its attribution rebuilt; a corrupt section is
 * refused with a positioned error naming it, one of another store version
 * is ignored, and random damage behind valid checksums never crashes a
 * query; all of it for both layouts of the section (store version 1's
 * totals as byte planes, and packed).
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"

#include "analysis/attrib.h"
#include "decode/decode.h"
#include "snapshot/snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

#define ROOT_DUR ((tt_ns)10000000000000)   /* 10^13 ns: a self time past 2^32 */
#define BIG_KERNEL ((tt_ns)5000000000)     /* past 2^32 ns */

static void ev(tt_trace *tr, uint32_t l, const char *name, const char *cat, tt_ns s, tt_ns d,
               uint32_t corr)
{
    int64_t i = tt_trace_push_event(tr, l);
    tt_event *e = &tr->lanes[l].ev[i];
    e->name = tt_trace_intern_cstr(tr, name);
    e->cat = tt_trace_intern_cstr(tr, cat);
    e->start = s;
    e->dur = d;
    e->kind = TT_EV_SLICE;
    e->corr = corr;
}

/* A profiler step holding n_ops ops, each launching a kernel through a
 * runtime call, every tenth also through a nested op; a lane without
 * nesting and an async lane beside it. *kernels: the kernels' total. */
static tt_trace *make(unsigned n_ops, tt_ns *kernels)
{
    tt_trace *tr = tt_trace_new();
    uint32_t gh = tt_trace_group(tr, tt_trace_intern_cstr(tr, "host"));
    uint32_t gd = tt_trace_group(tr, tt_trace_intern_cstr(tr, "gpu"));
    uint32_t host = tt_trace_lane(tr, gh, tt_trace_intern_cstr(tr, "1"), TT_LANE_THREAD);
    uint32_t flat = tt_trace_lane(tr, gh, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    uint32_t async = tt_trace_lane(tr, gh, tt_trace_intern_cstr(tr, "3"), TT_LANE_ASYNC);
    uint32_t dev = tt_trace_lane(tr, gd, tt_trace_intern_cstr(tr, "7"), TT_LANE_THREAD);
    uint32_t corr = 1;
    tt_error err;
    *kernels = 0;
    ev(tr, host, "ProfilerStep#1", "user_annotation", 0, ROOT_DUR, 0);
    for (unsigned i = 0; i < n_ops; i++) {
        tt_ns t = 1000 + (tt_ns)i * 1000, kd = i % 1000 == 999 ? BIG_KERNEL : 1 + (tt_ns)(rnd() % 500);
        ev(tr, host, "aten::mm", "cpu_op", t, 900, 0);
        ev(tr, host, "cudaLaunchKernel", "cuda_runtime", t + 10, 100, corr);
        ev(tr, dev, "gemm", "kernel", t + 50, kd, corr++);
        *kernels += kd;
        if (i % 10 == 0) {
            ev(tr, host, "aten::add", "cpu_op", t + 200, 300, 0);
            ev(tr, host, "cudaLaunchKernel", "cuda_runtime", t + 250, 20, corr);
            ev(tr, dev, "add", "kernel", t + 400, 7, corr++);
            *kernels += 7;
        }
        if (i % 100 == 0) {
            ev(tr, flat, "read", "cpu_op", t, 50, 0);
            ev(tr, async, "io", "async", t, 5000, 0);
            ev(tr, dev, "dangling", "kernel", t + 600, 3, 1u << 30);
        }
    }
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

static bool same_ref(tt_evref x, tt_evref y)
{
    return x.lane == y.lane && (x.lane == TT_NO_LANE || x.idx == y.idx);
}

/* Events whose answers differ between two attributions of equal traces
 * (counts and memory count as one more each). */
static size_t differences(const tt_trace *ta, const tt_attrib *a, const tt_trace *tb,
                          const tt_attrib *b)
{
    size_t bad = 0;
    bad += tt_attrib_n_links(a) != tt_attrib_n_links(b) ||
           tt_attrib_n_device(a) != tt_attrib_n_device(b) ||
           tt_attrib_n_dangling(a) != tt_attrib_n_dangling(b) ||
           tt_attrib_has_links(a) != tt_attrib_has_links(b);
    bad += tt_attrib_memory(a) != tt_attrib_memory(b);
    for (uint32_t l = 0; l < ta->n_lanes && l < tb->n_lanes; l++) {
        bad += tt_attrib_lane_is_device(a, l) != tt_attrib_lane_is_device(b, l);
        for (uint32_t i = 0; i < ta->lanes[l].n; i++) {
            tt_evref r = {l, i};
            bad += !same_ref(tt_attrib_parent(a, r), tt_attrib_parent(b, r)) ||
                   tt_attrib_self(a, r) != tt_attrib_self(b, r) ||
                   tt_attrib_is_device(a, r) != tt_attrib_is_device(b, r) ||
                   !same_ref(tt_attrib_launcher(a, r), tt_attrib_launcher(b, r)) ||
                   !same_ref(tt_attrib_launch_op(a, r), tt_attrib_launch_op(b, r)) ||
                   tt_attrib_device_self(a, r) != tt_attrib_device_self(b, r) ||
                   tt_attrib_device_total(a, r) != tt_attrib_device_total(b, r);
        }
    }
    return bad;
}

/* Every query of every event, for damage that got through: answers in
 * range (ASan and UBSan watch the rest). Returns the answers out of range. */
static size_t ask_all(const tt_trace *tr, const tt_attrib *a)
{
    size_t bad = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
            tt_evref r = {l, i}, p = tt_attrib_parent(a, r), k = tt_attrib_launcher(a, r);
            tt_evref o = tt_attrib_launch_op(a, r);
            tt_evref *v = NULL;
            size_t n = 0, cap = 0;
            bad += tt_evref_ok(p) && (p.lane != l || p.idx >= i);
            bad += tt_evref_ok(k) && (k.lane >= tr->n_lanes || k.idx >= tr->lanes[k.lane].n);
            bad += tt_evref_ok(o) && (o.lane >= tr->n_lanes || o.idx >= tr->lanes[o.lane].n);
            (void)tt_attrib_self(a, r);
            (void)tt_attrib_device_self(a, r);
            (void)tt_attrib_device_total(a, r);
            if (i % 97 == 0 && tt_attrib_launched(a, r, i % 2, &v, &n, &cap) == 0)
                for (size_t j = 0; j < n; j++)
                    bad += v[j].lane >= tr->n_lanes || v[j].idx >= tr->lanes[v[j].lane].n;
            free(v);
        }
    return bad;
}

static tt_trace *reopen(const unsigned char *buf, size_t n, unsigned skip,
                        const tt_load_part *part, tt_error *err)
{
    tt_trace *tr = tt_trace_new();
    tt_error_clear(err);
    if (tr && tt_snapshot_decode_sel(buf, n, 1, skip, part, tr, NULL, err) == 0)
        return tr;
    tt_trace_free(tr);
    return NULL;
}

/* The attribution tr holds already, without building one. */
static const tt_attrib *held(const tt_trace *tr)
{
    return (const tt_attrib *)tr->aux_attrib;
}

static void test_big(void)
{
    tt_ns kernels;
    tt_trace *a = make(34000, &kernels), *b = NULL, *c = NULL;
    const tt_attrib *at, *bt;
    unsigned char *buf = NULL;
    size_t n;
    tt_error err;
    tt_load_part part;
    tt_error_clear(&err);
    unsetenv("TRACETTY_TTZ_ATTRIB_FROM");
    if (!ok(a && (at = tt_attrib_get(a, &err)), "big trace and its attribution"))
        goto out;
    ok(a->n_events >= 65536, "%llu events: stored by default", (unsigned long long)a->n_events);
    {
        /* the escapes are needed: checked against the trace itself */
        uint32_t h = 0, last = 0;
        tt_ns ops = 0;
        while (h + 1 < a->n_lanes &&
               (!a->lanes[h].n || strcmp(tt_str(a, a->lanes[h].ev[0].name), "ProfilerStep#1")))
            h++;   /* the host lane with the step */
        for (uint32_t i = 0; i < a->lanes[h].n; i++)
            if (a->lanes[h].ev[i].depth == 1) {
                ops += a->lanes[h].ev[i].dur;
                last = i;
            }
        ok(tt_attrib_parent(at, (tt_evref){h, last}).idx == 0 && last > 70000,
           "a parent %u events back", last);
        ok(tt_attrib_self(at, (tt_evref){h, 0}) == ROOT_DUR - ops, "a self time past 2^32 ns");
        ok(tt_attrib_device_total(at, (tt_evref){h, 0}) == kernels,
           "the step's device total, past 2^32 ns: %lld", (long long)kernels);
        ok(tt_attrib_device_self(at, (tt_evref){h, 1}) > 0 &&
               tt_attrib_device_self(at, (tt_evref){h, 1}) < tt_attrib_device_total(at, (tt_evref){h, 1}),
           "an op's device self between 0 and its total");
    }
    if (!ok(tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode: %s", err.what))
        goto out;
    b = reopen(buf, n, TT_TRACE_NO_ARGS, NULL, &err);
    if (!ok(b != NULL, "reopen: %s", err.what))
        goto out;
    ok(held(b) != NULL, "the reopen restored the attribution");
    bt = tt_attrib_get(b, &err);
    ok(bt == held(b), "and asking returns that one");
    ok(bt && differences(a, at, b, bt) == 0, "every answer as built from the source");
    tt_trace_free(b);
    b = reopen(buf, n, TT_TRACE_NO_FLOWS, NULL, &err);
    ok(b && held(b) == NULL, "a reopen without flows does not restore it");
    ok(b && (bt = tt_attrib_get(b, &err)) && differences(a, at, b, bt) == 0,
       "and rebuilds the same (this trace has no flows)");
    memset(&part, 0, sizeof part);
    part.has_from = true;
    part.from = 5000000;
    c = reopen(buf, n, TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS, &part, &err);
    ok(c && held(c) == NULL && (c->lacks & TT_TRACE_PARTIAL),
       "a window's reopen does not restore it");
    ok(c && tt_attrib_get(c, &err) != NULL, "and builds one from what it loaded");
out:
    tt_trace_free(a);
    tt_trace_free(b);
    tt_trace_free(c);
    free(buf);
}

/* A snapshot from sections raw[1..], as the writer lays them out. */
static unsigned char *assemble(unsigned char *raw[], size_t len[], size_t *n, tt_error *err)
{
    unsigned char *out = NULL;
    tt_error_clear(err);
    if (tt_snapshot_assemble((const unsigned char *const *)raw, len, &out, n, err))
        return NULL;
    return out;
}

static void set_version(unsigned char *buf, uint32_t version)
{
    uint32_t c;
    memcpy(buf + 8, &version, 4);
    c = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), buf, 28);
    memcpy(buf + 28, &c, 4);
}

static void test_small_and_damage(void)
{
    tt_ns kernels;
    tt_trace *a = make(300, &kernels), *b = NULL;
    const tt_attrib *at, *bt;
    unsigned char *buf = NULL, *file = NULL, *raw[TT_SNAPSHOT_SECTIONS];
    size_t n, fn, len[TT_SNAPSHOT_SECTIONS];
    const unsigned id = TT_SNAPSHOT_SEC_ATTRIB;
    unsigned char *keep;
    size_t keep_len;
    int refused = 0, loaded = 0, bad = 0, named = 0;
    tt_error err;
    memset(raw, 0, sizeof raw);
    tt_error_clear(&err);
    if (!ok(a && (at = tt_attrib_get(a, &err)), "small trace"))
        goto out;
    unsetenv("TRACETTY_TTZ_ATTRIB_FROM");
    if (tt_snapshot_encode(a, NULL, &buf, &n, &err) || !(b = reopen(buf, n, 0, NULL, &err)))
        goto out;
    ok(held(b) == NULL, "a small trace stores no attribution");
    ok((bt = tt_attrib_get(b, &err)) && differences(a, at, b, bt) == 0, "it is rebuilt the same");
    tt_trace_free(b);
    b = NULL;
    free(buf);
    buf = NULL;
    setenv("TRACETTY_TTZ_ATTRIB_FROM", "0", 1);
    if (tt_snapshot_encode(a, NULL, &buf, &n, &err) || !(b = reopen(buf, n, 0, NULL, &err)))
        goto out;
    unsetenv("TRACETTY_TTZ_ATTRIB_FROM");
    ok(held(b) != NULL && differences(a, at, b, held(b)) == 0,
       "with TRACETTY_TTZ_ATTRIB_FROM=0 it is stored and restored the same");
    tt_trace_free(b);
    b = NULL;
    for (unsigned k = 1; k < TT_SNAPSHOT_SECTIONS; k++)
        if (tt_snapshot_section(buf, n, k, &raw[k], &len[k], &err))
            goto out;
    keep = raw[id];
    keep_len = len[id];

    /* format 3: no attribution section */
    raw[id] = NULL;
    file = assemble(raw, len, &fn, &err);
    b = file ? reopen(file, fn, 0, NULL, &err) : NULL;
    ok(!b && strstr(err.what, "attribution section: missing"), "format 4 without it: %s",
       err.what);
    tt_trace_free(b);
    if (file) {
        set_version(file, 3);
        b = reopen(file, fn, 0, NULL, &err);
    }
    ok(b && held(b) == NULL && (bt = tt_attrib_get(b, &err)) && differences(a, at, b, bt) == 0,
       "a format 3 file reads, its attribution rebuilt the same");
    tt_trace_free(b);
    b = NULL;
    free(file);
    raw[id] = keep;

    /* cut short, extra bytes */
    for (int k = 0; k < 2; k++) {
        unsigned char *m = malloc(keep_len + 1);
        memcpy(m, keep, keep_len);
        m[keep_len] = 0;
        raw[id] = m;
        len[id] = k ? keep_len + 1 : keep_len - 1;
        file = assemble(raw, len, &fn, &err);
        b = file ? reopen(file, fn, 0, NULL, &err) : NULL;
        ok(!b && err.code == TT_ERR_FORMAT && err.offset > 0 &&
               strstr(err.what, "corrupt snapshot: attribution section"),
           "%s: %s", k ? "extra bytes" : "cut short", err.what);
        tt_trace_free(b);
        b = NULL;
        free(file);
        free(m);
    }
    /* another store version: ignored, rebuilt */
    {
        unsigned char *m = malloc(keep_len);
        memcpy(m, keep, keep_len);
        m[0] = 0x7f;
        raw[id] = m;
        len[id] = keep_len;
        file = assemble(raw, len, &fn, &err);
        b = file ? reopen(file, fn, 0, NULL, &err) : NULL;
        ok(b && held(b) == NULL && (bt = tt_attrib_get(b, &err)) && differences(a, at, b, bt) == 0,
           "an attribution of another store version is rebuilt");
        tt_trace_free(b);
        b = NULL;
        free(file);
        free(m);
    }
    /* random damage behind valid checksums */
    for (int round = 0; round < 300; round++) {
        unsigned char *m = malloc(keep_len);
        int flips = 1 + (int)(rnd() % 3);
        memcpy(m, keep, keep_len);
        for (int f = 0; f < flips; f++) {
            size_t at_byte = 1 + (size_t)(rnd() % (keep_len - 1));   /* keep the version */
            m[at_byte] = round % 2 ? (unsigned char)rnd() : (unsigned char)(m[at_byte] ^ (1u << (rnd() % 8)));
        }
        raw[id] = m;
        len[id] = keep_len;
        file = assemble(raw, len, &fn, &err);
        b = file ? reopen(file, fn, 0, NULL, &err) : NULL;
        if (!b) {
            refused++;
            named += err.code == TT_ERR_FORMAT && strstr(err.what, "attribution section") != NULL;
        } else {
            loaded++;
            bt = tt_attrib_get(b, &err);
            bad += !bt || ask_all(b, bt) != 0;
        }
        tt_trace_free(b);
        b = NULL;
        free(file);
        free(m);
    }
    raw[id] = keep;
    ok(refused + loaded == 300 && named == refused && bad == 0,
       "300 damaged sections: %d refused naming the section, %d loaded, %d bad answers", refused,
       loaded, bad);
out:
    for (unsigned k = 1; k < TT_SNAPSHOT_SECTIONS; k++)
        free(raw[k]);
    tt_trace_free(a);
    tt_trace_free(b);
    free(buf);
}

int main(void)
{
    test_big();
    test_small_and_damage();
    /* again with sections of store version 1 (the totals as byte planes),
     * which a reader still restores */
    setenv("TRACETTY_TTZ_ATTRIB_LAYOUT", "1", 1);
    test_big();
    test_small_and_damage();
    unsetenv("TRACETTY_TTZ_ATTRIB_LAYOUT");
    return tap_done();
}
