/* test_argsnote.c - the Chrome decoder hands each record's args keys to
 * the argument store (tt_args_add_noted) instead of the store scanning
 * the text: the key summaries, and so every tt_args_filter() answer, must
 * be exactly those of a store given the same texts by tt_args_add().
 *
 * Traps: nested objects with keys, arrays of numbers and of strings,
 * escapes in keys and values, NUL bytes in keys and in short and long
 * values, whitespace before the colon, more keys than a note holds, a
 * second "args" member, unknown members (the extra text), E events with
 * arguments.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "decode/decode.h"
#include "model/args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static const char *const vocab[] = {
    "External id", "correlation", "src", "src_addr", "address", "dest", "a", "bytes",
    "registers per thread", "a rather long key that runs past sixteen bytes", "grid", "",
};
#define N_VOCAB (sizeof vocab / sizeof vocab[0])
static const char *const absent[] = {"source", "dst", "sr", "src_", "External", "deep"};
#define N_ABSENT (sizeof absent / sizeof absent[0])

typedef struct buf {
    char  *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
}

#define PUTL(b, lit) put((b), lit, sizeof lit - 1)

static void putf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(b, tmp, (size_t)n);
}

/* One args member of kind k for key. */
static void member(buf *b, const char *key, const char *inner, unsigned i)
{
    int kind = (int)(rnd() % 12);
    switch (kind) {
    case 0: putf(b, "\"%s\" \n\t: %u", key, i); break;
    case 1: putf(b, "\"%s\": \"%s\"", key, absent[rnd() % N_ABSENT]); break;
    case 2: putf(b, "\"%s\": {\"in\": [1, {\"%s\": 2}]}", key, inner); break;
    case 3: putf(b, "\"%s\": [1, 1, %u]", key, i % 7); break;
    case 4: putf(b, "\"%s\": [\"x\", \"y\"]", key); break;
    case 5: putf(b, "\"%s\": true", key); break;
    default: putf(b, "\"%s\":%u", key, i % 97); break;
    }
}

/* A trace of n events; record texts vary their keys every 300 events. */
static void make_trace(buf *b, unsigned n)
{
    PUTL(b, "{\"traceEvents\":[");
    for (unsigned i = 0; i < n; i++) {
        size_t base = (i / 300) % N_VOCAB, nk = 1 + rnd() % 4;
        const char *ph = i % 50 == 7 ? "E" : i % 50 == 6 ? "B" : "X";
        if (i)
            PUTL(b, ",\n");
        putf(b, "{\"ph\":\"%s\",\"name\":\"n%u\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":1",
             ph, i % 5, i % 3, i * 10);
        if (i % 17 == 0)
            putf(b, ",\"unknown\":{\"%s\":1}", vocab[(base + 2) % N_VOCAB]);
        if (i % 211 == 0)   /* a first args object the second replaces */
            putf(b, ",\"args\":{\"deep\":1}");
        if (i % 41 == 40) {
            PUTL(b, "}");
            continue;   /* no args */
        }
        PUTL(b, ",\"args\":{");
        if (i % 97 == 13)
            nk = 30;   /* more keys than a note holds */
        for (size_t k = 0; k < nk; k++) {
            const char *key = vocab[(base + rnd() % 3) % N_VOCAB];
            if (k && rnd() % 2)
                PUTL(b, ", ");
            else if (k)
                PUTL(b, ",");
            member(b, key, vocab[(base + rnd() % 3) % N_VOCAB], i);
        }
        /* each trap makes its block (about 1000 events) answer "may
         * hold" for every key: one a block, every other block */
        switch (i) {
        case 500: PUTL(b, ",\"sour\\u0063e\":1"); break;            /* escaped key */
        case 2500: PUTL(b, ",\"v\":\"a\\nb\""); break;              /* escaped value */
        case 4500: PUTL(b, ",\"dst\0x\":1"); break;                  /* NUL in a key */
        case 6500: PUTL(b, ",\"v\":\"ab\0c\""); break;               /* NUL, short value */
        case 8500: PUTL(b, ",\"v\":\"a value longer than sixteen bytes \0 with a NUL\""); break;
        case 10500: PUTL(b, ",\"v\":[\"a\\\\b\"]"); break;          /* escape, nested */
        }
        PUTL(b, "}}");
    }
    PUTL(b, "]}");
}

int main(void)
{
    buf b = {0};
    tt_input *in;
    tt_trace *tr = NULL;
    tt_load_opts o = {0};
    tt_error err;
    tt_args *ref;
    tt_args_reader r;
    uint32_t n, *h;
    unsigned char *m1, *m2;
    size_t differ = 0, passed = 0, asked = 0;

    make_trace(&b, 12000);
    o.threads = 1;
    tt_error_clear(&err);
    if (tt_input_open_mem(b.s, b.n, &in, &err) || tt_load_input(in, &o, &tr, NULL, &err) || !tr) {
        diag("load failed: %s (line %lld col %lld)", err.what, (long long)err.line,
             (long long)err.column);
        ok(0, "trace loads");
        return tap_done();
    }
    tt_input_close(in);
    n = tt_args_count(tr->args);
    ok(n > 11000, "records stored (%u)", n);

    /* the same texts, scanned by the store */
    ref = tt_args_new();
    tt_args_reader_init(&r, tr->args);
    for (uint32_t i = 1; i <= n; i++) {
        const char *a, *x;
        size_t an, xn;
        if (tt_args_read(&r, i, &a, &an, &x, &xn) || tt_args_add(ref, a, an, x, xn) != i) {
            ok(0, "record %u read back and stored again", i);
            break;
        }
    }
    tt_args_reader_fini(&r);

    h = malloc(n * sizeof *h);
    m1 = malloc(n);
    m2 = malloc(n);
    for (uint32_t i = 0; i < n; i++)
        h[i] = i + 1;
    for (size_t k = 0; k < N_VOCAB + N_ABSENT + 2; k++) {
        const char *key = k < N_VOCAB ? vocab[k] : k < N_VOCAB + N_ABSENT ? absent[k - N_VOCAB]
                        : k == N_VOCAB + N_ABSENT ? "in" : "unknown";
        char q[128];
        const char *nd[1] = {q};
        snprintf(q, sizeof q, "\"%s\"", key);
        memset(m1, 1, n);
        memset(m2, 1, n);
        if (tt_args_filter(tr->args, h, n, nd, 1, m1) || tt_args_filter(ref, h, n, nd, 1, m2))
            differ++;
        for (uint32_t i = 0; i < n; i++) {
            if (m1[i] != m2[i] && getenv("ARGSNOTE_DEBUG"))
                diag("key %s record %u: noted %d scanned %d", key, i + 1, m1[i], m2[i]);
            differ += m1[i] != m2[i];
            passed += !m1[i];
        }
        asked += n;
    }
    is_i64((int64_t)differ, 0, "the decoder's notes answer as the store's own scan");
    ok(passed > asked / 20, "blocks passed over (%zu of %zu)", passed, asked);

    free(h);
    free(m1);
    free(m2);
    tt_args_free(ref);
    tt_trace_free(tr);
    free(b.s);
    return tap_done();
}
