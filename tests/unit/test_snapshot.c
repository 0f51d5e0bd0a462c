/* test_snapshot.c - the .ttz snapshot: exact round trips of random traces
 * built with the model builder (every field compared with the original),
 * argument records found again through renumbered handles (also when they
 * are cut into several chunks), rejection of every flipped byte and every
 * truncation, uncompressed sections refused, snapshots of another format
 * version rejected by name and rebuilt by the cache, a stale cache entry
 * found stale before its trace is decoded, semantic corruption behind
 * valid checksums never crashing (arguments found corrupt only when read
 * failing with a positioned error), and the argument store's append (how the
 * reader joins the argument chunks it rebuilds in parallel), and the
 * argument payload being the same whatever the number of threads that cut
 * and encode it; a decode that skips the arguments and flows differs from
 * a full one in those only, and says so. Format 3's blocks: whole decodes
 * of many small blocks on one thread or several, partial loads of windows
 * and lanes holding every event that meets them, and a bad index or block
 * refused with a positioned error. The file tt_snapshot_write() streams
 * is the in-memory snapshot byte for byte.
 */
#include "config.h"

#include "../tap.h"

#include "decode/decode.h"
#include "index/index.h"
#include "snapshot/argcols.h"
#include "snapshot/cache.h"
#include "snapshot/snapshot.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* -------------------------------------------------------------- random */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int64_t rnd_in(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* A trace exercising every part of the model. */
static tt_trace *random_trace(uint64_t seed, int events)
{
    static const char *const names[] = {"aten::linear", "MATMUL", "", "x\xe2\x80\xa2y",
                                        "ncclKernel_AllReduce", "Memcpy HtoD (Pageable -> Device)",
                                        "a\tb", "\x1b[31mred", "p99"};
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t lanes[24];
    int n_lanes = 0;
    size_t n_ev = 0;
    tt_evref refs[64];
    size_t n_refs = 0;
    rng_state = seed;
    if (!tr)
        return NULL;
    for (int g = 0; g < 4; g++) {
        char buf[32];
        uint32_t gid;
        snprintf(buf, sizeof buf, "%d", 100 + g);
        gid = tt_trace_group(tr, tt_trace_intern_cstr(tr, buf));
        if (g % 2)
            tr->groups[gid].name = tt_trace_intern_cstr(tr, g == 1 ? "python" : "GPU 3");
        if (g == 3) {
            tr->groups[gid].sort_index = -5;
            tr->groups[gid].has_sort = true;
            tr->groups[gid].labels = tt_trace_intern_cstr(tr, "rank 2");
        }
        for (int l = 0; l < 1 + g; l++) {
            uint32_t lid;
            snprintf(buf, sizeof buf, "%d", l * 7);
            lid = tt_trace_lane(tr, gid, tt_trace_intern_cstr(tr, buf),
                                l == 2 ? TT_LANE_ASYNC : TT_LANE_THREAD);
            if (l == 1)
                tr->lanes[lid].name = tt_trace_intern_cstr(tr, "stream 7");
            if (l == 0 && g == 2) {
                tr->lanes[lid].sort_index = 3;
                tr->lanes[lid].has_sort = true;
            }
            lanes[n_lanes++] = lid;
        }
    }
    for (int i = 0; i < events; i++) {
        uint32_t lane = lanes[rnd() % (uint64_t)n_lanes];
        int64_t idx = tt_trace_push_event(tr, lane);
        tt_event *e = &tr->lanes[lane].ev[idx];
        e->start = 1700000000000000000LL + rnd_in(0, 5000000) * (rnd() % 3 ? 1 : 100);
        e->dur = rnd() % 5 == 0 ? 0 : rnd_in(1, 200000);
        e->name = tt_trace_intern_cstr(tr, names[rnd() % 9]);
        e->cat = rnd() % 4 ? tt_trace_intern_cstr(tr, rnd() % 2 ? "kernel" : "cpu_op") : 0;
        e->kind = (uint8_t)(rnd() % 6 == 0 ? TT_EV_INSTANT : rnd() % 7 == 0 ? TT_EV_ASYNC
                                                                             : TT_EV_SLICE);
        if (e->kind == TT_EV_INSTANT)
            e->dur = 0;
        if (rnd() % 3 == 0) {
            tt_attr_tuple t = {tt_trace_intern_cstr(tr, rnd() % 2 ? "MATMUL" : "ADD"),
                               rnd() % 2 ? tt_trace_intern_cstr(tr, "%dot.3") : 0,
                               tt_trace_intern_cstr(tr, rnd() % 2 ? "w1" : "w2")};
            e->attrs = tt_attrs_intern(tr->attrs, t);
        }
        e->corr = rnd() % 3 ? (uint32_t)rnd_in(1, 4000000000LL) : 0;
        e->bytes = rnd() % 4 == 0 ? rnd_in(0, 1LL << 40) : -1;
        if (rnd() % 2) {
            char a[96], x[64];
            int an = snprintf(a, sizeof a, "{\"External id\": %d, \"grid\": [%d, 1, 1]}", i,
                              (int)(rnd() % 500));
            int xn = rnd() % 3 ? 0 : snprintf(x, sizeof x, "{\"tid\": \"t%d\"}", i % 7);
            tt_event *f;
            uint32_t h = tt_args_add(tr->args, a, (size_t)an, x, (size_t)xn);
            f = &tr->lanes[lane].ev[idx];
            f->args = h;
        }
        /* a few begins never closed */
        if (rnd() % 97 == 0) {
            tt_lane *ln = &tr->lanes[lane];
            uint32_t *no = realloc(ln->open, (ln->n_open + 1) * sizeof *no);
            if (no) {
                ln->open = no;
                ln->open[ln->n_open++] = (uint32_t)idx;
            }
        }
        if (n_refs < 64 && rnd() % 20 == 0) {
            refs[n_refs].lane = lane;
            refs[n_refs].idx = (uint32_t)idx;
            n_refs++;
        }
        n_ev++;
    }
    /* flows between recorded events, bound exactly */
    for (size_t i = 0; i + 1 < n_refs; i += 2) {
        for (int end = 0; end < 2; end++) {
            const tt_event *e = &tr->lanes[refs[i + end].lane].ev[refs[i + end].idx];
            tt_flow_point p;
            memset(&p, 0, sizeof p);
            p.key = 1000 + i;
            p.ts = e->start;
            p.dur = e->dur;
            p.lane = refs[i + end].lane;
            p.name = e->name;
            p.cat = tt_trace_intern_cstr(tr, "ac2g");
            p.phase = (uint8_t)(end ? TT_FLOW_END : TT_FLOW_START);
            p.bind = TT_BIND_EXACT;
            tt_trace_flow_point(tr, &p);
        }
    }
    for (int c = 0; c < 3; c++) {
        uint32_t k = tt_trace_counter(tr, tr->lanes[lanes[c]].group,
                                      tt_trace_intern_cstr(tr, c ? "GPU Memory" : "util"),
                                      tt_trace_intern_cstr(tr, c == 2 ? "reserved" : "value"));
        for (int s = 0; s < 50 * c; s++)
            tt_trace_counter_push(tr, k, 1700000000000000000LL + rnd_in(0, 6000000),
                                  (double)rnd_in(-1000, 1000) / 7.0);
        tr->counters[k].unit = tt_trace_intern_cstr(tr, c ? "B" : "%");
        tr->counters[k].derived = c == 1;
    }
    tt_trace_problem(tr, TT_PROB_BAD_EVENT, "row %d: bad", 3);
    tt_trace_problem(tr, TT_PROB_BAD_EVENT, "row %d: bad", 4);
    tt_trace_problem(tr, TT_PROB_DROPPED_TAIL, "cut at %d", 77);
    tt_trace_tally_phase(tr, "X", 1, n_ev);
    tt_trace_tally_phase(tr, "instruction", 11, 3);
    cJSON_AddStringToObject(tr->meta, "schemaVersion", "1");
    cJSON_AddNumberToObject(tr->meta, "total_time", 0.123456789012345);
    cJSON_AddItemToObject(tr->meta, "deviceProperties", cJSON_Parse("[{\"id\":0,\"name\":\"A100\"}]"));
    snprintf(tr->note, sizeof tr->note, "note %llu", (unsigned long long)seed);
    tr->rank = (int64_t)(seed % 3) - 1;
    tr->format = "chrome-json";
    tr->compression = "gzip";
    tr->source = strdup("/data/trace.json.gz");
    tr->source_bytes = 123456789;
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* ------------------------------------------------------------- compare */

/* Readers live across calls: each read of a cold block decompresses it. */
static bool same_args(tt_args_reader *ra, uint32_t ha, tt_args_reader *rb, uint32_t hb)
{
    const char *a1, *a2, *b1, *b2;
    size_t an1, an2, bn1, bn2;
    if (!ha || !hb)
        return ha == hb;
    return tt_args_read(ra, ha, &a1, &an1, &a2, &an2) == 0 &&
           tt_args_read(rb, hb, &b1, &bn1, &b2, &bn2) == 0 && an1 == bn1 && an2 == bn2 &&
           memcmp(a1, b1, an1) == 0 && memcmp(a2, b2, an2) == 0;
}

/* Number of differences between two traces (0 = identical model). */
static int diff_traces(const tt_trace *a, const tt_trace *b)
{
    int d = 0;
    tt_args_reader ra, rb;
    tt_args_reader_init(&ra, a->args);
    tt_args_reader_init(&rb, b->args);
#define DIFF(cond, ...)                                                  \
    do {                                                                 \
        if (cond) {                                                      \
            if (d++ < 5) {                                               \
                printf("#   ");                                          \
                printf(__VA_ARGS__);                                     \
                printf("\n");                                            \
            }                                                            \
        }                                                                \
    } while (0)
    DIFF(tt_strtab_count(a->strings) != tt_strtab_count(b->strings), "string count");
    for (uint32_t i = 0; i < tt_strtab_count(a->strings) && i < tt_strtab_count(b->strings); i++)
        DIFF(tt_strtab_len(a->strings, i) != tt_strtab_len(b->strings, i) ||
                 memcmp(tt_str(a, i), tt_str(b, i), tt_strtab_len(a->strings, i)) != 0,
             "string %u", i);
    DIFF(a->attrs->count != b->attrs->count, "attr count");
    for (uint32_t i = 0; i < a->attrs->count && i < b->attrs->count; i++)
        DIFF(memcmp(&a->attrs->tuple[i], &b->attrs->tuple[i], sizeof(tt_attr_tuple)) != 0,
             "attr %u", i);
    DIFF(a->n_groups != b->n_groups, "group count");
    for (uint32_t i = 0; i < a->n_groups && i < b->n_groups; i++) {
        const tt_group *x = &a->groups[i], *y = &b->groups[i];
        DIFF(x->key != y->key || x->name != y->name || x->labels != y->labels ||
                 x->sort_index != y->sort_index || x->has_sort != y->has_sort ||
                 x->first_lane != y->first_lane || x->n_lanes != y->n_lanes,
             "group %u", i);
    }
    DIFF(a->n_lanes != b->n_lanes, "lane count");
    for (uint32_t l = 0; l < a->n_lanes && l < b->n_lanes; l++) {
        const tt_lane *x = &a->lanes[l], *y = &b->lanes[l];
        DIFF(x->group != y->group || x->key != y->key || x->name != y->name ||
                 x->sort_index != y->sort_index || x->has_sort != y->has_sort ||
                 x->kind != y->kind || x->max_depth != y->max_depth || x->n != y->n,
             "lane %u header", l);
        for (size_t i = 0; i < x->n && i < y->n; i++) {
            tt_event ex = x->ev[i], ey = y->ev[i];
            DIFF(!same_args(&ra, ex.args, &rb, ey.args), "lane %u event %zu args", l, i);
            ex.args = ey.args = 0;
            DIFF(memcmp(&ex, &ey, sizeof ex) != 0, "lane %u event %zu", l, i);
        }
    }
    DIFF(a->n_counters != b->n_counters, "counter count");
    for (uint32_t i = 0; i < a->n_counters && i < b->n_counters; i++) {
        const tt_counter *x = &a->counters[i], *y = &b->counters[i];
        DIFF(x->group != y->group || x->name != y->name || x->key != y->key ||
                 x->unit != y->unit || x->derived != y->derived || x->n != y->n ||
                 x->vmin != y->vmin || x->vmax != y->vmax,
             "counter %u", i);
        for (size_t s = 0; s < x->n && s < y->n; s++)
            DIFF(x->t[s] != y->t[s] || memcmp(&x->v[s], &y->v[s], sizeof(double)) != 0,
                 "counter %u sample %zu", i, s);
    }
    DIFF(a->n_flows != b->n_flows, "flow count");
    for (size_t i = 0; i < a->n_flows && i < b->n_flows; i++)
        DIFF(memcmp(&a->flows[i], &b->flows[i], sizeof(tt_flow)) != 0 ||
                 a->flows_by_to[i] != b->flows_by_to[i],
             "flow %zu", i);
    DIFF(!cJSON_Compare(a->meta, b->meta, 1), "metadata");
    DIFF(strcmp(a->format, b->format) != 0 || strcmp(a->compression, b->compression) != 0,
         "format/compression");
    DIFF(strcmp(a->source, b->source) != 0 || a->source_bytes != b->source_bytes, "source");
    DIFF(a->rank != b->rank || a->t0 != b->t0 || a->t1 != b->t1 || a->n_events != b->n_events,
         "rank/span/events");
    DIFF(strcmp(a->note, b->note) != 0, "note");
    DIFF(memcmp(a->problems, b->problems, sizeof a->problems) != 0, "problems");
    DIFF(a->n_phases != b->n_phases, "phase count");
    for (uint32_t i = 0; i < a->n_phases && i < b->n_phases; i++)
        DIFF(a->phases[i].name != b->phases[i].name || a->phases[i].count != b->phases[i].count,
             "phase %u", i);
    DIFF(!b->finalized, "not finalized");
#undef DIFF
    tt_args_reader_fini(&ra);
    tt_args_reader_fini(&rb);
    return d;
}

static tt_trace *decode(const unsigned char *buf, size_t n, tt_snapshot_source *src, tt_error *err)
{
    tt_trace *tr = tt_trace_new();
    if (!tr)
        return NULL;
    tt_error_clear(err);
    if (tt_snapshot_decode(buf, n, 0, tr, src, err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* --------------------------------------------------------------- tests */

static void test_round_trips(void)
{
    static const int sizes[] = {0, 1, 7, 300, 5000, 40000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        /* three seeds each, one for the big trace (its arguments are read
         * in lane order, which hops between source blocks) */
        for (uint64_t seed = 1; seed <= (sizes[k] > 10000 ? 1u : 3u); seed++) {
            tt_trace *a = random_trace(seed * 77 + k, sizes[k]), *b;
            unsigned char *buf;
            size_t n;
            tt_error err;
            tt_snapshot_source src, got;
            memset(&src, 0, sizeof src);
            src.valid = true;
            src.size = 1234567;
            src.mtime_ns = -42;
            src.content_hash = 0xfeedfacecafebeefULL;
            src.options_hash = 17;
            snprintf(src.path, sizeof src.path, "/tmp/x y/trace.json");
            tt_error_clear(&err);
            if (!ok(a && tt_snapshot_encode(a, &src, &buf, &n, &err) == 0,
                    "encode %d events, seed %llu", sizes[k], (unsigned long long)seed)) {
                tt_trace_free(a);
                continue;
            }
            b = decode(buf, n, &got, &err);
            ok(b != NULL, "decode %d events, seed %llu (%s)", sizes[k], (unsigned long long)seed,
               b ? "ok" : err.what);
            if (b) {
                is_i64(diff_traces(a, b), 0, "%d events: model identical after the round trip",
                       sizes[k]);
                ok(got.valid && got.size == src.size && got.mtime_ns == src.mtime_ns &&
                       got.content_hash == src.content_hash && got.options_hash == src.options_hash &&
                       strcmp(got.path, src.path) == 0,
                   "%d events: source identity kept", sizes[k]);
            }
            /* a second generation is byte-identical: the encoding is canonical */
            if (b) {
                unsigned char *buf2;
                size_t n2;
                ok(tt_snapshot_encode(b, &src, &buf2, &n2, &err) == 0 && n2 == n &&
                       memcmp(buf, buf2, n) == 0,
                   "%d events: re-encoding the decoded trace gives the same bytes", sizes[k]);
                free(buf2);
            }
            free(buf);
            tt_trace_free(a);
            tt_trace_free(b);
        }
    }
}

/* A reader told to skip the arguments and flows (a report that reads
 * neither) gives the full trace less exactly those, says so in lacks, and
 * such a trace is never saved as a snapshot. */
static void test_partial(void)
{
    static const unsigned skips[] = {TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS, TT_TRACE_NO_ARGS,
                                     TT_TRACE_NO_FLOWS, TT_TRACE_NO_COUNTERS,
                                     TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS};
    tt_trace *a = random_trace(5, 5000);
    unsigned char *buf, *buf2;
    size_t n, n2;
    tt_error err;
    tt_error_clear(&err);
    if (!ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode")) {
        tt_trace_free(a);
        return;
    }
    ok(a->n_flows > 0 && tt_args_count(a->args) > 0, "a trace with flows and arguments");
    for (size_t k = 0; k < sizeof skips / sizeof skips[0]; k++) {
        unsigned skip = skips[k];
        tt_trace *b = tt_trace_new(), *want = decode(buf, n, NULL, &err);
        if (!ok(b && want && tt_snapshot_decode_part(buf, n, 0, skip, b, NULL, &err) == 0,
                "skip %u: decoded (%s)", skip, err.what)) {
            tt_trace_free(b);
            tt_trace_free(want);
            continue;
        }
        is_i64(b->lacks, skip, "skip %u: the trace says what it lacks", skip);
        /* the full trace, less what was skipped */
        if (skip & TT_TRACE_NO_ARGS) {
            tt_args_free(want->args);
            want->args = tt_args_new();
            for (uint32_t l = 0; l < want->n_lanes; l++)
                for (size_t i = 0; i < want->lanes[l].n; i++)
                    want->lanes[l].ev[i].args = 0;
        }
        if (skip & TT_TRACE_NO_FLOWS)
            want->n_flows = 0;
        if (skip & TT_TRACE_NO_COUNTERS) {
            for (uint32_t i = 0; i < want->n_counters; i++) {
                free(want->counters[i].t);
                free(want->counters[i].v);
            }
            want->n_counters = 0;
        }
        is_i64(diff_traces(want, b), 0, "skip %u: all else identical to a full decode", skip);
        ok(tt_snapshot_encode(b, NULL, &buf2, &n2, &err) != 0 && err.code == TT_ERR_USAGE &&
               strstr(err.what, "cannot be saved"),
           "skip %u: not saved as a snapshot (%s)", skip, err.what);
        tt_trace_free(b);
        tt_trace_free(want);
    }
    free(buf);
    tt_trace_free(a);
}

static void test_corruption(void)
{
    tt_trace *a = random_trace(99, 200), *b;
    unsigned char *buf;
    size_t n, flips = 0, caught = 0, truncs = 0, tcaught = 0;
    tt_error err;
    if (!ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode for corruption tests"))
        return;
    /* every bit flip is caught by a checksum */
    for (size_t i = 0; i < n; i++) {
        for (int bit = 0; bit < 8; bit += (i < 64 ? 1 : 3)) {
            buf[i] ^= (unsigned char)(1u << bit);
            b = decode(buf, n, NULL, &err);
            flips++;
            if (!b && err.code != TT_OK && err.what[0])
                caught++;
            tt_trace_free(b);
            buf[i] ^= (unsigned char)(1u << bit);
        }
    }
    is_i64((int64_t)caught, (int64_t)flips, "all %zu bit flips rejected with a message", flips);
    for (size_t len = 0; len < n; len += (len < 200 ? 1 : 97)) {
        b = decode(buf, len, NULL, &err);
        truncs++;
        if (!b && err.code != TT_OK)
            tcaught++;
        tt_trace_free(b);
    }
    is_i64((int64_t)tcaught, (int64_t)truncs, "all %zu truncations rejected", truncs);
    {
        unsigned char *longer = malloc(n + 1);
        memcpy(longer, buf, n);
        longer[n] = 0;
        b = decode(longer, n + 1, NULL, &err);
        ok(!b && strstr(err.what, "cut off or has trailing data"), "trailing data rejected: %s",
           err.what);
        tt_trace_free(b);
        free(longer);
    }
    /* a section the table calls uncompressed (checksums made valid) */
    {
        unsigned char *v = malloc(n);
        uint32_t n_sec, flags, c;
        memcpy(v, buf, n);
        memcpy(&n_sec, v + 12, 4);
        memcpy(&flags, v + 32 + 4, 4);
        flags &= ~1u;
        memcpy(v + 32 + 4, &flags, 4);
        c = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), v + 32, (size_t)n_sec * 36);
        memcpy(v + 24, &c, 4);
        c = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), v, 28);
        memcpy(v + 28, &c, 4);
        b = decode(v, n, NULL, &err);
        ok(!b && err.code == TT_ERR_FORMAT && strstr(err.what, "corrupt snapshot") &&
               strstr(err.what, "stored uncompressed"),
           "a section stored uncompressed is refused: %s", b ? "(decoded)" : err.what);
        tt_trace_free(b);
        free(v);
    }
    /* a changed version byte alone breaks the header checksum */
    {
        unsigned char *v = malloc(n);
        memcpy(v, buf, n);
        v[8] ^= 3;
        b = decode(v, n, NULL, &err);
        ok(!b && err.code == TT_ERR_FORMAT, "a changed version byte fails the header checksum");
        tt_trace_free(b);
        free(v);
    }
    free(buf);
    tt_trace_free(a);
}

/* Content corrupted behind valid checksums: the parsers must reject it or
 * produce a trace that holds together, never crash or read out of bounds
 * (run under ASan in CI). */
static void test_semantic_corruption(void)
{
    tt_trace *a = random_trace(5, 400);
    unsigned char *buf, *sec[TT_SNAPSHOT_SECTIONS];
    size_t n, len[TT_SNAPSHOT_SECTIONS];
    tt_error err;
    int rejected = 0, accepted = 0, bad_accept = 0, args_failed = 0;
    memset(sec, 0, sizeof sec);
    if (!ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode for semantic tests"))
        return;
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        ok(tt_snapshot_section(buf, n, id, &sec[id], &len[id], &err) == 0, "section %u readable",
           id);
    {
        /* unchanged sections reassemble to a trace equal to the original */
        unsigned char *f;
        size_t fn;
        tt_trace *b;
        ok(tt_snapshot_assemble((const unsigned char *const *)sec, len, &f, &fn, &err) == 0,
           "reassemble");
        b = decode(f, fn, NULL, &err);
        ok(b && diff_traces(a, b) == 0, "reassembled sections decode to the same trace");
        tt_trace_free(b);
        free(f);
    }
    rng_state = 4242;
    for (int round = 0; round < 3000; round++) {
        unsigned id = 1 + (unsigned)(rnd() % (TT_SNAPSHOT_SECTIONS - 1));
        size_t pos;
        unsigned char old, *f;
        size_t fn;
        tt_trace *b;
        if (len[id] == 0)
            continue;
        pos = (size_t)(rnd() % len[id]);
        old = sec[id][pos];
        sec[id][pos] = (unsigned char)(rnd() % 4 == 0 ? rnd() : old ^ (1u << (rnd() % 8)));
        if (tt_snapshot_assemble((const unsigned char *const *)sec, len, &f, &fn, &err) == 0) {
            b = decode(f, fn, NULL, &err);
            if (!b) {
                rejected++;
            } else {
                /* what was accepted must be consistent */
                bool okay = b->finalized && b->t0 <= b->t1;
                for (uint32_t l = 0; l < b->n_lanes && okay; l++) {
                    okay = b->lanes[l].group < b->n_groups && b->lanes[l].n > 0;
                    for (size_t i = 1; i < b->lanes[l].n && okay; i++)
                        okay = b->lanes[l].ev[i - 1].start <= b->lanes[l].ev[i].start;
                }
                {
                    /* the arguments are rebuilt only now (argslazy.h):
                     * each record reads, or fails with the section's
                     * positioned error */
                    tt_args_reader rd;
                    tt_error why;
                    const char *x, *y;
                    size_t xn, yn;
                    tt_args_reader_init(&rd, b->args);
                    for (uint32_t h = 1; h <= tt_args_count(b->args) && okay; h++)
                        if (tt_args_read(&rd, h, &x, &xn, &y, &yn)) {
                            okay = tt_args_error(b->args, &why) == 1 &&
                                   why.code == TT_ERR_FORMAT && why.pos == TT_POS_OFFSET;
                            args_failed++;
                            break;
                        }
                    tt_args_reader_fini(&rd);
                }
                accepted++;
                if (!okay)
                    bad_accept++;
                tt_trace_free(b);
            }
            free(f);
        }
        sec[id][pos] = old;
    }
    ok(rejected > 0, "corrupt content rejected (%d of %d)", rejected, rejected + accepted);
    is_i64(bad_accept, 0,
           "every accepted corrupt snapshot is still consistent (%d accepted, %d of them "
           "with arguments found corrupt when read)",
           accepted, args_failed);
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        free(sec[id]);
    free(buf);
    tt_trace_free(a);
}

/* tt_args_append(), which joins the stores the snapshot reader fills in
 * parallel: the same records added to one store, and to four stores (one
 * empty, two with a partial block not yet sealed) then appended to the
 * first, read back the same. */
static void test_args_append(void)
{
    static const int cut[] = {0, 2500, 4200, 4200, 6000};   /* part p: [cut[p], cut[p + 1]) */
    tt_args *a = tt_args_new(), *part[4];
    bool all = true;
    char text[200];
    for (int p = 0; p < 4; p++)
        part[p] = tt_args_new();
    /* enough records for several 64 KiB blocks */
    for (int i = 0, p = 0; i < 6000; i++) {
        int n = snprintf(text, sizeof text, "{\"i\": %d, \"pad\": \"%0*d\"}", i, i % 150, 0);
        while (i >= cut[p + 1])
            p++;
        tt_args_add(a, text, (size_t)n, i % 5 ? NULL : "x", i % 5 ? 0 : 1);
        tt_args_add(part[p], text, (size_t)n, i % 5 ? NULL : "x", i % 5 ? 0 : 1);
    }
    tt_args_seal(a);
    tt_args_seal(part[1]);
    ok(tt_args_raw_bytes(a) > 5 * 65536, "%llu bytes of records",
       (unsigned long long)tt_args_raw_bytes(a));
    for (int p = 1; p < 4; p++)
        if (tt_args_append(part[0], part[p]))
            all = false;
    ok(all && tt_args_count(part[0]) == 6000 &&
           tt_args_raw_bytes(part[0]) == tt_args_raw_bytes(a),
       "three stores appended to a fourth: all records, handles continued");
    {
        tt_args_reader r1, r2;
        bool same = true;
        tt_args_reader_init(&r1, a);
        tt_args_reader_init(&r2, part[0]);
        /* random access order too */
        rng_state = 9;
        for (int k = 0; k < 5000; k++) {
            uint32_t h = 1 + (uint32_t)(rnd() % 6000);
            const char *x1, *x2, *y1, *y2;
            size_t xn1, xn2, yn1, yn2;
            if (tt_args_read(&r1, h, &x1, &xn1, &x2, &xn2) ||
                tt_args_read(&r2, h, &y1, &yn1, &y2, &yn2) || xn1 != yn1 ||
                memcmp(x1, y1, xn1) != 0 || xn2 != yn2 || (xn2 && memcmp(x2, y2, xn2) != 0))
                same = false;
        }
        tt_args_reader_fini(&r1);
        tt_args_reader_fini(&r2);
        ok(same, "appended records read back the same, in random order");
    }
    {
        tt_args_reader r;
        const char *x, *y;
        size_t xn, yn;
        uint32_t h = tt_args_add(part[0], "{}", 2, NULL, 0);
        tt_args_reader_init(&r, part[0]);
        ok(h == 6001 && tt_args_read(&r, h, &x, &xn, &y, &yn) == 0 && xn == 2 &&
               memcmp(x, "{}", 2) == 0 && yn == 0,
           "a record added after the append gets the next handle");
        tt_args_reader_fini(&r);
    }
    tt_args_free(a);
    tt_args_free(part[0]);
}

/* The writer cuts the argument records on several threads, each a range of
 * handles with templates of its own, and merges the ranges: the payload
 * must be what one thread writes, whatever the count, and rebuild the same
 * records. Records are left out and reordered by the map, templates first
 * seen in a later range and literals (which move when ranges merge) are
 * there on purpose. */
static void test_args_threads(void)
{
    enum { N = 20000 };
    tt_args *a = tt_args_new(), *back = tt_args_new();
    uint32_t *map = calloc(N + 1, sizeof *map), n = 0;
    tt_argcols_hint *hint = calloc(N + 1, sizeof *hint);
    tt_wbuf out[4];
    static const unsigned threads[4] = {1, 2, 3, 8};
    const char *what = NULL;
    bool same = true, texts = true;
    char text[200];
    memset(out, 0, sizeof out);
    rng_state = 41;
    for (int i = 0; i < N && a && map && hint; i++) {
        int k = (int)(rnd() % 7), len;
        if (i > N / 2)
            k += (int)(rnd() % 3);   /* kinds of record only the later ranges have */
        len = snprintf(text, sizeof text, "{\"kind%d\": %d, \"f\": %d.%d, \"s\": \"v%d\"}",
                       k, (int)(rnd() % 1000) - 500, (int)(rnd() % 10), (int)(rnd() % 100),
                       (int)(rnd() % 5));
        tt_args_add(a, text, (size_t)len, i % 9 ? NULL : "{\"x\": 1.5e3}", i % 9 ? 0 : 12);
    }
    if (!ok(a && back && map && hint && tt_args_seal(a) == 0, "a store of %d records", N))
        goto out;
    /* every third record left out, the others in reverse handle order */
    for (uint32_t h = N; h >= 1; h--)
        if (h % 3) {
            map[h] = ++n;
            hint[n - 1].corr = h % 5 ? h : 0;
            hint[n - 1].name = h % 4;
        }
    for (int t = 0; t < 4; t++)
        if (tt_argcols_encode(a, map, n, hint, 4, 3, threads[t], &out[t]) != 0 || out[t].oom)
            same = false;
    for (int t = 1; t < 4 && same; t++)
        same = out[t].n == out[0].n && memcmp(out[t].p, out[0].p, out[0].n) == 0;
    ok(same, "the payload is the same on 1, 2, 3 and 8 threads");
    if (!ok(same && tt_argcols_decode(out[0].p, out[0].n, n, hint, 4, 2, back, &what) == 0,
            "and decodes"))
        goto out;
    {
        tt_args_reader r1, r2;
        tt_args_reader_init(&r1, a);
        tt_args_reader_init(&r2, back);
        for (uint32_t h = 1; h <= N && texts; h++) {
            const char *x1, *x2, *y1, *y2;
            size_t xn1, xn2, yn1, yn2;
            if (!map[h])
                continue;
            if (tt_args_read(&r1, h, &x1, &xn1, &x2, &xn2) ||
                tt_args_read(&r2, map[h], &y1, &yn1, &y2, &yn2) || xn1 != yn1 ||
                memcmp(x1, y1, xn1) != 0 || xn2 != yn2 || (xn2 && memcmp(x2, y2, xn2) != 0))
                texts = false;
        }
        tt_args_reader_fini(&r1);
        tt_args_reader_fini(&r2);
        ok(texts, "into the same records under their new handles");
    }
out:
    for (int t = 0; t < 4; t++)
        tt_wbuf_free(&out[t]);
    free(map);
    free(hint);
    tt_args_free(a);
    tt_args_free(back);
}

/* buf, rewritten as a snapshot of format `version` (header checksum fixed):
 * what an older or newer tracetty would have written, as far as the
 * header tells. */
static void set_version(unsigned char *buf, uint32_t version)
{
    uint32_t c;
    memcpy(buf + 8, &version, 4);
    c = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), buf, 28);
    memcpy(buf + 28, &c, 4);
}

