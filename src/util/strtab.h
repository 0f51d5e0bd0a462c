/* strtab.h - string interning.
 *
 * Every distinct string is stored once and named by a dense uint32 id.
 * Id 0 is always the empty string, so a zeroed field means "none".
 * Ownership: the table owns the bytes; pointers returned by tt_strtab_get()
 * stay valid until tt_strtab_free(). Not thread-safe: one table per trace.
 */
#ifndef TT_UTIL_STRTAB_H
#define TT_UTIL_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#define TT_STR_NONE 0u
#define TT_STR_ERROR UINT32_MAX   /* returned by tt_strtab_intern on OOM */

typedef struct tt_strtab tt_strtab;

tt_strtab *tt_strtab_new(void);
void tt_strtab_free(tt_strtab *t);   /* NULL is a no-op */

/* Id of [s, s+n), adding it when new. Bytes need not be NUL-terminated and
 * may contain anything (including NUL). TT_STR_ERROR when out of memory. */
uint32_t tt_strtab_intern(tt_strtab *t, const char *s, size_t n);

/* Id of [s, s+n) when present, else TT_STR_ERROR. Never adds. */
uint32_t tt_strtab_find(const tt_strtab *t, const char *s, size_t n);

/* NUL-terminated string of an id (borrowed). Unknown ids give "". */
const char *tt_strtab_get(const tt_strtab *t, uint32_t id);

/* Length in bytes of an id's string. */
size_t tt_strtab_len(const tt_strtab *t, uint32_t id);

/* Number of ids (including id 0). */
uint32_t tt_strtab_count(const tt_strtab *t);

/* Bytes held (strings, index and hash table), for memory accounting. */
size_t tt_strtab_bytes(const tt_strtab *t);

#endif
