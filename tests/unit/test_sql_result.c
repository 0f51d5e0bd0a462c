/* test_sql_result.c - sql/result.h and tt_sql_srcset_new_loaded: a query
 * over traces already loaded (the view's `:sql`) keeps its rows as the
 * query command writes them, never loads a trace, and maps each row back
 * to its event: by slice id, by ts + track_id (+ dur among events that
 * start together), or to a time alone; ids of a second trace carry its
 * ordinal. Every mapped event is checked against the row's own ts, dur
 * and name, read from the model, not from the mapping code. */
#include "config.h"

#include "../tap.h"
#include "sql/result.h"

#include <stdlib.h>
#include <string.h>

/* Two lanes; lane 0 has two events starting together (nested). */
static tt_trace *make_trace(int variant)
{
    static const struct { uint32_t lane; tt_ns start, dur; const char *name; } ev[] = {
        {0, 10, 50, "a"}, {0, 10, 20, "b"}, {0, 100, 5, "a"}, {1, 10, 50, "c"},
    };
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "p"));
    uint32_t l0 = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "1"), TT_LANE_THREAD);
    uint32_t l1 = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
        uint32_t ln = ev[i].lane ? l1 : l0;
        int64_t ix = tt_trace_push_event(tr, ln);
        tt_event *e = tr->lanes[ln].ev + ix;
        e->start = ev[i].start + variant * 1000;
        e->dur = ev[i].dur;
        e->name = tt_trace_intern_cstr(tr, ev[i].name);
        e->kind = TT_EV_SLICE;
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* Run sql over set keeping max rows; 0 or -1 with err. */
static int run(tt_sql_srcset *set, const char *sql, size_t max, tt_sql_result *r, tt_error *err)
{
    volatile sig_atomic_t stop = 0;
    tt_sql_db *db = tt_sql_db_open(set, &stop, err);
    int rc = db && !tt_sql_db_prepare(db, sql, err) ? tt_sql_result_collect(db, max, r, err) : -1;
    tt_sql_db_close(db);
    return rc;
}