static void test_other_version(void)
{
    tt_trace *a = random_trace(11, 300), *b;
    unsigned char *buf;
    size_t n;
    tt_error err;
    if (!ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode for version tests"))
        return;
    for (uint32_t v = 1; v <= TT_SNAPSHOT_VERSION + 1; v += TT_SNAPSHOT_VERSION) {
        set_version(buf, v);
        b = decode(buf, n, NULL, &err);
        ok(!b && err.code == TT_ERR_UNSUPPORTED &&
               strstr(err.what, "made by another tracetty version") &&
               strstr(err.what, "reconvert"),
           "format %u is refused by name: %s", v, b ? "(decoded)" : err.what);
        tt_trace_free(b);
    }
    free(buf);
    tt_trace_free(a);
}

/* A cache of its own: dir (a mkdtemp() template) becomes XDG_CACHE_HOME
 * and holds a one-event trace, whose path goes to src; *ce is its entry
 * (for default options) and *a the trace loaded. Returns 0, or -1 (*a
 * NULL; dir is made when its first check passed). */
static int cache_setup(char *dir, char src[256], tt_cache_entry *ce, tt_trace **a)
{
    tt_load_opts opts;
    tt_error err;
    FILE *f;
    memset(&opts, 0, sizeof opts);
    *a = NULL;
    if (!ok(mkdtemp(dir) != NULL, "temporary cache directory"))
        return -1;
    setenv("XDG_CACHE_HOME", dir, 1);
    snprintf(src, 256, "%s/trace.json", dir);
    f = fopen(src, "w");
    if (f) {
        fputs("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 2, "
              "\"ts\": 5, \"dur\": 3, \"args\": {\"External id\": 9}}]}\n", f);
        fclose(f);
    }
    tt_error_clear(&err);
    return ok(f && tt_cache_prepare(src, &opts, ce, &err) == 0 &&
                  tt_load(src, &opts, a, NULL, &err) == 0,
              "a source to cache (%s)", err.what)
               ? 0
               : -1;
}

static void cache_cleanup(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        diag("could not remove %s", dir);
}

/* --cache: an entry written by another format version is stale, never an
 * error, and is replaced by the current format under the same name. */
static void test_cache_other_version(void)
{
    char dir[] = "/tmp/tt-snapshot-cache.XXXXXX", src[256];
    tt_cache_entry ce, ce2;
    tt_load_opts opts;
    tt_trace *a = NULL, *b = NULL;
    unsigned char *buf = NULL;
    size_t n;
    tt_error err, why;
    FILE *f;
    memset(&opts, 0, sizeof opts);
    if (cache_setup(dir, src, &ce, &a))
        goto out;
    /* the entry as a tracetty of another format would have left it */
    ok(tt_snapshot_encode(a, &ce.id, &buf, &n, &err) == 0, "encode the entry");
    /* format 1: the last one refused (format 2 is still read) */
    set_version(buf, 1);
    f = fopen(ce.path, "wb");
    ok(f && fwrite(buf, 1, n, f) == n && fclose(f) == 0, "write an entry of format 1");
    ok(tt_cache_load(&ce, 0, &b, &why) == 0 && !b && strstr(why.what, "another tracetty version"),
       "it is not used: %s", why.what);
    /* the caller rebuilds it: same entry name, current format */
    ok(tt_cache_prepare(src, &opts, &ce2, &err) == 0 && strcmp(ce.path, ce2.path) == 0,
       "the entry keeps its name across format versions");
    ok(tt_cache_store(&ce, a, &err) == 0 && tt_cache_load(&ce, 0, &b, &why) == 1 && b,
       "the rebuilt entry is used");
    tt_trace_free(b);
out:
    free(buf);
    tt_trace_free(a);
    cache_cleanup(dir);
}

/* A snapshot of a whose events section (section 7) does not decode,
 * written to path; *file, *n: its bytes (malloc'ed). Returns 0 or -1. */
static int damaged_entry(const tt_trace *a, const tt_snapshot_source *id, const char *path,
                         unsigned char **file, size_t *n)
{
    unsigned char *buf = NULL, *sec[TT_SNAPSHOT_SECTIONS];
    size_t bn, len[TT_SNAPSHOT_SECTIONS];
    tt_error err;
    FILE *f;
    int rc = -1;
    memset(sec, 0, sizeof sec);
    *file = NULL;
    if (tt_snapshot_encode(a, id, &buf, &bn, &err))
        return -1;
    for (unsigned k = 1; k < TT_SNAPSHOT_SECTIONS; k++)
        if (tt_snapshot_section(buf, bn, k, &sec[k], &len[k], &err))
            goto out;
    /* the start column's encoding: 127 is none */
    sec[7][0] = 0x7f;
    if (tt_snapshot_assemble((const unsigned char *const *)sec, len, file, n, &err))
        goto out;
    f = fopen(path, "wb");
    if (f && fwrite(*file, 1, *n, f) == *n && fclose(f) == 0)
        rc = 0;
    else if (f)
        fclose(f);
out:
    for (unsigned k = 1; k < TT_SNAPSHOT_SECTIONS; k++)
        free(sec[k]);
    free(buf);
    return rc;
}

/* --cache checks an entry's source identity before it decodes the trace:
 * a stale entry is just stale even when its events are corrupt, and
 * tt_snapshot_read_source() reads the identity of such a file. */
static void test_cache_stale_first(void)
{
    char dir[] = "/tmp/tt-snapshot-stale.XXXXXX", src[256];
    tt_cache_entry ce;
    tt_snapshot_source old, got;
    tt_trace *a = NULL, *b = NULL;
    unsigned char *file = NULL;
    size_t n;
    tt_error err, why;
    if (cache_setup(dir, src, &ce, &a))
        goto out;
    /* made before the source changed size, and its events damaged since */
    old = ce.id;
    old.size++;
    if (!ok(damaged_entry(a, &old, ce.path, &file, &n) == 0, "a stale entry with corrupt events"))
        goto out;
    ok(tt_snapshot_read_source(file, n, &got, &err) == 0 && got.valid && got.size == old.size &&
           got.mtime_ns == old.mtime_ns && got.content_hash == old.content_hash &&
           got.options_hash == old.options_hash && strcmp(got.path, old.path) == 0,
       "tt_snapshot_read_source reads its identity");
    b = decode(file, n, NULL, &err);
    ok(!b && strstr(err.what, "events section"), "the entry does not decode: %s",
       b ? "(decoded)" : err.what);
    tt_trace_free(b);
    b = NULL;
    ok(tt_cache_load(&ce, 0, &b, &why) == 0 && !b && strstr(why.what, "stale"),
       "the cache finds it stale, without decoding it: %s", why.what);
    /* the same damage under the current identity is found when decoding */
    free(file);
    file = NULL;
    ok(damaged_entry(a, &ce.id, ce.path, &file, &n) == 0 &&
           tt_cache_load(&ce, 0, &b, &why) == 0 && !b && strstr(why.what, "events section"),
       "a current entry with corrupt events is corrupt: %s", why.what);
out:
    free(file);
    tt_trace_free(a);
    cache_cleanup(dir);
}

/* Arguments of more than one chunk (about 16 MB of text each) come back
 * in order, under the right handles. */
static void test_big_arguments(void)
{
    tt_trace *a = tt_trace_new(), *b;
    tt_error err;
    unsigned char *buf, *buf2;
    size_t n, n2;
    char pad[3001], text[3200];
    uint32_t lane;
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    rng_state = 77;
    if (!a)
        return;
    lane = tt_trace_lane(a, tt_trace_group(a, tt_trace_intern_cstr(a, "1")),
                         tt_trace_intern_cstr(a, "2"), TT_LANE_THREAD);
    for (int i = 0; i < 12000; i++) {
        int64_t idx = tt_trace_push_event(a, lane);
        tt_event *e = &a->lanes[lane].ev[idx];
        int tn = snprintf(text, sizeof text, "{\"External id\": %d, \"Call stack\": \"%.*s\", "
                                             "\"dims\": [%d, %d], \"x\": %d.%02d}",
                          i * 3, (int)(rnd() % 3000), pad, (int)(rnd() % 64),
                          (int)(rnd() % 9000), (int)(rnd() % 100), (int)(rnd() % 100));
        e->start = 1000 * i;
        e->dur = 500;
        e->name = tt_trace_intern_cstr(a, i % 3 ? "aten::mm" : "aten::add");
        e->corr = (uint32_t)i + 1;
        e->args = tt_args_add(a->args, text, (size_t)tn, "", 0);
    }
    tt_error_clear(&err);
    if (!ok(tt_trace_finalize(a, &err) == 0 && tt_args_raw_bytes(a->args) > ((uint64_t)16 << 20),
            "a trace with %llu bytes of arguments",
            (unsigned long long)tt_args_raw_bytes(a->args))) {
        tt_trace_free(a);
        return;
    }
    a->format = "chrome-json";
    a->compression = "none";
    a->source = strdup("big.json");
    if (!ok(tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode")) {
        tt_trace_free(a);
        return;
    }
    b = decode(buf, n, NULL, &err);
    ok(b && diff_traces(a, b) == 0, "arguments in several chunks come back identical");
    ok(b && tt_snapshot_encode(b, NULL, &buf2, &n2, &err) == 0 && n2 == n &&
           memcmp(buf, buf2, n) == 0,
       "and re-encode to the same bytes");
    if (b)
        free(buf2);
    free(buf);
    tt_trace_free(a);
    tt_trace_free(b);
}

static void test_probe_and_decoder(void)
{
    tt_trace *a = random_trace(3, 1000), *b = NULL;
    unsigned char *buf;
    size_t n;
    tt_error err;
    tt_input *in;
    ok(tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode");
    is_i64(tt_snapshot_probe(buf, n), 100, "probe recognises the magic");
    is_i64(tt_snapshot_probe((const unsigned char *)"{\"traceEvents\":[]}", 18), 0,
           "probe ignores JSON");
    ok(tt_input_open_mem(buf, n, &in, &err) == 0 && tt_load_input(in, NULL, &b, NULL, &err) == 0,
       "tt_load_input detects and opens a snapshot");
    ok(b && strcmp(b->format, "chrome-json") == 0 && b->source_bytes == a->source_bytes,
       "the snapshot keeps the source's format and size");
    ok(b && diff_traces(a, b) == 1, "only the path differs when opened through tt_load_input");
    tt_input_close(in);
    tt_trace_free(b);
    free(buf);
    tt_trace_free(a);
}


/* tt_snapshot_write() streams the sections to the file instead of laying
 * them out in memory first: the file holds exactly the bytes
 * tt_snapshot_encode() gives, and a write that cannot start leaves
 * nothing behind. */
static void test_write_file(void)
{
    tt_trace *a = random_trace(5, 3000);
    unsigned char *buf = NULL, *got = NULL;
    size_t n = 0, m = 0;
    tt_error err;
    char dir[] = "/tmp/tt_snapshot_write_XXXXXX", path[128], bad[160];
    FILE *f;
    long len;
    ok(mkdtemp(dir) != NULL, "temporary directory");
    snprintf(path, sizeof path, "%s/t.ttz", dir);
    snprintf(bad, sizeof bad, "%s/missing/t.ttz", dir);
    ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "encode in memory");
    tt_error_clear(&err);
    ok(a && tt_snapshot_write(a, path, NULL, &err) == 0, "write the file");
    if ((f = fopen(path, "rb")) && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (got = malloc((size_t)len + 1)))
        m = fread(got, 1, (size_t)len, f);
    if (f)
        fclose(f);
    ok(got && m == n && memcmp(got, buf, n) == 0, "the file is the in-memory snapshot, byte for byte");
    tt_error_clear(&err);
    ok(tt_snapshot_write(a, bad, NULL, &err) != 0 && err.code == TT_ERR_IO,
       "a directory that does not exist: an I/O error");
    ok(access(bad, F_OK) != 0, "and no file");
    unlink(path);
    rmdir(dir);
    free(got);
    free(buf);
    tt_trace_free(a);
}

/* ------------------------------------------------------ format 3 blocks */

/* Encode a with blocks of `per` events (the test knob of evblocks.c). */
static int encode_blocks(const tt_trace *a, const char *per, unsigned char **buf, size_t *n,
                         tt_error *err)
{
    int rc;
    setenv("TRACETTY_TTZ_BLOCK_EVENTS", per, 1);
    rc = tt_snapshot_encode(a, NULL, buf, n, err);
    unsetenv("TRACETTY_TTZ_BLOCK_EVENTS");
    return rc;
}

/* Whole decodes of many small blocks, on one thread and on several, come
 * back identical, and encode again to the same bytes. */
static void test_blocks_round_trip(void)
{
    static const char *const pers[] = {"1", "7", "100", "100000"};
    for (size_t k = 0; k < sizeof pers / sizeof pers[0]; k++) {
        tt_trace *a = random_trace(31 + k, 3000), *b = tt_trace_new(), *c = tt_trace_new();
        unsigned char *buf = NULL, *buf2 = NULL;
        size_t n = 0, n2 = 0;
        tt_error err;
        tt_error_clear(&err);
        if (!ok(a && b && c && encode_blocks(a, pers[k], &buf, &n, &err) == 0,
                "blocks of %s: encode (%s)", pers[k], err.what))
            goto next;
        ok(tt_snapshot_decode(buf, n, 1, b, NULL, &err) == 0 && diff_traces(a, b) == 0,
           "blocks of %s: one thread decodes the same trace (%s)", pers[k], err.what);
        ok(tt_snapshot_decode(buf, n, 3, c, NULL, &err) == 0 && diff_traces(a, c) == 0,
           "blocks of %s: three threads decode the same trace (%s)", pers[k], err.what);
        ok(encode_blocks(c, pers[k], &buf2, &n2, &err) == 0 && n2 == n && memcmp(buf, buf2, n) == 0,
           "blocks of %s: encoded again to the same bytes", pers[k]);
    next:
        free(buf);
        free(buf2);
        tt_trace_free(a);
        tt_trace_free(b);
        tt_trace_free(c);
    }
}

/* Lane filter of the partial tests: every lane whose index is odd. */
static int odd_lanes(void *ctx, const tt_trace *tr, unsigned char *keep, tt_error *err)
{
    (void)ctx;
    (void)err;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        keep[l] = l % 2;
    return 0;
}

static bool same_event(const tt_event *x, const tt_event *y)
{
    return x->start == y->start && x->dur == y->dur && x->bytes == y->bytes &&
           x->name == y->name && x->cat == y->cat && x->attrs == y->attrs && x->corr == y->corr &&
           x->depth == y->depth && x->kind == y->kind && x->flags == y->flags;
}

/* A window's load holds, on the lanes asked for, a subsequence of each
 * lane's events (the same events, depths included) that contains every
 * event meeting the window, and no events elsewhere; the index over it
 * answers as over the whole lane. Returns the number of failures. */
static int check_partial(const tt_trace *a, const tt_trace *b, const tt_load_part *part)
{
    int bad = 0;
    tt_ns lo = part->has_from ? a->t0 + part->from : INT64_MIN;
    tt_ns hi = part->has_to ? a->t0 + part->to : INT64_MAX;
    if (b->n_lanes != a->n_lanes || b->n_events != a->n_events || b->t0 != a->t0 ||
        b->t1 != a->t1 || b->lacks != (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_PARTIAL))
        return 1;
    for (uint32_t l = 0; l < a->n_lanes; l++) {
        const tt_lane *la = &a->lanes[l], *lb = &b->lanes[l];
        bool kept = !part->lanes || l % 2;
        size_t j = 0;
        if (lb->max_depth != la->max_depth)
            bad++;
        if (!kept) {
            bad += lb->n != 0;
            continue;
        }
        for (size_t i = 0; i < la->n; i++) {
            const tt_event *e = &la->ev[i];
            bool meets = e->start <= hi && tt_event_end(e) >= lo;
            if (j < lb->n && same_event(e, &lb->ev[j]))
                j++;
            else if (meets)
                bad++;
        }
        bad += j != lb->n;
        if (lb->n && lo != INT64_MIN && hi != INT64_MAX)
            bad += tt_index_busy(lb->ev, lb->n, lo, hi) != tt_index_busy(la->ev, la->n, lo, hi);
    }
    return bad;
}

static void test_blocks_partial(void)
{
    tt_trace *a = random_trace(77, 4000);
    unsigned char *buf = NULL, *buf2 = NULL;
    size_t n, n2;
    tt_error err;
    int loads = 0, fewer = 0, bad = 0;
    tt_error_clear(&err);
    if (!ok(a && encode_blocks(a, "5", &buf, &n, &err) == 0, "encode in blocks of 5"))
        goto out;
    for (int w = 0; w < 40; w++) {
        tt_load_part part;
        tt_trace *b = tt_trace_new();
        tt_ns span = a->t1 - a->t0;
        memset(&part, 0, sizeof part);
        part.has_from = w % 5 != 0;
        part.has_to = w % 7 != 0;
        part.from = (tt_ns)(rnd() % (uint64_t)(span + 1));
        part.to = part.from + (tt_ns)(rnd() % (uint64_t)(span / (1 + w) + 1));
        if (w % 3 == 0)
            part.lanes = odd_lanes;
        if (!b || tt_snapshot_decode_sel(buf, n, (unsigned)(w % 3), TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS,
                                         &part, b, NULL, &err)) {
            bad++;
            diag("window %d: %s", w, err.what);
        } else {
            int k = check_partial(a, b, &part);
            uint64_t held = 0;
            for (uint32_t l = 0; l < b->n_lanes; l++)
                held += b->lanes[l].n;
            fewer += held < a->n_events;
            loads++;
            if (k)
                diag("window %d: %d differences", w, k);
            bad += k != 0;
            if (w == 1)
                ok(tt_snapshot_encode(b, NULL, &buf2, &n2, &err) != 0 &&
                       strstr(err.what, "in part"),
                   "a partial trace is not saved as a snapshot (%s)", err.what);
        }
        tt_trace_free(b);
    }
    is_i64(bad, 0, "%d windows and lane sets hold every event that meets them, as stored", loads);
    ok(fewer > loads / 2, "and most hold fewer events than the trace (%d of %d)", fewer, loads);
    {
        /* with arguments wanted, the part is ignored: a whole trace */
        tt_load_part part;
        tt_trace *b = tt_trace_new();
        memset(&part, 0, sizeof part);
        part.has_to = true;
        part.to = 1;
        ok(b && tt_snapshot_decode_sel(buf, n, 0, TT_TRACE_NO_FLOWS, &part, b, NULL, &err) == 0 &&
               b->lacks == TT_TRACE_NO_FLOWS && b->lanes[0].n == a->lanes[0].n,
           "a part with arguments wanted loads the whole trace");
        tt_trace_free(b);
    }
out:
    free(buf);
    tt_trace_free(a);
}

/* One lane of n slices without arguments: blocks whose frames a test may
 * swap without tripping over argument numbering. */
static tt_trace *one_lane(int n)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g, l;
    if (!tr)
        return NULL;
    g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    l = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    for (int i = 0; i < n; i++) {
        int64_t k = tt_trace_push_event(tr, l);
        tr->lanes[l].ev[k].start = 1000 * i;
        tr->lanes[l].ev[k].dur = 500 + i;
        tr->lanes[l].ev[k].name = tt_trace_intern_cstr(tr, i % 2 ? "a" : "b");
    }
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* A thread lane and an async lane of n random, overlapping events each. */
static tt_trace *two_lanes(uint64_t seed, size_t n)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g, l[2];
    if (!tr)
        return NULL;
    rng_state = seed;
    g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    l[0] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    l[1] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "3"), TT_LANE_ASYNC);
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) {
            int64_t j = tt_trace_push_event(tr, l[k]);
            tt_event *e = &tr->lanes[l[k]].ev[j];
            e->start = rnd_in(0, (int64_t)n * 50);
            e->dur = rnd() % 6 == 0 ? 0 : rnd_in(1, rnd() % 9 == 0 ? (int64_t)n * 40 : 300);
            e->kind = (uint8_t)(e->dur ? TT_EV_SLICE : TT_EV_INSTANT);
            e->name = tt_trace_intern_cstr(tr, i % 3 ? "a" : "b");
        }
    tr->format = "chrome-json";
    tr->compression = "none";
    tr->source = strdup("two-lanes.json");
    if (!tr->source || tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* A whole reopen nests each lane and builds its index in one pass of its
 * own (snapshot.c, nest_index_span): the same depths, max ends and busy
 * times as finalize's tt_lane_nest() and tt_index_build(), at every lane
 * length around the index tree's edges (whole levels, one node more or
 * less), on one thread and on several, in blocks of 7 events and in one. */
