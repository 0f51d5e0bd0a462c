/* test_diff.c - the diff engine (analysis/diff.h) on hand-made sides: the
 * status rules, the sort, the empty (NAN) cells, a name map that sums rows,
 * the "(none)" row, and random sides against a brute-force merge. */
#include "config.h"

#include "analysis/diff.h"

#include "../tap.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tt_diff_row *find(const tt_diff *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (name ? d->rows[i].name && !strcmp(d->rows[i].name, name) : !d->rows[i].name)
            return &d->rows[i];
    return NULL;
}

static tt_diff_side *side_of(const char *const *names, const uint64_t *counts,
                             const int64_t *totals, size_t n)
{
    tt_diff_side *s = tt_diff_side_new();
    tt_error err;
    for (size_t i = 0; s && i < n; i++)
        if (tt_diff_side_add(s, names[i], counts[i], totals[i], &err))
            return NULL;
    return s;
}

static void test_status_and_sort(void)
{
    static const char *const na[] = {"gemm", "relu", "copy", "same", "gone", "zero"};
    static const uint64_t ca[] = {10, 5, 3, 2, 4, 1};
    static const int64_t ta[] = {1000, 500, 300, 200, 400, 0};
    static const char *const nb[] = {"gemm", "relu", "copy", "same", "new", "zero"};
    static const uint64_t cb[] = {10, 7, 1, 2, 6, 1};
    static const int64_t tb[] = {2000, 400, 300, 260, 600, 5};
    tt_diff_side *a = side_of(na, ca, ta, 6), *b = side_of(nb, cb, tb, 6);
    tt_diff *d = NULL;
    tt_error err;
    const tt_diff_row *r;
    ok(a && b, "sides built");
    ok(tt_diff_compute(a, b, NULL, &d, &err) == 0, "diff computed");
    is_i64((int64_t)d->n, 7, "one row per name of either side");
    is_i64(d->sum_a, 2400, "sum A");
    is_i64(d->sum_b, 3565, "sum B");
    is_i64((int64_t)d->count_a, 25, "count A");
    is_i64((int64_t)d->count_b, 27, "count B");
    r = find(d, "gemm");
    ok(r && r->status == TT_DIFF_UNCHANGED && r->delta == 1000 && r->delta_pct == 100.0,
       "same count, doubled total: unchanged, +1000, +100%%");
    r = find(d, "relu");
    ok(r && r->status == TT_DIFF_INCREASED && r->delta == -100, "more calls: increased");
    r = find(d, "copy");
    ok(r && r->status == TT_DIFF_DECREASED && r->delta == 0, "fewer calls: decreased");
    r = find(d, "gone");
    ok(r && r->status == TT_DIFF_DELETED && r->count_b == 0 && r->total_b == 0 &&
           r->delta == -400 && isnan(r->avg_b) && r->avg_a == 100.0 && r->delta_pct == -100.0,
       "only in A: deleted, Avg B empty");
    r = find(d, "new");
    ok(r && r->status == TT_DIFF_ADDED && r->count_a == 0 && isnan(r->avg_a) &&
           isnan(r->delta_pct) && r->avg_b == 100.0,
       "only in B: added, Avg A and Delta %% empty");
    r = find(d, "zero");
    ok(r && r->status == TT_DIFF_UNCHANGED && isnan(r->delta_pct) && r->delta == 5,
       "Total A 0: Delta %% empty");
    is_i64((int64_t)d->n_status[TT_DIFF_ADDED], 1, "1 added");
    is_i64((int64_t)d->n_status[TT_DIFF_DELETED], 1, "1 deleted");
    is_i64((int64_t)d->n_status[TT_DIFF_INCREASED], 1, "1 increased");
    is_i64((int64_t)d->n_status[TT_DIFF_DECREASED], 1, "1 decreased");
    is_i64((int64_t)d->n_status[TT_DIFF_UNCHANGED], 3, "3 unchanged");
    is_i64((int64_t)tt_diff_common(d), 5, "5 names in common");
    /* |delta|: gemm 1000, gone 400, new 600, relu 100, same 60, zero 5, copy 0 */
    {
        static const char *const want[] = {"gemm", "new", "gone", "relu", "same", "zero", "copy"};
        bool same = d->n == 7;
        for (size_t i = 0; same && i < 7; i++)
            same = !strcmp(d->rows[i].name, want[i]);
        ok(same, "sorted by |delta| descending");
    }
    tt_diff_free(d);
    tt_diff_side_free(a);
    tt_diff_side_free(b);
}

static void test_ties_and_none(void)
{
    static const char *const na[] = {"b", NULL, "a", ""};
    static const uint64_t ca[] = {1, 1, 1, 1};
    static const int64_t ta[] = {10, 10, 10, 3};
    static const char *const nb[] = {"a", "b"};
    static const uint64_t cb[] = {1, 1};
    static const int64_t tb[] = {20, 20};
    tt_diff_side *a = side_of(na, ca, ta, 4), *b = side_of(nb, cb, tb, 2);
    tt_diff *d = NULL;
    tt_error err;
    ok(tt_diff_compute(a, b, NULL, &d, &err) == 0, "diff with a none row");
    is_i64((int64_t)d->n, 4, "none and empty name are two rows");
    ok(d->n == 4 && !strcmp(d->rows[0].name, "a") && !strcmp(d->rows[1].name, "b") &&
           d->rows[2].name == NULL && !strcmp(d->rows[3].name, ""),
       "ties by name, the none row after names of equal |delta|");
    ok(find(d, NULL) && find(d, NULL)->status == TT_DIFF_DELETED, "none row only in A: deleted");
    is_i64((int64_t)tt_diff_side_count(a), 4, "side A rows");
    is_i64(tt_diff_side_total(a), 33, "side A total");
    tt_diff_free(d);
    tt_diff_side_free(a);
    tt_diff_side_free(b);
}

