/* bench_snapshot.c - the .ttz snapshot against its budgets (DESIGN.md,
 * issue 7): reopening a 1M-event trace from its snapshot in under 0.3 s,
 * and a snapshot at most a third of the gzip'd JSON; and issue 13's: a
 * 1 ms window of a 10M-event snapshot loaded in under 50 ms (the load
 * `report --window` does: only the event blocks that meet it, no
 * arguments, no flows), the whole 10M snapshot reopened in under 1 s.
 *
 *   bench-snapshot TRACE [TRACE_10M]   (bench/run.sh passes the 1M and,
 *                                       without BENCH_QUICK, 10M traces)
 *
 * The 1 ms window (10 s into the trace) is timed on TRACE's snapshot, and
 * with TRACE_10M on the snapshot run.sh wrote beside it (.json -> .ttz),
 * whose whole reopen is timed once too; wall and CPU seconds.
 *
 * Loads TRACE, writes TRACE.ttz beside it (timed: encoding and writing),
 * then reopens it five times through tt_load() like `tracetty` does and
 * reports the best and median wall time, the peak RSS of this process, the
 * snapshot's size by section, and its size against TRACE.gz when that
 * file exists (run.sh makes it). Prints PASS/MISS per budget; always exits
 * 0 when it could measure (the figures are the result).
 */
#include "config.h"

#include "decode/decode.h"
#include "snapshot/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double cpu_now(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6 +
           (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec / 1e6;
}

/* Load path as report --window 10s:10001ms does (part NULL: as summary
 * does, everything); *wall and *cpu receive the seconds. Returns the
 * events held, or -1. */
static long long timed_load(const char *path, const tt_load_part *part, double *wall, double *cpu)
{
    tt_load_opts o;
    tt_trace *tr;
    tt_error err;
    long long held = 0;
    double w = now(), c = cpu_now();
    memset(&o, 0, sizeof o);
    if (part) {
        o.skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS;
        o.part = part;
    }
    tt_error_clear(&err);
    if (tt_load(path, &o, &tr, NULL, &err)) {
        fprintf(stderr, "bench-snapshot: %s: %s\n", path, err.what);
        return -1;
    }
    *wall = now() - w;
    *cpu = cpu_now() - c;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        held += (long long)tr->lanes[l].n;
    tt_trace_free(tr);
    return held;
}

/* The median of 5 loads of a 1 ms window 10 s into path's trace, printed;
 * its wall seconds, or -1. */
static double window_runs(const char *path, const char *what)
{
    tt_load_part part;
    double wall[5], cpu[5];
    long long held = 0;
    memset(&part, 0, sizeof part);
    part.has_from = part.has_to = true;
    part.from = 10000000000LL;
    part.to = 10001000000LL;
    for (int i = 0; i < 5; i++)
        if ((held = timed_load(path, &part, &wall[i], &cpu[i])) < 0)
            return -1;
    qsort(wall, 5, sizeof wall[0], cmp_double);
    qsort(cpu, 5, sizeof cpu[0], cmp_double);
    printf("  1 ms window of the %s .ttz  %8.3f s wall, %.3f s CPU (medians of 5; %lld events "
           "held)\n",
           what, wall[2], cpu[2], held);
    return wall[2];
}

