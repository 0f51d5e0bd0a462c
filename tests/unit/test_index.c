/* test_index.c - the interval index against brute force on random data. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "index/index.h"

#include <stdlib.h>

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static int cmp_ev(const void *a, const void *b)
{
    const tt_event *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->dur < y->dur) - (x->dur > y->dur);
}

static int overlaps(const tt_event *e, tt_ns from, tt_ns to)
{
    if (e->start >= to)
        return 0;
    return e->dur == 0 ? e->start >= from : e->start + e->dur > from;
}

/* Union length of events clipped to [from, to), by marking unit cells
 * (coordinates are small in these tests). */
static tt_ns brute_busy(const tt_event *ev, size_t n, tt_ns from, tt_ns to, tt_ns span)
{
    /* events start below span and last less than span */
    size_t cells = (size_t)span * 2 + 64;
    unsigned char *cell = calloc(cells, 1);
    tt_ns b = 0;
    for (size_t i = 0; i < n; i++)
        for (tt_ns t = ev[i].start; t < ev[i].start + ev[i].dur; t++)
            if (t >= from && t < to && t >= 0 && (size_t)t < cells)
                cell[t] = 1;
    for (size_t t = 0; t < cells; t++)
        b += cell[t];
    free(cell);
    return b;
}

typedef enum { SHAPE_RANDOM, SHAPE_ZERO, SHAPE_EQUAL_STARTS, SHAPE_HUGE, SHAPE_NESTED,
               SHAPE_DISJOINT } shape;

static tt_event *make(size_t n, shape sh, tt_ns span)
{
    tt_event *ev = calloc(n ? n : 1, sizeof *ev);
    for (size_t i = 0; i < n; i++) {
        tt_ns s = (tt_ns)(rnd() % (uint64_t)span), d = (tt_ns)(rnd() % 40);
        switch (sh) {
        case SHAPE_ZERO: d = rnd() % 3 == 0 ? 0 : d; break;
        case SHAPE_EQUAL_STARTS: s = (tt_ns)(rnd() % 8) * 50; break;
        case SHAPE_HUGE: if (i == n / 2) { s = 1; d = span - 2; } break;
        case SHAPE_NESTED: s = (tt_ns)(i % 16) * 20; d = span - 2 * s > 0 ? span / 2 - s : 1; break;
        case SHAPE_DISJOINT: s = (tt_ns)i * 10; d = 5; break;
        case SHAPE_RANDOM: break;
        }
        if (d < 0)
            d = 0;
        ev[i].start = s;
        ev[i].dur = d;
    }
    qsort(ev, n, sizeof *ev, cmp_ev);
    tt_index_build(ev, n);
    return ev;
}

/* The index fields by their definitions (index.h): node i at level k (the
 * trailing 1 bits of i) holds the maximum end over its subtree's
 * positions [i - 2^k + 1, i + 2^k - 1], cut at n; busy_upto the union
 * length of [0..i]. tt_index_build() and the .ttz reopen both fill them
 * with tt_index_add() and tt_index_finish(): this checks that one rule. */
static int check_fields(const tt_event *ev, size_t n, tt_ns span)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = 0, lo, hi;
        tt_ns m = INT64_MIN;
        while ((i >> k) & 1)
            k++;
        lo = i + 1 - ((size_t)1 << k);
        hi = i + ((size_t)1 << k) - 1;
        for (size_t j = lo; j <= hi && j < n; j++)
            if (ev[j].start + ev[j].dur > m)
                m = ev[j].start + ev[j].dur;
        if (ev[i].max_end != m) {
            diag("max_end of %zu (level %zu) of %zu: %lld, by definition %lld", i, k, n,
                 (long long)ev[i].max_end, (long long)m);
            return 0;
        }
    }
    /* busy_upto at a few positions (brute force marks cells) */
    for (size_t i = 0; i < n; i += n / 7 + 1) {
        tt_ns b = brute_busy(ev, i + 1, 0, 2 * span + 32, span);
        if (ev[i].busy_upto != b) {
            diag("busy_upto of %zu of %zu: %lld, by definition %lld", i, n,
                 (long long)ev[i].busy_upto, (long long)b);
            return 0;
        }
    }
    return 1;
}

