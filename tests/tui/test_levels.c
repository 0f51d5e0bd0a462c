/* test_levels.c - the per-depth rows (levels.h), the cell under the cursor
 * (tt_tl_hit) and search stepping (search.h) against brute force on random
 * traces built through the model's builder: nested thread lanes, packed
 * async lanes, zero-length events, equal starts. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "model/trace.h"
#include "tui/levels.h"
#include "tui/search.h"
#include "tui/timeline.h"
#include "tui/viewport.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static int64_t rnd_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *names[] = {"conv", "Conv2d", "gemm", "relu", "nccl:AllReduce", "memcpy",
                              "~tilde", "GEMM_big"};

/* Random trace: thread lanes with properly nested call trees, one with
 * overlapping (improperly nested) events, an async lane. */
static tt_trace *random_trace(int n_events)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    uint32_t lanes[4];
    lanes[0] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "10"), TT_LANE_THREAD);
    lanes[1] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "11"), TT_LANE_THREAD);
    lanes[2] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "12"), TT_LANE_THREAD);
    lanes[3] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "a"), TT_LANE_ASYNC);
    for (int l = 0; l < 4; l++) {
        int64_t t = rnd_range(0, 1000);
        for (int i = 0; i < n_events / 4; i++) {
            int64_t idx = tt_trace_push_event(tr, lanes[l]);
            tt_event *e = &tr->lanes[lanes[l]].ev[idx];
            e->start = t;
            e->dur = rnd() % 8 == 0 ? 0 : rnd_range(1, 5000);
            e->name = tt_trace_intern_cstr(tr, names[rnd() % 8]);
            e->cat = tt_trace_intern_cstr(tr, rnd() % 2 ? "kernel" : "cpu_op");
            /* lanes 0 and 3 overlap freely; 1 nests (children inside); 2
             * is flat */
            if (l == 2)
                t += e->dur + rnd_range(0, 300);
            else
                t += rnd_range(0, l == 1 ? 800 : 3000);
        }
    }
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

static void test_levels(const tt_trace *tr, const tt_levels *lv)
{
    int bad_members = 0, bad_cov = 0, bad_lb = 0, bad_at = 0, bad_find = 0, checks = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (uint32_t d = 0; d <= ln->max_depth; d++) {
            const tt_level *v = tt_levels_get(lv, l, d);
            size_t k = 0;
            /* members: exactly the events of depth d, in position order */
            for (size_t i = 0; i < ln->n; i++) {
                if (ln->ev[i].depth != d)
                    continue;
                if (k >= v->n || tt_level_pos(v, k) != i)
                    bad_members++;
                if (tt_level_find(v, (uint32_t)i) != (int64_t)k)
                    bad_find++;
                k++;
            }
            if (k != v->n)
                bad_members++;
            /* one depth never overlaps itself */
            for (size_t i = 1; i < v->n; i++)
                if (tt_level_end(v, i - 1) > tt_level_start(v, i))
                    bad_members++;
            for (int q = 0; q < 200; q++) {
                int64_t a = rnd_range(-100, tr->t1 + 100), b = a + rnd_range(0, 20000);
                int64_t want_a = 0, want_b = 0, want_at = -1;
                size_t want_lb = v->n, lb_a, lb_b;
                for (size_t i = 0; i < v->n; i++) {
                    int64_t s = tt_level_start(v, i), e = tt_level_end(v, i);
                    if (s < a)
                        want_a += (e < a ? e : a) - s;
                    if (s < b)
                        want_b += (e < b ? e : b) - s;
                    if (want_lb == v->n && s >= a)
                        want_lb = i;
                    if ((s <= a && a < e) || (s == a && e == s))
                        want_at = (int64_t)i;
                }
                lb_a = tt_level_lower_bound(v, 0, a);
                lb_b = tt_level_lower_bound(v, lb_a, b);
                checks++;
                if (lb_a != want_lb || lb_b != tt_level_lower_bound(v, 0, b))
                    bad_lb++;
                /* from any guess, near or far, on either side */
                {
                    size_t from = want_lb ? (size_t)rnd_range(0, (int64_t)want_lb) : 0;
                    size_t g = (size_t)rnd_range((int64_t)from, (int64_t)v->n + 2);
                    if (tt_level_lower_bound_near(v, from, g, a) != want_lb)
                        bad_lb++;
                    if (tt_level_lower_bound_near(v, from, want_lb, a) != want_lb)
                        bad_lb++;
                }
                if (tt_level_cum_before(v, lb_a, a) != want_a ||
                    tt_level_cum_before(v, lb_b, b) != want_b)
                    bad_cov++;
                if (tt_level_at(v, 0, a) != want_at)
                    bad_at++;
            }
        }
    }
    ok(bad_members == 0, "each row holds exactly its depth's events, disjoint, in order");
    ok(bad_find == 0, "tt_level_find locates every event in its row");
    ok(bad_lb == 0, "galloping lower bounds, from any guess, equal brute force (%d queries)",
       checks);
    ok(bad_cov == 0, "coverage before a time equals the brute-force sum (%d queries)", checks);
    ok(bad_at == 0, "the event at a time equals brute force");
}

