/* frames.h - timing a view's frames, for the bench programs that time one
 * (bench_render.c: the timeline; bench_compare.c: the compare view).
 *
 * A figure is the median of BENCH_BATCHES batches of BENCH_FRAMES frames,
 * so other work on the machine disturbs it less; between frames the view
 * pans (the keys "d" "d" "a" "a" ...), so no frame repeats the one before.
 * Header-only: each bench program is one file (bench/local.mk).
 */
#ifndef TT_BENCH_FRAMES_H
#define TT_BENCH_FRAMES_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tui/grid.h"
#include "tui/input.h"
#include "util/error.h"

#define BENCH_BATCHES 7
#define BENCH_FRAMES 10

/* The clock of the figures: wall time by default; a build with
 * -DBENCH_CLOCK=CLOCK_PROCESS_CPUTIME_ID times CPU instead, which other
 * work on a shared machine disturbs less. */
#ifndef BENCH_CLOCK
#define BENCH_CLOCK CLOCK_MONOTONIC
#endif

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(BENCH_CLOCK, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A view the bench drives: the timeline (tt_app) or the compare view
 * (tt_cmp), through the calls both have. */
typedef struct bench_view {
    void       *view;
    int       (*input)(void *view, const tt_input *in);
    int       (*draw)(void *view, tt_grid *g);
    const char *prog;   /* for the messages */
} bench_view;

/* Replay --keys style keys; a bad one ends the program (exit 2). */
static inline void bench_feed(const bench_view *v, const char *keys)
{
    tt_input *in;
    size_t n;
    tt_error err;
    if (tt_keys_parse(keys, &in, &n, &err)) {
        fprintf(stderr, "%s: bad keys '%s': %s\n", v->prog, keys, err.what);
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        v->input(v->view, &in[i]);
    free(in);
}

/* Median ms per frame over the batches, *worst the slowest batch,
 * panning between frames; out of memory ends the program (exit 2). */
static inline double bench_frames(const bench_view *v, tt_grid *g, double *worst)
{
    double batch[BENCH_BATCHES];
    int f = 0;
    for (int b = 0; b < BENCH_BATCHES; b++) {
        double total = 0;
        for (int k = 0; k < BENCH_FRAMES; k++, f++) {
            double t0;
            /* alternate pans so every frame draws a different window */
            bench_feed(v, (f / 2) % 2 ? "a" : "d");
            t0 = bench_now();
            if (v->draw(v->view, g)) {
                fprintf(stderr, "%s: out of memory\n", v->prog);
                exit(2);
            }
            total += bench_now() - t0;
        }
        batch[b] = total * 1000.0 / BENCH_FRAMES;
    }
    qsort(batch, BENCH_BATCHES, sizeof batch[0], bench_by_value);
    *worst = batch[BENCH_BATCHES - 1];
    return batch[BENCH_BATCHES / 2];
}

#endif
