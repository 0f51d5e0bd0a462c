/* vtab.h - the SQL tables (sql/sqltab.h) as SQLite virtual tables.
 *
 * Every registry row becomes an eponymous-only, read-only virtual table
 * of the same name (`SELECT * FROM process` needs no CREATE VIRTUAL
 * TABLE), with the table's columns and a `rank` column after them. A scan
 * walks the query's sources (sql/srcset.h) in order, each with the
 * table's own cursor. The planner's constraints EQ, LT, LE, GT and GE on a
 * TT_SQLCOL_KEY column go to the table's first() (SQLite checks every row
 * again, so they only save work); `rank = N` skips the other sources; on a
 * TT_SQLCOL_ID column a value of another source skips this one or is
 * dropped, and this source's reaches the table as its local id.
 *
 * Which tables a statement reads is collected while it is prepared (the
 * planner asks every table it reads for a plan): their `needs` go to the
 * source set, so arguments, flows and counters load only when read.
 *
 * Ownership: the module borrows the source set, which must outlive the
 * database connection.
 */
#ifndef TT_SQL_VTAB_H
#define TT_SQL_VTAB_H

#include <sqlite3.h>

#include "sql/srcset.h"

/* Register every table of the registry on db over the sources of set.
 * An SQLite result code. */
int tt_sql_vtab_register(sqlite3 *db, tt_sql_srcset *set);

#endif