static void test_index_sizes(void)
{
    static const size_t sizes[] = {1,   2,   3,   4,   5,   6,   7,   8,    9,    15,   16,
                                   17,  31,  32,  33,  63,  64,  65,  100,  127,  128,  129,
                                   255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 4097};
    int bad = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int per = 0; per < 2; per++) {
            tt_trace *a = two_lanes(77 + k, sizes[k]), *b = tt_trace_new();
            unsigned char *buf = NULL;
            size_t n = 0;
            tt_error err;
            tt_error_clear(&err);
            if (!a || !b || encode_blocks(a, per ? "7" : "100000", &buf, &n, &err) ||
                tt_snapshot_decode(buf, n, per ? 3 : 1, b, NULL, &err) || diff_traces(a, b)) {
                printf("# %zu events a lane, blocks of %s: %s\n", sizes[k], per ? "7" : "100000",
                       err.what);
                bad++;
            }
            free(buf);
            tt_trace_free(a);
            tt_trace_free(b);
        }
    ok(bad == 0, "nesting and index of a reopen are finalize's at every lane length (%d differ)",
       bad);
}

static uint64_t get_varint(const unsigned char **p)
{
    uint64_t v = 0;
    for (int sh = 0;; sh += 7) {
        unsigned char c = *(*p)++;
        v |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80))
            return v;
    }
}

