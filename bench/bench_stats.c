/* bench_stats.c - `make bench` program: selection statistics on a loaded
 * trace, against the DESIGN.md budget "a full-range box select under 50 ms".
 *
 *   bench/bench-stats TRACE_1M [TRACE_10M]   (bench/local.mk's convention)
 *
 * For each trace given (the 1M-event one, then the 10M one when given),
 * loads it once, then times (in ms):
 *   - a full-range selection: summary (counts, totals, busy per lane and
 *     their union) plus a breakdown by name: the first one, which builds
 *     the summary levels it answers from (analysis/selsum.h), then the
 *     median of 7, and beside it the walk over every event that answered
 *     before the levels (median of 3, the same numbers), and the memory
 *     the levels hold per 1M events;
 *   - everything the TUI's box over the whole trace computes: the summary,
 *     the breakdown by opcode and by name with its Self columns
 *     (analysis/calltree.h, from the sums selfsum.h keeps), transfers and
 *     GPU time (median
 *     of 3), and the same by the walks, as before the summary levels;
 *     then as the TUI's box has it, ending exclusive at the trace end,
 *     and a box over the middle 90% of the span;
 *   - the GPU time breakdown over the full range (best of 5), answered from
 *     the breakdown cached per lane set, and beside it the walk;
 *   - the transfers by name over the full range, the same way;
 *   - 100 random small windows (1/1000 of the span) with summary and
 *     breakdown, as a user dragging a box would ask;
 *   - a whole `report --kind ops` in-process, written to /dev/null, to set
 *     beside the load time (the report command's time should be the load).
 */
#include "config.h"

