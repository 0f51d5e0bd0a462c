/* test_box.c - the terminal UI's box select and name selection against
 * brute force, on random traces built through the model's builder:
 *   - the statistics panel (statpanel.h): the box's summary, its breakdown
 *     rows (count and total of every group, under every key the panel
 *     cycles through) and the default key; the events a breakdown row
 *     highlights; the statistics of every event of a name, lane by lane;
 *     and that each breakdown row's line shows its count and total;
 *   - lane patterns that name exactly the box's lanes, even when lane
 *     names hold glob characters, commas and backslashes;
 *   - exact time tokens ("12.345678ms") that parse back to the same ns;
 *   - the highlight by row (hilite.h) and its galloping search;
 *   - annotations by cell (annot.h) against a scan of all of them.
 * The CSV export is tested in test_boxexport.c (the report writer's and
 * the grid's cell types share a name, so one file cannot use both).
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/select.h"
#include "tui/annot.h"
#include "tui/hilite.h"
#include "tui/levels.h"
#include "tui/search.h"
#include "tui/statpanel.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x0b0c5e1ec7ab1e5ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *const NAMES[] = {"matmul", "ncclKernel_AllReduce", "Memcpy HtoD", "relu"};
static const char *const CATS[] = {"kernel", "gpu_memcpy", "cpu_op", ""};
/* lane names a pattern has to escape */
static const char *const LANES[] = {"stream 7", "a*b", "q?[x]", "c,d", "back\\slash", "plain"};

