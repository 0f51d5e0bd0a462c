/* tables.c - the registry of SQL tables (sql/sqltab.h): one row per table,
 * in the order `query --tables` lists them. Adding a table is its file
 * plus a row here. */
#include "sql/sqltab.h"

#include <string.h>

extern const tt_sql_table tt_sqltab_process;
extern const tt_sql_table tt_sqltab_thread;
extern const tt_sql_table tt_sqltab_track;
extern const tt_sql_table tt_sqltab_thread_track;
extern const tt_sql_table tt_sqltab_slice;
extern const tt_sql_table tt_sqltab_instant;
extern const tt_sql_table tt_sqltab_rank;
extern const tt_sql_table tt_sqltab_counter_track;
extern const tt_sql_table tt_sqltab_counter;
extern const tt_sql_table tt_sqltab_flow;
extern const tt_sql_table tt_sqltab_args;
extern const tt_sql_table tt_sqltab_finding;
extern const tt_sql_table tt_sqltab_marker;
extern const tt_sql_table tt_sqltab_launch;

static const tt_sql_table *const registry[] = {
    &tt_sqltab_slice,
    &tt_sqltab_instant,
    &tt_sqltab_track,
    &tt_sqltab_thread_track,
    &tt_sqltab_thread,
    &tt_sqltab_process,
    &tt_sqltab_rank,
    &tt_sqltab_counter_track,
    &tt_sqltab_counter,
    &tt_sqltab_flow,
    &tt_sqltab_args,
    &tt_sqltab_finding,
    &tt_sqltab_marker,
    &tt_sqltab_launch,
};

const tt_sql_table *const *tt_sql_tables(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}

const tt_sql_table *tt_sql_table_find(const char *name, size_t *row)
{
    size_t n = sizeof registry / sizeof registry[0];
    for (size_t i = 0; i < n; i++)
        if (strcmp(registry[i]->name, name) == 0) {
            if (row)
                *row = i;
            return registry[i];
        }
    return NULL;
}
