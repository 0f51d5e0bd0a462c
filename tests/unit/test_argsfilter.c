/* test_argsfilter.c - tt_args_filter() of a store of blocks, from the key
 * summaries kept as records are added (model/args.h).
 *
 * Records are JSON objects over a few key vocabularies that change from
 * one stretch of records to the next (so some blocks lack some keys),
 * with the traps a byte scan could fall into: keys as string values,
 * whitespace before the colon, nested objects, keys only among the extra
 * fields, escapes, a key with a NUL byte, keys that are prefixes of
 * others. Every record that holds a key by cJSON's reading (what
 * argument fetches look for) must be "may hold"; the blocks without it
 * must mostly be passed over. Keyed rows and tt_args_append() too.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "model/args.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_RECORDS 20000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static const char *const vocab[] = {
    "External id", "correlation", "src", "src_addr", "address", "dest", "a", "bytes",
    "registers per thread", "a rather long key that runs past sixteen bytes",
};
#define N_VOCAB (sizeof vocab / sizeof vocab[0])
/* looked for, never written as keys (some are written as values) */
static const char *const absent[] = {"source", "dst", "sr", "src_", "External"};
#define N_ABSENT (sizeof absent / sizeof absent[0])

/* Record i's texts into a (args) and x (extra). Keys come from a stretch
 * of vocab that moves every 700 records. */
static void make_record(uint32_t i, char *a, size_t *an, char *x, size_t *xn)
{
    size_t base = (i / 700) % N_VOCAB, nk = 1 + rnd() % 4;
    int n = 0;
    n += sprintf(a + n, "{");
    for (size_t k = 0; k < nk; k++) {
        const char *key = vocab[(base + rnd() % 3) % N_VOCAB];
        int kind = (int)(rnd() % 6);
        if (k)
            n += sprintf(a + n, ",%s", rnd() % 2 ? " " : "");
        if (kind == 0)   /* whitespace before the colon */
            n += sprintf(a + n, "\"%s\" \n\t: %u", key, i);
        else if (kind == 1)   /* an absent key's name as a string value */
            n += sprintf(a + n, "\"%s\": \"%s\"", key, absent[rnd() % N_ABSENT]);
        else if (kind == 2)   /* nested */
            n += sprintf(a + n, "\"%s\": {\"in\": [1, {\"%s\": 2}]}", key,
                         vocab[rnd() % N_VOCAB]);
        else
            n += sprintf(a + n, "\"%s\":%u", key, i % 97);
    }
    if (i == 5 || i == 15005)   /* an escaped key: "source" */
        n += sprintf(a + n, ", \"sour\\u0063e\": 1");
    n += sprintf(a + n, "}");
    *an = (size_t)n;
    *xn = 0;
    if (i % 13 == 0)
        *xn = (size_t)sprintf(x, "{\"%s\": %u}", vocab[(base + 1) % N_VOCAB], i);
    if (i == 7007) {   /* a key with a NUL byte: cJSON sees "dst" */
        static const char nul[] = "{\"dst\0x\": 1}";
        memcpy(a, nul, sizeof nul - 1);
        *an = sizeof nul - 1;
    }
}

static bool has_key(const char *t, size_t n, const char *key)
{
    cJSON *o = n ? cJSON_ParseWithLength(t, n) : NULL;
    bool has = o && cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, key);
    cJSON_Delete(o);
    return has;
}

static char *quoted(const char *key)
{
    size_t n = strlen(key);
    char *q = malloc(n + 3);
    q[0] = '"';
    memcpy(q + 1, key, n);
    memcpy(q + 1 + n, "\"", 2);
    return q;
}

/* Filter every handle of s by each key alone: no record holding it said
 * "certainly not"; counts the records passed over into *passed. */
