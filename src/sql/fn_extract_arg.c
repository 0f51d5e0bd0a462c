/* fn_extract_arg.c - the SQL function EXTRACT_ARG(arg_set_id, 'key') of
 * Perfetto's queries: the value of one argument of one event's record
 * (sql/argfind.h), NULL when the record (or a NULL arg_set_id) has no
 * such key. The adapter (sql/db.c) registers it with
 * tt_sql_fn_extract_arg_register; this file owns the per-database state:
 * one argument reader (re-pointed when the source changes) and one
 * flattener, freed by SQLite with the function.
 */
#include "config.h"

#ifdef HAVE_SQLITE

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "sql/argfind.h"
#include "sql/srcset.h"

int tt_sql_fn_extract_arg_register(sqlite3 *db, tt_sql_srcset *set);
int tt_sql_fn_extract_arg_register_srcs(sqlite3 *db, const tt_sql_argsrcs *srcs);

typedef struct extract_state {
    tt_sql_argsrcs        srcs_own;  /* where records are found */
    const tt_sql_argsrcs *srcs;
    const tt_args        *store;   /* the store rd reads, NULL: none yet */
    tt_args_reader        rd;
    tt_argflat            flat;
} extract_state;

static void extract_free(void *p)
{
    extract_state *st = p;
    if (!st)
        return;
    if (st->store)
        tt_args_reader_fini(&st->rd);
    tt_argflat_fini(&st->flat);
    free(st);
}

static void extract_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    extract_state *st = sqlite3_user_data(ctx);
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
        return;   /* NULL */
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
        sqlite3_result_error(ctx, "EXTRACT_ARG: arg_set_id must be an integer", -1);
        return;
    }
    sqlite3_int64 id = sqlite3_value_int64(argv[0]);
    const char *key = (const char *)sqlite3_value_text(argv[1]);
    if (!key) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    int64_t local = id & TT_SQL_ID_LOCAL_MAX;
    const tt_sql_src *s = id < 0 ? NULL : st->srcs->get(st->srcs->ctx,
                                                        (uint32_t)(id >> TT_SQL_ID_SHIFT));
    if (!s || local == 0 || local > UINT32_MAX || !s->tr->args)
        return;   /* no such record: NULL, as Perfetto gives */
    if (st->store != s->tr->args) {
        if (st->store)
            tt_args_reader_fini(&st->rd);
        tt_args_reader_init(&st->rd, s->tr->args);
        st->store = s->tr->args;
    }
    if ((uint64_t)local > tt_args_count(s->tr->args))
        return;
    tt_sql_val v;
    tt_error err;
    tt_error_clear(&err);
    if (tt_sql_argfind(&st->rd, &st->flat, (uint32_t)local, key, &v, &err)) {
        if (err.code == TT_ERR_NOMEM)
            sqlite3_result_error_nomem(ctx);
        else
            sqlite3_result_error(ctx, err.what, -1);
        return;
    }
    switch (v.type) {
    case TT_SQL_NULL: break;
    case TT_SQL_INT: sqlite3_result_int64(ctx, v.i); break;
    case TT_SQL_REAL: sqlite3_result_double(ctx, v.d); break;
    case TT_SQL_TEXT: sqlite3_result_text(ctx, v.s, (int)v.n, SQLITE_TRANSIENT); break;
    }
}

/* Source `ordinal` of the set, loaded (with its arguments: the database's
 * authorizer asked for them when a statement names EXTRACT_ARG) and
 * released at once: it stays loaded until another source is acquired,
 * which nothing does while one call of extract_arg reads it. NULL when
 * there is no such source or it cannot load (the value is then NULL). */
static const tt_sql_src *set_get(void *ctx, uint32_t ordinal)
{
    tt_sql_srcset *set = ctx;
    if (ordinal >= tt_sql_srcset_count(set))
        return NULL;
    tt_error err;
    tt_error_clear(&err);
    const tt_sql_src *s = tt_sql_srcset_acquire(set, ordinal, &err);
    if (s)
        tt_sql_srcset_release(set, ordinal);
    return s;
}

/* Register EXTRACT_ARG(arg_set_id, key) on db reading the sources srcs
 * gives (copied; what it points to must outlive db): the unit tests hand
 * a source of their own. SQLITE_OK or an SQLite error code. */
int tt_sql_fn_extract_arg_register_srcs(sqlite3 *db, const tt_sql_argsrcs *srcs)
{
    extract_state *st = calloc(1, sizeof *st);
    if (!st)
        return SQLITE_NOMEM;
    st->srcs_own = *srcs;
    st->srcs = &st->srcs_own;
    tt_argflat_init(&st->flat);
    /* not SQLITE_DETERMINISTIC: the same id names another record once
     * another batch of ranks is loaded */
    return sqlite3_create_function_v2(db, "EXTRACT_ARG", 2, SQLITE_UTF8, st, extract_arg, NULL,
                                      NULL, extract_free);
}

/* Register EXTRACT_ARG on db over the query's source set (a row of
 * sql/db.c's function hooks), valid as long as db. */
int tt_sql_fn_extract_arg_register(sqlite3 *db, tt_sql_srcset *set)
{
    tt_sql_argsrcs srcs = {set_get, set};
    return tt_sql_fn_extract_arg_register_srcs(db, &srcs);
}

#endif /* HAVE_SQLITE */
