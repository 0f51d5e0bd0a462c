/* args.h - compact storage of event arguments, decoded on demand.
 *
 * Decoders hand over each event's argument object as raw JSON text, plus a
 * second JSON object text with the event's other unknown fields, so nothing
 * in the source is lost. Records are packed into ~128 KiB blocks that are
 * zstd-compressed as they fill: a Kineto trace's arguments shrink about
 * tenfold and cost nothing until somebody looks at them (details view,
 * `--by arg:KEY`).
 *
 * A store can also hold records that are rebuilt only when one of them is
 * first read, part by part, by a source (tt_args_set_source): a snapshot's
 * arguments (src/snapshot/argslazy.h), so that reopening one costs nothing
 * for the records a command never reads.
 *
 * Ownership: the store owns its blocks (and its source's context).
 * Readers (tt_args_reader) own a decompression cache; use one reader per
 * thread. Several readers may read one store at once, also one whose
 * parts are rebuilt on first read (the rebuilding is serialized).
 */
#ifndef TT_MODEL_ARGS_H
#define TT_MODEL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/error.h"

typedef struct tt_args tt_args;

tt_args *tt_args_new(void);
void tt_args_free(tt_args *a);   /* NULL is a no-op */

/* Store one record. Either text may be empty (n == 0). Returns a handle
 * >= 1, or 0 when out of memory (or when both texts are empty). */
uint32_t tt_args_add(tt_args *a, const char *args, size_t alen,
                     const char *extra, size_t elen);

/* A record's args keys, found by a decoder that parses the args text
 * anyway (the Chrome decoder walks its members), so that tt_args_add_noted
 * need not scan the text for the block's key summary (tt_args_filter):
 * that scan was 4% of a Kineto load's CPU. The decoder must note exactly
 * what the scan would find in a valid JSON object text:
 *   - hash[0..n): tt_args_key_hash() of every object key of the text, at
 *     any depth (or set rescan: the store scans the text, as tt_args_add);
 *   - any: the text holds a backslash or a NUL byte anywhere (in a key,
 *     a string value, a nested value): the block then answers "may hold"
 *     for every key, as the scan makes it.
 * The caller clears n, any and rescan per record; hash[] needs no
 * clearing. */
#define TT_ARGS_NOTE_MAX 24
typedef struct tt_args_note {
    uint32_t n;
    bool     any;
    bool     rescan;   /* keys not noted (too many, or nested objects) */
    uint64_t hash[TT_ARGS_NOTE_MAX];
} tt_args_note;

/* The bytes p[0..n) (n <= 8) as a little-endian number; avail bytes are
 * readable at p, and with 8 of them one load does. */
static inline uint64_t tt_args_load_word(const unsigned char *p, size_t n, size_t avail)
{
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (avail >= 8) {
        memcpy(&w, p, 8);
        return n < 8 ? w & ((1ULL << (8 * n)) - 1) : w;
    }
    memcpy(&w, p, n);
#else
    (void)avail;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)p[i] << (8 * i);
#endif
    return w;
}

/* Hash of the key k[0..n) (unescaped bytes between its quotes), with
 * avail >= n bytes readable at k; the same whatever avail is. Any hash
 * will do (a collision only costs a block read): this one is a multiply
 * or two for the short keys of arguments. */
static inline uint64_t tt_args_key_hash(const char *key, size_t n, size_t avail)
{
    const unsigned char *k = (const unsigned char *)key;
    uint64_t h = (tt_args_load_word(k, n < 8 ? n : 8, avail) + n) * 0x9e3779b97f4a7c15ULL;
    if (n > 8) {
        /* the last 8 bytes (overlapping the first under 16), the middle
         * of long keys */
        for (size_t i = 8; i + 8 < n; i += 8)
            h = (h ^ tt_args_load_word(k + i, 8, 8)) * 0xff51afd7ed558ccdULL;
        h ^= tt_args_load_word(k + n - 8, 8, 8) * 0xc4ceb9fe1a85ec53ULL;
    }
    return h;
}

