/* bench_stats.c - `make bench` program: selection statistics on a loaded
 * trace, against the DESIGN.md budget "a full-range box select under 50 ms".
 *
 *   bench/bench-stats TRACE
 *
 * Loads the trace once, then times (best of several runs, in ms):
 *   - a full-range selection: summary (counts, totals, busy per lane and
 *     their union) plus a breakdown by name, which is what the TUI's box
 *     select computes;
 *   - the GPU time breakdown and the transfers summary over the full range;
 *   - 100 random small windows (1/1000 of the span) with summary and
 *     breakdown, as a user dragging a box would ask;
 *   - a whole `report --kind ops` in-process, written to /dev/null, to set
 *     beside the load time (the report command's time should be the load).
 */
#include "config.h"

#include "analysis/gpu.h"
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

/* One selection as the box select does it; returns events seen. */
static uint64_t select_once(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                            size_t *groups)
{
    tt_summary *s;
    tt_breakdown *b;
    tt_error err;
    uint64_t n;
    if (tt_summary_compute(tr, sel, &s, &err))
        fail("summary", &err);
    if (tt_breakdown_compute(tr, sel, key, &b, &err))
        fail("breakdown", &err);
    n = s->events;
    *groups = b->n;
    tt_summary_free(s);
    tt_breakdown_free(b);
    return n;
}

int main(int argc, char **argv)
{
    tt_load_opts opts = {0};
    tt_trace *tr = NULL;
    tt_error err;
    tt_sel sel;
    tt_key key;
    double t0, t1, best, load_s;
    uint64_t events = 0;
    size_t groups = 0;
    const int reps = 5;

    if (argc < 2 || argc > 3) {   /* TRACE_1M [TRACE_10M]: bench/local.mk */
        fprintf(stderr, "usage: bench-stats TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    tt_error_clear(&err);
    t0 = now();
    if (tt_load(argv[1], &opts, &tr, NULL, &err)) {
        char msg[600];
        tt_error_format(&err, argv[1], msg, sizeof msg);
        fprintf(stderr, "bench-stats: %s\n", msg);
        return 2;
    }
    load_s = now() - t0;
    printf("stats: %llu events in %u lanes, loaded in %.3f s\n",
           (unsigned long long)tr->n_events, tr->n_lanes, load_s);

    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    tt_key_parse("name", &key, &err);

    best = 1e9;
    for (int r = 0; r < reps; r++) {
        t0 = now();
        events = select_once(tr, &sel, &key, &groups);
        t1 = now();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    printf("full-range selection + breakdown by name   %8.2f ms  (%llu events, %zu names)\n",
           best * 1e3, (unsigned long long)events, groups);
    printf("budget: full-range box select under %.0f ms: %s\n", BUDGET_MS,
           best * 1e3 < BUDGET_MS ? "PASS" : "MISS");

    best = 1e9;
    for (int r = 0; r < reps; r++) {
        tt_gpu_time g;
        t0 = now();
        if (tt_gpu_time_compute(tr, &sel, &g, &err))
            fail("gpu", &err);
        t1 = now();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    printf("full-range GPU time breakdown              %8.2f ms\n", best * 1e3);

    best = 1e9;
    for (int r = 0; r < reps; r++) {
        tt_transfers *x;
        t0 = now();
        if (tt_transfers_compute(tr, &sel, &key, &x, &err))
            fail("transfers", &err);
        t1 = now();
        tt_transfers_free(x);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    printf("full-range transfers by name               %8.2f ms\n", best * 1e3);

    {
        tt_ns span = tr->t1 - tr->t0, w = span / 1000 > 0 ? span / 1000 : 1;
        uint64_t seen = 0;
        tt_sel small;
        memset(&small, 0, sizeof small);
        t0 = now();
        for (int i = 0; i < 100; i++) {
            small.from = tr->t0 + (tt_ns)(rnd() % (uint64_t)(span > w ? span - w : 1));
            small.to = small.from + w;
            seen += select_once(tr, &small, &key, &groups);
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
        ro.kind = TT_REPORT_OPS;
        ro.format = TT_OUT_CSV;
        if (!null)
            return 1;
        t0 = now();
        if (tt_report_new(null, &ro, &rep, &err) || tt_report_add(rep, tr, argv[1], 0, &none,
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