#include "analysis/calltree.h"
#include "analysis/gpu.h"
#include "analysis/selsum.h"
#include "analysis/stats.h"
#include "analysis/transfers.h"
#include "decode/decode.h"
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUDGET_MS 50.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 0x853c49e6748fea9bULL;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fail(const char *what, const tt_error *err)
{
    fprintf(stderr, "bench-stats: %s: %s\n", what, err->what);
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* One selection as the box select does it (walk: without the summary
 * levels); returns events seen. */
static uint64_t select_once(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                            size_t *groups, bool walk)
{
    tt_summary *s;
    tt_breakdown *b;
    tt_error err;
    uint64_t n;
    if ((walk ? tt_summary_compute_walk : tt_summary_compute)(tr, sel, &s, &err))
        fail("summary", &err);
    if ((walk ? tt_breakdown_compute_walk : tt_breakdown_compute)(tr, sel, key, &b, &err))
        fail("breakdown", &err);
    n = s->events;
    *groups = b->n;
    tt_summary_free(s);
    tt_breakdown_free(b);
    return n;
}

/* The Self columns of the box's breakdown (statpanel.c's compute_self). */
static int self_sums(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                     const tt_breakdown *b)
{
    uint32_t *ids = malloc((b->n ? b->n : 1) * sizeof *ids);
    tt_ns *host = malloc((b->n ? b->n : 1) * sizeof *host);
    tt_ns *dev = malloc((b->n ? b->n : 1) * sizeof *dev);
    tt_error err;
    int rc = -1;
    if (ids && host && dev) {
        for (size_t i = 0; i < b->n; i++)
            ids[i] = b->rows[i].none ? 0 : b->rows[i].id;
        rc = tt_calltree_self_by(tr, sel, key, ids, b->n, host, dev, &err);
    }
    free(ids);
    free(host);
    free(dev);
    return rc;
}

/* Everything the TUI's box select computes (statpanel.c); walk: by the
 * walks over every event instead of the summary levels and caches. */
static void ui_box(const tt_trace *tr, const tt_sel *sel, bool walk)
{
    tt_summary *s;
    tt_breakdown *b;
    tt_transfers *x;
    tt_gpu_time g;
    tt_error err;
    tt_key key;
    memset(&key, 0, sizeof key);
    key.kind = TT_KEY_OPCODE;
    if ((walk ? tt_summary_compute_walk : tt_summary_compute)(tr, sel, &s, &err) ||
        (walk ? tt_breakdown_compute_walk : tt_breakdown_compute)(tr, sel, &key, &b, &err))
        fail("box", &err);
    if (b->n == 0 || (b->n == 1 && b->rows[0].none)) {
        tt_breakdown_free(b);
        key.kind = TT_KEY_NAME;
        if ((walk ? tt_breakdown_compute_walk : tt_breakdown_compute)(tr, sel, &key, &b, &err))
            fail("box", &err);
    }
    if (!walk && self_sums(tr, sel, &key, b))
        fail("box self times", &err);
    key.kind = TT_KEY_NAME;
    if ((walk ? tt_transfers_compute_walk : tt_transfers_compute)(tr, sel, &key, &x, &err) ||
        (walk ? tt_gpu_time_compute_walk : tt_gpu_time_compute)(tr, sel, &g, &err))
        fail("box", &err);
    tt_summary_free(s);
    tt_breakdown_free(b);
    tt_transfers_free(x);
}

/* Best of reps: the GPU time breakdown (key NULL) or the transfers by key,
 * cached (setsum.h) or walked. */
static double best_gpu_or_transfers(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                                    bool walk, int reps)
{
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        tt_gpu_time g;
        tt_transfers *x = NULL;
        tt_error err;
        double t0 = now(), t1;
        if (!key && (walk ? tt_gpu_time_compute_walk : tt_gpu_time_compute)(tr, sel, &g, &err))
            fail("gpu", &err);
        if (key && (walk ? tt_transfers_compute_walk : tt_transfers_compute)(tr, sel, key, &x,
                                                                             &err))
            fail("transfers", &err);
        t1 = now();
        tt_transfers_free(x);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

static int bench_trace(const char *path)
{
    tt_load_opts opts = {0};
    tt_trace *tr = NULL;
    tt_error err;
    tt_sel sel;
    tt_key key;
    double t0, t1, best, load_s, first, took[7], fast, walk;
    uint64_t events = 0;
    size_t groups = 0;
    const int reps = 5;

    tt_error_clear(&err);
    t0 = now();
    if (tt_load(path, &opts, &tr, NULL, &err)) {
        char msg[600];
        tt_error_format(&err, path, msg, sizeof msg);
        fprintf(stderr, "bench-stats: %s\n", msg);
        return 2;
    }
    load_s = now() - t0;
    printf("stats: %s: %llu events in %u lanes, loaded in %.3f s\n", path,
           (unsigned long long)tr->n_events, tr->n_lanes, load_s);

    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    tt_key_parse("name", &key, &err);

    t0 = now();
    events = select_once(tr, &sel, &key, &groups, false);
    first = now() - t0;
    for (int r = 0; r < 7; r++) {
        t0 = now();
        select_once(tr, &sel, &key, &groups, false);
        took[r] = now() - t0;
    }
    fast = median(took, 7);
    for (int r = 0; r < 3; r++) {
        t0 = now();
        select_once(tr, &sel, &key, &groups, true);
        took[r] = now() - t0;
    }
    walk = median(took, 3);
    printf("full-range selection + breakdown by name   %8.2f ms  (%llu events, %zu names; "
           "median of 7)\n", fast * 1e3, (unsigned long long)events, groups);
    printf("  the first one, building the summary levels %8.2f ms\n", first * 1e3);
    printf("  walking every event instead (as before)    %8.2f ms  (median of 3: %.1fx the "
           "levels)\n", walk * 1e3, walk / (fast > 0 ? fast : 1e-9));
    printf("  summary levels held: %.1f MB, %.1f MB per 1M events\n",
           (double)tt_selsum_memory(tr) / 1e6,
           (double)tt_selsum_memory(tr) / (double)(tr->n_events ? tr->n_events : 1));
    printf("budget: full-range box select under %.0f ms: %s\n", BUDGET_MS,
           fast * 1e3 < BUDGET_MS ? "PASS" : "MISS");

    for (int r = 0; r < 3; r++) {
        t0 = now();
        ui_box(tr, &sel, false);
        took[r] = now() - t0;
    }
    first = took[0];   /* builds what the first select did not: GPU time, transfers */
    fast = median(took, 3);
    for (int r = 0; r < 3; r++) {
        t0 = now();
        ui_box(tr, &sel, true);
        took[r] = now() - t0;
    }
    walk = median(took, 3);
    printf("the TUI's full-range box (summary, opcode/name, transfers, GPU time) %8.2f ms "
           "(median of 3)\n", fast * 1e3);
    printf("  the first one, building its caches         %8.2f ms\n", first * 1e3);
    printf("  by the walks instead (as before)           %8.2f ms  (median of 3: %.1fx)\n",
           walk * 1e3, walk / (fast > 0 ? fast : 1e-9));
    printf("budget: the TUI's full-range box under %.0f ms: %s\n", BUDGET_MS,
           fast * 1e3 < BUDGET_MS ? "PASS" : "MISS");
    {
        /* The box the TUI makes over the whole trace ends at t1 exclusive
         * (leaving out the instants there), and a wide box inside the
         * trace: the first answers from the caches too, the second walks
         * what the summary levels do not keep (self times, GPU time,
         * transfers). */
        tt_sel tui = sel, wide = sel;
        tt_ns cut = (tr->t1 - tr->t0) / 20;
        tui.to_inclusive = false;
        wide.from += cut;
        wide.to -= cut;
        wide.to_inclusive = false;
        for (int r = 0; r < 3; r++) {
            t0 = now();
            ui_box(tr, &tui, false);
            took[r] = now() - t0;
        }
        first = took[0];
        fast = median(took, 3);
        printf("  the same ending exclusive at the trace end, as the TUI's box %8.2f ms (median "
               "of 3; the first %.2f ms)\n", fast * 1e3, first * 1e3);
        printf("budget: the TUI's full-range box (exclusive end) under %.0f ms: %s\n", BUDGET_MS,
               fast * 1e3 < BUDGET_MS ? "PASS" : "MISS");
        for (int r = 0; r < 3; r++) {
            t0 = now();
            ui_box(tr, &wide, false);
            took[r] = now() - t0;
        }
        printf("  a box over the middle 90%% of the span           %8.2f ms (median of 3; not "
               "budgeted: it walks)\n", median(took, 3) * 1e3);
    }

    best = best_gpu_or_transfers(tr, &sel, NULL, false, reps);
    walk = best_gpu_or_transfers(tr, &sel, NULL, true, reps);
    printf("full-range GPU time breakdown              %8.2f ms  (cached per lane set, "
           "analysis/setsum.h)\n", best * 1e3);
    printf("  walking every event instead (as before)    %8.2f ms  (%.1fx the cache)\n",
           walk * 1e3, walk / (best > 0 ? best : 1e-9));
    best = best_gpu_or_transfers(tr, &sel, &key, false, reps);
    walk = best_gpu_or_transfers(tr, &sel, &key, true, reps);
    printf("full-range transfers by name               %8.2f ms  (cached per lane set and "
           "key)\n", best * 1e3);
    printf("  walking every event instead (as before)    %8.2f ms  (%.1fx the cache)\n",
           walk * 1e3, walk / (best > 0 ? best : 1e-9));
    {
        tt_ns span = tr->t1 - tr->t0, w = span / 1000 > 0 ? span / 1000 : 1;
        uint64_t seen = 0;
        tt_sel small;
        memset(&small, 0, sizeof small);
        t0 = now();
        for (int i = 0; i < 100; i++) {
            small.from = tr->t0 + (tt_ns)(rnd() % (uint64_t)(span > w ? span - w : 1));
            small.to = small.from + w;
            seen += select_once(tr, &small, &key, &groups, false);
        }
        t1 = now();
        printf("100 random windows of 1/1000 of the span   %8.3f ms each (%.1f events on "
               "average)\n", (t1 - t0) * 1e3 / 100, (double)seen / 100);
    }

    {
        FILE *null = fopen("/dev/null", "w");
        tt_report_opts ro;
        tt_report *rep;
        bool none;
        memset(&ro, 0, sizeof ro);
        ro.kind = tt_report_kind_find("ops");
        ro.format = TT_OUT_CSV;
        if (!null)
            return 1;
        t0 = now();
        if (tt_report_new(null, &ro, &rep, &err) || tt_report_add(rep, tr, path, 0, &none,
                                                                   &err) ||
            tt_report_finish(rep, &err))
            fail("report", &err);
        t1 = now();
        tt_report_free(rep);
        fclose(null);
        printf("report --kind ops (CSV to /dev/null)       %8.2f ms, vs %.0f ms to load\n",
               (t1 - t0) * 1e3, load_s * 1e3);
    }
    tt_trace_free(tr);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench-stats TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        int rc = bench_trace(argv[i]);
        if (rc)
            return rc;
        if (i + 1 < argc)
            printf("\n");
    }
    return 0;
}
