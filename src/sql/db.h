/* db.h - the read-only SQLite database of `tracetty query`.
 *
 * An in-memory database with the SQL tables (sql/vtab.h) over a source
 * set, the SQL functions of the hook list below, and guards:
 *   - an authorizer that lets statements read and nothing else: SELECT,
 *     reading tables, functions, recursive CTEs and the read-only pragmas
 *     (table_info and friends) pass; INSERT, UPDATE, DELETE, CREATE,
 *     DROP, ALTER, ATTACH, DETACH, pragma writes, transactions and the
 *     rest are refused with a message that says the traces are read-only;
 *     a statement SQLite does not call read-only (VACUUM INTO a file) is
 *     refused too; extensions cannot load and no file is opened by SQL;
 *   - a progress handler that stops the running statement when *stop
 *     becomes non-zero (the CLI's SIGINT handler sets it, nothing else).
 *
 * Statements: tt_sql_db_prepare takes every statement of a text at once
 * (so an error in the third stops the query before the first runs: the
 * statements cannot change what the others read); tt_sql_db_run runs them
 * in order and hands the last one's rows to the caller.
 *
 * Errors: one line, "query:LINE:COL: MESSAGE" when SQLite says where in
 * the text (LINE and COL 1-based, counted in the whole text, COL in
 * bytes), else "query: MESSAGE". A table's or a load's error message
 * comes through as is.
 *
 * SQL functions: a function file (e.g. sql/fn_args.c for EXTRACT_ARG)
 * defines one tt_sql_fn_register function and adds a row to the hook list
 * in sql/db.c; it is called once per database with the source set, and
 * returns an SQLite result code.
 *
 * Ownership: the database borrows the source set (which must outlive it)
 * and owns its statements. Library code: nothing prints.
 */
#ifndef TT_SQL_DB_H
#define TT_SQL_DB_H

#include <signal.h>
#include <sqlite3.h>

#include "sql/srcset.h"
#include "util/error.h"

typedef int (*tt_sql_fn_register)(sqlite3 *db, tt_sql_srcset *sources);

typedef struct tt_sql_db tt_sql_db;

/* Open the database over set; stop may be NULL. NULL with err set. */
tt_sql_db *tt_sql_db_open(tt_sql_srcset *set, volatile sig_atomic_t *stop, tt_error *err);
void tt_sql_db_close(tt_sql_db *d);   /* NULL is a no-op */

/* Prepare every statement of sql (NUL-terminated). 0, or -1 with err set
 * (a syntax error, an unknown table or column, a refused statement, no
 * statement at all). */
int tt_sql_db_prepare(tt_sql_db *d, const char *sql, tt_error *err);

/* A row of the last statement (sqlite3_column_* of st), or with row == -1
 * once before the first row (its columns' names). Non-zero stops the
 * query: tt_sql_db_run then returns that value. */
typedef int (*tt_sql_row_fn)(void *ctx, sqlite3_stmt *st, long long row);

/* Run the prepared statements in order, the last one's rows to fn. 0, a
 * non-zero value of fn, or -1 with err set (a runtime error, a failed
 * load, "interrupted" when *stop was set). */
int tt_sql_db_run(tt_sql_db *d, tt_sql_row_fn fn, void *ctx, tt_error *err);

#endif