/* tt_args_add(), the args text's keys told by *note (NULL: scanned, as
 * tt_args_add does); the extra text is scanned. Same record, same key
 * summary. With a note, a text of a layout seen before (its bytes but for
 * its digit runs) is stored as that layout's template and its digit runs:
 * a Kineto trace's arguments give zstd a fifth of the bytes. */
uint32_t tt_args_add_noted(tt_args *a, const char *args, size_t alen, const char *extra,
                           size_t elen, const tt_args_note *note);

/* Keyed rows: a small addition for table-shaped sources (the CSV
 * decoders), whose every row would otherwise repeat the same JSON keys.
 * A key set is registered once: n keys, each the JSON text of a key with
 * its colon ("\"Step Id\":"). A row then stores only its values, typed:
 * TT_ARGV_JSON text is a JSON value written as is (a number), a
 * TT_ARGV_SCALAR text is one complete JSON scalar that the decoder checked
 * or wrote itself, a number or a string in quotes, holding no backslash
 * (so no escape) and no NUL byte: stored and read as TT_ARGV_JSON, but
 * known to add no key (a string value is never followed by a colon) and
 * no byte the key filter counts, so the block's key filter need not look
 * at it (a TT_ARGV_JSON value with a quote makes every filter of its
 * block say "maybe"); a TT_ARGV_STRING text is quoted and escaped (tt_args_json_string) only
 * when read, TT_ARGV_NONE leaves the key out. tt_args_read rebuilds
 * exactly the object text tt_args_add would have been given: "{" key value
 * "," ... "}", present keys in key-set order, no extra text. The stored
 * bytes, and the zstd work of storing them, shrink by the keys' share (two
 * thirds of an Ascend kernel_details.csv's argument text), and no JSON is
 * written while loading.
 *
 * tt_args_keyset returns a key set id >= 1 (numbered with the args
 * templates of tt_args_add_noted: not always the next), or 0 when out of
 * memory.
 * tt_args_add_row takes one value per key of the set and returns a handle
 * as tt_args_add does: 0 when out of memory, when no value is present, or
 * when the values hold more than TT_ARGS_ROW_MAX bytes (a decoder checks
 * that first and stores such a record as text, which tt_args_add takes
 * up to four times larger).
 * Its raw bytes (tt_args_raw_bytes) are the keys' and values' bytes plus
 * the object's punctuation, strings counted unescaped. */
#define TT_ARGS_ROW_MAX (UINT32_MAX / 16)
enum { TT_ARGV_NONE = 0, TT_ARGV_JSON, TT_ARGV_STRING, TT_ARGV_SCALAR };
typedef struct tt_args_val {
    const char *s;
    size_t      n;
    int         kind;   /* TT_ARGV_* */
} tt_args_val;

uint32_t tt_args_keyset(tt_args *a, const char *const *keys, const size_t *klen, uint32_t n);
uint32_t tt_args_add_row(tt_args *a, uint32_t keyset, const tt_args_val *vals);

/* s[0..n) as a quoted JSON string at d, which has room for
 * TT_JSON_STRING_MAX(n) bytes; returns the end. '"' and '\\' are escaped
 * with a backslash, other bytes below 0x20 as \u00xx, all others copied.
 * The one writer of keyed rows' strings, for their keys as well. */
#define TT_JSON_STRING_MAX(n) (6 * (n) + 2)
char *tt_args_json_string(char *d, const char *s, size_t n);

/* Compress the last partial block. Call once when loading is done; adding
 * after sealing is allowed and starts a new block. Returns 0 or -1 (OOM). */
int tt_args_seal(tt_args *a);

/* Stores made after this call keep their blocks uncompressed (raw) or
 * zstd-compressed (the default): for a process that reads every record
 * once, right after the load (`tracetty convert`, whose snapshot writer
 * cuts the argument columns from them), compressing each block as it
 * fills and decompressing it again for that one read is work for
 * nothing. The blocks then take their raw bytes in memory (a Kineto
 * trace's templated records: about five times their zstd bytes). Call it
 * before the load starts: stores made on other threads meanwhile may
 * miss it. */
