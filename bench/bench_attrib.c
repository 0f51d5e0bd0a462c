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
 * reopens it as `report --kind operators` does (no argument records),
 * which restores the stored attribution (format 4), and asks for the
 * attribution again. The restoring happens inside the reopen, so it is
 * also timed alone: the section's bytes (tt_snapshot_section) compressed
 * again as the writer does, then decompressed and restored into a reopen
 * that left it out (one without flows). The reopen budget counts that
 * restore plus the ask after the reopen, against the rest of the reopen.
 * Then runs the operators report of that .ttz in process (load,
 * attribution, rows to /dev/null) five times. Prints PASS/MISS per budget;
 * exits 0 when it could measure.
 */
#include "config.h"

#include "analysis/attrib.h"
#include "decode/decode.h"
#include "report/report.h"
#include "snapshot/attribsec.h"
#include "snapshot/snapshot.h"
#include "util/bigalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zstd.h>

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

/* The median of five timings (sorts them). */
static double median5(double v[5])
{
    qsort(v, 5, sizeof v[0], cmp_double);
    return v[2];
}

/* Load path (skip: TT_TRACE_NO_*) and build its attribution; the CPU and
 * wall seconds of each step. NULL on failure (said on stderr). */
static tt_trace *load_and_attrib(const char *path, unsigned skip, double *load_cpu,
                                 double *load_wall, double *at_cpu, double *at_wall,
                                 double *count_cpu, const tt_attrib **at)
{
    tt_load_opts lo = {0};
    tt_trace *tr;
    tt_error err;
    tt_attrib_counts counts;
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
    /* what summary asks instead of a build (tt_attrib_count), before the
     * build: after it the counts are only read back */
    c = cpu();
    if (tt_attrib_count(tr, &counts, &err)) {
        fprintf(stderr, "bench-attrib: counting launches: %s\n", err.what);
        tt_trace_free(tr);
        return NULL;
    }
    *count_cpu = cpu() - c;
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

/* The whole file at path, malloc'ed. NULL on failure. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long len;
    if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
        (buf = malloc((size_t)len)) && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    } else if (buf) {
        *n = (size_t)len;
    }
    if (f)
        fclose(f);
    return buf;
}

/* The CPU seconds of restoring ttz's stored attribution alone: its
 * section decompressed and checked into a reopen that left it out (no
 * flows), as the reader does. < 0 on failure (said on stderr). */
static double restore_alone(const char *ttz, size_t want_bytes)
{
    tt_load_opts lo = {0};
    tt_trace *tr = NULL;
    tt_error err;
    unsigned char *file, *raw = NULL, *z = NULL, *back = NULL;
    size_t n = 0, len = 0, zn = 0;
    const char *why = NULL;
    const tt_attrib *at;
    double c, t = -1.0;
    tt_error_clear(&err);
    if (!(file = slurp(ttz, &n)) ||
        tt_snapshot_section(file, n, TT_SNAPSHOT_SEC_ATTRIB, &raw, &len, &err)) {
        fprintf(stderr, "bench-attrib: %s: no attribution section: %s\n", ttz, err.what);
        goto out;
    }
    /* the writer's level for a section this size (snapshot.c) */
    z = malloc(ZSTD_compressBound(len));
    if (!z || ZSTD_isError(zn = ZSTD_compress(z, ZSTD_compressBound(len), raw, len,
                                              len <= (1u << 20) ? 19 : len <= (4u << 20) ? 9 : 3)))
        goto out;
    lo.skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS;   /* the section is left out */
    if (tt_load(ttz, &lo, &tr, NULL, &err)) {
        fprintf(stderr, "bench-attrib: %s: %s\n", ttz, err.what);
        goto out;
    }
    c = cpu();
    /* into huge pages, as the reader's open_section() */
    if (!(back = tt_bigalloc(len ? len : 1)) || ZSTD_decompress(back, len, z, zn) != len ||
        tt_attribsec_decode(back, len, tr, &why, &err)) {
        fprintf(stderr, "bench-attrib: restoring the attribution: %s\n", why ? why : err.what);
        goto out;
    }
    t = cpu() - c;
    at = tt_attrib_get(tr, &err);
    if (!at || tt_attrib_memory(at) != want_bytes) {
        fprintf(stderr, "bench-attrib: the restored attribution differs from the built one\n");
        t = -1.0;
    }
out:
    if (tr)
        tt_trace_free(tr);
    free(file);
    free(raw);
    free(z);
    free(back);
    return t;
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
    double lc, lw, ac, aw, cc, rcc, rlc, rlw, rac, raw, tw[5], tc[5], rst, reopen_cost, reopen_rest;
    double rl_c[5], rl_w[5], ra_c[5], ra_w[5], rs[5];
    double bytes_per_event;
    size_t built_bytes;
    uint64_t events;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench-attrib TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    snprintf(ttz, sizeof ttz, "%s.attrib.ttz", argv[1]);
    if (!(tr = load_and_attrib(argv[1], 0, &lc, &lw, &ac, &aw, &cc, &at)))
        return 2;
    events = tr->n_events;
    built_bytes = tt_attrib_memory(at);
    bytes_per_event = events ? (double)tt_attrib_memory(at) / (double)events : 0.0;
    printf("attribution of %s: %llu timeline events, %zu device events, %zu linked, "
           "%zu dangling\n",
           argv[1], (unsigned long long)events, tt_attrib_n_device(at), tt_attrib_n_links(at),
           tt_attrib_n_dangling(at));
    printf("  load the JSON             %8.3f s CPU (%.3f s wall)\n", lc, lw);
    printf("  attribution               %8.3f s CPU (%.3f s wall) = %.1f%% of the load's CPU\n",
           ac, aw, 100.0 * ac / lc);
    printf("  its counts alone          %8.3f s CPU (summary's Launches line, "
           "tt_attrib_count)\n", cc);
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
    /* a few milliseconds each: medians of 5, as one run swings with page
     * faults and the scheduler */
    for (int i = 0; i < 5; i++) {
        if (!(tr = load_and_attrib(ttz, TT_TRACE_NO_ARGS, &rl_c[i], &rl_w[i], &ra_c[i], &ra_w[i],
                                   &rcc, &at))) {
            remove(ttz);
            return 2;
        }
        tt_trace_free(tr);
        if ((rs[i] = restore_alone(ttz, built_bytes)) < 0) {
            remove(ttz);
            return 2;
        }
    }
    rlc = median5(rl_c);
    rlw = median5(rl_w);
    rac = median5(ra_c);
    raw = median5(ra_w);
    rst = median5(rs);
    reopen_cost = rst + rac;
    reopen_rest = rlc - rst > 0 ? rlc - rst : rlc;
    printf("  reopen the .ttz           %8.3f s CPU (%.3f s wall), restoring the stored "
           "attribution (medians of 5 here)\n",
           rlc, rlw);
    printf("  restoring it, timed alone %8.3f s CPU (decompress, check, adopt)\n", rst);
    printf("  attribution after it      %8.3f s CPU (%.3f s wall)\n", rac, raw);
    printf("  attribution's part        %8.3f s CPU = %.1f%% of the rest of the reopen's CPU\n",
           reopen_cost, 100.0 * reopen_cost / reopen_rest);
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
           100.0 * reopen_cost / reopen_rest, reopen_cost <= 0.10 * reopen_rest ? "PASS" : "MISS");
    printf("budget: attribution at most 8 bytes per event: %.2f %s\n", bytes_per_event,
           bytes_per_event <= 8.0 ? "PASS" : "MISS");
    /* CPU time: on a shared machine the wall time measures the others too */
    printf("budget: report --kind operators of 1M events from a .ttz under 0.5 s (CPU): "
           "%.3f s %s (wall %.3f s)\n",
           tc[2], tc[2] < 0.5 ? "PASS" : "MISS", tw[2]);
    return 0;
}
