/* bench_sql.c - the `slice` table's range walk (sql/tab_slice.c through
 * sql/evwalk.h) against issue 17's budget: a `ts BETWEEN` query over 10M
 * events under 50 ms, costing O(log n + k) rather than a scan.
 *
 *   bench-sql TRACE_1M [TRACE_10M]   (bench/run.sh; a .ttz of either
 *                                     loads faster and gives the same)
 *
 * Per trace: loads it (arguments, flows and counters left out where the
 * loader can: the walk reads none of them), then times, as SQLite would
 * drive the table without SQLite itself, first() with `ts >= a AND ts <=
 * b` for a 1 ms window in the middle of the trace and the walk over its
 * rows reading id, ts, dur and track_id (CPU time of the process, the
 * best of several runs), and the same for 10 ms and for a hundredth of
 * the trace's span (many rows: the cost per row); then one unconstrained
 * walk over every row (the scan a table without the index would do),
 * checking that it finds exactly the rows the ranged walk found. The
 * table's estimate() for the window is printed beside the rows. Exits 0
 * when it could measure and the two walks agree, 1 otherwise.
 */
#include "config.h"

#include "decode/decode.h"
#include "sql/sqltab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Walk t for cons, reading the first four columns of each row (id, ts,
 * dur, track_id); *rows and *sum (of ids, a checksum) of the rows whose
 * ts lies in [a, b]. 0, or -1 with err set. */
static int walk(const tt_sql_table *t, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                tt_ns a, tt_ns b, uint64_t *rows, int64_t *sum, tt_error *err)
{
    void *cur = calloc(1, t->cur_size);
    int rc;
    *rows = 0;
    *sum = 0;
    if (!cur) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return -1;
    }
    rc = t->first(cur, s, cons, n, err);
    while (rc == 0 && !t->eof(cur)) {
        tt_sql_val v[4];
        for (int c = 0; c < 4 && rc == 0; c++)
            rc = t->column(cur, c, &v[c], err);
        if (rc == 0 && v[1].i >= a && v[1].i <= b) {
            (*rows)++;
            *sum += v[0].i;
        }
        if (rc == 0)
            rc = t->next(cur, err);
    }
    if (t->close)
        t->close(cur);
    free(cur);
    return rc;
}

/* One window of width w ns in the middle of the trace: best CPU time of
 * reps ranged walks, checked against one full walk. 0 when they agree. */
static int measure(const tt_sql_table *t, const tt_sql_src *s, tt_ns w, const char *label,
                   tt_error *err)
{
    const tt_trace *tr = s->tr;
    tt_ns a = tr->t0 + (tr->t1 - tr->t0) / 2, b = a + w - 1;
    tt_sql_cons cons[2] = {{1, TT_SQLOP_GE, a}, {1, TT_SQLOP_LE, b}};
    uint64_t rows = 0, all_rows;
    int64_t sum = 0, all_sum;
    double best = 1e30;
    for (int r = 0; r < 20; r++) {
        double c0 = cpu_now();
        if (walk(t, s, cons, 2, a, b, &rows, &sum, err))
            return -1;
        double c1 = cpu_now() - c0;
        if (c1 < best)
            best = c1;
    }
    double c0 = cpu_now();
    if (walk(t, s, NULL, 0, a, b, &all_rows, &all_sum, err))
        return -1;
    double scan = cpu_now() - c0;
    double est = t->estimate ? t->estimate(s, cons, 2) : -1;
    printf("  %s: %" PRIu64 " rows (estimate %.0f) in %.3f ms CPU "
           "(first()+walk, best of 20); full walk %.1f ms CPU: %.0fx; budget 50 ms: %s\n",
           label, rows, est, best * 1e3, scan * 1e3, best > 0 ? scan / best : 0.0,
           best * 1e3 < 50 ? "PASS" : "MISS");
    if (rows != all_rows || sum != all_sum) {
        printf("  %s: ranged walk found %" PRIu64 " rows, full walk %" PRIu64 ": MISMATCH\n",
               label, rows, all_rows);
        return 1;
    }
    return 0;
}

static int run(const char *path)
{
    tt_error err;
    tt_error_clear(&err);
    tt_trace *tr = NULL;
    tt_load_opts lo = {0};
    lo.skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS;
    double c0 = cpu_now();
    if (tt_load(path, &lo, &tr, NULL, &err)) {
        char buf[512];
        printf("bench-sql: %s\n", tt_error_format(&err, path, buf, sizeof buf));
        return 1;
    }
    printf("%s: %" PRIu64 " events, %" PRIu32 " lanes (loaded in %.2f s CPU)\n", path,
           tr->n_events, tr->n_lanes, cpu_now() - c0);
    const tt_sql_table *t = tt_sql_table_find("slice", NULL);
    tt_sql_src s;
    int rc = tt_sql_src_init(&s, tr, path, &err);
    if (rc == 0) {
        rc = measure(t, &s, 1000000, "1 ms window", &err);
        if (rc == 0)
            rc = measure(t, &s, 10000000, "10 ms window", &err);
        if (rc == 0)   /* many rows: the walk's cost per row */
            rc = measure(t, &s, (tr->t1 - tr->t0) / 100 + 1, "1% of the trace", &err);
        tt_sql_src_fini(&s);
    }
    if (rc < 0) {
        char buf[512];
        printf("bench-sql: %s\n", tt_error_format(&err, path, buf, sizeof buf));
    }
    tt_trace_free(tr);
    return rc != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench-sql TRACE_1M [TRACE_10M]\n");
        return 2;
    }
    printf("sql slice table, ts BETWEEN over the interval index (issue 17):\n");
    int rc = run(argv[1]);
    if (argc > 2)
        rc |= run(argv[2]);
    return rc;
}
