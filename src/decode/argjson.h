/* argjson.h - an event's argument object written straight to text, exactly
 * as cJSON_PrintUnformatted() prints the same object built with
 * cJSON_AddNumberToObject() / cJSON_AddStringToObject().
 *
 * Decoders that make arguments up from columns (the Nsight Systems SQLite
 * reader) used to build a cJSON tree per event and print it: an allocation
 * per member and a printf/scanf round trip per number, most of the
 * decoder's time. The text must stay byte for byte what cJSON printed
 * (snapshots and `report` show it), so numbers follow cJSON's rule: an
 * integer that fits an int as %d, anything else as %1.15g unless that does
 * not read back as the same double, then %1.17g.
 *
 * Ownership: the builder owns its buffer; reuse one per decoder. Library
 * code, no I/O.
 */
#ifndef TT_DECODE_ARGJSON_H
#define TT_DECODE_ARGJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tt_argjson {
    char  *buf;
    size_t len, cap;
    bool   oom;      /* an append failed: the text is incomplete */
    bool   members;  /* at least one member since begin */
} tt_argjson;

void tt_argjson_init(tt_argjson *j);
void tt_argjson_fini(tt_argjson *j);

/* Start a new object (forgets the previous one). */
void tt_argjson_begin(tt_argjson *j);

/* Add key: v as cJSON_AddNumberToObject(o, key, (double)v) prints it. */
void tt_argjson_number(tt_argjson *j, const char *key, int64_t v);

/* The JSON number text[0..n) (strict JSON grammar, under 64 bytes) as
 * cJSON prints the double it parses from it, into out (room for 32
 * bytes); returns the length. For re-printing parsed documents (the
 * HugeCTR reader) without cJSON's printf and scanf. */
size_t tt_argjson_print_number(char *out, const char *text, size_t n);

/* s[0..n) quoted and escaped as cJSON prints a string, at d (room for
 * 6 * n + 2 bytes); returns the end of what it wrote. */
char *tt_argjson_quote(char *d, const char *s, size_t n);

/* Add key: s as cJSON_AddStringToObject(o, key, s) prints it. */
void tt_argjson_string(tt_argjson *j, const char *key, const char *s);

/* Close the object: its text and length, or NULL when out of memory. */
const char *tt_argjson_end(tt_argjson *j, size_t *n);

#endif
