/* bench_compare.c - frame time of the compare view (budget: a frame under
 * 10 ms, issue 15) and the time to open it.
 *
 * usage: bench-compare TRACE_1M [TRACE_10M]   (bench/local.mk's convention;
 * the second is ignored)
 *
 * Loads TRACE twice, as A and as B (two 1M-event traces: each half draws
 * its own), opens the compare view `tracetty diff A B` shows on a terminal
 * (headless, as `render --compare` does: the two timelines and the compare
 * panel, whose diff of the two whole traces is timed as the set-up), and
 * times tt_cmp_draw at 200x50 and 80x24 for four zooms (the whole trace, a
 * tenth, a thousandth, one nanosecond per column), panning between frames
 * so no frame repeats the one before; then the same after a box over all
 * of A, which selects the same window in B and diffs the two (timed).
 * Each figure is the median of 7 batches of 10 frames; the worst batch is
 * printed too.
 */
#include "config.h"

#include "frames.h"
#include "decode/decode.h"
#include "tui/cmpview.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int input_cmp(void *c, const tt_input *in)
{
    return tt_cmp_input(c, in);
}

static int draw_cmp(void *c, tt_grid *g)
{
    return tt_cmp_draw(c, g);
}

static void feed(tt_cmp *c, const char *keys)
{
    bench_view v = {c, input_cmp, draw_cmp, "bench-compare"};
    bench_feed(&v, keys);
}

/* Worst median frame over the zooms at one size (with a box or not). */
static double run_size(const tt_cmp_side *a, const tt_cmp_side *b, int cols, int rows)
{
    int64_t full = a->tr->t1 - a->tr->t0;
    tt_cmp_opts o;
    tt_cmp *c;
    tt_grid *g = tt_grid_new(cols, rows);
    tt_error err;
    double t0, worst = 0;
    struct {
        const char *what;
        int64_t span;
    } zooms[4] = {
        {"whole trace", full},
        {"1/10 of the trace", full / 10},
        {"1/1000 of the trace", full / 1000},
        {"1 ns per column", cols},
    };
    memset(&o, 0, sizeof o);
    o.utf8 = true;
    tt_error_clear(&err);
    t0 = bench_now();
    c = tt_cmp_new(a, b, cols, rows, &o, &err);
    if (!c || !g) {
        fprintf(stderr, "bench-compare: %s\n", c ? "out of memory" : err.what);
        exit(2);
    }
    printf("  %dx%d: compare view set up (both timelines, the diff of the whole traces) in "
           "%.1f ms\n", cols, rows, (bench_now() - t0) * 1000.0);
    for (int boxed = 0; boxed < 2; boxed++) {
        if (boxed) {
            /* a box over every row of A and the whole trace (the panel
             * closed first: it takes Home and End) */
            feed(c, "P0g<Home>v<End>G");
            t0 = bench_now();
            feed(c, "<Enter>");
            printf("  %dx%d: a box over the whole of A, the same window in B, the two diffed "
                   "in %.1f ms\n", cols, rows, (bench_now() - t0) * 1000.0);
        }
        for (int z = 0; z < 4; z++) {
            char keys[160];
            int64_t mid = full / 2, span = zooms[z].span > 0 ? zooms[z].span : 1;
            double ms, bad;
            snprintf(keys, sizeof keys, "0:%lldns..%lldns<Enter>", (long long)(mid - span / 2),
                     (long long)(mid - span / 2 + span));
            feed(c, keys);
            {
                bench_view v = {c, input_cmp, draw_cmp, "bench-compare"};
                ms = bench_frames(&v, g, &bad);
            }
            if (ms > worst)
                worst = ms;
            printf("  %dx%d %-8s %-20s: %7.3f ms per frame (slowest batch %.3f)\n", cols, rows,
                   boxed ? "box" : "panel", zooms[z].what, ms, bad);
        }
    }
    tt_cmp_free(c);
    tt_grid_free(g);
    return worst;
}

int main(int argc, char **argv)
{
    static const struct {
        int cols, rows;
    } sizes[] = {{200, 50}, {80, 24}};
    tt_trace *tr[2] = {NULL, NULL};
    tt_cmp_side side[2];
    tt_load_opts lo;
    tt_error err;
    double worst = 0;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench-compare TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    tt_text_set_utf8(true);
    memset(&lo, 0, sizeof lo);
    memset(side, 0, sizeof side);
    for (int i = 0; i < 2; i++) {
        tt_error_clear(&err);
        if (tt_load(argv[1], &lo, &tr[i], NULL, &err)) {
            char msg[600];
            fprintf(stderr, "bench-compare: %s\n",
                    tt_error_format(&err, argv[1], msg, sizeof msg));
            return 2;
        }
        side[i].tr = tr[i];
        side[i].name = i ? "B" : "A";
    }
    printf("bench-compare: A and B of %llu events each\n", (unsigned long long)tr[0]->n_events);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        double w = run_size(&side[0], &side[1], sizes[s].cols, sizes[s].rows);
        if (w > worst)
            worst = w;
    }
    printf("budget: a compare-view frame under 10 ms (two 1M-event traces, 200x50 and 80x24, "
           "at any zoom, panel or box): worst median %.3f ms: %s\n", worst,
           worst < 10.0 ? "PASS" : "MISS");
    tt_trace_free(tr[0]);
    tt_trace_free(tr[1]);
    return 0;
}