static void check_keys(const tt_args *s, const uint32_t *h, uint32_t n, unsigned char **truth,
                       const char *const *keys, size_t n_keys, const char *what,
                       size_t *passed)
{
    unsigned char *maybe = malloc(n);
    size_t wrong = 0;
    *passed = 0;
    for (size_t k = 0; k < n_keys; k++) {
        char *q = quoted(keys[k]);
        const char *nd[2] = {q, "\\"};
        if (tt_args_filter(s, h, n, nd, 2, maybe) != 0)
            wrong++;
        for (uint32_t i = 0; i < n; i++) {
            if (truth[k][i] && !maybe[i] && wrong++ < 5)
                diag("%s: record %u holds %s but was passed over", what, h[i], keys[k]);
            *passed += !maybe[i];
        }
        free(q);
    }
    is_i64((int64_t)wrong, 0, "%s: every record holding a key may hold it", what);
    free(maybe);
}

static void test_plain(void)
{
    tt_args *s = tt_args_new(), *s2 = tt_args_new();
    uint32_t *h = malloc(N_RECORDS * sizeof *h);
    unsigned char *truth[N_VOCAB + N_ABSENT];
    const char *all[N_VOCAB + N_ABSENT];
    char a[2048], x[256];
    size_t passed, passed_absent;
    for (size_t k = 0; k < N_VOCAB + N_ABSENT; k++) {
        truth[k] = calloc(N_RECORDS, 1);
        all[k] = k < N_VOCAB ? vocab[k] : absent[k - N_VOCAB];
    }
    /* the first half into s, the second into s2, joined as the parallel
     * load's fragments are */
    for (uint32_t i = 0; i < N_RECORDS; i++) {
        size_t an, xn;
        uint32_t got;
        make_record(i, a, &an, x, &xn);
        got = tt_args_add(i < N_RECORDS / 2 ? s : s2, a, an, x, xn);
        h[i] = i + 1;
        if (got != (i < N_RECORDS / 2 ? i + 1 : i + 1 - N_RECORDS / 2)) {
            ok(0, "record %u added", i);
            goto out;
        }
        for (size_t k = 0; k < N_VOCAB + N_ABSENT; k++)
            truth[k][i] = has_key(a, an, all[k]) || has_key(x, xn, all[k]);
    }
    /* before sealing: the block being filled is told too */
    check_keys(s, h, N_RECORDS / 2, truth, all, N_VOCAB + N_ABSENT, "unsealed", &passed);
    ok(tt_args_append(s, s2) == 0 && tt_args_count(s) == N_RECORDS, "two stores joined");
    ok(tt_args_seal(s) == 0, "sealed");
    check_keys(s, h, N_RECORDS, truth, all, N_VOCAB + N_ABSENT, "joined", &passed);
    ok(passed > N_RECORDS, "records passed over for keys their blocks lack (%zu)", passed);
    check_keys(s, h, N_RECORDS, truth + N_VOCAB, absent, N_ABSENT, "absent keys",
               &passed_absent);
    {
        size_t holders = 0;
        for (size_t k = 0; k < N_ABSENT; k++)
            for (uint32_t i = 0; i < N_RECORDS; i++)
                holders += truth[N_VOCAB + k][i];
        ok(holders > 0, "the escaped and NUL keys are found by cJSON (%zu)", holders);
    }
    /* most blocks hold no escape: keys never written are passed over there */
    ok(passed_absent > N_ABSENT * N_RECORDS / 2, "absent keys: most records passed over (%zu)",
       passed_absent);
    {
        unsigned char *maybe = malloc(N_RECORDS);
        static const char *const bytes_needle[] = {"\"src\": 1"};
        static const char *const none[] = {"\\"};
        size_t ones = 0;
        ok(tt_args_filter(s, h, N_RECORDS, bytes_needle, 1, maybe) == 0 &&
               memchr(maybe, 0, N_RECORDS) == NULL,
           "a needle that is not a key in quotes: every record may hold it");
        ok(tt_args_filter(s, h, N_RECORDS, none, 1, maybe) == 0, "only a backslash asked");
        for (uint32_t i = 0; i < N_RECORDS; i++)
            ones += maybe[i];
        ok(ones > 0 && ones < N_RECORDS, "the blocks with an escape may hold it, no others (%zu)",
           ones);
        /* handles repeat, skip, and one is unknown */
        {
            uint32_t hh[5] = {0, 3, 3, 9000, N_RECORDS + 5};
            char *q = quoted("nothing");
            const char *nd[1] = {q};
            ok(tt_args_filter(s, hh, 5, nd, 1, maybe) == 0 && maybe[0] == 1 && maybe[4] == 1,
               "handle 0 and an unknown handle stay \"may hold\" (the read fails them)");
            free(q);
        }
        free(maybe);
    }
out:
    for (size_t k = 0; k < N_VOCAB + N_ABSENT; k++)
        free(truth[k]);
    free(h);
    tt_args_free(s);
}

