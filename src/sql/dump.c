/* dump.c - walk one SQL table of one source without SQLite and write it
 * as CSV (sql/sqltab.h): what the tables' unit tests compare with an
 * independent computation over the same trace. */
#include "sql/sqltab.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void put_text(FILE *f, const char *s, size_t n)
{
    bool quote = false;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        fwrite(s, 1, n, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}

static void put_val(FILE *f, const tt_sql_val *v)
{
    switch (v->type) {
    case TT_SQL_NULL: break;
    case TT_SQL_INT: fprintf(f, "%" PRId64, v->i); break;
    case TT_SQL_REAL: fprintf(f, "%.17g", v->d); break;
    case TT_SQL_TEXT: put_text(f, v->s, v->n); break;
    }
}

int tt_sqltab_dump(const tt_sql_table *t, const tt_sql_src *s, FILE *f, tt_error *err)
{
    return tt_sqltab_dump_where(t, s, NULL, 0, f, err);
}

int tt_sqltab_dump_where(const tt_sql_table *t, const tt_sql_src *s, const tt_sql_cons *cons,
                         size_t n_cons, FILE *f, tt_error *err)
{
    for (size_t c = 0; c < t->n_cols; c++)
        fprintf(f, "%s,", t->cols[c].name);
    fputs("rank\n", f);
    void *cur = calloc(1, t->cur_size ? t->cur_size : 1);
    if (!cur)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    int rc = t->first(cur, s, cons, n_cons, err);
    while (rc == 0 && !t->eof(cur)) {
        for (size_t c = 0; c < t->n_cols && rc == 0; c++) {
            tt_sql_val v = {0};
            rc = t->column(cur, (int)c, &v, err);
            if (rc == 0) {
                put_val(f, &v);
                fputc(',', f);
            }
        }
        if (rc == 0) {
            if (s->rank >= 0)
                fprintf(f, "%" PRId64, s->rank);
            fputc('\n', f);
            rc = t->next(cur, err);
        }
    }
    if (t->close)
        t->close(cur);
    free(cur);
    return rc;
}
