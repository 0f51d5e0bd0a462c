/* test_argslazy.c - a snapshot's argument records rebuilt on first read
 * (src/snapshot/argslazy.h): a reopen rebuilds none of them; every record
 * read afterwards (in any order, from two threads at once) is the one the
 * original event held, across several chunks and many small event blocks
 * (records found again from the marks); and a corrupt arguments section,
 * valid behind its checksums, still loads but fails the reads of the
 * chunks it spoils with one positioned error, which a lenient fetch of
 * argument values (as the rules do) reports too, while the chunks it
 * leaves intact read back unchanged. Prefetching (tt_args_prefetch, as
 * argument value fetches do) rebuilds the chunks up front on two threads
 * and changes nothing the reads return, the corrupt chunk's error
 * included. Filtering (tt_args_filter) tells records that hold none of a
 * few keys from the chunks' templates without rebuilding them, and
 * argument value fetches then find the same values as in the original.
 * The argument templates section lets filters answer without opening
 * the arguments section; files without it answer the same; a corrupt
 * one is refused at the reopen with a positioned error.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"

#include "analysis/argvals.h"
#include "snapshot/argcols.h"
#include "snapshot/snapshot.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS 15000

static uint64_t rng_state = 7;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rng_state);
}

/* Three lanes of events, most with a record of their own (long enough for
 * the records to fill more than one 16 MB chunk), some sharing an earlier
 * event's record, some without. */
static tt_trace *make_trace(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t lanes[3], g;
    char pad[3001], text[3300];
    if (!tr)
        return NULL;
    memset(pad, 'p', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    for (int l = 0; l < 3; l++) {
        char key[8];
        snprintf(key, sizeof key, "%d", l);
        lanes[l] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, key), TT_LANE_THREAD);
    }
    for (int i = 0; i < EVENTS; i++) {
        uint32_t lane = lanes[rnd() % 3];
        int64_t idx = tt_trace_push_event(tr, lane);
        tt_event *e = &tr->lanes[lane].ev[idx];
        e->start = 1000 * (int64_t)i;
        e->dur = 400;
        e->name = tt_trace_intern_cstr(tr, i % 4 ? "aten::mm" : "Memcpy HtoD");
        e->corr = (uint32_t)i + 1;
        e->bytes = i % 4 ? -1 : 4096;
        if (i % 11 == 5 && i > 20) {
            /* an earlier event's record, on whatever lane */
            uint32_t l2 = lanes[rnd() % 3];
            if (tr->lanes[l2].n > 1)
                e->args = tr->lanes[l2].ev[rnd() % (tr->lanes[l2].n - 1)].args;
        } else if (i % 13 != 0) {
            int tn = snprintf(text, sizeof text,
                              "{\"External id\": %d, \"Call stack\": \"%.*s\", \"src\": \"%s\"}",
                              i * 3, (int)(rnd() % 4) * 866, pad, i % 2 ? "HBM" : "SBUF");
            e->args = tt_args_add(tr->args, text, (size_t)tn, i % 5 ? "" : "{\"k\": 1}",
                                  i % 5 ? 0 : 8);
        }
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    tr->format = "chrome-json";
    tr->compression = "none";
    tr->source = strdup("lazy.json");
    return tr;
}

/* Whether event i of lane l has the same record in a and b (both readers
 * of the stores of a and b); -1 when b's cannot be read. */
static int same_record(tt_args_reader *ra, tt_args_reader *rb, const tt_event *ea,
                       const tt_event *eb)
{
    const char *a1, *a2, *b1, *b2;
    size_t an1, an2, bn1, bn2;
    if (!ea->args || !eb->args)
        return !ea->args && !eb->args;
    if (tt_args_read(rb, eb->args, &b1, &bn1, &b2, &bn2))
        return -1;
    if (tt_args_read(ra, ea->args, &a1, &an1, &a2, &an2))
        return 0;
    return an1 == bn1 && an2 == bn2 && memcmp(a1, b1, an1) == 0 && memcmp(a2, b2, an2) == 0;
}

