/* sqltab_dump - `sqltab_dump TRACE TABLE`: load a trace and write one SQL
 * table (src/sql/sqltab.h) as CSV, walked without SQLite, for the shell
 * tests that compare each table with an independent computation
 * (tests/cli/sql_*.sh). Not a test itself. */
#include <stdio.h>

#include "decode/decode.h"
#include "sql/sqltab.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sqltab_dump TRACE TABLE\n");
        return 2;
    }
    const tt_sql_table *t = tt_sql_table_find(argv[2], NULL);
    if (!t) {
        fprintf(stderr, "sqltab_dump: no table %s\n", argv[2]);
        return 2;
    }
    tt_error err;
    tt_error_clear(&err);
    tt_trace *tr = NULL;
    tt_load_opts o = {0};
    if (tt_load(argv[1], &o, &tr, NULL, &err) != 0) {
        char buf[512];
        fprintf(stderr, "sqltab_dump: %s\n", tt_error_format(&err, argv[1], buf, sizeof buf));
        return 1;
    }
    tt_sql_src s;
    int rc = tt_sql_src_init(&s, tr, argv[1], &err);
    if (rc == 0) {
        rc = tt_sqltab_dump(t, &s, stdout, &err);
        tt_sql_src_fini(&s);
    }
    if (rc != 0) {
        char buf[512];
        fprintf(stderr, "sqltab_dump: %s\n", tt_error_format(&err, argv[1], buf, sizeof buf));
    }
    tt_trace_free(tr);
    return rc == 0 ? 0 : 1;
}
