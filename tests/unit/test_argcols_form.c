/* test_argcols_form.c - the snapshot writer cuts a record stored as an
 * args template (tt_args_add_noted) from its template and digit runs
 * (tt_args_read_form), not from its text rebuilt: the payload must be
 * byte for byte the one cut from the same texts stored plain
 * (tt_args_add), on one thread and on several.
 *
 * Traps, in records that share one layout so that the same store
 * template meets each: integers with leading zeros, "-0" and
 * negatives, 18, 19 and 70 digits, decimals and exponents (literal
 * slots) whose digits make them integers or not, digits inside strings
 * that change (and that stay the same), extra text on some records,
 * a number run past MAX_TOKEN, bytes below 0x04 in the text, and a
 * layout that never repeats.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "model/args.h"
#include "snapshot/argcols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

/* A number's text: mostly small canonical integers, sometimes a trap. */
static void number(char *d, size_t cap)
{
    static const char *const odd[] = {
        "0", "00", "007", "-0", "-5", "123456789012345678", "1234567890123456789",
        "1234567890123456789012345678901234567890123456789012345678901234567890",
        "10", "1000000",
    };
    unsigned k = (unsigned)(rnd() % 40);
    if (k < sizeof odd / sizeof odd[0])
        snprintf(d, cap, "%s", odd[k]);
    else
        snprintf(d, cap, "%u", (unsigned)(rnd() % 100000));
}

/* Record i's args text (and extra text) into a (x). */
static void record(int i, char *a, size_t acap, char *x, size_t xcap)
{
    char n1[80], n2[80], n3[80], n4[80];
    number(n1, sizeof n1);
    number(n2, sizeof n2);
    number(n3, sizeof n3);
    number(n4, sizeof n4);
    x[0] = '\0';
    switch (rnd() % 8) {
    case 0:
    case 1:
        snprintf(a, acap, "{\"External id\": %s, \"Ev Idx\": %s, \"Record function id\": %s}", n1,
                 n2, n3);
        break;
    case 2:
        /* decimals: the literal slot "0.0" of the layout */
        snprintf(a, acap, "{\"blocks per SM\": %s.%s, \"grid\": [%s, 1, %s]}", n1, n2, n3, n4);
        break;
    case 3:
        /* digits in strings: the same most of the time, or not */
        snprintf(a, acap, "{\"Process Group Name\": \"%d\", \"Ranks\": \"[0, %d]\", \"n\": %s}",
                 rnd() % 5 ? 0 : (int)(rnd() % 3), rnd() % 4 ? 1 : 7, n1);
        break;
    case 4:
        /* exponents and signs around the runs */
        snprintf(a, acap, "{\"e\": %se%s, \"m\": -%s, \"p\": 1E+%s}", n1, n2, n3, n4);
        break;
    case 5:
        /* extra text, on some of them */
        snprintf(a, acap, "{\"correlation\": %s, \"stream\": %s}", n1, n2);
        if (rnd() % 3 == 0)
            snprintf(x, xcap, "{\"bp\": \"e\", \"id\": %s}", n3);
        break;
    case 6:
        /* a byte below 0x04 (the cut's markers) in a string */
        snprintf(a, acap, "{\"s\": \"a\001b\", \"v\": %s}", n1);
        break;
    default:
        /* a layout of its own, seldom repeated */
        snprintf(a, acap, "{\"k%d\": %s}", i, n1);
        break;
    }
}

int main(void)
{
    enum { N = 30000 };
    tt_args *noted = tt_args_new(), *plain = tt_args_new();
    uint32_t *map = calloc(N + 1, sizeof *map), n = 0;
    tt_argcols_hint *hint = calloc(N + 1, sizeof *hint);
    tt_args_note note;
    char a[1024], x[256];
    bool same = true;
    uint32_t templated = 0;
    static const unsigned threads[3] = {1, 2, 3};

    memset(&note, 0, sizeof note);
    note.rescan = true;   /* keys scanned by the store: a note only asks for templates */
    for (int i = 0; i < N && noted && plain; i++) {
        record(i, a, sizeof a, x, sizeof x);
        if (!tt_args_add_noted(noted, a, strlen(a), x, strlen(x), &note) ||
            !tt_args_add(plain, a, strlen(a), x, strlen(x)))
            same = false;
    }
    if (!ok(noted && plain && map && hint && same && tt_args_seal(noted) == 0 &&
                tt_args_seal(plain) == 0,
            "two stores of %d records", N))
        return tap_done();
    {
        tt_args_reader r;
        tt_args_form f;
        tt_args_reader_init(&r, noted);
        for (uint32_t h = 1; h <= N; h++) {
            const char *t, *e;
            size_t tn, en;
            tt_args_reader r2;
            if (tt_args_read_form(&r, h, &f)) {
                same = false;
                break;
            }
            templated += f.tmpl != 0;
            /* the form's text is the record's */
            tt_args_reader_init(&r2, plain);
            if (tt_args_form_text(&r, &f) || tt_args_read(&r2, h, &t, &tn, &e, &en) ||
                f.alen != tn || memcmp(f.args, t, tn) != 0 || f.elen != en ||
                (en && memcmp(f.extra, e, en) != 0))
                same = false;
            tt_args_reader_fini(&r2);
        }
        tt_args_reader_fini(&r);
    }
    ok(same, "every record's form gives its texts back");
    ok(templated > N / 2, "most records are stored as templates (%u of %d)", templated, N);

    /* every fifth record left out, the others in reverse handle order */
    for (uint32_t h = N; h >= 1; h--)
        if (h % 5) {
            map[h] = ++n;
            hint[n - 1].corr = h % 7 ? h : 0;
            hint[n - 1].name = h % 6;
        }
    for (int t = 0; t < 3; t++) {
        tt_wbuf p = {0}, q = {0};
        bool eq = tt_argcols_encode(noted, map, n, hint, 6, 3, threads[t], &p) == 0 &&
                  tt_argcols_encode(plain, map, n, hint, 6, 3, threads[t], &q) == 0 && !p.oom &&
                  !q.oom && p.n == q.n && memcmp(p.p, q.p, p.n) == 0;
        ok(eq, "on %u thread(s), the payload cut from templates is the one cut from texts (%zu bytes)",
           threads[t], p.n);
        tt_wbuf_free(&p);
        tt_wbuf_free(&q);
    }
    tt_args_free(noted);
    tt_args_free(plain);
    free(map);
    free(hint);
    return tap_done();
}
