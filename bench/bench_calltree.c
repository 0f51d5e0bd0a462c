/* bench_calltree.c - `make bench` program: the call tree of a full-range
 * box (analysis/calltree.h), against issue 14's budget "the call tree of a
 * full-range box on 1M events under 100 ms".
 *
 *   bench/bench-calltree TRACE_1M [TRACE_10M]   (bench/local.mk's convention;
 *                                                the 10M trace is ignored)
 *
 * Loads the trace, builds the attribution once (its cost belongs to the
 * load, attrib.h, and is printed apart), then times, in CPU time of the
 * process (user + sys, CLOCK_PROCESS_CPUTIME_ID; the machine is shared):
 *   - the top-down tree of the full range over every lane (median of 5);
 *   - the bottom-up tree made from it (median of 5);
 *   - the instances of the heaviest root (what Enter highlights);
 *   - the self sums by name of the full range (the box statistics' Self
 *     and Dev self columns, tt_calltree_self_by; median of 5), which a
 *     full-range box now computes beside its breakdown.
 */
#include "config.h"

#include "analysis/attrib.h"
#include "analysis/calltree.h"
#include "decode/decode.h"
#include "util/strtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUDGET_MS 100.0

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    tt_load_opts opts = {0};
    tt_trace *tr = NULL;
    tt_calltree *ct = NULL, *bu = NULL;
    tt_error err;
    tt_sel sel;
    double t0, took[5], td, btd, att;
    tt_evref *inst = NULL;
    size_t n_inst = 0, cap = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: bench-calltree TRACE\n");
        return 2;
    }
    tt_error_clear(&err);
    if (tt_load(argv[1], &opts, &tr, NULL, &err)) {
        char msg[600];
        tt_error_format(&err, argv[1], msg, sizeof msg);
        fprintf(stderr, "bench-calltree: %s\n", msg);
        return 2;
    }
    t0 = cpu_now();
    if (!tt_attrib_get(tr, &err)) {
        fprintf(stderr, "bench-calltree: %s\n", err.what);
        return 1;
    }
    att = cpu_now() - t0;
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    for (int r = 0; r < 5; r++) {
        tt_calltree_free(ct);
        t0 = cpu_now();
        if (tt_calltree_build(tr, &sel, &ct, &err)) {
            fprintf(stderr, "bench-calltree: %s\n", err.what);
            return 1;
        }
        took[r] = cpu_now() - t0;
    }
    td = median(took, 5);
    for (int r = 0; r < 5; r++) {
        tt_calltree_free(bu);
        t0 = cpu_now();
        if (tt_calltree_bottom_up(ct, &bu, &err)) {
            fprintf(stderr, "bench-calltree: %s\n", err.what);
            return 1;
        }
        took[r] = cpu_now() - t0;
    }
    btd = median(took, 5);
    t0 = cpu_now();
    if (ct->root != TT_CT_NONE && tt_calltree_instances(ct, ct->root, &inst, &n_inst, &cap)) {
        fprintf(stderr, "bench-calltree: out of memory\n");
        return 1;
    }
    printf("calltree: %s: %llu events in %u lanes (CPU time, user+sys)\n", argv[1],
           (unsigned long long)tr->n_events, tr->n_lanes);
    printf("  attribution, built once with the trace     %8.2f ms\n", att * 1e3);
    printf("  full-range top-down call tree              %8.2f ms  (%zu events, %zu nodes; "
           "median of 5)\n", td * 1e3, ct->n_ev, ct->n);
    printf("  bottom-up tree from it                     %8.2f ms  (%zu nodes; median of 5)\n",
           btd * 1e3, bu->n);
    printf("  instances of the heaviest root             %8.2f ms  (%zu events)\n",
           (cpu_now() - t0) * 1e3, n_inst);
    {
        uint32_t n_ids = tt_strtab_count(tr->strings), *ids = malloc(n_ids * sizeof *ids);
        tt_ns *host = malloc(n_ids * sizeof *host), *dev = malloc(n_ids * sizeof *dev);
        tt_key key;
        memset(&key, 0, sizeof key);
        key.kind = TT_KEY_NAME;
        if (!ids || !host || !dev) {
            fprintf(stderr, "bench-calltree: out of memory\n");
            return 1;
        }
        for (uint32_t i = 0; i < n_ids; i++)
            ids[i] = i;
        for (int r = 0; r < 5; r++) {
            t0 = cpu_now();
            if (tt_calltree_self_by(tr, &sel, &key, ids, n_ids, host, dev, &err)) {
                fprintf(stderr, "bench-calltree: %s\n", err.what);
                return 1;
            }
            took[r] = cpu_now() - t0;
        }
        printf("  self sums by name (box Self columns)       %8.2f ms  (%u names; median of 5)\n",
               median(took, 5) * 1e3, n_ids);
        free(ids);
        free(host);
        free(dev);
    }
    printf("budget: the call tree of a full-range box under %.0f ms: %s\n", BUDGET_MS,
           (td + btd) * 1e3 < BUDGET_MS ? "PASS" : "MISS");
    free(inst);
    tt_calltree_free(bu);
    tt_calltree_free(ct);
    tt_trace_free(tr);
    return 0;
}
