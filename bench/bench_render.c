/* bench_render.c - frame time of the timeline view (budget: a redraw under
 * 10 ms at any zoom for a 1M-event trace, DESIGN.md).
 *
 * usage: bench-render TRACE_1M [TRACE_10M]   (bench/local.mk's convention)
 *
 * Loads TRACE, opens the same application `tracetty view` runs (headless,
 * as `tracetty render` does), and times tt_app_draw at 200x50 and 80x24
 * for four zooms: the whole trace, a tenth, a thousandth, and one
 * nanosecond per column, each at the top and at the bottom of the lanes
 * and while panning, so no frame is a repeat of the one before. The zooms
 * are set with the `:` go-to key (":A..B"), exactly as a user would.
 * Each figure is the median of 7 batches of 10 frames, so other work on
 * the machine disturbs it less; the worst batch is printed too.
 *
 * Then the same again with everything the view draws over the timeline:
 * the warning annotations of the default rules, a box over every lane and
 * the whole trace (its statistics timed: the full-range box select budget
 * is 50 ms), the events of its first breakdown row highlighted, and a
 * dozen markers.
 *
 * Then a job of many ranks: bench/out/ranks64 beside TRACE (64 ranks of
 * 100k events, which bench/run.sh generates), opened as `tracetty view
 * DIR` does: the combined view's frames at 200x50 (every rank folded to
 * its summary lane, then unfolded, at the same four zooms), the
 * collectives view's and a rank tab's, the time to set the view up and
 * the memory it holds beside the traces (the budget: under 10 ms a frame,
 * memory growing with the loaded events only).
 *
 * With TRACE_10M, the 10M-event trace's frames and box at 200x50, plain and
 * with the overlays, against the same budgets.
 */
#include "config.h"

#include "frames.h"
#include "decode/decode.h"
#include "multi/rankset.h"
#include "rules/rules.h"
#include "tui/app.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    return bench_now();
}

static int input_app(void *a, const tt_input *in)
{
    return tt_app_input(a, in);
}

static int draw_app(void *a, tt_grid *g)
{
    return tt_app_draw(a, g);
}

static void feed(tt_app *a, const char *keys)
{
    bench_view v = {a, input_app, draw_app, "bench-render"};
    bench_feed(&v, keys);
}

/* Median and worst ms per frame over batches of frames, panning between
 * frames (bench/frames.h). */
static double time_frames(tt_app *a, tt_grid *g, double *worst)
{
    bench_view v = {a, input_app, draw_app, "bench-render"};
    return bench_frames(&v, g, worst);
}