static tt_trace *random_trace(bool opcodes)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    int ng = (int)rint_(1, 3);
    for (int g = 0; g < ng; g++) {
        char key[32], name[32];
        uint32_t gi;
        int nl = (int)rint_(1, 4);
        snprintf(key, sizeof key, "%d", g);
        snprintf(name, sizeof name, "proc %d", g);
        gi = tt_trace_group(tr, tt_trace_intern_cstr(tr, key));
        tr->groups[gi].name = tt_trace_intern_cstr(tr, name);
        for (int l = 0; l < nl; l++) {
            uint32_t li;
            int n = (int)rint_(0, 60);
            snprintf(key, sizeof key, "%d", l);
            li = tt_trace_lane(tr, gi, tt_trace_intern_cstr(tr, key),
                               rnd() % 3 ? TT_LANE_THREAD : TT_LANE_ASYNC);
            tr->lanes[li].name = tt_trace_intern_cstr(tr, LANES[rnd() % 6]);
            for (int k = 0; k < n; k++) {
                int64_t i = tt_trace_push_event(tr, li);
                tt_event *e = &tr->lanes[li].ev[i];
                e->start = rint_(0, 3000);
                e->dur = rnd() % 7 == 0 ? 0 : rint_(1, 400);
                e->name = tt_trace_intern_cstr(tr, NAMES[rnd() % 4]);
                e->cat = tt_trace_intern_cstr(tr, CATS[rnd() % 4]);
                e->bytes = rnd() % 3 == 0 ? rint_(0, 90000) : -1;
                if (opcodes && rnd() % 2) {
                    tt_attr_tuple at = {0, 0, 0};
                    at.opcode = tt_trace_intern_cstr(tr, rnd() % 2 ? "ADD" : "MUL");
                    e->attrs = tt_attrs_intern(tr->attrs, at);
                }
            }
        }
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

static bool in_box(tt_ns from, tt_ns to, const tt_event *e)
{
    if (from >= to)
        return false;
    if (e->dur == 0)
        return e->start >= from && e->start < to;
    return e->start < to && e->start + e->dur > from;
}

static tt_ns clip(tt_ns from, tt_ns to, const tt_event *e)
{
    tt_ns s = e->start > from ? e->start : from;
    tt_ns t = e->start + e->dur < to ? e->start + e->dur : to;
    return t > s ? t - s : 0;
}

static uint32_t key_id(const tt_trace *tr, tt_key_kind k, const tt_event *e)
{
    tt_key key;
    memset(&key, 0, sizeof key);
    key.kind = k;
    return tt_key_string_id(tr, &key, e);
}

static int fails;
#define CHECK(cond, ...)                     \
    do {                                     \
        if (!(cond) && fails++ < 15) {       \
            printf("# ");                    \
            printf(__VA_ARGS__);             \
            printf("\n");                    \
        }                                    \
    } while (0)

/* ---------------------------------------------------------------- box */

static void check_box(const tt_trace *tr, tt_statpanel *sp, tt_ns from, tt_ns to,
                      const uint32_t *lanes, size_t nl, bool opcodes)
{
    uint64_t events = 0;
    tt_ns total = 0;
    bool any_opcode = false;
    for (size_t i = 0; i < nl; i++) {
        const tt_lane *ln = &tr->lanes[lanes[i]];
        for (size_t k = 0; k < ln->n; k++)
            if (in_box(from, to, &ln->ev[k])) {
                events++;
                total += ln->ev[k].dur;
                any_opcode |= tt_event_opcode(tr, &ln->ev[k]) != 0;
            }
    }
    CHECK(sp->sum->events == events, "box events %llu, want %llu",
          (unsigned long long)sp->sum->events, (unsigned long long)events);
    CHECK(sp->sum->total == total, "box total");
    CHECK(sp->key.kind == (opcodes && any_opcode ? TT_KEY_OPCODE : TT_KEY_NAME),
          "default key: opcode when an event in the box has one");
    /* every key the panel cycles through */
    for (int c = 0; c < 4; c++) {
        tt_error err;
        tt_error_clear(&err);
        for (size_t r = 0; r < sp->brk->n; r++) {
            const tt_brk_row *row = &sp->brk->rows[r];
            uint64_t n = 0;
            tt_ns t = 0;
            tt_hits h;
            uint64_t hn = 0;
            for (size_t i = 0; i < nl; i++) {
                const tt_lane *ln = &tr->lanes[lanes[i]];
                for (size_t k = 0; k < ln->n; k++)
                    if (in_box(from, to, &ln->ev[k]) &&
                        key_id(tr, sp->key.kind, &ln->ev[k]) == row->id) {
                        n++;
                        t += clip(from, to, &ln->ev[k]);
                    }
            }
            CHECK(row->d.n == n && row->d.total == t, "key %d row %zu: %llu/%lld, want %llu/%lld",
                  (int)sp->key.kind, r, (unsigned long long)row->d.n, (long long)row->d.total,
                  (unsigned long long)n, (long long)t);
            /* the row's highlight: exactly those events */
            tt_hits_init(&h);
            if (tt_sp_row_hits(sp, r, &h) == 0) {
                for (uint32_t l = 0; l < h.n_lanes; l++)
                    for (size_t k = 0; k < h.n[l]; k++) {
                        const tt_event *e = &tr->lanes[l].ev[h.pos[l][k]];
                        bool sel = false;
                        for (size_t i = 0; i < nl; i++)
                            sel |= lanes[i] == l;
                        CHECK(sel && in_box(from, to, e) && key_id(tr, sp->key.kind, e) == row->id,
                              "a highlighted event outside its row");
                        CHECK(k == 0 || h.pos[l][k - 1] < h.pos[l][k], "hits in order");
                        hn++;
                    }
                CHECK(hn == n && h.total == n, "row %zu highlights %llu events, want %llu", r,
                      (unsigned long long)hn, (unsigned long long)n);
            } else {
                CHECK(0, "row hits failed");
            }
            tt_hits_fini(&h);
        }
        /* the lines show each row's count and total */
        if (tt_sp_build(sp, 100, false) == 0) {
            size_t seen = 0;
            for (size_t i = 0; i < sp->pl.n; i++) {
                const tt_pline *l = &sp->pl.v[i];
                char cnt[32], tot[48];
                const tt_brk_row *row;
                if (!l->pick || l->kind != TT_SP_LINE_ROW)
                    continue;
                row = &sp->brk->rows[l->tag];
                snprintf(cnt, sizeof cnt, " %llu ", (unsigned long long)row->d.n);
                tt_fmt_dur(tot, sizeof tot, row->d.total, 3);
                CHECK(strstr(l->text, cnt) && strstr(l->text, tot), "row line '%s' lacks %s %s",
                      l->text, cnt, tot);
                seen++;
            }
            CHECK(seen == sp->brk->n, "a line per row");
        }
        if (tt_sp_cycle_key(sp, &err))
            CHECK(0, "cycling the key failed");
    }
    /* sorting by count and average keeps every row */
    tt_sp_cycle_order(sp);
    CHECK(sp->order == TT_BRK_COUNT, "o sorts by count");
    for (size_t r = 1; r < sp->brk->n; r++)
        CHECK(sp->brk->rows[r - 1].d.n >= sp->brk->rows[r].d.n, "sorted by count");
    tt_sp_cycle_order(sp);
    for (size_t r = 1; r < sp->brk->n; r++)
        CHECK(sp->brk->rows[r - 1].d.avg >= sp->brk->rows[r].d.avg, "sorted by average");
    tt_sp_cycle_order(sp);
    CHECK(sp->order == TT_BRK_TOTAL, "and back to total");
}

static void check_name(const tt_trace *tr, tt_statpanel *sp)
{
    for (size_t ni = 0; ni < 4; ni++) {
        uint32_t id = 0;
        tt_hits h;
        tt_error err;
        uint64_t n = 0;
        tt_ns total = 0;
        for (uint32_t s = 1; s < tt_strtab_count(tr->strings); s++)
            if (strcmp(tt_str(tr, s), NAMES[ni]) == 0)
                id = s;
        if (!id)
            continue;
        tt_hits_init(&h);
        tt_error_clear(&err);
        if (tt_hits_build_name(&h, tr, id) || tt_sp_name(sp, tr, id, &h, &err)) {
            CHECK(0, "name selection failed");
            tt_hits_fini(&h);
            continue;
        }
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            uint64_t ln_n = 0;
            tt_ns ln_t = 0;
            bool listed = false;
            for (size_t k = 0; k < tr->lanes[l].n; k++)
                if (tr->lanes[l].ev[k].name == id) {
                    ln_n++;
                    ln_t += tr->lanes[l].ev[k].dur;
                }
            n += ln_n;
            total += ln_t;
            for (size_t i = 0; i < sp->n_nl; i++)
                if (sp->nl[i].lane == l) {
                    listed = true;
                    CHECK(sp->nl[i].d.n == ln_n && sp->nl[i].d.total == ln_t,
                          "name %s lane %u", NAMES[ni], l);
                }
            CHECK(listed == (ln_n > 0), "a lane is listed when it has the name");
        }
        CHECK(sp->nd.n == n && sp->nd.total == total, "name %s: %llu events, want %llu",
              NAMES[ni], (unsigned long long)sp->nd.n, (unsigned long long)n);
        tt_hits_fini(&h);
    }
}