void tt_args_store_raw(bool raw);

/* Records stored, raw bytes accepted, bytes held in memory (for a store
 * with a source: of the parts rebuilt so far). */
uint32_t tt_args_count(const tt_args *a);
uint64_t tt_args_raw_bytes(const tt_args *a);
size_t tt_args_memory(const tt_args *a);

typedef struct tt_args_reader {
    const tt_args *store;
    /* a store with a source: the part the cache below belongs to, which
     * holds records [part_first, part_first + part_n) */
    const tt_args *part;
    uint32_t       part_first, part_n;
    uint32_t       block;     /* cached block index + 1, 0 = none */
    unsigned char *buf;       /* decompressed block */
    const unsigned char *view;  /* the cached block's bytes: buf, or the
                                 * block itself where it is stored raw */
    size_t         cap;
    /* resume point inside the cached block, so reading records in handle
     * order costs O(1) each instead of a scan from the block start */
    uint32_t       next_handle;  /* handle of the record at next_off, 0 = none */
    size_t         next_off;
    uint64_t       loads;     /* blocks decompressed (or copied) so far: lets
                               * tests and profiles see whether records are
                               * read in storage order (one load per block) */
    char          *row;       /* a keyed row's object text, rebuilt */
    size_t         row_cap;
} tt_args_reader;

void tt_args_reader_init(tt_args_reader *r, const tt_args *store);
void tt_args_reader_fini(tt_args_reader *r);

/* Texts of a record; pointers are valid until the next call on the reader.
 * Returns 0, or -1 for an unknown handle, a corrupt block, or a part its
 * source could not rebuild (tt_args_error() then says why). */
int tt_args_read(tt_args_reader *r, uint32_t handle, const char **args, size_t *alen,
                 const char **extra, size_t *elen);

/* A record as it is stored, for a reader that can use an args template
 * (tt_args_add_noted) without its text rebuilt: the snapshot writer,
 * whose argument columns are cut from templates too. */
typedef struct tt_args_form {
    /* 0: the record's texts are args[0..alen) and extra[0..elen). Else
     * the id (>= 1, the same for every record of one template of the
     * store) of the args text's template: its layout, the text with each
     * of its n_runs digit runs replaced by one '0' (its only digits), and
     * the runs, each a varint length and that many digits, at
     * runs[0..runs_end), `digits` digits in all; args is NULL and extra
     * holds the extra text. */
    uint32_t             tmpl;
    const char          *args, *extra;
    size_t               alen, elen;
    const char          *layout;
    size_t               layout_len;
    uint32_t             n_runs;
    const unsigned char *runs, *runs_end;
    size_t               digits;
    const void          *ks;   /* the store's template (for tt_args_form_text) */
} tt_args_form;

/* tt_args_read() that leaves a templated record as its template and runs
 * (*f); a store with a source gives texts. The layout lives as long as
 * the store (a reader may keep what it learnt of a template by its id);
 * the other pointers are valid until the next call on the reader.
 * Returns as tt_args_read(). */
int tt_args_read_form(tt_args_reader *r, uint32_t handle, tt_args_form *f);

/* f's args text rebuilt (f->args, f->alen; tmpl becomes 0), valid until
 * the next call on the reader. A no-op for a form holding texts. Returns
 * 0 or -1 (out of memory). */
int tt_args_form_text(tt_args_reader *r, tt_args_form *f);

/* Move every record of src after those of dst and free src, whatever the
 * outcome (takes ownership of src): src's handle h becomes n + h, n being
 * tt_args_count(dst) before the call. Records of either store not yet in a
 * block are compressed into one first; src's blocks move without being
 * copied or recompressed. For joining stores filled in parallel (the
 * snapshot reader's argument chunks). Returns 0, or -1 when out of memory,
 * when dst would hold more than UINT32_MAX - 1 records, or when either
 * store has a source; dst then keeps just its own records. */
