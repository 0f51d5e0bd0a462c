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
} tt_args_reader;

void tt_args_reader_init(tt_args_reader *r, const tt_args *store);
void tt_args_reader_fini(tt_args_reader *r);

/* Texts of a record; pointers are valid until the next call on the reader.
 * Returns 0, or -1 for an unknown handle or a corrupt block. */
int tt_args_read(tt_args_reader *r, uint32_t handle, const char **args, size_t *alen,
                 const char **extra, size_t *elen);

/* ------------------------------------------------- snapshot support
 * A snapshot (.ttz) keeps the argument blocks as they are, so reopening it
 * costs no recompression. Blocks are listed in handle order; the record
 * layout inside a block stays private to args.c. */

typedef struct tt_args_block_info {
    uint32_t             first;      /* handle of the block's first record */
    uint32_t             count;      /* records in the block */
    uint32_t             raw_size;   /* bytes once decompressed */
    uint32_t             stored;     /* bytes of data; == raw_size: stored raw */
    const unsigned char *data;       /* borrowed from the store */
} tt_args_block_info;

/* Blocks of a sealed store (0 when records are still unsealed). */
uint32_t tt_args_block_count(const tt_args *a);

/* Block i of a sealed store. Returns 0, or -1 when i is out of range or the
 * store has an unsealed partial block. */
int tt_args_block_get(const tt_args *a, uint32_t i, tt_args_block_info *out);

/* Append a block read back from a snapshot (data is copied); its records
 * get the next count handles. The store must be sealed (or new). Block
 * contents are not trusted: a corrupt block only makes tt_args_read() fail
 * for its records. Returns 0, or -1 on OOM, bad sizes or an unsealed store. */
int tt_args_block_add(tt_args *a, uint32_t count, uint32_t raw_size, const void *data,
                      size_t stored);

#endif