int main(void)
{
    int pat_ok = 0, pat_n = 0, tok_ok = 0, tok_n = 0;
    for (int round = 0; round < 50; round++) {
        bool opcodes = round % 3 != 0;
        tt_trace *tr = random_trace(opcodes);
        tt_statpanel sp;
        tt_laneset ls;
        tt_error err;
        tt_ns from, to;
        if (!tr)
            continue;
        tt_sp_init(&sp);
        tt_laneset_init(&ls);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 2 || (l + 1 == tr->n_lanes && ls.n == 0))
                tt_laneset_add(&ls, l);
        tt_laneset_finish(&ls);
        from = tr->t0 + rint_(0, 2500);
        to = from + rint_(0, 1500);
        tt_error_clear(&err);
        if (tt_sp_box(&sp, tr, from, to, ls.v, ls.n, &err) == 0) {
            char pats[4096], a[64], b[64];
            bool cut;
            tt_laneset back;
            /* the lane patterns name exactly the box's lanes */
            tt_sp_lane_patterns(tr, ls.v, ls.n, pats, sizeof pats, &cut);
            tt_laneset_init(&back);
            pat_n++;
            if (!cut && tt_laneset_match(tr, pats, &back, &err) == 0) {
                /* two lanes may share a full name: then both match */
                bool same = back.n >= ls.n;
                for (size_t i = 0, j = 0; i < ls.n && same; i++) {
                    while (j < back.n && back.v[j] < ls.v[i])
                        j++;
                    same = j < back.n && back.v[j] == ls.v[i];
                }
                pat_ok += same;
            }
            tt_laneset_fini(&back);
            /* the command's window: exact tokens */
            tt_sp_time_token(from - tr->t0, a, sizeof a);
            tt_sp_time_token(to - tr->t0, b, sizeof b);
            {
                int64_t x, y;
                tok_n++;
                tok_ok += tt_parse_duration(a, &x) == TT_NUM_OK &&
                          tt_parse_duration(b, &y) == TT_NUM_OK && x == from - tr->t0 &&
                          y == to - tr->t0;
            }
            check_box(tr, &sp, from, to, ls.v, ls.n, opcodes);
        } else {
            CHECK(0, "box statistics failed: %s", err.what);
        }
        check_name(tr, &sp);
        tt_sp_fini(&sp);
        tt_laneset_fini(&ls);
        tt_trace_free(tr);
    }
    ok(fails == 0, "box and name statistics, row highlights and lines match brute force "
                   "(%d mismatches)", fails);
    ok(pat_n > 0 && pat_ok == pat_n, "lane patterns select exactly the box's lanes (%d of %d)",
       pat_ok, pat_n);
    ok(tok_n > 0 && tok_ok == tok_n, "time tokens parse back to the same ns (%d of %d)", tok_ok,
       tok_n);

    /* exact tokens of awkward values */
    {
        char t[64];
        is_str(tt_sp_time_token(0, t, sizeof t), "0ns", "token of 0");
        is_str(tt_sp_time_token(12345678, t, sizeof t), "12.345678ms", "token of 12345678 ns");
        is_str(tt_sp_time_token(1000000000, t, sizeof t), "1s", "token of 1 s");
    }

    /* highlight by row: each depth's row indexes, sorted, and the gallop */
    {
        int bad = 0, checked = 0;
        for (int round = 0; round < 10; round++) {
            tt_trace *tr = random_trace(false);
            tt_levels *lv = tr ? tt_levels_new(tr) : NULL;
            for (uint32_t id = 1; lv && id < tt_strtab_count(tr->strings); id++) {
                tt_hits h;
                tt_hilite hl;
                tt_hits_init(&h);
                tt_hilite_init(&hl);
                if (tt_hits_build_name(&h, tr, id) || h.total == 0 ||
                    tt_hilite_build(&hl, &h, tr, lv)) {
                    tt_hits_fini(&h);
                    continue;
                }
                for (uint32_t l = 0; l < tr->n_lanes; l++)
                    for (uint32_t d = 0; d <= tr->lanes[l].max_depth; d++) {
                        const tt_level *row = tt_levels_get(lv, l, d);
                        size_t n, k = 0;
                        const uint32_t *v = tt_hilite_row(&hl, l, d, &n);
                        for (size_t i = 0; row && i < row->n; i++) {
                            uint32_t pos = tt_level_pos(row, i);
                            bool hit = false;
                            for (size_t j = 0; j < h.n[l]; j++)
                                hit |= h.pos[l][j] == pos;
                            if (hit) {
                                bad += !(k < n && v[k] == i);
                                k++;
                                checked++;
                            }
                        }
                        bad += k != n;
                        /* the gallop finds what a linear scan finds */
                        for (uint32_t x = 0; x < 70; x += 3)
                            for (size_t from = 0; from <= n; from++) {
                                size_t lin = from;
                                while (lin < n && v[lin] < x)
                                    lin++;
                                bad += tt_hilite_lower(v, n, from, x) != lin;
                            }
                    }
                tt_hilite_fini(&hl);
                tt_hits_fini(&h);
            }
            tt_levels_free(lv);
            tt_trace_free(tr);
        }
        ok(bad == 0 && checked > 200, "highlighted row indexes are exactly the hits, by depth "
                                      "(%d hits checked, %d wrong)", checked, bad);
    }

    /* annotations by cell: the index against a scan */
    {
        tt_annview v;
        tt_annotations a;
        tt_error err;
        int bad = 0, checked = 0;
        tt_annview_init(&v);
        tt_annotations_init(&a);
        for (int i = 0; i < 300; i++) {
            tt_annotation *an;
            if (a.n == a.cap) {
                a.cap = a.cap ? a.cap * 2 : 64;
                a.v = realloc(a.v, a.cap * sizeof *a.v);
            }
            an = &a.v[a.n++];
            memset(an, 0, sizeof *an);
            an->rule = "test";
            an->sev = (tt_severity)(rnd() % 3);
            an->start = rint_(0, 10000);
            an->end = an->start + (rnd() % 5 == 0 ? 0 : rint_(1, 700));
            an->n_lanes = (size_t)rint_(0, 2);
            an->lanes = malloc(2 * sizeof *an->lanes);
            an->lanes[0] = (uint32_t)rint_(0, 1);
            an->lanes[1] = 2 + (uint32_t)rint_(0, 1);
            an->msg = strdup("m");
        }
        tt_error_clear(&err);
        if (tt_annview_take(&v, &a, &err) == 0) {
            for (int q = 0; q < 3000; q++) {
                tt_ns ca = rint_(-100, 10800), cb = ca + rint_(1, 300);
                uint32_t lane = (uint32_t)rint_(0, 4);
                int64_t want = -1, got = tt_annview_at(&v, lane, ca, cb);
                for (size_t i = 0; i < v.a.n && want < 0; i++) {
                    const tt_annotation *an = &v.a.v[i];
                    bool over = an->end > ca || (an->end == an->start && an->start >= ca);
                    if (an->start < cb && over && tt_annview_has_lane(an, lane))
                        want = (int64_t)i;
                }
                bad += got != want;
                checked++;
            }
        }
        ok(bad == 0 && checked > 0, "the annotation on a cell is the first one a scan finds "
                                    "(%d cells, %d wrong)", checked, bad);
        tt_annview_fini(&v);
    }
    return tap_done();
}