static void put_varint(unsigned char **p, uint64_t v)
{
    while (v >= 0x80) {
        *(*p)++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *(*p)++ = (unsigned char)v;
}

/* Decode sections sec[] reassembled; true when it fails naming `want`. */
static bool refused(unsigned char *sec[], const size_t len[], const char *want, tt_error *err)
{
    unsigned char *f = NULL;
    size_t fn = 0;
    tt_trace *b = NULL;
    bool r = tt_snapshot_assemble((const unsigned char *const *)sec, len, &f, &fn, err) == 0 &&
             !(b = decode(f, fn, NULL, err)) && err->code == TT_ERR_FORMAT &&
             strstr(err->what, want) != NULL;
    tt_trace_free(b);
    free(f);
    return r;
}

/* The index and blocks checked: an index cut short, a block that would lie
 * past the end of the events, a block whose frame holds another count of
 * events than its index entry says; each one positioned error. */
static void test_blocks_corrupt(void)
{
    enum { SEC_EVENTS = 7, SEC_INDEX = 10 };
    tt_trace *a = one_lane(10);
    unsigned char *buf = NULL, *sec[TT_SNAPSHOT_SECTIONS];
    size_t n, len[TT_SNAPSHOT_SECTIONS];
    tt_error err;
    memset(sec, 0, sizeof sec);
    tt_error_clear(&err);
    if (!ok(a && encode_blocks(a, "4", &buf, &n, &err) == 0, "one lane of 10 events in blocks of 4"))
        goto out;
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        if (tt_snapshot_section(buf, n, id, &sec[id], &len[id], &err))
            goto out;
    ok(!refused(sec, len, "corrupt", &err), "its sections reassemble to a good snapshot");
    len[SEC_INDEX] -= 2;
    ok(refused(sec, len, "event index section: truncated", &err),
       "an index cut short: %s", err.what);
    len[SEC_INDEX] += 2;
    len[SEC_EVENTS] -= 1;
    ok(refused(sec, len, "block offset past the end", &err) && err.offset > 0,
       "events one byte short: %s (at byte %lld)", err.what, (long long)err.offset);
    len[SEC_EVENTS] += 1;
    {
        /* index: B, unit, max depth, then 7 fields per block (3 blocks:
         * 4, 4 and 2 events); the last block gets the first one's frame */
        const unsigned char *p = sec[SEC_INDEX];
        uint64_t f[3][7], per, unit, depth;
        unsigned char *idx = malloc(len[SEC_INDEX] + 64), *q = idx;
        unsigned char *ev = malloc(len[SEC_EVENTS] + 64);
        size_t at = 0, first_len;
        per = get_varint(&p);
        unit = get_varint(&p);
        depth = get_varint(&p);
        for (int k = 0; k < 3; k++)
            for (int m = 0; m < 7; m++)
                f[k][m] = get_varint(&p);
        first_len = (size_t)f[0][3];
        memcpy(ev, sec[SEC_EVENTS], (size_t)(f[0][3] + f[1][3]));
        memcpy(ev + f[0][3] + f[1][3], sec[SEC_EVENTS], first_len);
        at = (size_t)(f[0][3] + f[1][3]) + first_len;
        f[2][3] = f[0][3];   /* stored, raw, crc of the first block's frame */
        f[2][4] = f[0][4];
        f[2][5] = f[0][5];
        put_varint(&q, per);
        put_varint(&q, unit);
        put_varint(&q, depth);
        for (int k = 0; k < 3; k++)
            for (int m = 0; m < 7; m++)
                put_varint(&q, f[k][m]);
        free(sec[SEC_INDEX]);
        free(sec[SEC_EVENTS]);
        sec[SEC_INDEX] = idx;
        len[SEC_INDEX] = (size_t)(q - idx);
        sec[SEC_EVENTS] = ev;
        len[SEC_EVENTS] = at;
        ok(per == 4 && refused(sec, len, "events section: block 2 (lane 0): its columns do not hold",
                               &err) && err.offset > 0,
           "a block of 4 events where 2 belong: %s (at byte %lld)", err.what,
           (long long)err.offset);
    }
out:
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        free(sec[id]);
    free(buf);
    tt_trace_free(a);
}

int main(void)
{
    test_args_append();
    test_args_threads();
    test_round_trips();
    test_probe_and_decoder();
    test_write_file();
    test_partial();
    test_corruption();
    test_other_version();
    test_cache_other_version();
    test_cache_stale_first();
    test_big_arguments();
    test_semantic_corruption();
    /* again with blocks of 3 events: flips and cuts in many blocks */
    setenv("TRACETTY_TTZ_BLOCK_EVENTS", "3", 1);
    test_corruption();
    test_semantic_corruption();
    unsetenv("TRACETTY_TTZ_BLOCK_EVENTS");
    test_blocks_round_trip();
    test_blocks_partial();
    test_blocks_corrupt();
    test_index_sizes();
    return tap_done();
}