int tt_args_append(tt_args *dst, tt_args *src);

/* ------------------------------------------- records rebuilt on first read
 * A source rebuilds the part of its records that holds a handle: build()
 * makes *part, a new sealed store of *n records (its handles 1..*n stand
 * for *first .. *first + *n - 1, a range holding `handle`), and returns 0;
 * or returns -1 with err set (out of memory, or corrupt data, positioned
 * in the source's input). The store calls build() with a lock held, one
 * call at a time, and never twice for a part it holds; free(ctx), when not
 * NULL, is called when the store is freed. */
typedef struct tt_args_source {
    int  (*build)(void *ctx, uint32_t handle, tt_args **part, uint32_t *first, uint32_t *n,
                  tt_error *err);
    void (*free)(void *ctx);
    /* Optional: make ready, on up to `threads` threads (0: one per core),
     * the parts holding handles[0..n) (ascending) that build() has not
     * given yet, so that the build() calls that follow only hand them
     * over. Called with the same lock held as build(). Best effort: a part
     * it cannot make (no memory, corrupt data) is left to build(), which
     * then fails as it would have. */
    void (*prefetch)(void *ctx, const uint32_t *handles, size_t n, unsigned threads);
    /* Optional: for tt_args_filter(), with the same lock held: set
     * maybe[i] = 0 for the records handles[i] that certainly hold none
     * of the needles, from what their parts are made of and without
     * rebuilding them (leave the others as they are). Returns 0, or -1
     * with err set (corrupt data, positioned, as build() would give it;
     * or out of memory). */
    int (*filter)(void *ctx, const uint32_t *handles, size_t n, const char *const *needles,
                  size_t n_needles, unsigned char *maybe, tt_error *err);
} tt_args_source;

/* Make a, an empty store (nothing added), hold records 1..n from src
 * (borrowed: a static table), with ctx its context, owned by the store
 * from now on (freed by src->free also when this fails). Nothing can be
 * added to it afterwards. Returns 0, or -1 when out of memory. */
int tt_args_set_source(tt_args *a, uint32_t n, const tt_args_source *src, void *ctx);

/* Before reading many records of a store with a source in handle order:
 * have the source rebuild the parts holding handles[0..n) (ascending,
 * repeats allowed) on up to `threads` threads (0: one per core) instead
 * of one after the other as the reads reach them. Changes nothing that
 * the reads return, errors included; a no-op for other stores. */
void tt_args_prefetch(const tt_args *a, const uint32_t *handles, size_t n, unsigned threads);

/* Which of the records handles[0..n) (ascending, repeats allowed) may
 * hold one of the byte strings needles[0..n_needles) (none NULL, none
 * empty) in their args or extra text: maybe[i] is set to 1, or to 0 only
 * when record handles[i] certainly holds none of them, so that a caller
 * looking for a few keys passes it over without reading it (and, in a
 * store with a source, without its part being rebuilt). A needle "K" in
 * quotes (K without '"', '\\' or bytes below 0x20) counts as held where K
 * is an object key of the texts (at any depth; a value "K" need not
 * count), which is all a caller looking for keys needs; a needle "\\"
 * as held where a backslash is.
 *
 * A store of blocks tells from a summary of each block's keys kept as
 * records are added (no block is decompressed), when every needle is a
 * key in quotes or "\\"; a store with a source asks its source (a
 * snapshot's tells from its templates, byte strings and all) and says 1
 * for the parts it has rebuilt. Otherwise maybe is all 1.
 * Returns 0, or -1 when the source fails (corrupt data: tt_args_error()
 * then says why, as a read would; or out of memory): maybe is all 1. */
int tt_args_filter(const tt_args *a, const uint32_t *handles, size_t n,
                   const char *const *needles, size_t n_needles, unsigned char *maybe);

/* Why a record could not be read: the first error of the store's source
 * other than running out of memory, copied into *err; 1 when there is
 * one, else 0 (*err untouched). */
int tt_args_error(const tt_args *a, tt_error *err);

#endif
