/* argflat.h - an event's argument record as Perfetto's args rows: the
 * leaves of its JSON object with their keys flattened.
 *
 * Perfetto's JSON importer stores a Chrome event's "args" object under
 * the prefix "args": key "args.NAME" for a member, "args.A.B" for a
 * member of a nested object, "args.A[0]" for an element of an array
 * (flat_key drops the indexes: "args.A"); nulls are left out, and so are
 * empty objects and arrays (they have no leaves); an array index counts
 * only the elements that are not null. A number without '.', 'e' or 'E'
 * that fits in int64 is an 'int', any other a 'real'; true/false are
 * 'bool' (int value 1/0). The event's other unknown fields (the record's
 * second text) are not arguments and are not walked.
 *
 * Ownership: a tt_argflat owns its buffers; leaves point into them (or
 * into the text walked) and are valid during the callback only. Library
 * code: never prints, never exits.
 */
#ifndef TT_SQL_ARGFLAT_H
#define TT_SQL_ARGFLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef enum tt_argtype {
    TT_ARGT_INT = 0,
    TT_ARGT_REAL,
    TT_ARGT_STRING,
    TT_ARGT_BOOL
} tt_argtype;

/* Perfetto's value_type of t: "int", "real", "string", "bool". */
const char *tt_argtype_name(tt_argtype t);

typedef struct tt_argleaf {
    const char *flat_key;   /* NUL-terminated */
    size_t      flat_n;
    const char *key;        /* NUL-terminated */
    size_t      key_n;
    tt_argtype  type;
    int64_t     i;          /* INT, BOOL */
    double      d;          /* REAL */
    const char *s;          /* STRING: unescaped, s[0..n) */
    size_t      n;
} tt_argleaf;

typedef struct tt_argflat {
    char  *flat, *key, *str;   /* growing buffers */
    size_t flat_cap, key_cap, str_cap;
} tt_argflat;

void tt_argflat_init(tt_argflat *f);
void tt_argflat_fini(tt_argflat *f);

/* Called for each leaf in document order: 0 to go on, 1 to stop the walk
 * (tt_argflat_walk then returns 1), -1 to fail it (err set by the
 * callback). */
typedef int (*tt_argflat_fn)(void *ctx, const tt_argleaf *leaf, tt_error *err);

/* Walk the leaves of the JSON value text[0..n) (an event's args object)
 * under the prefix "args". Nothing to walk when n is 0. Returns 0, 1 when
 * the callback stopped it, or -1 with err set: out of memory, or text
 * that is not JSON (TT_ERR_FORMAT, offset into text). */
int tt_argflat_walk(tt_argflat *f, const char *text, size_t n, tt_argflat_fn fn, void *ctx,
                    tt_error *err);

#endif