static long long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    char ttz[4096], gz[4096];
    tt_trace *tr;
    tt_error err;
    double t, t_load, t_write, times[5];
    long long size, gz_size;
    uint64_t events;
    struct rusage ru;

    if (argc < 2 || argc > 3) {   /* TRACE_1M [TRACE_10M]: bench/local.mk */
        fprintf(stderr, "usage: bench-snapshot TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    snprintf(ttz, sizeof ttz, "%s.ttz", argv[1]);
    snprintf(gz, sizeof gz, "%s.gz", argv[1]);
    tt_error_clear(&err);
    t = now();
    if (tt_load(argv[1], NULL, &tr, NULL, &err)) {
        fprintf(stderr, "bench-snapshot: %s: %s\n", argv[1], err.what);
        return 2;
    }
    t_load = now() - t;
    events = tr->n_events;
    t = now();
    if (tt_snapshot_write(tr, ttz, NULL, &err)) {
        fprintf(stderr, "bench-snapshot: %s: %s\n", ttz, err.what);
        tt_trace_free(tr);
        return 2;
    }
    t_write = now() - t;
    tt_trace_free(tr);

    for (int i = 0; i < 5; i++) {
        t = now();
        if (tt_load(ttz, NULL, &tr, NULL, &err)) {
            fprintf(stderr, "bench-snapshot: %s: %s\n", ttz, err.what);
            return 2;
        }
        times[i] = now() - t;
        if (tr->n_events != events) {
            fprintf(stderr, "bench-snapshot: the snapshot holds %llu events, not %llu\n",
                    (unsigned long long)tr->n_events, (unsigned long long)events);
            return 2;
        }
        tt_trace_free(tr);
    }
    qsort(times, 5, sizeof times[0], cmp_double);
    getrusage(RUSAGE_SELF, &ru);
    size = file_size(ttz);
    gz_size = file_size(gz);

    printf("snapshot of %s: %llu timeline events\n", argv[1], (unsigned long long)events);
    printf("  decode the JSON           %8.3f s\n", t_load);
    printf("  encode + write the .ttz   %8.3f s\n", t_write);
    printf("  reopen the .ttz (5 runs)  %8.3f s best, %.3f s median\n", times[0], times[2]);
    printf("  peak RSS of this process  %8.1f MB (includes the JSON load)\n",
           (double)ru.ru_maxrss / 1024.0);
    printf("  .ttz size                 %8.2f MB", (double)size / 1e6);
    if (gz_size > 0)
        printf(" = %.1f%% of the gzip'd JSON (%.2f MB)\n", 100.0 * (double)size / (double)gz_size,
               (double)gz_size / 1e6);
    else
        printf(" (no %s to compare with)\n", gz);
    {
        /* where the bytes go */
        FILE *f = fopen(ttz, "rb");
        unsigned char *buf = size > 0 ? malloc((size_t)size) : NULL;
        static const char *const names[] = {"", "meta", "strings", "attributes", "arguments",
                                            "groups", "lanes", "events", "counters", "flows",
                                            "index"};
        if (f && buf && fread(buf, 1, (size_t)size, f) == (size_t)size) {
            uint32_t n;
            memcpy(&n, buf + 12, 4);
            for (uint32_t i = 0; i < n && i < 16; i++) {
                uint32_t id;
                uint64_t stored, raw;
                memcpy(&id, buf + 32 + 36 * i, 4);
                memcpy(&stored, buf + 32 + 36 * i + 16, 8);
                memcpy(&raw, buf + 32 + 36 * i + 24, 8);
                if (id < 11)
                    printf("    %-11s %10.3f MB stored (%.3f MB raw), %.2f bytes/event\n",
                           names[id], (double)stored / 1e6, (double)raw / 1e6,
                           events ? (double)stored / (double)events : 0.0);
            }
        }
        free(buf);
        if (f)
            fclose(f);
    }
    /* the budget is for the 1M-event trace (trace events, of which the
     * timeline holds the slices and instants; flows, counter samples and
     * metadata are the rest) */
    printf("budget: reopen a 1M-event trace from its snapshot in under 0.3 s: %.3f s %s\n",
           times[2], times[2] < 0.3 ? "PASS" : "MISS");
    if (gz_size > 0)
        printf("budget: snapshot at most a third of the gzip'd JSON: %.1f%% %s\n",
               100.0 * (double)size / (double)gz_size, 3 * size <= gz_size ? "PASS" : "MISS");
    {
        double win = window_runs(ttz, "1M");
        if (win >= 0)
            printf("budget: (1M) 1 ms window in under 50 ms: %.1f ms %s\n", win * 1000,
                   win < 0.05 ? "PASS" : "MISS");
    }
    remove(ttz);
    if (argc == 3) {
        /* run.sh's snapshot of the 10M trace, beside it */
        char big[4096];
        size_t n = strlen(argv[2]);
        double wall, cpu, win;
        if (n < 5 || strcmp(argv[2] + n - 5, ".json") != 0 || n >= sizeof big) {
            printf("10M: no .json name to find its .ttz by: skipped\n");
            return 0;
        }
        snprintf(big, sizeof big, "%.*s.ttz", (int)(n - 5), argv[2]);
        if (file_size(big) <= 0) {
            printf("10M: no %s (run.sh writes it): skipped\n", big);
            return 0;
        }
        if (timed_load(big, NULL, &wall, &cpu) < 0)
            return 2;
        printf("  reopen the 10M .ttz (1 run)  %8.3f s wall, %.3f s CPU\n", wall, cpu);
        if ((win = window_runs(big, "10M")) < 0)
            return 2;
        printf("budget: whole 10M .ttz reopen in under 1 s: %.3f s %s\n", wall,
               wall < 1 ? "PASS" : "MISS");
        printf("budget: 1 ms window of the 10M .ttz in under 50 ms: %.1f ms %s\n", win * 1000,
               win < 0.05 ? "PASS" : "MISS");
    }
    return 0;
}
