/* argcols.h - the arguments section of a .ttz snapshot: argument records
 * as templates and number columns. Internal to src/snapshot/.
 *
 * Argument records are JSON texts that repeat with different numbers
 * ({"External id": 1041, "Ev Idx": 1149, ...}). Each record is cut into a
 * template (its text with every number replaced by a slot) and the numbers
 * themselves; identical templates are stored once. The numbers go into
 * columns, one per context (the key a number belongs to, its position
 * under that key and the set of keys of its record), where each integer is
 * stored as the difference from a prediction chosen per column by trial
 * compression: nothing, the previous number of the column, the previous
 * number of the record, the correlation id of the event that owns the
 * record, or the column's number in the last record of an event of the
 * same name. Ids that climb by one, dimensions that repeat, ids copied
 * from the event and kernel properties that never change for one kernel
 * all become runs of small numbers that zstd compresses to almost
 * nothing. The transform is exact for any bytes: only canonical
 * integers (no leading zeros, no "-0", at most 18 digits) become integer
 * slots; other numbers are kept as text in literal columns.
 *
 * Records are cut into chunks of about 16 MB of text, each encoded on its
 * own (its templates, columns and predictions start afresh), so that
 * readers rebuild the chunks on several cores.
 *
 * Payload (before the section's zstd compression), all varints:
 *   records, chunks; per chunk: its records, its bytes; then the chunks,
 *   each:
 *   records, templates, columns
 *   per column: kind | predictor << 1 (kind 0 integers, 1 literals;
 *               see argcols.c for the predictors), byte length of its data
 *   per template: byte length; then the template bytes
 *   per record: 0 for the template of the last record of an event of the
 *               same name, else its template + 1
 *   the column data, column after column: integers as zigzag residuals,
 *   literals as length + bytes, or (when the column says so) 0 for the
 *   text of the last record of the same name and length + 1 + bytes
 * Template bytes are text, except 0x00 (end of the record's args text,
 * start of its extra text; exactly once), 0x01 COLUMN (an integer slot),
 * 0x02 COLUMN (a literal slot) and 0x03 BYTE (a text byte 0x00..0x03).
 *
 * Decoding rebuilds every record and adds it to the trace's argument store
 * in order, so the store is the same as after decoding the source.
 */
#ifndef TT_SNAPSHOT_ARGCOLS_H
#define TT_SNAPSHOT_ARGCOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/args.h"
#include "snapshot/wire.h"

/* What the reader knows of a record before it reads the section: the event
 * that introduces it (its first event in snapshot order). */
typedef struct tt_argcols_hint {
    uint32_t corr;   /* the event's correlation id, 0 for none */
    uint32_t name;   /* the event's name, below the n_names given: callers
                      * check it (it indexes tables of n_names entries) */
} tt_argcols_hint;

/* Append the payload for n records of `store` to out: map[h] = i + 1 puts
 * the record with handle h at position i, map[h] = 0 leaves it out
 * (map has tt_args_count(store) + 1 entries and names n records); hint[i]
 * describes record i. trial_level is the zstd level of the trial
 * compressions that choose each column's predictor. The chunks are
 * encoded on up to `threads` threads (0: one per core); the payload does
 * not depend on the count. Returns 0, -1 when out of memory, -2 when a
 * record of the store cannot be read. */
int tt_argcols_encode(const tt_args *store, const uint32_t *map, uint32_t n,
                      const tt_argcols_hint *hint, uint32_t n_names, int trial_level,
                      unsigned threads, tt_wbuf *out);

/* Rebuild n records from the payload p[0..len) into store, an empty store
 * (they get handles 1..n), and seal it; hint as for tt_argcols_encode().
 * Chunks are rebuilt in parallel, on up to `threads` threads (0: one per
 * core), and never more than 8. Returns 0, -1 when out of memory, -2 when
 * the payload is corrupt, with *what naming what is wrong (a static
 * string). */
int tt_argcols_decode(const unsigned char *p, size_t len, uint32_t n,
                      const tt_argcols_hint *hint, uint32_t n_names, unsigned threads,
                      tt_args *store, const char **what);

/* One chunk of a payload: records [first, first + n) (positions from 0),
 * its bytes at p + off, len of them. */
typedef struct tt_argcols_chunk {
    uint32_t first, n;
    size_t   off, len;
} tt_argcols_chunk;

/* The chunks of the payload p[0..len) of n records, checked to hold them
 * all and to fill it: *chunks (malloc'ed), *n_chunks of them. Returns 0,
 * -1 when out of memory, -2 when the table is corrupt (*what says so). */
int tt_argcols_chunks(const unsigned char *p, size_t len, uint32_t n, tt_argcols_chunk **chunks,
                      uint32_t *n_chunks, const char **what);

/* Rebuild chunk c of payload p (whose table tt_argcols_chunks() read) into
 * store, an empty store (its records get handles 1..c->n), and seal it;
 * hint[0..c->n) describes its records. The chunks of a payload decode on
 * their own, in any order. Returns as tt_argcols_decode(). */
int tt_argcols_decode_chunk(const unsigned char *p, const tt_argcols_chunk *c,
                            const tt_argcols_hint *hint, uint32_t n_names, tt_args *store,
                            const char **what);

/* The bytes of chunk c's templates (of payload p, whose table
 * tt_argcols_chunks() read): *t, *tlen of them, inside p. Every record of
 * the chunk is one of its templates with numbers filled in. Returns 0, or
 * -2 when the chunk's head is corrupt (*what says so). */
int tt_argcols_chunk_templates(const unsigned char *p, const tt_argcols_chunk *c,
                               const unsigned char **t, size_t *tlen, const char **what);

/* Whether a record made from the templates t[0..tlen) (a chunk's) may
 * hold one of the byte strings needles[0..n_needles) (not empty) in its
 * args or extra text: false only when none certainly does. */
bool tt_argcols_templates_may_hold(const unsigned char *t, size_t tlen,
                                   const char *const *needles, size_t n_needles);

#endif
