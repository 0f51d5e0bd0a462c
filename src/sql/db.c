/* db.c - the read-only SQLite database of `tracetty query` (sql/db.h):
 * the tables, the function hooks, the authorizer, the stop flag, and
 * statements prepared together and run in order.
 *
 * Ownership: a tt_sql_db owns its connection and statements.
 */
#include "config.h"

#include "sql/db.h"

#include "sql/vtab.h"

#include <stdlib.h>
#include <string.h>

/* The SQL functions: a row per function file (see db.h). */
int tt_sql_fn_extract_arg_register(sqlite3 *db, tt_sql_srcset *set);

static const tt_sql_fn_register fn_hooks[] = {
    tt_sql_fn_extract_arg_register,   /* fn_extract_arg.c */
    NULL,   /* the end; function files go above */
};

typedef struct stmt_at {
    sqlite3_stmt *st;
    size_t        at;     /* its first byte in the whole text */
} stmt_at;

struct tt_sql_db {
    sqlite3               *db;
    tt_sql_srcset         *set;
    volatile sig_atomic_t *stop;
    stmt_at               *v;
    size_t                 n, cap;
    const char            *refused;   /* what the authorizer refused last */
    char                  *text;      /* the statements' text (positions) */
};

/* Pragmas that only read (PRAGMA table_info(slice), pragma_table_info). */
static const char *const read_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "function_list", "module_list", "pragma_list",
    "compile_options", "collation_list", "index_list", "index_info", "index_xinfo",
    "database_list", NULL,
};

static bool pragma_reads(const char *name, const char *arg)
{
    if (!name)
        return false;
    for (size_t i = 0; read_pragmas[i]; i++)
        if (sqlite3_stricmp(name, read_pragmas[i]) == 0)
            return true;
    /* PRAGMA x; without a value reads a setting, PRAGMA x = v writes it:
     * SQLite gives the value as arg; table_info's argument is a name */
    return arg == NULL;
}

static const char *action_name(int code)
{
    switch (code) {
    case SQLITE_INSERT: return "INSERT";
    case SQLITE_UPDATE: return "UPDATE";
    case SQLITE_DELETE: return "DELETE";
    case SQLITE_ATTACH: return "ATTACH";
    case SQLITE_DETACH: return "DETACH";
    case SQLITE_ALTER_TABLE: return "ALTER TABLE";
    case SQLITE_PRAGMA: return "a PRAGMA that writes";
    case SQLITE_TRANSACTION: return "a transaction";
    case SQLITE_SAVEPOINT: return "a SAVEPOINT";
    case SQLITE_REINDEX: return "REINDEX";
    case SQLITE_ANALYZE: return "ANALYZE";
    case SQLITE_DROP_INDEX: case SQLITE_DROP_TABLE: case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TEMP_TABLE: case SQLITE_DROP_TEMP_TRIGGER: case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER: case SQLITE_DROP_VIEW: case SQLITE_DROP_VTABLE:
        return "DROP";
    default: return "CREATE";
    }
}

static int authorize(void *ctx, int code, const char *a1, const char *a2, const char *db,
                     const char *trigger)
{
    tt_sql_db *d = ctx;
    (void)db;
    (void)trigger;
    switch (code) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* a2 is the function's name */
        if (a2 && sqlite3_stricmp(a2, "load_extension") == 0) {
            d->refused = "load_extension()";
            return SQLITE_DENY;
        }
        /* EXTRACT_ARG reads arguments: load them with the sources */
        if (a2 && sqlite3_stricmp(a2, "extract_arg") == 0)
            tt_sql_srcset_need(d->set, TT_SQLNEED_ARGS);
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        if (pragma_reads(a1, a2))
            return SQLITE_OK;
        break;
    case SQLITE_UPDATE:
        /* SQLite asks this itself when a statement first uses an
         * eponymous table; a user's UPDATE of the schema table is not
         * read-only and refused after preparing (sqlite3_stmt_readonly) */
        if (a1 && sqlite3_stricmp(a1, "sqlite_master") == 0)
            return SQLITE_OK;
        break;
    }
    d->refused = action_name(code);
    return SQLITE_DENY;
}

static int progress(void *ctx)
{
    const tt_sql_db *d = ctx;
    return d->stop && *d->stop;
}

