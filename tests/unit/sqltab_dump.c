/* sqltab_dump - `sqltab_dump [OPTION]... TRACE TABLE`: load a trace and
 * write one SQL table (src/sql/sqltab.h) as CSV, walked without SQLite,
 * for the shell tests that compare each table with an independent
 * computation (tests/cli/sql_*.sh). Not a test itself. Options:
 *   --markers SET       the trace's saved marker set SET (its sidecar) is
 *                       the source's marker set, as the adapter's
 *                       --markers gives it
 *   --window FROM:TO    the source keeps [FROM, TO), ns on the trace's clock
 *   --where COL OP V    a constraint handed to the table's first() (OP is
 *                       = < <= > >=; repeatable): the rows it narrows to
 * TABLE `:slices` writes what a slice id stands for instead
 * (id,pid,tid,ts,dur,arg_set_id,"name": every event, by the contract's
 * tt_sql_slice_id), so that tests of tables holding slice ids need not
 * rely on the slice table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "markers/markers.h"
#include "sql/sqltab.h"

#define MAX_WHERE 8

static int fail(tt_error *err, const char *path)
{
    char buf[512];
    fprintf(stderr, "sqltab_dump: %s\n", tt_error_format(err, path, buf, sizeof buf));
    return 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: sqltab_dump [--markers SET] [--window FROM:TO] "
                    "[--where COL OP V]... TRACE TABLE\n");
    return 2;
}

/* Every event with its slice id, the group's and lane's keys, as CSV. */
static void dump_slices(const tt_sql_src *s)
{
    const tt_trace *tr = s->tr;
    puts("id,pid,tid,ts,dur,arg_set_id,name");
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            printf("%" PRId64 ",%s,%s,%" PRId64 ",%" PRId64 ",%u,\"", tt_sql_slice_id(s, l, i),
                   tt_str(tr, tr->groups[ln->group].key), tt_str(tr, ln->key), e->start, e->dur,
                   (unsigned)e->args);
            for (const char *p = tt_str(tr, e->name); *p; p++) {
                if (*p == '"')
                    putchar('"');
                putchar(*p);
            }
            puts("\"");
        }
    }
}

static int parse_op(const char *s, tt_sql_op *op)
{
    static const struct { const char *s; tt_sql_op op; } ops[] = {
        {"=", TT_SQLOP_EQ}, {"<", TT_SQLOP_LT}, {"<=", TT_SQLOP_LE},
        {">", TT_SQLOP_GT}, {">=", TT_SQLOP_GE},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(s, ops[i].s) == 0) {
            *op = ops[i].op;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    const char *set_name = NULL, *where[MAX_WHERE][3];
    size_t n_where = 0;
    tt_ns from = INT64_MIN, to = INT64_MAX;
    int a = 1;
    while (a < argc && strncmp(argv[a], "--", 2) == 0) {
        if (strcmp(argv[a], "--markers") == 0 && a + 1 < argc) {
            set_name = argv[a + 1];
            a += 2;
        } else if (strcmp(argv[a], "--window") == 0 && a + 1 < argc) {
            char *e;
            from = strtoll(argv[a + 1], &e, 10);
            if (*e != ':')
                return usage();
            to = strtoll(e + 1, &e, 10);
            if (*e)
                return usage();
            a += 2;
        } else if (strcmp(argv[a], "--where") == 0 && a + 3 < argc && n_where < MAX_WHERE) {
            where[n_where][0] = argv[a + 1];
            where[n_where][1] = argv[a + 2];
            where[n_where][2] = argv[a + 3];
            n_where++;
            a += 4;
        } else {
            return usage();
        }
    }
    if (argc - a != 2)
        return usage();
    const char *path = argv[a], *table = argv[a + 1];
    bool slices = strcmp(table, ":slices") == 0;
    const tt_sql_table *t = tt_sql_table_find(table, NULL);
    if (!t && !slices) {
        fprintf(stderr, "sqltab_dump: no table %s\n", table);
        return 2;
    }
    tt_sql_cons cons[MAX_WHERE];
    for (size_t i = 0; i < n_where; i++) {
        size_t c = 0;
        while (t && c < t->n_cols && strcmp(t->cols[c].name, where[i][0]) != 0)
            c++;
        if (!t || c == t->n_cols || parse_op(where[i][1], &cons[i].op))
            return usage();
        cons[i].col = (int)c;
        cons[i].v = strtoll(where[i][2], NULL, 10);
    }
    tt_error err;
    tt_error_clear(&err);
    tt_markstore store;
    tt_markstore_init(&store);
    const tt_markset *set = NULL;
    if (set_name) {
        char *side = tt_markers_sidecar(path, false, &err);
        int r = side ? tt_markstore_read(&store, side, &err) : -1;
        free(side);
        if (r != 0) {
            tt_markstore_fini(&store);
            return fail(&err, path);
        }
        if (!(set = tt_markstore_find(&store, set_name))) {
            fprintf(stderr, "sqltab_dump: no marker set %s\n", set_name);
            tt_markstore_fini(&store);
            return 2;
        }
    }
    tt_trace *tr = NULL;
    tt_load_opts o = {0};
    if (tt_load(path, &o, &tr, NULL, &err) != 0) {
        tt_markstore_fini(&store);
        return fail(&err, path);
    }
    tt_sql_src s;
    int rc = tt_sql_src_init(&s, tr, path, &err);
    if (rc == 0) {
        s.markers = set;
        s.from = from;
        s.to = to;
        if (slices)
            dump_slices(&s);
        else
            rc = tt_sqltab_dump_where(t, &s, cons, n_where, stdout, &err);
        tt_sql_src_fini(&s);
    }
    if (rc != 0)
        fail(&err, path);
    tt_trace_free(tr);
    tt_markstore_fini(&store);
    return rc == 0 ? 0 : 1;
}