static double median3(const double *v)
{
    double a = v[0], b = v[1], c = v[2];
    return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

/* Frame times at one size over four zooms, top and bottom rows; with
 * rules, the overlays too (*box_ms: the box's statistics). Returns the
 * worst median. */
static double run_size(const tt_trace *tr, int cols, int rows, const tt_rules_config *rules,
                       double *box_ms)
{
    int64_t full = tr->t1 - tr->t0;
    tt_app_opts ao = {"bench", true, NULL, rules, NULL, NULL};
    tt_app *a;
    tt_grid *g = tt_grid_new(cols, rows);
    tt_error err;
    double t0, worst = 0;
    const char *what = rules ? "overlays" : "plain";
    struct {
        const char *what;
        int64_t span;
    } zooms[4] = {
        {"whole trace", full},
        {"1/10 of the trace", full / 10},
        {"1/1000 of the trace", full / 1000},
        {"1 ns per column", cols},
    };
    *box_ms = 0;
    tt_error_clear(&err);
    t0 = now();
    a = tt_app_new(tr, cols, rows, &ao, &err);
    if (!a || !g) {
        fprintf(stderr, "bench-render: out of memory\n");
        exit(2);
    }
    printf("  %dx%d %s: view set up in %.1f ms%s\n", cols, rows, what, (now() - t0) * 1000.0,
           rules ? " (the warning rules included)" : "");
    if (rules) {
        /* a dozen markers across the trace, a box over every row and the
         * whole window (timed: its statistics are computed on Enter), its
         * first breakdown row highlighted, the panel closed */
        feed(a, "0g");
        for (int m = 0; m < 12; m++)
            feed(a, "mSWSlllllll");
        double took[3];
        for (int rep = 0; rep < 3; rep++) {
            /* three boxes, the median timed: one run is at the mercy of
             * whatever else the machine does */
            if (rep)
                feed(a, "<Esc><Esc>");
            feed(a, "0g<Home>v<End>G");
            t0 = now();
            feed(a, "<Enter>");
            took[rep] = (now() - t0) * 1000.0;
        }
        *box_ms = median3(took);
        feed(a, "<Enter><Esc>");
        printf("  %dx%d: full-range box select (statistics of every lane) in %.1f ms (median of 3: "
               "%.1f %.1f %.1f)\n", cols, rows, *box_ms, took[0], took[1], took[2]);
    }
    for (int z = 0; z < 4; z++) {
        for (int where = 0; where < 2; where++) {
            char keys[160];
            int64_t mid = full / 2, span = zooms[z].span > 0 ? zooms[z].span : 1;
            double ms, bad;
            /* the middle of the trace, at that zoom, top or bottom rows */
            snprintf(keys, sizeof keys, "%s0:%lldns..%lldns<Enter>", where ? "<End>" : "<Home>",
                     (long long)(mid - span / 2), (long long)(mid - span / 2 + span));
            feed(a, keys);
            ms = time_frames(a, g, &bad);
            if (ms > worst)
                worst = ms;
            printf("  %dx%d %-8s %-20s %-6s rows: %7.3f ms per frame (slowest batch %.3f)\n",
                   cols, rows, what, zooms[z].what, where ? "bottom" : "top", ms, bad);
        }
    }
    tt_app_free(a);
    tt_grid_free(g);
    return worst;
}

/* The worst median over the four zooms of run_size, top and bottom rows,
 * in the view on screen (the keys before set it up). */
static double zooms_of(tt_app *a, tt_grid *g, int cols, int64_t full, const char *what)
{
    struct {
        const char *what;
        int64_t span;
    } zooms[4] = {
        {"whole job", full},
        {"1/10 of it", full / 10},
        {"1/1000 of it", full / 1000},
        {"1 ns per column", cols},
    };
    double worst = 0;
    for (int z = 0; z < 4; z++)
        for (int where = 0; where < 2; where++) {
            char keys[160];
            int64_t mid = full / 2, span = zooms[z].span > 0 ? zooms[z].span : 1;
            double ms, bad;
            snprintf(keys, sizeof keys, "%s0:%lldns..%lldns<Enter>", where ? "<End>" : "<Home>",
                     (long long)(mid - span / 2), (long long)(mid - span / 2 + span));
            feed(a, keys);
            ms = time_frames(a, g, &bad);
            if (ms > worst)
                worst = ms;
            printf("  200x50 %-22s %-16s %-6s rows: %7.3f ms per frame (slowest batch %.3f)\n",
                   what, zooms[z].what, where ? "bottom" : "top", ms, bad);
        }
    return worst;
}

/* Returns the worst median frame of the combined view, or -1 without
 * the ranks. */
static double run_ranks(const char *trace)
{
    char dir[4096], *slash;
    const char *paths[1];
    char **files = NULL;
    size_t n_files = 0;
    struct stat st;
    tt_rankset rs;
    tt_rankset_opts ro;
    tt_load_opts lo;
    tt_align_spec al;
    tt_error err;
    tt_app_rank *ranks;
    tt_app_job job;
    tt_app_opts ao;
    tt_app *a;
    tt_grid *g = tt_grid_new(200, 50);
    uint64_t events = 0;
    double t0, worst = 0, w;
    snprintf(dir, sizeof dir, "%s", trace);
    slash = strrchr(dir, '/');
    snprintf(slash ? slash + 1 : dir, sizeof dir - (size_t)(slash ? slash + 1 - dir : 0),
             "ranks64");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("  (no %s: the job of many ranks is skipped)\n", dir);
        tt_grid_free(g);
        return -1;
    }
    paths[0] = dir;
    tt_error_clear(&err);
    memset(&lo, 0, sizeof lo);
    memset(&ro, 0, sizeof ro);
    memset(&al, 0, sizeof al);
    ro.load = &lo;
    t0 = now();
    if (tt_rankset_expand(paths, 1, &files, &n_files, &err) ||
        tt_rankset_load(&rs, files, n_files, &ro, &err) || tt_rankset_align(&rs, &al, &err)) {
        fprintf(stderr, "bench-render: %s: %s\n", dir, err.what);
        exit(2);
    }
    tt_rankset_free_files(files, n_files);
    for (size_t i = 0; i < rs.n; i++)
        events += rs.r[i].trace->n_events;
    printf("\nbench-render: a job of %zu ranks, %llu events, loaded in %.2f s\n", rs.n,
           (unsigned long long)events, now() - t0);
    ranks = calloc(rs.n, sizeof *ranks);
    if (!ranks || !g) {
        fprintf(stderr, "bench-render: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < rs.n; i++) {
        ranks[i].tr = rs.r[i].trace;
        ranks[i].path = rs.r[i].path;
        ranks[i].rank = rs.r[i].rank;
        ranks[i].offset = rs.r[i].offset;
        ranks[i].source = "metadata";
    }
    job.r = ranks;
    job.n = rs.n;
    job.align = "absolute";
    job.align_opt = "absolute";
    memset(&ao, 0, sizeof ao);
    ao.title = "ranks64";
    ao.utf8 = true;
    ao.job = &job;
    t0 = now();
    a = tt_app_new(rs.r[0].trace, 200, 50, &ao, &err);
    if (!a) {
        fprintf(stderr, "bench-render: %s\n", err.what);
        exit(2);
    }
    printf("  combined view set up in %.1f ms\n", (now() - t0) * 1000.0);
    t0 = now();
    if (tt_app_draw(a, g)) {
        fprintf(stderr, "bench-render: out of memory\n");
        exit(2);
    }
    printf("  first frame (every rank's busy union built) in %.1f ms\n", (now() - t0) * 1000.0);
    {
        /* the job's span on the aligned axis */
        int64_t j0 = rs.r[0].trace->t0 + rs.r[0].offset, j1 = rs.r[0].trace->t1 + rs.r[0].offset;
        int64_t full;
        for (size_t i = 1; i < rs.n; i++) {
            if (rs.r[i].trace->t0 + rs.r[i].offset < j0)
                j0 = rs.r[i].trace->t0 + rs.r[i].offset;
            if (rs.r[i].trace->t1 + rs.r[i].offset > j1)
                j1 = rs.r[i].trace->t1 + rs.r[i].offset;
        }
        full = j1 - j0;
        w = zooms_of(a, g, 200, full, "combined, folded");
        worst = w > worst ? w : worst;
        feed(a, "<Home>C");
        w = zooms_of(a, g, 200, full, "combined, unfolded");
        worst = w > worst ? w : worst;
        t0 = now();
        feed(a, "X");
        printf("  collectives matched (the view opened) in %.1f ms\n", (now() - t0) * 1000.0);
        zooms_of(a, g, 200, full, "collectives view");
        feed(a, "`");
        zooms_of(a, g, 200, full, "rank 0's tab");
    }
    printf("  view memory beside the traces: %.1f MB for %llu events (%.1f bytes per event; an "
           "event itself takes %zu)\n",
           (double)tt_app_memory(a) / 1e6, (unsigned long long)events,
           (double)tt_app_memory(a) / (double)(events ? events : 1), sizeof(tt_event));
    tt_app_free(a);
    tt_grid_free(g);
    free(ranks);
    tt_rankset_fini(&rs);
    return worst;
}

/* Load one trace and time its frames at the given sizes, plain and with
 * the overlays; prints the budget lines. 0, or 2 when it does not load. */
static int bench_trace(const char *path, const char *what, size_t n_sizes)
{
    static const struct {
        int cols, rows;
    } sizes[] = {{200, 50}, {80, 24}};
    tt_trace *tr = NULL;
    tt_error err;
    tt_load_opts lo;
    tt_rules_config cfg;
    double t0, worst = 0, box_ms = 0, box_worst = 0;
    memset(&lo, 0, sizeof lo);
    tt_error_clear(&err);
    t0 = now();
    if (tt_load(path, &lo, &tr, NULL, &err)) {
        char msg[600];
        fprintf(stderr, "bench-render: %s\n", tt_error_format(&err, path, msg, sizeof msg));
        return 2;
    }
    printf("bench-render: %llu events, %u lanes, loaded in %.2f s\n",
           (unsigned long long)tr->n_events, tr->n_lanes, now() - t0);
    tt_rules_config_defaults(&cfg);
    for (int overlays = 0; overlays < 2; overlays++)
        for (size_t s = 0; s < n_sizes && s < sizeof sizes / sizeof sizes[0]; s++) {
            double w = run_size(tr, sizes[s].cols, sizes[s].rows, overlays ? &cfg : NULL, &box_ms);
            if (w > worst)
                worst = w;
            if (box_ms > box_worst)
                box_worst = box_ms;
        }
    printf("budget: a frame under 10 ms at any zoom (%s, 200x50), with a box, markers and "
           "annotations drawn: worst median %.3f ms: %s\n", what, worst,
           worst < 10.0 ? "PASS" : "MISS");
    printf("budget: a full-range box select under 50 ms (%s): %.1f ms: %s\n", what, box_worst,
           box_worst < 50.0 ? "PASS" : "MISS");
    tt_trace_free(tr);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {   /* TRACE_1M [TRACE_10M]: bench/local.mk */
        fprintf(stderr, "usage: bench-render TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    tt_text_set_utf8(true);
    if (bench_trace(argv[1], "1M events", 2))
        return 2;
    {
        double jw = run_ranks(argv[1]);
        if (jw >= 0)
            printf("budget: a combined-view frame under 10 ms (64 ranks x 100k events, 200x50, "
                   "folded and unfolded, at any zoom): worst median %.3f ms: %s\n", jw,
                   jw < 10.0 ? "PASS" : "MISS");
    }
    /* the 10M trace at the large size only: the frames must not grow with
     * the events (DESIGN.md: O(lanes x columns x log n)) */
    if (argc == 3) {
        printf("\n");
        if (bench_trace(argv[2], "10M events", 1))
            return 2;
    }
    return 0;
}