int main(void)
{
    tt_trace *tr[2] = {make_trace(0), make_trace(1)};
    tt_sql_loaded l[2];
    tt_sql_srcset_opts o;
    tt_sql_srcset *set;
    tt_sql_result r;
    tt_error err;
    size_t loads, src;
    tt_evref ev;
    tt_ns t;
    int64_t v;

    if (!tr[0] || !tr[1])
        return ok(0, "traces build"), tap_done();
    memset(&o, 0, sizeof o);
    for (int i = 0; i < 2; i++) {
        l[i].tr = tr[i];
        l[i].path = i ? "rank-1.json" : "rank-0.json";
        l[i].rank = i;
    }
    tt_error_clear(&err);
    set = tt_sql_srcset_new_loaded(l, 2, &o, &err);
    ok(set != NULL, "a set over two loaded traces");
    if (!set)
        return tap_done();
    loads = tt_sql_srcset_loads(set);
    tt_sql_result_init(&r);

    /* every slice, mapped back by ts + track_id + dur */
    is_i64(run(set, "SELECT rank, ts, dur, track_id, name FROM slice ORDER BY rank, track_id, "
                    "ts, dur", 100, &r, &err), 0, "a query over both traces runs (%s)", err.what);
    is_i64(r.n_cols, 5, "five columns");
    ok(r.n_cols == 5 && !strcmp(r.names[1], "ts") && !strcmp(r.names[3], "track_id"),
       "column names as SELECT names them");
    is_i64((int64_t)r.n_rows, 8, "four events per trace");
    ok(!r.truncated, "not truncated");
    is_i64((int64_t)tt_sql_srcset_loads(set), (int64_t)loads, "no trace loaded again");
    for (size_t row = 0; row < r.n_rows; row++) {
        int64_t rank = -1, ts = -1, dur = -1;
        tt_sql_result_int(&r, row, 0, &rank);
        tt_sql_result_int(&r, row, 1, &ts);
        tt_sql_result_int(&r, row, 2, &dur);
        bool okay = tt_sql_result_event(&r, row, set, &src, &ev, &t) == TT_SQL_AT_EVENT &&
                    (int64_t)src == rank && t == ts;
        if (okay) {
            const tt_event *e = tt_trace_event(tr[src], ev);
            okay = e->start == ts && e->dur == dur &&
                   !strcmp(tt_str(tr[src], e->name), tt_sql_result_text(&r, row, 4));
        }
        ok(okay, "row %zu (rank %lld ts %lld dur %lld) is its event", row, (long long)rank,
           (long long)ts, (long long)dur);
    }

    /* by slice id alone: ids of rank 1 carry its ordinal */
    is_i64(run(set, "SELECT id, rank, ts, dur, name FROM slice", 100, &r, &err), 0,
           "ids (%s)", err.what);
    for (size_t row = 0; row < r.n_rows; row++) {
        int64_t id = -1, rank = -1, ts = -1, dur = -1;
        tt_sql_result_int(&r, row, 0, &id);
        tt_sql_result_int(&r, row, 1, &rank);
        tt_sql_result_int(&r, row, 2, &ts);
        tt_sql_result_int(&r, row, 3, &dur);
        bool okay = tt_sql_result_event(&r, row, set, &src, &ev, &t) == TT_SQL_AT_EVENT &&
                    (int64_t)src == rank && (id >> TT_SQL_ID_SHIFT) == rank;
        if (okay) {
            const tt_event *e = tt_trace_event(tr[src], ev);
            okay = e->start == ts && e->dur == dur &&
                   !strcmp(tt_str(tr[src], e->name), tt_sql_result_text(&r, row, 4));
        }
        ok(okay, "id %lld is its event", (long long)id);
    }
    /* an id that is no slice's (a thread's utid with a ts that differs) */
    is_i64(run(set, "SELECT 0 AS id, 999 AS ts", 10, &r, &err), 0, "a made-up row");
    is_i64(tt_sql_result_event(&r, 0, set, &src, &ev, &t), TT_SQL_AT_TIME,
           "an id whose event starts elsewhere: only the time");
    is_i64(t, 999, "... that time");
    ok(src == SIZE_MAX, "... of no particular trace");
    is_i64(run(set, "SELECT 5 AS ts, 1099511627777 AS track_id", 10, &r, &err), 0,
           "a track with no event at ts");
    is_i64(tt_sql_result_event(&r, 0, set, &src, &ev, &t), TT_SQL_AT_TIME, "... a time");
    is_i64((int64_t)src, 1, "... of the track's trace");
    is_i64(run(set, "SELECT name FROM slice", 10, &r, &err), 0, "no ts, no id");
    is_i64(tt_sql_result_event(&r, 0, set, &src, &ev, &t), TT_SQL_AT_NONE, "... names nothing");

    /* cells as `tracetty query` writes them */
    is_i64(run(set, "SELECT NULL, 1.5, X'0A1B', 'x', -7", 10, &r, &err), 0, "values");
    ok(tt_sql_result_text(&r, 0, 0) == NULL, "NULL has no text");
    ok(!strcmp(tt_sql_result_text(&r, 0, 1), "1.5"), "a real");
    ok(!strcmp(tt_sql_result_text(&r, 0, 2), "X'0A1B'"), "a blob as SQL writes it");
    ok(!strcmp(tt_sql_result_text(&r, 0, 3), "x"), "text");
    ok(tt_sql_result_int(&r, 0, 4, &v) && v == -7 && !strcmp(tt_sql_result_text(&r, 0, 4), "-7"),
       "an integer, value and text");
    ok(!tt_sql_result_int(&r, 0, 1, &v), "a real is no integer");
    is_i64(tt_sql_result_col(&r, "'X'"), 3, "a column by name, any case");

    /* at most max_rows */
    is_i64(run(set, "SELECT * FROM slice", 3, &r, &err), 0, "a capped query");
    is_i64((int64_t)r.n_rows, 3, "three rows kept");
    ok(r.truncated, "... and said so");

    /* errors: positioned, and the result left empty */
    tt_error_clear(&err);
    ok(run(set, "SELECT nope FROM slice", 10, &r, &err) != 0, "an unknown column fails");
    ok(!strncmp(err.what, "query:1:8: no such column: nope", 31), "... at line 1, column 8 (%s)",
       err.what);
    tt_error_clear(&err);
    ok(run(set, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10) "
                "SELECT x, 1 / 0 FROM c", 10, &r, &err) == 0 && r.n_rows == 10,
       "a CTE: ten rows");

    tt_sql_result_fini(&r);
    tt_sql_srcset_free(set);
    ok(tr[0]->n_lanes == 2 && tr[1]->lanes[0].n == 3, "the borrowed traces outlive the set");
    tt_trace_free(tr[0]);
    tt_trace_free(tr[1]);
    return tap_done();
}
