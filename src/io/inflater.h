/* inflater.h - one gzip member's deflate stream, decoded by the fastest
 * inflater configure found: ISA-L's isal_inflate (libisal, about 2.3x
 * zlib's speed on trace JSON) or zlib's inflate.
 *
 * A step consumes input and produces output like inflate(): it stops when
 * the input is used up, the output is full, the member ends (after its
 * CRC and size trailer, which are checked) or the data is corrupt. The
 * caller (io/input.c) handles what lies between members.
 *
 * Ownership: tt_inflater_new() returns an inflater freed with
 * tt_inflater_free() (NULL is a no-op). Not shared between threads.
 */
#ifndef TT_IO_INFLATER_H
#define TT_IO_INFLATER_H

#include <stddef.h>

typedef struct tt_inflater tt_inflater;

typedef enum tt_inflate_rc {
    TT_INFLATE_OK,           /* progress, or none possible without more input */
    TT_INFLATE_MEMBER_END,   /* the member and its trailer are complete */
    TT_INFLATE_CORRUPT,      /* bad data: *msg says what */
    TT_INFLATE_NOMEM
} tt_inflate_rc;

/* A new inflater expecting a gzip header; NULL when out of memory. */
tt_inflater *tt_inflater_new(void);
void tt_inflater_free(tt_inflater *z);

/* Expect the next member's gzip header. */
void tt_inflater_reset(tt_inflater *z);

/* Decode from src[0, src_len) into dst[0, dst_len): *src_used and
 * *dst_used say how much was consumed and produced (also on error). */
tt_inflate_rc tt_inflater_step(tt_inflater *z, const unsigned char *src, size_t src_len,
                               size_t *src_used, unsigned char *dst, size_t dst_len,
                               size_t *dst_used, const char **msg);

/* "ISA-L" or "zlib": which one this build uses. */
const char *tt_inflater_name(void);

#endif