typedef struct walk {
    const tt_trace *a, *b;
    bool            backwards;
    size_t          same, differ, unreadable;
} walk;

/* Every event's record compared, lanes forwards or backwards. */
static void *walk_run(void *p)
{
    walk *w = p;
    tt_args_reader ra, rb;
    tt_args_reader_init(&ra, w->a->args);
    tt_args_reader_init(&rb, w->b->args);
    for (uint32_t k = 0; k < w->a->n_lanes; k++) {
        uint32_t l = w->backwards ? w->a->n_lanes - 1 - k : k;
        for (size_t j = 0; j < w->a->lanes[l].n; j++) {
            size_t i = w->backwards ? w->a->lanes[l].n - 1 - j : j;
            int s = same_record(&ra, &rb, &w->a->lanes[l].ev[i], &w->b->lanes[l].ev[i]);
            if (s > 0)
                w->same++;
            else if (s == 0)
                w->differ++;
            else
                w->unreadable++;
        }
    }
    tt_args_reader_fini(&ra);
    tt_args_reader_fini(&rb);
    return NULL;
}

static tt_trace *decode(const unsigned char *buf, size_t n, tt_error *err)
{
    tt_trace *tr = tt_trace_new();
    tt_error_clear(err);
    if (tr && tt_snapshot_decode(buf, n, 0, tr, NULL, err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* The file offset of section id, from the table. */
static int64_t section_offset(const unsigned char *f, unsigned id)
{
    uint32_t n, sid;
    uint64_t off;
    memcpy(&n, f + 12, 4);
    for (uint32_t i = 0; i < n; i++) {
        memcpy(&sid, f + 32 + 36 * i, 4);
        if (sid == id) {
            memcpy(&off, f + 32 + 36 * i + 8, 8);
            return (int64_t)off;
        }
    }
    return -1;
}

enum { SEC_ARGS = 4, SEC_ARGTMPL = 12 };

static void test_intact(const tt_trace *a, const unsigned char *buf, size_t n)
{
    tt_error err;
    tt_trace *b = decode(buf, n, &err);
    walk w[2];
    pthread_t th;
    if (!ok(b != NULL, "the snapshot reopens: %s", b ? "" : err.what))
        return;
    ok(tt_args_count(b->args) > 0 && tt_args_raw_bytes(b->args) == 0,
       "%u records, none rebuilt by the reopen", (unsigned)tt_args_count(b->args));
    memset(w, 0, sizeof w);
    w[0].a = w[1].a = a;
    w[0].b = w[1].b = b;
    w[1].backwards = true;
    /* two readers at once, from opposite ends: each rebuilds chunks the
     * other may be rebuilding or reading */
    if (pthread_create(&th, NULL, walk_run, &w[1]) == 0) {
        walk_run(&w[0]);
        pthread_join(th, NULL);
    } else {
        walk_run(&w[0]);
        walk_run(&w[1]);
    }
    ok(w[0].differ == 0 && w[0].unreadable == 0 && w[0].same == (size_t)EVENTS,
       "every event's record reads back the same, first to last (%zu same, %zu differ, %zu "
       "unreadable)",
       w[0].same, w[0].differ, w[0].unreadable);
    ok(w[1].differ == 0 && w[1].unreadable == 0 && w[1].same == (size_t)EVENTS,
       "and last to first, at the same time");
    ok(tt_args_raw_bytes(b->args) == tt_args_raw_bytes(a->args),
       "all records rebuilt now: %llu bytes, as the original's",
       (unsigned long long)tt_args_raw_bytes(b->args));
    ok(tt_args_error(b->args, &err) == 0, "and no error");
    tt_trace_free(b);
}

/* Ask b's store to prefetch every record (each handle twice: repeats are
 * allowed), on two threads. */
static void prefetch_all(const tt_trace *b)
{
    uint32_t n = tt_args_count(b->args);
    uint32_t *h = malloc(((size_t)n * 2 + 1) * sizeof *h);
    if (!h)
        return;
    for (uint32_t i = 0; i < n * 2; i++)
        h[i] = i / 2 + 1;
    tt_args_prefetch(b->args, h, (size_t)n * 2, 2);
    free(h);
}

/* Prefetched chunks: the store still holds none of them until read, and
 * every record reads back the same. */
static void test_prefetch(const tt_trace *a, const unsigned char *buf, size_t n)
{
    tt_error err;
    tt_trace *b = decode(buf, n, &err);
    walk w;
    if (!ok(b != NULL, "the snapshot reopens for a prefetch"))
        return;
    prefetch_all(b);
    ok(tt_args_raw_bytes(b->args) == 0, "prefetched chunks wait for their first read");
    prefetch_all(b);   /* again: nothing to do, nothing lost */
    memset(&w, 0, sizeof w);
    w.a = a;
    w.b = b;
    walk_run(&w);
    ok(w.differ == 0 && w.unreadable == 0 && w.same == (size_t)EVENTS,
       "after a prefetch every event's record reads back the same (%zu same, %zu differ, %zu "
       "unreadable)",
       w.same, w.differ, w.unreadable);
    ok(tt_args_raw_bytes(b->args) == tt_args_raw_bytes(a->args) &&
           tt_args_error(b->args, &err) == 0,
       "all records in the store, no error");
    prefetch_all(b);   /* every chunk given: a no-op */
    tt_trace_free(b);
}

/* The events of tr with a byte count, in lane order (as the rules ask). */
static const tt_event **transfers(const tt_trace *tr, size_t *n)
{
    const tt_event **ev = malloc(((size_t)EVENTS + 1) * sizeof *ev);
    *n = 0;
    for (uint32_t l = 0; ev && l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++)
            if (tr->lanes[l].ev[i].bytes >= 0)
                ev[(*n)++] = &tr->lanes[l].ev[i];
    return ev;
}

/* Filtering (tt_args_filter, as argument value fetches do): keys no
 * record holds are answered from the chunks' templates, rebuilding none;
 * keys some record holds give the values the original trace gives. */
static void test_filter(const tt_trace *a, const unsigned char *buf, size_t n)
{
    static const char *const absent[] = {"src_addr", "address"};
    static const char *const present[] = {"src", "k"};
    tt_error err;
    tt_trace *b = decode(buf, n, &err);
    const tt_event **ea = NULL, **eb = NULL;
    size_t na = 0, nb = 0, same = 0, found = 0;
    tt_argvals va, vb;
    uint32_t count, *h = NULL;
    unsigned char *maybe = NULL;
    if (!ok(b != NULL, "the snapshot reopens for a filter"))
        return;
    ea = transfers(a, &na);
    eb = transfers(b, &nb);
    count = tt_args_count(b->args);
    h = malloc(((size_t)count + 1) * sizeof *h);
    maybe = malloc((size_t)count + 1);
    if (!ok(ea && eb && h && maybe && na == nb && na > 0, "%zu transfers in both", na))
        goto out;
    for (uint32_t i = 0; i < count; i++)
        h[i] = i + 1;
    {
        static const char *const nope[] = {"\"nope\"", "\\"};
        static const char *const src[] = {"\"src\""};
        static const char *const digit[] = {"\"External id\": 3"};
        size_t zeros = 0;
        ok(tt_args_filter(b->args, h, count, nope, 2, maybe) == 0 &&
               memchr(maybe, 1, count) == NULL,
           "a needle no record holds: every record passed over");
        ok(tt_args_filter(b->args, h, count, src, 1, maybe) == 0 &&
               memchr(maybe, 0, count) == NULL,
           "a needle every chunk holds: no record passed over");
        ok(tt_args_filter(b->args, h, count, digit, 1, maybe) == 0 &&
               memchr(maybe, 0, count) == NULL,
           "a needle with a digit (numbers are cut out of templates): none passed over");
        for (uint32_t i = 0; i < count; i++)
            zeros += maybe[i] == 0;
        ok(tt_args_raw_bytes(b->args) == 0, "no chunk rebuilt to tell (%zu)", zeros);
    }
    if (ok(tt_argvals_fetch(b, eb, nb, absent, 2, false, &vb, &err) == 0,
           "a fetch of keys no record holds")) {
        size_t none = 0;
        for (size_t i = 0; i < nb; i++)
            none += !tt_argvals_get(&vb, i, 0, NULL) && !tt_argvals_get(&vb, i, 1, NULL);
        ok(none == nb && vb.blocks_read == 0 && tt_args_raw_bytes(b->args) == 0,
           "finds none of them, reading no block (%llu) and rebuilding no chunk",
           (unsigned long long)vb.blocks_read);
        tt_argvals_fini(&vb);
    }
    if (ok(tt_argvals_fetch(a, ea, na, present, 2, false, &va, &err) == 0 &&
               tt_argvals_fetch(b, eb, nb, present, 2, false, &vb, &err) == 0,
           "a fetch of keys records hold, in the original and the reopened trace")) {
        for (size_t i = 0; i < na; i++) {
            bool match = true;
            for (size_t k = 0; k < 2; k++) {
                const char *x = tt_argvals_get(&va, i, k, NULL), *y = tt_argvals_get(&vb, i, k, NULL);
                match = match && (x ? y && strcmp(x, y) == 0 : !y);
                found += x != NULL;
            }
            same += match;
        }
        ok(same == na && found > na / 2, "the same values (%zu of %zu events, %zu found)", same,
           na, found);
        ok(tt_args_raw_bytes(b->args) > 0, "the chunks holding them rebuilt");
        tt_argvals_fini(&va);
        tt_argvals_fini(&vb);
    }
    /* a rebuilt chunk is not told from its templates: it says "may hold" */
    {
        static const char *const nope[] = {"\"nope\""};
        ok(tt_args_filter(b->args, h, 1, nope, 1, maybe) == 0 && maybe[0] == 1,
           "a record of a rebuilt chunk is never passed over");
    }
out:
    free(ea);
    free(eb);
    free(h);
    free(maybe);
    tt_trace_free(b);
}

/* A snapshot whose section id has the payload `payload` (NULL: the file
 * has no such section), the rest as in buf. */
static unsigned char *with_section(const unsigned char *buf, size_t n, unsigned id_set,
                                   const unsigned char *payload, size_t plen, size_t *out_n)
{
    unsigned char *sec[TT_SNAPSHOT_SECTIONS], *out = NULL;
    size_t len[TT_SNAPSHOT_SECTIONS];
    tt_error err;
    bool all = true;
    memset(sec, 0, sizeof sec);
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        all = all && tt_snapshot_section(buf, n, id, &sec[id], &len[id], &err) == 0;
    if (all) {
        free(sec[id_set]);
        sec[id_set] = NULL;
        if (payload) {
            sec[id_set] = malloc(plen ? plen : 1);
            memcpy(sec[id_set], payload, plen);
            len[id_set] = plen;
        }
        if (tt_snapshot_assemble((const unsigned char *const *)sec, len, &out, out_n, &err))
            out = NULL;
    }
    for (unsigned id = 1; id < TT_SNAPSHOT_SECTIONS; id++)
        free(sec[id]);
    return out;
}

static unsigned char *with_args(const unsigned char *buf, size_t n, const unsigned char *payload,
                                size_t plen, size_t *out_n)
{
    return with_section(buf, n, SEC_ARGS, payload, plen, out_n);
}

/* The reads of a corrupt section fail with one positioned error. */
static void check_failure(const char *label, const tt_trace *b, const unsigned char *file)
{
    tt_error err, again;
    tt_args_reader r;
    const char *x, *y;
    size_t xn, yn;
    int64_t off = section_offset(file, SEC_ARGS);
    uint32_t last = tt_args_count(b->args);
    tt_args_reader_init(&r, b->args);
    ok(tt_args_read(&r, last, &x, &xn, &y, &yn) == -1, "%s: the last record cannot be read",
       label);
    tt_error_clear(&err);
    ok(tt_args_error(b->args, &err) == 1 && err.code == TT_ERR_FORMAT &&
           err.pos == TT_POS_OFFSET && err.offset == off && off > 0 &&
           strstr(err.what, "corrupt snapshot: arguments section at byte") == err.what,
       "%s: a positioned error at the section (byte %lld): %s", label, (long long)off, err.what);
    tt_error_clear(&again);
    ok(tt_args_read(&r, last, &x, &xn, &y, &yn) == -1 && tt_args_error(b->args, &again) == 1 &&
           strcmp(again.what, err.what) == 0,
       "%s: and again on the next read", label);
    tt_args_reader_fini(&r);
    {
        /* the rules' lenient fetch: the file's error, not "no arguments" */
        const tt_event *ev[1];
        static const char *const keys[] = {"src"};
        tt_argvals av;
        const tt_lane *ln = NULL;
        for (uint32_t l = 0; l < b->n_lanes && !ln; l++)
            for (size_t i = 0; i < b->lanes[l].n; i++)
                if (b->lanes[l].ev[i].args == last) {
                    ln = &b->lanes[l];
                    ev[0] = &ln->ev[i];
                    break;
                }
        tt_error_clear(&again);
        ok(ln && tt_argvals_fetch(b, ev, 1, keys, 1, false, &av, &again) == -2 &&
               strcmp(again.what, err.what) == 0 && again.offset == off,
           "%s: a lenient fetch of argument values fails with it", label);
        tt_argvals_fini(&av);
    }
}

static void test_corrupt(const tt_trace *a, const unsigned char *buf, size_t n)
{
    unsigned char *raw, *bad, *file;
    size_t len, fn;
    tt_argcols_chunk *ch = NULL;
    uint32_t nch = 0;
    const char *what;
    tt_error err;
    tt_trace *b;
    (void)a;
    if (!ok(tt_snapshot_section(buf, n, SEC_ARGS, &raw, &len, &err) == 0, "the arguments payload"))
        return;
    bad = malloc(len);

    /* 1: a record count that does not match the meta section's */
    memcpy(bad, raw, len);
    bad[0] ^= 1;
    file = with_args(buf, n, bad, len, &fn);
    b = file ? decode(file, fn, &err) : NULL;
    if (ok(b != NULL, "a bad chunk table still reopens (nothing reads it)")) {
        check_failure("bad chunk table", b, file);
        tt_trace_free(b);
    }
    free(file);

    /* 2: the second chunk's own record count spoiled: the first chunk's
     * records read back unchanged, the second's fail */
    {
        tt_trace *ok_b;
        uint64_t records;
        tt_rd r = {raw, raw + len, false};
        records = tt_rd_varint(&r);
        if (ok(tt_argcols_chunks(raw, len, (uint32_t)records, &ch, &nch, &what) == 0 && nch >= 2,
               "%u chunks of records", (unsigned)nch)) {
            memcpy(bad, raw, len);
            bad[ch[1].off] ^= 1;
            file = with_args(buf, n, bad, len, &fn);
            b = file ? decode(file, fn, &err) : NULL;
            ok_b = decode(buf, n, &err);
            if (ok(b && ok_b, "a spoiled second chunk still reopens")) {
                tt_args_reader rb;
                const char *x, *y, *x2, *y2;
                size_t xn, yn, xn2, yn2;
                bool first_ok = true;
                tt_args_reader ro;
                tt_args_reader_init(&rb, b->args);
                tt_args_reader_init(&ro, ok_b->args);
                for (uint32_t h = 1; h <= ch[0].n && first_ok; h++)
                    first_ok = tt_args_read(&rb, h, &x, &xn, &y, &yn) == 0 &&
                               tt_args_read(&ro, h, &x2, &xn2, &y2, &yn2) == 0 && xn == xn2 &&
                               yn == yn2 && memcmp(x, x2, xn) == 0 && memcmp(y, y2, yn) == 0;
                ok(first_ok, "the first chunk's %u records read back unchanged",
                   (unsigned)ch[0].n);
                tt_args_reader_fini(&rb);
                tt_args_reader_fini(&ro);
                check_failure("spoiled second chunk", b, file);
            }
            tt_trace_free(b);
            /* the same after a prefetch: the first chunk is ready, the
             * second left to the read, which fails as before */
            b = file ? decode(file, fn, &err) : NULL;
            if (ok(b != NULL, "a spoiled second chunk reopens for a prefetch")) {
                tt_args_reader rb;
                const char *x, *y;
                size_t xn, yn;
                prefetch_all(b);
                tt_args_reader_init(&rb, b->args);
                ok(tt_args_read(&rb, 1, &x, &xn, &y, &yn) == 0 &&
                       tt_args_error(b->args, &err) == 0,
                   "prefetched: the first chunk reads, no error yet");
                tt_args_reader_fini(&rb);
                check_failure("spoiled second chunk, prefetched", b, file);
                tt_trace_free(b);
            }
            tt_trace_free(ok_b);
            free(file);
        }
    }
    free(ch);
    free(bad);
    free(raw);
}

/* Keys no record holds, asked of b: none found, no chunk rebuilt. */
static bool fetch_none(const tt_trace *b)
{
    static const char *const absent[] = {"src_addr", "address"};
    size_t n = 0, none = 0;
    const tt_event **ev = transfers(b, &n);
    tt_argvals v;
    tt_error err;
    if (!ev || tt_argvals_fetch(b, ev, n, absent, 2, false, &v, &err)) {
        free(ev);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        none += !tt_argvals_get(&v, i, 0, NULL) && !tt_argvals_get(&v, i, 1, NULL);
    tt_argvals_fini(&v);
    free(ev);
    return n > 0 && none == n && tt_args_raw_bytes(b->args) == 0;
}

/* The argument templates section (argtmplsec.h): filters answer from it
 * without opening the arguments section (a spoiled one goes unnoticed
 * until a read needs it); a file without it (as written before) answers
 * the same from the arguments section; a corrupt one is refused at the
 * reopen with a positioned error; one that cuts the records otherwise
 * than the arguments section fails the reads. */
static void test_templates(const unsigned char *buf, size_t n)
{
    unsigned char *raw = NULL, *traw = NULL, *bad = NULL, *file;
    size_t len = 0, tlen = 0, fn;
    tt_error err;
    tt_trace *b;
    bool both = tt_snapshot_section(buf, n, SEC_ARGTMPL, &traw, &tlen, &err) == 0 &&
                tt_snapshot_section(buf, n, SEC_ARGS, &raw, &len, &err) == 0;
    if (!ok(both,
            "the writer saves the argument templates (%zu bytes for %zu of arguments)", tlen,
            len) ||
        !ok(tlen <= 64 << 10, "at most 64 KiB"))
        goto out;
    bad = malloc(len > tlen ? len : tlen);

    /* a spoiled chunk table in the arguments section: the filter answers */
    memcpy(bad, raw, len);
    bad[0] ^= 1;
    file = with_args(buf, n, bad, len, &fn);
    b = file ? decode(file, fn, &err) : NULL;
    if (ok(b != NULL, "spoiled arguments, intact templates: reopens")) {
        ok(fetch_none(b) && tt_args_error(b->args, &err) == 0,
           "a fetch of keys no record holds answers from the templates alone");
        check_failure("spoiled arguments, intact templates", b, file);
    }
    tt_trace_free(b);
    free(file);

    /* no templates section: the same answer, from the arguments section */
    file = with_section(buf, n, SEC_ARGTMPL, NULL, 0, &fn);
    b = file ? decode(file, fn, &err) : NULL;
    if (ok(b != NULL, "a file without the templates section reopens"))
        ok(fetch_none(b), "and a fetch of keys no record holds rebuilds no chunk either");
    tt_trace_free(b);
    free(file);

    /* a corrupt templates section: refused where it lies */
    {
        static const struct { size_t at; const char *what; } spoil[] = {
            {0, "record count"}, {(size_t)-1, "extra data"},
        };
        for (size_t k = 0; k < sizeof spoil / sizeof spoil[0]; k++) {
            size_t bl = tlen;
            memcpy(bad, traw, tlen);
            if (spoil[k].at == (size_t)-1)
                bad[bl++] = 7;   /* a byte too many */
            else
                bad[spoil[k].at] ^= 1;
            file = with_section(buf, n, SEC_ARGTMPL, bad, bl, &fn);
            b = file ? decode(file, fn, &err) : NULL;
            ok(file && !b && err.code == TT_ERR_FORMAT && err.pos == TT_POS_OFFSET &&
                   err.offset == section_offset(file, SEC_ARGTMPL) &&
                   strstr(err.what, "argument templates") && strstr(err.what, spoil[k].what),
               "a corrupt templates section (%s) is refused at its offset: %s", spoil[k].what,
               b ? "reopened" : err.what);
            tt_trace_free(b);
            free(file);
        }
    }

    /* templates cutting the records otherwise (one chunk of them all): the
     * first read opens the arguments section and finds they disagree */
    {
        tt_wbuf w = {0};
        tt_rd r = {raw, raw + len, false};
        uint32_t records = tt_rd_u32(&r);
        tt_wbuf_varint(&w, records);
        tt_wbuf_varint(&w, 1);
        tt_wbuf_varint(&w, records);
        tt_wbuf_varint(&w, 0);
        file = with_section(buf, n, SEC_ARGTMPL, w.p, w.n, &fn);
        b = file ? decode(file, fn, &err) : NULL;
        if (ok(b != NULL, "templates cut otherwise: reopens")) {
            tt_args_reader rd;
            const char *x, *y;
            size_t xn, yn;
            tt_args_reader_init(&rd, b->args);
            ok(tt_args_read(&rd, 1, &x, &xn, &y, &yn) == -1 &&
                   tt_args_error(b->args, &err) == 1 && err.pos == TT_POS_OFFSET &&
                   err.offset == section_offset(file, SEC_ARGS),
               "and its first read fails with a positioned error: %s", err.what);
            tt_args_reader_fini(&rd);
        }
        tt_trace_free(b);
        free(file);
        tt_wbuf_free(&w);
    }
out:
    free(bad);
    free(raw);
    free(traw);
}

int main(void)
{
    tt_trace *a;
    unsigned char *buf;
    size_t n;
    tt_error err;
    /* small event blocks: many marks to start the search for a chunk's
     * events from */
    setenv("TRACETTY_TTZ_BLOCK_EVENTS", "64", 1);
    /* the argument templates kept however small the payload */
    setenv("TRACETTY_TTZ_ARGTMPL_FROM", "0", 1);
    a = make_trace();
    if (!ok(a && tt_snapshot_encode(a, NULL, &buf, &n, &err) == 0, "a trace of %d events encoded",
            EVENTS))
        return tap_done();
    test_intact(a, buf, n);
    test_prefetch(a, buf, n);
    test_filter(a, buf, n);
    test_templates(buf, n);
    test_corrupt(a, buf, n);
    free(buf);
    tt_trace_free(a);
    return tap_done();
}