/* Keyed rows: a block holding rows of a key set holds its keys (present or
 * not in a row); plain records in the same store are told by their text. */
static void test_rows(void)
{
    static const char *const k1[] = {"\"Step Id\":", "\"src\":"};
    static const char *const k2[] = {"\"Name\":", "\"Duration(us)\":"};
    static const char *const k3[] = {"\"we\\\"ird\":"};
    static const size_t l1[] = {10, 6}, l2[] = {7, 15}, l3[] = {10};
    tt_args *s = tt_args_new();
    uint32_t ks1 = tt_args_keyset(s, k1, l1, 2), ks2 = tt_args_keyset(s, k2, l2, 2),
             ks3 = tt_args_keyset(s, k3, l3, 1);
    uint32_t n = 0, *h = malloc(40000 * sizeof *h);
    unsigned char *maybe = malloc(40000);
    size_t src_rows_passed = 0, name_passed = 0, weird_passed = 0, scalar_passed = 0;
    for (uint32_t i = 0; i < 40000; i++) {
        tt_args_val v[2] = {{"12", 2, TT_ARGV_JSON}, {"src", 3, TT_ARGV_STRING}};
        /* complete scalars, a quoted string among them (as nsys writes
         * its kind labels): no key, so the block stays filterable */
        tt_args_val sc[2] = {{"-1.5e3", 6, TT_ARGV_SCALAR}, {"\"src\"", 5, TT_ARGV_SCALAR}};
        uint32_t got;
        if (i < 10000)
            got = tt_args_add_row(s, ks1, v);   /* src as a key */
        else if (i < 20000)
            got = tt_args_add_row(s, ks2, i % 2 ? sc : v);   /* "src" as a value only */
        else if (i < 39990)
            got = tt_args_add(s, "{\"x\": 1}", 8, NULL, 0);
        else
            got = tt_args_add_row(s, ks3, v);   /* an escaped key */
        h[n++] = got;
    }
    ok(tt_args_seal(s) == 0 && tt_args_count(s) == 40000, "40000 rows and records");
    {
        const char *nd[1] = {"\"src\""};
        ok(tt_args_filter(s, h, n, nd, 1, maybe) == 0, "filter for src");
        for (uint32_t i = 0; i < n; i++) {
            if (i < 10000)
                src_rows_passed += !maybe[i];
            else if (i >= 39990)
                weird_passed += !maybe[i];
            else
                name_passed += !maybe[i];
            if (i >= 10000 && i < 20000)
                scalar_passed += !maybe[i];
        }
        is_i64((int64_t)src_rows_passed, 0, "rows of the key set with src: none passed over");
        is_i64((int64_t)weird_passed, 0, "rows of a key set with an escape: none passed over");
        ok(scalar_passed > 4000, "rows of complete scalars, a quoted string among them, "
                                 "passed over (%zu)", scalar_passed);
        ok(name_passed > 12000, "rows with src only as a value, and plain records, passed "
                                "over (%zu)", name_passed);
    }
    free(h);
    free(maybe);
    tt_args_free(s);
}

int main(void)
{
    test_plain();
    test_rows();
    return tap_done();
}
