/* args.h - compact storage of event arguments, decoded on demand.
 *
 * Decoders hand over each event's argument object as raw JSON text, plus a
 * second JSON object text with the event's other unknown fields, so nothing
 * in the source is lost. Records are packed into ~64 KiB blocks that are
 * zstd-compressed as they fill: a Kineto trace's arguments shrink about
 * tenfold and cost nothing until somebody looks at them (details view,
 * `--by arg:KEY`).
 *
 * Ownership: the store owns its blocks. Readers (tt_args_reader) own a
 * decompression cache; use one reader per thread.
 */
#ifndef TT_MODEL_ARGS_H
#define TT_MODEL_ARGS_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_args tt_args;

tt_args *tt_args_new(void);
void tt_args_free(tt_args *a);   /* NULL is a no-op */

/* Store one record. Either text may be empty (n == 0). Returns a handle
 * >= 1, or 0 when out of memory (or when both texts are empty). */
uint32_t tt_args_add(tt_args *a, const char *args, size_t alen,
                     const char *extra, size_t elen);

/* Compress the last partial block. Call once when loading is done; adding
 * after sealing is allowed and starts a new block. Returns 0 or -1 (OOM). */
int tt_args_seal(tt_args *a);

/* Records stored, raw bytes accepted, bytes held in memory. */
uint32_t tt_args_count(const tt_args *a);
uint64_t tt_args_raw_bytes(const tt_args *a);
size_t tt_args_memory(const tt_args *a);

typedef struct tt_args_reader {
    const tt_args *store;
    uint32_t       block;     /* cached block index + 1, 0 = none */
    unsigned char *buf;       /* decompressed block */
    size_t         cap;
    /* resume point inside the cached block, so reading records in handle
     * order costs O(1) each instead of a scan from the block start */
    uint32_t       next_handle;  /* handle of the record at next_off, 0 = none */
    size_t         next_off;
    uint64_t       loads;     /* blocks decompressed (or copied) so far: lets
                               * tests and profiles see whether records are
                               * read in storage order (one load per block) */
} tt_args_reader;

void tt_args_reader_init(tt_args_reader *r, const tt_args *store);
void tt_args_reader_fini(tt_args_reader *r);

/* Texts of a record; pointers are valid until the next call on the reader.
 * Returns 0, or -1 for an unknown handle or a corrupt block. */
int tt_args_read(tt_args_reader *r, uint32_t handle, const char **args, size_t *alen,
                 const char **extra, size_t *elen);

/* Move every record of src after those of dst and free src, whatever the
 * outcome (takes ownership of src): src's handle h becomes n + h, n being
 * tt_args_count(dst) before the call. Records of either store not yet in a
 * block are compressed into one first; src's blocks move without being
 * copied or recompressed. For joining stores filled in parallel (the
 * snapshot reader's argument chunks). Returns 0, or -1 when out of memory
 * or when dst would hold more than UINT32_MAX - 1 records; dst then keeps
 * just its own records. */
int tt_args_append(tt_args *dst, tt_args *src);

#endif
