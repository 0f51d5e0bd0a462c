/* argfind.h - one argument of one event's record, by its Perfetto key
 * ("args.name", "args.a.b", "args.list[2]": sql/argflat.h), as an SQL
 * value: the logic of Perfetto's EXTRACT_ARG(arg_set_id, 'key').
 *
 * Ownership: the reader and the flattener are the caller's (one of each
 * per thread); a text value borrows the flattener's buffer until its next
 * walk. Library code: never prints, never exits.
 */
#ifndef TT_SQL_ARGFIND_H
#define TT_SQL_ARGFIND_H

#include <stdint.h>

#include "model/args.h"
#include "sql/argflat.h"
#include "sql/sqltab.h"
#include "util/error.h"

/* The value of key in record handle of r's store: an int (bools 0/1), a
 * real or a text; NULL when the record (handle 0: none) has no such key.
 * 0, or -1 with err set: a record that cannot be read (the store's own
 * error when it has one), text that is not JSON, out of memory. */
int tt_sql_argfind(tt_args_reader *r, tt_argflat *f, uint32_t handle, const char *key,
                   tt_sql_val *out, tt_error *err);

/* Read record handle of r's store: its args text (*text, *n: valid until
 * the next read on r). 0, or -1 with err set as tt_sql_argfind says. */
int tt_sql_args_text(tt_args_reader *r, uint32_t handle, const char **text, size_t *n,
                     tt_error *err);

/* Set out to leaf l's value (text borrowed from l). */
void tt_sql_argleaf_val(const tt_argleaf *l, tt_sql_val *out);

/* What EXTRACT_ARG (sql/fn_extract_arg.c) needs of the query's source
 * set: the loaded source of an ordinal (the high bits of a TT_SQLCOL_ID
 * value), or NULL when that source is not loaded now. The adapter owns
 * it and keeps it valid as long as the database it registered it with. */
typedef struct tt_sql_argsrcs {
    const tt_sql_src *(*get)(void *ctx, uint32_t ordinal);
    void *ctx;
} tt_sql_argsrcs;

#endif
