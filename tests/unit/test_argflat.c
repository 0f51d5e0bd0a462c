/* test_argflat - an argument record's leaves as Perfetto's args rows
 * (src/sql/argflat.h), one key of one record (argfind.h) and, with
 * SQLite, the EXTRACT_ARG function (fn_extract_arg.c) over a store built
 * here: keys, types, Perfetto's array indexes (nulls skipped), escapes,
 * and positioned errors for text that is not JSON. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/args.h"
#include "model/trace.h"
#include "sql/argfind.h"
#include "sql/argflat.h"
#include "../tap.h"

#ifdef HAVE_SQLITE
#include <sqlite3.h>
int tt_sql_fn_extract_arg_register_srcs(sqlite3 *db, const tt_sql_argsrcs *srcs);
#endif

/* Every leaf as one line "key|flat_key|type|value" appended to a buffer. */
typedef struct lines {
    char   buf[4096];
    size_t n;
} lines;

static int put_leaf(void *vctx, const tt_argleaf *l, tt_error *err)
{
    (void)err;
    lines *o = vctx;
    char v[256];
    switch (l->type) {
    case TT_ARGT_INT:
    case TT_ARGT_BOOL: snprintf(v, sizeof v, "%lld", (long long)l->i); break;
    case TT_ARGT_REAL: snprintf(v, sizeof v, "%.17g", l->d); break;
    case TT_ARGT_STRING: snprintf(v, sizeof v, "%.*s", (int)l->n, l->s); break;
    }
    o->n += (size_t)snprintf(o->buf + o->n, sizeof o->buf - o->n, "%s|%s|%s|%s\n", l->key,
                             l->flat_key, tt_argtype_name(l->type), v);
    return 0;
}

static void flat_is(const char *json, const char *want, const char *what)
{
    tt_argflat f;
    tt_error err;
    lines o = {{0}, 0};
    tt_argflat_init(&f);
    tt_error_clear(&err);
    int rc = tt_argflat_walk(&f, json, strlen(json), put_leaf, &o, &err);
    is_i64(rc, 0, "%s: walks", what);
    is_str(o.buf, want, "%s", what);
    tt_argflat_fini(&f);
}

static void flat_fails(const char *json, int64_t offset, const char *what)
{
    tt_argflat f;
    tt_error err;
    lines o = {{0}, 0};
    tt_argflat_init(&f);
    tt_error_clear(&err);
    int rc = tt_argflat_walk(&f, json, strlen(json), put_leaf, &o, &err);
    ok(rc == -1 && err.code == TT_ERR_FORMAT, "%s: an error", what);
    is_i64(err.offset, offset, "%s: at the offending byte", what);
    tt_argflat_fini(&f);
}

#ifdef HAVE_SQLITE
static const tt_sql_src *one_src(void *ctx, uint32_t ordinal)
{
    return ordinal == 0 ? ctx : NULL;
}

/* SELECT EXTRACT_ARG(id, key) as text ("NULL", "int 5", "real 2.5",
 * "text abc", "error ..."). */
static void extract_is(sqlite3 *db, int64_t id, const char *key, const char *want)
{
    sqlite3_stmt *st;
    char got[300] = "";
    if (sqlite3_prepare_v2(db, "SELECT EXTRACT_ARG(?, ?)", -1, &st, NULL) != SQLITE_OK) {
        ok(0, "prepare: %s", sqlite3_errmsg(db));
        return;
    }
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        snprintf(got, sizeof got, "error %s", sqlite3_errmsg(db));
    } else {
        switch (sqlite3_column_type(st, 0)) {
        case SQLITE_NULL: snprintf(got, sizeof got, "NULL"); break;
        case SQLITE_INTEGER: snprintf(got, sizeof got, "int %lld", sqlite3_column_int64(st, 0)); break;
        case SQLITE_FLOAT: snprintf(got, sizeof got, "real %.17g", sqlite3_column_double(st, 0)); break;
        default: snprintf(got, sizeof got, "text %s", sqlite3_column_text(st, 0)); break;
        }
    }
    sqlite3_finalize(st);
    is_str(got, want, "EXTRACT_ARG(%lld, '%s')", (long long)id, key);
}
#endif

