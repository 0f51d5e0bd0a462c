/* bench_attrib.c - the attribution (analysis/attrib.h) against the budgets
 * of issue 14: it adds at most 10% to load time and at most 8 bytes per
 * event, and `report --kind operators` of a 1M-event trace from its .ttz
 * takes under 0.5 s.
 *
 *   bench-attrib TRACE_1M [TRACE_10M]   (bench/run.sh; the 10M one is
 *                                        ignored)
 *
 * Loads TRACE (the JSON: the load the attribution is added to), builds the
 * attribution (timed: CPU time of the process, user+sys of all threads,
 * and wall), reports its bytes per timeline event, writes TRACE.attrib.ttz,
 * reopens it as `report --kind operators` does (no argument records) and
 * builds the attribution again, then runs the operators report of that
 * .ttz in process (load, attribution, rows to /dev/null) five times.
 * Prints PASS/MISS per budget; exits 0 when it could measure.
 */
#include "config.h"

#include "analysis/attrib.h"
#include "decode/decode.h"
#include "report/report.h"
#include "snapshot/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_of(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double wall(void) { return clock_of(CLOCK_MONOTONIC); }
static double cpu(void) { return clock_of(CLOCK_PROCESS_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Load path (skip: TT_TRACE_NO_*) and build its attribution; the CPU and
 * wall seconds of each step. NULL on failure (said on stderr). */
static tt_trace *load_and_attrib(const char *path, unsigned skip, double *load_cpu,
                                 double *load_wall, double *at_cpu, double *at_wall,
                                 const tt_attrib **at)
{
    tt_load_opts lo = {0};
    tt_trace *tr;
    tt_error err;
    double c, w;
    lo.skip = skip;
    tt_error_clear(&err);
    c = cpu();
    w = wall();
    if (tt_load(path, &lo, &tr, NULL, &err)) {
        fprintf(stderr, "bench-attrib: %s: %s\n", path, err.what);
        return NULL;
    }
    *load_cpu = cpu() - c;
    *load_wall = wall() - w;
    c = cpu();
    w = wall();
    if (!(*at = tt_attrib_get(tr, &err))) {
        fprintf(stderr, "bench-attrib: attribution: %s\n", err.what);
        tt_trace_free(tr);
        return NULL;
    }
    *at_cpu = cpu() - c;
    *at_wall = wall() - w;
    return tr;
}

/* `report --kind operators TTZ > /dev/null`, in process. 0 or -1. */
static int report_operators(const char *ttz)
{
    tt_report_opts ro = {0};
    tt_load_opts lo = {0};
    tt_report *rep = NULL;
    tt_trace *tr;
    tt_error err;
    bool none;
    FILE *f = fopen("/dev/null", "w");
    int rc = -1;
    ro.kind = tt_report_kind_find("operators");
    ro.format = TT_OUT_CSV;
    lo.skip = TT_TRACE_NO_ARGS;   /* as cmd_report.c's report_skips() */
    tt_error_clear(&err);
    if (!f)
        return -1;
    if (!tt_load(ttz, &lo, &tr, NULL, &err)) {
        if (!tt_report_new(f, &ro, &rep, &err) && !tt_report_add(rep, tr, ttz, 0, &none, &err) &&
            !tt_report_finish(rep, &err))
            rc = 0;
        tt_report_free(rep);
        tt_trace_free(tr);
    }
    if (rc)
        fprintf(stderr, "bench-attrib: report of %s: %s\n", ttz, err.what);
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    char ttz[4096];
    const tt_attrib *at;
    tt_trace *tr;
    tt_error err;
    double lc, lw, ac, aw, rlc, rlw, rac, raw, tw[5], tc[5];
    double bytes_per_event;
    uint64_t events;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench-attrib TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    snprintf(ttz, sizeof ttz, "%s.attrib.ttz", argv[1]);
    if (!(tr = load_and_attrib(argv[1], 0, &lc, &lw, &ac, &aw, &at)))
        return 2;
    events = tr->n_events;
    bytes_per_event = events ? (double)tt_attrib_memory(at) / (double)events : 0.0;
    printf("attribution of %s: %llu timeline events, %zu device events, %zu linked, "
           "%zu dangling\n",
           argv[1], (unsigned long long)events, tt_attrib_n_device(at), tt_attrib_n_links(at),
           tt_attrib_n_dangling(at));
    printf("  load the JSON             %8.3f s CPU (%.3f s wall)\n", lc, lw);
    printf("  attribution               %8.3f s CPU (%.3f s wall) = %.1f%% of the load's CPU\n",
           ac, aw, 100.0 * ac / lc);
    printf("  attribution memory        %8.2f MB = %.2f bytes per timeline event "
           "(what the budget counts)\n",
           (double)tt_attrib_memory(at) / 1e6, bytes_per_event);
    tt_error_clear(&err);
    if (tt_snapshot_write(tr, ttz, NULL, &err)) {
        fprintf(stderr, "bench-attrib: %s: %s\n", ttz, err.what);
        tt_trace_free(tr);
        return 2;
    }
    tt_trace_free(tr);
    if (!(tr = load_and_attrib(ttz, TT_TRACE_NO_ARGS, &rlc, &rlw, &rac, &raw, &at))) {
        remove(ttz);
        return 2;
    }
    tt_trace_free(tr);
    printf("  reopen the .ttz           %8.3f s CPU (%.3f s wall)\n", rlc, rlw);
    printf("  attribution after it      %8.3f s CPU (%.3f s wall) = %.1f%% of the reopen's CPU\n",
           rac, raw, 100.0 * rac / rlc);
    for (int i = 0; i < 5; i++) {
        double c = cpu(), w = wall();
        if (report_operators(ttz)) {
            remove(ttz);
            return 2;
        }
        tc[i] = cpu() - c;
        tw[i] = wall() - w;
    }
    remove(ttz);
    qsort(tw, 5, sizeof tw[0], cmp_double);
    qsort(tc, 5, sizeof tc[0], cmp_double);
    printf("  report --kind operators of the .ttz (5 runs): %.3f s wall median, %.3f s CPU median\n",
           tw[2], tc[2]);
    printf("budget: attribution adds at most 10%% to the JSON load (CPU): %.1f%% %s\n",
           100.0 * ac / lc, ac <= 0.10 * lc ? "PASS" : "MISS");
    printf("budget: attribution adds at most 10%% to the .ttz reopen (CPU): %.1f%% %s\n",
           100.0 * rac / rlc, rac <= 0.10 * rlc ? "PASS" : "MISS");
    printf("budget: attribution at most 8 bytes per event: %.2f %s\n", bytes_per_event,
           bytes_per_event <= 8.0 ? "PASS" : "MISS");
    /* CPU time: on a shared machine the wall time measures the others too */
    printf("budget: report --kind operators of 1M events from a .ttz under 0.5 s (CPU): "
           "%.3f s %s (wall %.3f s)\n",
           tc[2], tc[2] < 0.5 ? "PASS" : "MISS", tw[2]);
    return 0;
}