static int check(size_t n, shape sh)
{
    tt_ns span = sh == SHAPE_DISJOINT ? (tt_ns)n * 10 + 10 : 1000;
    tt_event *ev = make(n, sh, span);
    tt_idxbuf buf;
    int good = check_fields(ev, n, span);
    tt_idxbuf_init(&buf);
    for (int q = 0; q < 300 && good; q++) {
        tt_ns a = (tt_ns)(rnd() % (uint64_t)(span + 20)) - 10;
        tt_ns b = a + 1 + (tt_ns)(rnd() % 200);   /* non-empty window */
        size_t k = 0;
        buf.n = 0;
        if (tt_index_overlap(ev, n, a, b, &buf)) {
            good = 0;
            break;
        }
        for (size_t i = 0; i < n; i++)
            if (overlaps(&ev[i], a, b)) {
                if (k >= buf.n || buf.v[k] != i) {
                    good = 0;
                    diag("overlap [%lld,%lld) n=%zu: missing or out of order at %zu", (long long)a,
                         (long long)b, n, i);
                    break;
                }
                k++;
            }
        if (good && k != buf.n) {
            good = 0;
            diag("overlap returned %zu, brute force %zu", buf.n, k);
        }
        if (good) {
            tt_ns bb = brute_busy(ev, n, a < 0 ? 0 : a, b, span);
            tt_ns ib = tt_index_busy(ev, n, a < 0 ? 0 : a, b);
            if (bb != ib) {
                good = 0;
                diag("busy [%lld,%lld) n=%zu: index %lld, brute %lld", (long long)a, (long long)b,
                     n, (long long)ib, (long long)bb);
            }
            /* the group rows' boundaries (tui/timeline.c): the busy time
             * before b minus that before a is the window's */
            tt_ns a0 = a < 0 ? 0 : a;
            tt_ns bb2 = brute_busy(ev, n, 0, b, span) - brute_busy(ev, n, 0, a0, span);
            tt_ns ib2 = tt_index_busy_before(ev, n, b) - tt_index_busy_before(ev, n, a0);
            if (good && bb2 != ib2) {
                good = 0;
                diag("busy_before [%lld,%lld) n=%zu: differs from brute force", (long long)a,
                     (long long)b, n);
            }
        }
        if (good) {
            /* first / deepest event containing a point */
            int64_t first = -1;
            for (size_t i = 0; i < n; i++)
                if (overlaps(&ev[i], a, a + 1)) {
                    first = (int64_t)i;
                    break;
                }
            if (tt_index_first_at(ev, n, a) != first) {
                good = 0;
                diag("first_at %lld: %lld vs %lld", (long long)a,
                     (long long)tt_index_first_at(ev, n, a), (long long)first);
            }
        }
        if (good && n > 0) {
            size_t j = (size_t)(rnd() % n);
            tt_ns m = INT64_MIN;
            for (size_t i = 0; i <= j; i++)
                if (ev[i].start + ev[i].dur > m)
                    m = ev[i].start + ev[i].dur;
            if (tt_index_prefix_max_end(ev, n, j) != m) {
                good = 0;
                diag("prefix max [0..%zu]", j);
            }
        }
    }
    tt_idxbuf_fini(&buf);
    free(ev);
    return good;
}

int main(void)
{
    static const char *names[] = {"random", "zero-length", "equal starts", "one huge",
                                  "nested", "disjoint"};
    size_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 1023, 1024, 1500};
    for (int sh = SHAPE_RANDOM; sh <= SHAPE_DISJOINT; sh++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            ok(check(sizes[i], (shape)sh), "%s, %zu events: index fields, overlap, busy, first_at, "
               "prefix max match brute force", names[sh], sizes[i]);
    {
        tt_event ev[3] = {{.start = 10, .dur = 5}, {.start = 20, .dur = 0}, {.start = 30, .dur = 5}};
        tt_index_build(ev, 3);
        is_i64(tt_index_next_after(ev, 3, 10), 1, "next after 10");
        is_i64(tt_index_prev_before(ev, 3, 30), 1, "previous before 30");
        is_i64(tt_index_next_after(ev, 3, 30), -1, "none after the last");
        is_i64(tt_index_prev_before(ev, 3, 10), -1, "none before the first");
        is_i64(tt_index_busy(ev, 3, 0, 100), 10, "busy ignores the zero-length event");
        is_i64(tt_index_first_at(ev, 3, 20), 1, "a zero-length event is found at its time");
    }
    return tap_done();
}