int main(void)
{
    flat_is("{\"a\": 1, \"b\": \"x\", \"c\": 2.5, \"d\": true, \"e\": false}",
            "args.a|args.a|int|1\nargs.b|args.b|string|x\nargs.c|args.c|real|2.5\n"
            "args.d|args.d|bool|1\nargs.e|args.e|bool|0\n",
            "scalars: int, string, real, bool as 1/0");
    flat_is("{\"o\": {\"p\": {\"q\": 3}, \"r\": null}, \"n\": null}", "args.o.p.q|args.o.p.q|int|3\n",
            "nested objects flattened with '.', nulls left out");
    flat_is("{\"l\": [null, 7, [8, 9], {\"k\": \"v\"}, []]}",
            "args.l[0]|args.l|int|7\nargs.l[1][0]|args.l|int|8\nargs.l[1][1]|args.l|int|9\n"
            "args.l[2].k|args.l.k|string|v\n",
            "arrays: [i] in key only, nulls take no index, empty ones no row");
    flat_is("{\"big\": 9223372036854775808, \"neg\": -9223372036854775808, \"e\": 1e3, \"z\": -0}",
            "args.big|args.big|real|9.2233720368547758e+18\n"
            "args.neg|args.neg|int|-9223372036854775808\nargs.e|args.e|real|1000\n"
            "args.z|args.z|int|0\n",
            "numbers: int64 when integral and in range, else real");
    flat_is("{\"a\\\"b\": \"x\\ny\\u00e9\"}", "args.a\"b|args.a\"b|string|x\ny\xc3\xa9\n",
            "escapes in keys and strings are undone");
    flat_is("{}", "", "an empty object: no rows");
    flat_is("", "", "no text: no rows");
    flat_fails("{\"a\": 1,}", 8, "a trailing comma");
    flat_fails("{\"a\": tru}", 6, "a bad literal");
    flat_fails("{\"a\": 1} x", 9, "text after the object");
    flat_fails("{\"a\": [1, 2}", 11, "a bracket of the wrong kind");

    /* one key of a record in a store */
    tt_args *store = tt_args_new();
    const char *r1 = "{\"name\": \"gemm\", \"grid\": [4, 1, 1], \"m\": {\"n\": 2.5}, \"ok\": true}";
    uint32_t h1 = tt_args_add(store, r1, strlen(r1), "{\"x\":1}", 7);
    const char *r2 = "{\"name\": \"relu\"}";
    uint32_t h2 = tt_args_add(store, r2, strlen(r2), "", 0);
    ok(h1 && h2 && tt_args_seal(store) == 0, "a store of two records");
    tt_args_reader rd;
    tt_argflat fl;
    tt_error err;
    tt_sql_val v;
    tt_args_reader_init(&rd, store);
    tt_argflat_init(&fl);
    tt_error_clear(&err);
    ok(tt_sql_argfind(&rd, &fl, h1, "args.grid[1]", &v, &err) == 0 && v.type == TT_SQL_INT &&
           v.i == 1, "argfind: an array element");
    ok(tt_sql_argfind(&rd, &fl, h1, "args.m.n", &v, &err) == 0 && v.type == TT_SQL_REAL &&
           v.d == 2.5, "argfind: a nested member");
    ok(tt_sql_argfind(&rd, &fl, h2, "args.name", &v, &err) == 0 && v.type == TT_SQL_TEXT &&
           v.n == 4 && memcmp(v.s, "relu", 4) == 0, "argfind: a string of another record");
    ok(tt_sql_argfind(&rd, &fl, h1, "args.x", &v, &err) == 0 && v.type == TT_SQL_NULL,
       "argfind: the other unknown fields are no arguments");
    ok(tt_sql_argfind(&rd, &fl, 0, "args.name", &v, &err) == 0 && v.type == TT_SQL_NULL,
       "argfind: no record, NULL");
    ok(tt_sql_argfind(&rd, &fl, 99, "args.name", &v, &err) == -1, "argfind: an unknown record fails");

#ifdef HAVE_SQLITE
    tt_trace *tr = tt_trace_new();
    tt_sql_src src;
    sqlite3 *db = NULL;
    tt_args_free(tr->args);
    tr->args = store;
    store = NULL;
    ok(tt_sql_src_init(&src, tr, "mem", &err) == 0, "a source over the store");
    tt_sql_argsrcs srcs = {one_src, &src};
    ok(sqlite3_open(":memory:", &db) == SQLITE_OK &&
           tt_sql_fn_extract_arg_register_srcs(db, &srcs) == SQLITE_OK,
       "EXTRACT_ARG registered");
    extract_is(db, h1, "args.name", "text gemm");
    extract_is(db, h1, "args.grid[0]", "int 4");
    extract_is(db, h1, "args.ok", "int 1");
    extract_is(db, h1, "args.m.n", "real 2.5");
    extract_is(db, h1, "args.nope", "NULL");
    extract_is(db, h2, "args.name", "text relu");
    extract_is(db, 0, "args.name", "NULL");
    extract_is(db, 999, "args.name", "NULL");
    extract_is(db, ((int64_t)1 << TT_SQL_ID_SHIFT) + h1, "args.name", "NULL");
    sqlite3_close(db);
    tt_sql_src_fini(&src);
    tt_trace_free(tr);
#endif
    tt_argflat_fini(&fl);
    tt_args_reader_fini(&rd);
    tt_args_free(store);
    return tap_done();
}
