/* argtmplsec.h - the argument templates section of a .ttz: the chunks of
 * the arguments section (argcols.h), each with the bytes of its
 * templates, so that a reader asking which records may hold a few keys
 * (tt_args_filter, for the rules: argslazy.h) answers without
 * decompressing the arguments section (59 MB for a 10M-event Kineto
 * trace, whose templates take 37 KB). Internal to src/snapshot/.
 *
 * The section is optional and changes no format version: files written
 * before it, or without it (templates too big to be worth keeping), are
 * answered from the arguments section itself, and readers that do not
 * know it pass it over.
 *
 * Layout (decompressed; varints as in wire.h):
 *   varint  records, chunks
 *   per chunk: varint records, varint template bytes; then those bytes
 * The chunks are those of the arguments section, in order, and cover its
 * records; a chunk's bytes are its templates' as it stores them.
 *
 * Library code: no I/O. Ownership: buffers stay the caller's; the chunk
 * table the reader returns is malloc'ed (the caller frees it).
 */
#ifndef TT_SNAPSHOT_ARGTMPLSEC_H
#define TT_SNAPSHOT_ARGTMPLSEC_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot/argcols.h"
#include "snapshot/wire.h"

/* Append the section for the arguments payload p[0..len) of n records
 * (tt_argcols_encode's output) to out. 0; 1 when the payload is under 1
 * MiB (it opens in a millisecond; tests set TRACETTY_TTZ_ARGTMPL_FROM=N
 * to keep the templates from N bytes) or the templates take more than 64
 * KiB and 1/16 of it (records of unique text: reading them would cost
 * about what the arguments section does, and the file would grow),
 * and nothing is appended: the file is written without the section; -1
 * out of memory; -2 when the payload is not one (never for the writer's
 * own). */
int tt_argtmplsec_encode(const unsigned char *p, size_t len, uint32_t n, tt_wbuf *out);

/* Read the section p[0..len) written for n records: *chunks (malloc'ed)
 * and *n_chunks, each chunk's templates at p + off, len bytes, checked to
 * cover the n records and to fill the section. 0, -1 out of memory, -2
 * when corrupt (*why says so). */
int tt_argtmplsec_decode(const unsigned char *p, size_t len, uint32_t n,
                         tt_argcols_chunk **chunks, uint32_t *n_chunks, const char **why);

#endif