/* Digits dropped: "k12" and "k7" are both "k". Needs the retry when the
 * buffer is too small for the long name. */
static size_t strip_digits(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in; in++)
        if (!isdigit((unsigned char)*in)) {
            if (n + 1 < cap)
                out[n] = *in;
            n++;
        }
    if (cap)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}

static void test_name_map(void)
{
    char longname[2000];
    static const char *na[] = {"k12", "k7", "x", NULL};
    static const uint64_t ca[] = {1, 2, 3, 4};
    static const int64_t ta[] = {100, 200, 300, 400};
    static const char *nb[] = {"k99", "x1", NULL};
    static const uint64_t cb[] = {5, 3, 1};
    static const int64_t tb[] = {1000, 300, 50};
    tt_diff_side *a, *b;
    tt_diff *d = NULL;
    tt_error err;
    const tt_diff_row *r;
    memset(longname, 'L', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    longname[5] = '3';
    nb[2] = NULL;
    a = side_of(na, ca, ta, 4);
    b = side_of(nb, cb, tb, 3);
    ok(tt_diff_side_add(b, longname, 1, 1, &err) == 0, "a long name");
    ok(tt_diff_compute(a, b, strip_digits, &d, &err) == 0, "diff with a name map");
    r = find(d, "k");
    ok(r && r->count_a == 3 && r->total_a == 300 && r->count_b == 5 && r->total_b == 1000 &&
           r->status == TT_DIFF_INCREASED,
       "names mapped alike are summed");
    r = find(d, "x");
    ok(r && r->count_a == 3 && r->count_b == 3 && r->delta == 0, "x1 matches x");
    r = find(d, NULL);
    ok(r && r->count_a == 4 && r->count_b == 1, "the none row is never mapped");
    {
        char want[2000];
        strip_digits(longname, want, sizeof want);
        r = find(d, want);
        ok(r && r->status == TT_DIFF_ADDED && strlen(r->name) == strlen(longname) - 1,
           "a mapped name longer than the first buffer comes whole");
    }
    is_i64((int64_t)d->n, 4, "4 rows after mapping");
    tt_diff_free(d);
    tt_diff_side_free(a);
    tt_diff_side_free(b);
}

/* Random sides against a brute-force merge over a small name space. */
static void test_random(void)
{
    enum { NAMES = 20, ROUNDS = 50 };
    unsigned seed = 12345;
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t cnt[2][NAMES];
        int64_t tot[2][NAMES];
        tt_diff_side *s[2];
        tt_diff *d = NULL;
        tt_error err;
        memset(cnt, 0, sizeof cnt);
        memset(tot, 0, sizeof tot);
        for (int k = 0; k < 2; k++) {
            s[k] = tt_diff_side_new();
            for (int j = 0; j < 30; j++) {
                char nm[16];
                int id;
                seed = seed * 1103515245u + 12345u;
                id = (int)((seed >> 16) % NAMES);
                seed = seed * 1103515245u + 12345u;
                snprintf(nm, sizeof nm, "n%02d", id);
                cnt[k][id] += 1;
                tot[k][id] += (int64_t)((seed >> 16) % 1000);
                tt_diff_side_add(s[k], nm, 1, (int64_t)((seed >> 16) % 1000), &err);
            }
        }
        if (tt_diff_compute(s[0], s[1], NULL, &d, &err)) {
            bad++;
            continue;
        }
        for (int id = 0, rows = 0; id < NAMES; id++) {
            char nm[16];
            const tt_diff_row *r;
            snprintf(nm, sizeof nm, "n%02d", id);
            r = find(d, nm);
            if (!cnt[0][id] && !cnt[1][id]) {
                bad += r != NULL;
                continue;
            }
            rows++;
            if (!r || r->count_a != cnt[0][id] || r->count_b != cnt[1][id] ||
                r->total_a != tot[0][id] || r->total_b != tot[1][id] ||
                r->delta != tot[1][id] - tot[0][id])
                bad++;
            if (id == NAMES - 1 && (size_t)rows != d->n)
                bad++;
        }
        for (size_t i = 1; i < d->n; i++) {
            int64_t x = llabs(d->rows[i - 1].delta), y = llabs(d->rows[i].delta);
            if (x < y || (x == y && strcmp(d->rows[i - 1].name, d->rows[i].name) >= 0))
                bad++;
        }
        tt_diff_free(d);
        tt_diff_side_free(s[0]);
        tt_diff_side_free(s[1]);
    }
    is_i64(bad, 0, "%d random pairs of sides match a brute-force merge", ROUNDS);
}

static void test_names(void)
{
    tt_diff_kind k;
    is_str(tt_diff_status_name(TT_DIFF_ADDED), "added", "status name added");
    is_str(tt_diff_status_name(TT_DIFF_UNCHANGED), "unchanged", "status name unchanged");
    ok(tt_diff_kind_parse("operators", &k) == 0 && k == TT_DIFF_OPERATORS, "kind parse");
    ok(tt_diff_kind_parse("gpu", &k) != 0, "gpu is not a name-table kind");
    tt_diff_side_free(NULL);
    tt_diff_free(NULL);
    ok(1, "free(NULL) is a no-op");
}

int main(void)
{
    test_status_and_sort();
    test_ties_and_none();
    test_name_map();
    test_random();
    test_names();
    return tap_done();
}