/* The cell under the cursor: with at most four events touching the cell,
 * the one with the largest overlap (the first on ties). */
static void test_hit(const tt_trace *tr, const tt_levels *lv)
{
    tt_tl tl;
    tt_viewport vp;
    int bad = 0, checked = 0;
    tt_tl_init(&tl, tr, lv);
    tt_vp_init(&vp, tr->t0, tr->t1, 97);
    tl.vp = &vp;
    for (int z = 0; z < 12; z++) {
        tt_vp_zoom(&vp, tr->t0 + (tr->t1 - tr->t0) / 3, 2);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (uint32_t d = 0; d <= tr->lanes[l].max_depth; d++) {
                const tt_level *v = tt_levels_get(lv, l, d);
                for (int c = 0; c < vp.cols; c++) {
                    int64_t a = tt_vp_time(&vp, c), b = tt_vp_time(&vp, c + 1);
                    int64_t best = -1, best_ov = -1, n = 0;
                    for (size_t i = 0; i < v->n; i++) {
                        int64_t s = tt_level_start(v, i), e = tt_level_end(v, i), ov;
                        bool touch = s < b && (e > a || (e == s && s >= a));
                        if (!touch)
                            continue;
                        n++;
                        ov = (e < b ? e : b) - (s > a ? s : a);
                        if (ov > best_ov) {
                            best_ov = ov;
                            best = (int64_t)tt_level_pos(v, i);
                        }
                    }
                    if (n > 4)
                        continue;
                    checked++;
                    if (tt_tl_hit(&tl, l, d, c) != best)
                        bad++;
                }
            }
    }
    ok(checked > 1000 && bad == 0, "the cell's event is the one covering most of it (%d cells, %d "
       "bad)", checked, bad);
    tt_tl_fini(&tl);
}

typedef struct ref {
    int64_t  start;
    uint32_t lane, idx;
} ref;