tt_sql_db *tt_sql_db_open(tt_sql_srcset *set, volatile sig_atomic_t *stop, tt_error *err)
{
    tt_sql_db *d = calloc(1, sizeof *d);
    int rc;
    if (!d) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    d->set = set;
    d->stop = stop;
    rc = sqlite3_open_v2(":memory:", &d->db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK)
        rc = tt_sql_vtab_register(d->db, set);
    for (size_t i = 0; rc == SQLITE_OK && fn_hooks[i]; i++)
        rc = fn_hooks[i](d->db, set);
    if (rc != SQLITE_OK) {
        tt_error_set(err, rc == SQLITE_NOMEM ? TT_ERR_NOMEM : TT_ERR_IO, "query: sqlite: %s",
                     d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
        tt_sql_db_close(d);
        return NULL;
    }
    /* nothing SQL says may open a file or load code */
    sqlite3_db_config(d->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    sqlite3_db_config(d->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_limit(d->db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(d->db, authorize, d);
    sqlite3_progress_handler(d->db, 1000, progress, d);
    return d;
}

void tt_sql_db_close(tt_sql_db *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++)
        sqlite3_finalize(d->v[i].st);
    free(d->v);
    free(d->text);
    sqlite3_close(d->db);
    free(d);
}

/* err = "query:LINE:COL: msg" for byte at of text (at < 0: no position). */
static int set_error(tt_error *err, const char *text, long long at, const char *msg)
{
    long long line = 1, col = 1;
    if (at < 0 || !text)
        return tt_error_set(err, TT_ERR_USAGE, "query: %s", msg), -1;
    for (long long i = 0; i < at && text[i]; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    tt_error_at_line(err, TT_ERR_USAGE, at, line, col, "query:%lld:%lld: %s", line, col, msg);
    return -1;
}

int tt_sql_db_prepare(tt_sql_db *d, const char *sql, tt_error *err)
{
    const char *p = sql;
    free(d->text);
    if (!(d->text = strdup(sql)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    while (*p) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        size_t at = (size_t)(p - sql);
        d->refused = NULL;
        if (sqlite3_prepare_v2(d->db, p, -1, &st, &tail) != SQLITE_OK) {
            if (d->refused) {
                char msg[200];
                snprintf(msg, sizeof msg, "%s is refused: the traces are read-only "
                                          "(tracetty query only reads)", d->refused);
                return set_error(err, sql, (long long)(at + strspn(p, " \t\r\n")), msg);
            }
            int off = sqlite3_error_offset(d->db);
            const char *m = sqlite3_errmsg(d->db);
            if (strstr(m, "may not be modified")) {   /* an INSERT into a table */
                char msg[400];
                snprintf(msg, sizeof msg, "%s: writing is refused: the traces are read-only "
                                          "(tracetty query only reads)", m);
                return set_error(err, sql, (long long)(at + strspn(p, " \t\r\n")), msg);
            }
            return set_error(err, sql, off >= 0 ? (long long)(at + (size_t)off) : -1, m);
        }
        if (!tail || tail == p)
            tail = p + strlen(p);
        if (st && !sqlite3_stmt_readonly(st)) {
            sqlite3_finalize(st);
            return set_error(err, sql, (long long)(at + strspn(p, " \t\r\n")),
                             "a statement that writes is refused: the traces are read-only "
                             "(tracetty query only reads)");
        }
        if (st) {
            if (d->n == d->cap) {
                size_t cap = d->cap ? 2 * d->cap : 8;
                stmt_at *v = realloc(d->v, cap * sizeof *v);
                if (!v) {
                    sqlite3_finalize(st);
                    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
                }
                d->v = v;
                d->cap = cap;
            }
            d->v[d->n].st = st;
            d->v[d->n].at = at;
            d->n++;
        }
        p = tail;
    }
    if (d->n == 0)
        return tt_error_set(err, TT_ERR_USAGE, "query: no SQL statement given"), -1;
    return 0;
}

int tt_sql_db_run(tt_sql_db *d, tt_sql_row_fn fn, void *ctx, tt_error *err)
{
    for (size_t i = 0; i < d->n; i++) {
        sqlite3_stmt *st = d->v[i].st;
        bool last = i + 1 == d->n;
        long long row = 0;
        int rc, r;
        if (last && (r = fn(ctx, st, -1)) != 0)
            return r;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            if (last && (r = fn(ctx, st, row++)) != 0)
                return r;
        if (rc != SQLITE_DONE) {
            if (rc == SQLITE_INTERRUPT || (d->stop && *d->stop))
                return set_error(err, NULL, -1, "interrupted");
            int off = sqlite3_error_offset(d->db);
            return set_error(err, d->text, off >= 0 ? (long long)(d->v[i].at + (size_t)off) : -1,
                             sqlite3_errmsg(d->db));
        }
    }
    return 0;
}
