/* bench_load.c - `make bench` program: load a trace in-process and report
 * the load rate, the model's memory and the cost of index queries over it.
 *
 *   bench/bench-load TRACE
 *
 * Complements the whole-program figures bench/run.sh measures for
 * `tracetty summary`: how much of the time is the load itself, how much of
 * the peak is the model (tt_trace_memory), and that a full-range busy-time
 * query and a window overlap query stay cheap on a large trace.
 */
#include "config.h"

#include "decode/decode.h"
#include "index/index.h"
#include "model/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    tt_load_opts opts = {0};
    tt_trace *tr = NULL;
    tt_error err;
    tt_idxbuf buf;
    double t0, t1, mb;
    int64_t busy = 0;
    size_t hits = 0;
    const int reps = 1000;

    if (argc < 2 || argc > 3) {   /* TRACE_1M [TRACE_10M]: bench/local.mk */
        fprintf(stderr, "usage: bench-load TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    tt_error_clear(&err);
    t0 = now();
    if (tt_load(argv[1], &opts, &tr, NULL, &err)) {
        char msg[600];
        tt_error_format(&err, argv[1], msg, sizeof msg);
        fprintf(stderr, "bench-load: %s\n", msg);
        return 2;
    }
    t1 = now();
    mb = (double)tr->source_bytes / 1e6;
    printf("load            %.3f s, %.1f MB decoded, %.1f MB/s, %llu events\n", t1 - t0, mb,
           mb / (t1 - t0), (unsigned long long)tr->n_events);
    printf("model memory    %.1f MB (%.1f bytes per event)\n",
           (double)tt_trace_memory(tr) / 1e6,
           tr->n_events ? (double)tt_trace_memory(tr) / (double)tr->n_events : 0.0);

    /* busy time of every lane over the whole trace, repeated */
    t0 = now();
    for (int r = 0; r < reps; r++)
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            busy += tt_index_busy(tr->lanes[l].ev, tr->lanes[l].n, tr->t0, tr->t1);
    t1 = now();
    printf("busy query      %.3f us per lane (%u lanes, full range)\n",
           (t1 - t0) * 1e6 / reps / (tr->n_lanes ? tr->n_lanes : 1), tr->n_lanes);

    /* overlap query over a window of 1/1000 of the trace, sliding */
    tt_idxbuf_init(&buf);
    t0 = now();
    for (int r = 0; r < reps; r++) {
        tt_ns w = (tr->t1 - tr->t0) / 1000, from = tr->t0 + (tr->t1 - tr->t0 - w) / reps * r;
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            buf.n = 0;
            if (tt_index_overlap(tr->lanes[l].ev, tr->lanes[l].n, from, from + w, &buf) == 0)
                hits += buf.n;
        }
    }
    t1 = now();
    printf("overlap query   %.3f us per window over all lanes (%.1f events found on average)\n",
           (t1 - t0) * 1e6 / reps, (double)hits / reps);
    tt_idxbuf_fini(&buf);
    if (busy < 0)
        printf("(negative busy time)\n");
    tt_trace_free(tr);
    return 0;
}
