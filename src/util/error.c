/* error.c - errors as values (see error.h). */
#include "config.h"

#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tt_error_clear(tt_error *e)
{
    if (!e)
        return;
    e->code = TT_OK;
    e->pos = TT_POS_NONE;
    e->offset = -1;
    e->line = 0;
    e->column = 0;
    e->what[0] = '\0';
}

static int error_vset(tt_error *e, tt_errcode code, const char *fmt, va_list ap)
{
    if (!e)
        return (int)code;
    e->code = code;
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    return (int)code;
}

int tt_error_set(tt_error *e, tt_errcode code, const char *fmt, ...)
{
    va_list ap;
    if (e) {
        e->pos = TT_POS_NONE;
        e->offset = -1;
        e->line = e->column = 0;
    }
    va_start(ap, fmt);
    error_vset(e, code, fmt, ap);
    va_end(ap);
    return (int)code;
}

int tt_error_at_line(tt_error *e, tt_errcode code, int64_t offset, int64_t line,
                     int64_t column, const char *fmt, ...)
{
    va_list ap;
    if (e) {
        e->pos = TT_POS_LINE;
        e->offset = offset;
        e->line = line;
        e->column = column;
    }
    va_start(ap, fmt);
    error_vset(e, code, fmt, ap);
    va_end(ap);
    return (int)code;
}

int tt_error_at_row(tt_error *e, tt_errcode code, int64_t row, int64_t column,
                    const char *fmt, ...)
{
    va_list ap;
    if (e) {
        e->pos = TT_POS_ROW;
        e->offset = -1;
        e->line = row;
        e->column = column;
    }
    va_start(ap, fmt);
    error_vset(e, code, fmt, ap);
    va_end(ap);
    return (int)code;
}

int tt_error_at_offset(tt_error *e, tt_errcode code, int64_t offset,
                       const char *fmt, ...)
{
    va_list ap;
    if (e) {
        e->pos = TT_POS_OFFSET;
        e->offset = offset;
        e->line = e->column = 0;
    }
    va_start(ap, fmt);
    error_vset(e, code, fmt, ap);
    va_end(ap);
    return (int)code;
}

char *tt_error_format(const tt_error *e, const char *file, char *buf, size_t n)
{
    char pos[96] = "";
    if (n == 0)
        return buf;
    switch (e->pos) {
    case TT_POS_LINE:
        snprintf(pos, sizeof pos, "line %lld, column %lld: ",
                 (long long)e->line, (long long)e->column);
        break;
    case TT_POS_ROW:
        if (e->column > 0)
            snprintf(pos, sizeof pos, "row %lld, column %lld: ",
                     (long long)e->line, (long long)e->column);
        else
            snprintf(pos, sizeof pos, "row %lld: ", (long long)e->line);
        break;
    case TT_POS_OFFSET:
        snprintf(pos, sizeof pos, "byte %lld: ", (long long)e->offset);
        break;
    case TT_POS_NONE:
        break;
    }
    if (file)
        snprintf(buf, n, "%s: %s%s", file, pos, e->what);
    else
        snprintf(buf, n, "%s%s", pos, e->what);
    return buf;
}