static int cmp_ref(const void *pa, const void *pb)
{
    const ref *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void test_search(const tt_trace *tr)
{
    static const struct {
        const char *pattern;
        const char *expect[8];   /* names that must match */
    } cases[] = {
        {"conv", {"conv", "Conv2d"}},
        {"GEMM", {"gemm", "GEMM_big"}},
        {"~^g.*m$", {"gemm"}},
        {"~^(relu|memcpy)$", {"relu", "memcpy"}},
        {"\\~til", {"~tilde"}},
        {"nccl:all", {"nccl:AllReduce"}},
    };
    uint8_t *used = NULL, *match = calloc(tt_strtab_count(tr->strings) + 1, 1);
    tt_error err;
    tt_search_field f;
    size_t n_ids;
    tt_search_used_ids(tr, TT_FIELD_NAME, &used);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *text = tt_search_field_of(cases[c].pattern, &f);
        bool right = tt_search_match_names(tr, used, text, match, &n_ids, &err) == 0;
        size_t want = 0;
        for (uint32_t id = 0; id < tt_strtab_count(tr->strings); id++) {
            bool expected = false;
            for (int k = 0; k < 8 && cases[c].expect[k]; k++)
                expected |= strcmp(tt_str(tr, id), cases[c].expect[k]) == 0;
            if (!used[id])
                expected = false;
            want += expected;
            if ((match[id] != 0) != expected)
                right = false;
        }
        ok(right && n_ids == want, "pattern '%s' matches exactly its names", cases[c].pattern);
    }
    ok(tt_search_match_names(tr, used, "~a(b", match, &n_ids, &err) != 0 &&
       strstr(err.what, "regular expression") != NULL, "a bad regex is an error: %s", err.what);
    ok(tt_search_match_names(tr, used, "", match, &n_ids, &err) != 0,
       "an empty pattern is an error");
    free(used);

    /* category field */
    {
        const char *text = tt_search_field_of("cat:KERN", &f);
        uint8_t *cu = NULL;
        tt_hits h;
        uint64_t want = 0;
        ok(f == TT_FIELD_CAT && strcmp(text, "KERN") == 0, "cat: selects the category field");
        tt_search_used_ids(tr, TT_FIELD_CAT, &cu);
        tt_search_match_names(tr, cu, text, match, &n_ids, &err);
        tt_hits_init(&h);
        tt_hits_build(&h, tr, match, TT_FIELD_CAT);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (size_t i = 0; i < tr->lanes[l].n; i++)
                want += strcmp(tt_str(tr, tr->lanes[l].ev[i].cat), "kernel") == 0;
        is_i64((int64_t)h.total, (int64_t)want, "cat:KERN finds every kernel event");
        tt_hits_fini(&h);
        free(cu);
    }

    /* stepping: next/prev from every hit and from times, against a sorted
     * list of the matches */
    {
        uint32_t gemm = tt_strtab_find(tr->strings, "gemm", 4);
        tt_hits h;
        ref *all = malloc((tr->n_events + 1) * sizeof *all);
        size_t n = 0;
        int bad_next = 0, bad_prev = 0, bad_rank = 0, bad_t = 0;
        tt_hits_init(&h);
        tt_hits_build_name(&h, tr, gemm);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            for (size_t i = 0; i < tr->lanes[l].n; i++)
                if (tr->lanes[l].ev[i].name == gemm)
                    all[n++] = (ref){tr->lanes[l].ev[i].start, l, (uint32_t)i};
        qsort(all, n, sizeof *all, cmp_ref);
        is_i64((int64_t)h.total, (int64_t)n, "hits collect every event of the name");
        for (size_t k = 0; k < n; k++) {
            tt_evref cur = {all[k].lane, all[k].idx}, to;
            bool f1 = tt_hits_step(&h, tr, &cur, 0, 1, &to);
            if (f1 != (k + 1 < n) ||
                (f1 && (to.lane != all[k + 1].lane || to.idx != all[k + 1].idx)))
                bad_next++;
            f1 = tt_hits_step(&h, tr, &cur, 0, -1, &to);
            if (f1 != (k > 0) ||
                (f1 && (to.lane != all[k - 1].lane || to.idx != all[k - 1].idx)))
                bad_prev++;
            if (tt_hits_rank(&h, tr, cur) != k + 1)
                bad_rank++;
        }
        for (int q = 0; q < 300; q++) {
            int64_t t = rnd_range(tr->t0 - 10, tr->t1 + 10);
            tt_evref to;
            size_t k = 0;
            bool f1;
            while (k < n && all[k].start < t)
                k++;
            f1 = tt_hits_step(&h, tr, NULL, t, 1, &to);
            if (f1 != (k < n) || (f1 && (to.lane != all[k].lane || to.idx != all[k].idx)))
                bad_t++;
            k = n;
            while (k > 0 && all[k - 1].start > t)
                k--;
            f1 = tt_hits_step(&h, tr, NULL, t, -1, &to);
            if (f1 != (k > 0) ||
                (f1 && (to.lane != all[k - 1].lane || to.idx != all[k - 1].idx)))
                bad_t++;
        }
        ok(bad_next == 0, "n steps to the next match in (start, lane, position) order");
        ok(bad_prev == 0, "N steps to the previous match");
        ok(bad_rank == 0, "each match's rank is its place in time order");
        ok(bad_t == 0, "from a time: first match at or after it, last at or before it");
        free(all);
        tt_hits_fini(&h);
    }
    free(match);
}

int main(void)
{
    for (int round = 0; round < 3; round++) {
        tt_trace *tr = random_trace(round == 0 ? 40 : 600);
        tt_levels *lv;
        if (!tr || !(lv = tt_levels_new(tr))) {
            ok(0, "build a random trace");
            return tap_done();
        }
        diag("round %d: %llu events, depths %u %u %u %u", round,
             (unsigned long long)tr->n_events, tr->lanes[0].max_depth, tr->lanes[1].max_depth,
             tr->lanes[2].max_depth, tr->n_lanes > 3 ? tr->lanes[3].max_depth : 0);
        test_levels(tr, lv);
        test_hit(tr, lv);
        test_search(tr);
        tt_levels_free(lv);
        tt_trace_free(tr);
    }
    return tap_done();
}
