/* inflater.c - gzip member decoding by ISA-L or zlib (see inflater.h). */
#include "config.h"

#include "io/inflater.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

/* Both libraries count in 32 bits: hand them at most this much at once. */
#define STEP_MAX ((size_t)UINT32_MAX)

static size_t clamp(size_t n)
{
    return n > STEP_MAX ? STEP_MAX : n;
}

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>

struct tt_inflater {
    struct inflate_state st;   /* ~40 KiB: tables and history */
    int                  failed;   /* isal_inflate's error, kept: see step */
};

tt_inflater *tt_inflater_new(void)
{
    tt_inflater *z = malloc(sizeof *z);
    if (z)
        tt_inflater_reset(z);
    return z;
}

void tt_inflater_reset(tt_inflater *z)
{
    isal_inflate_init(&z->st);
    z->st.crc_flag = ISAL_GZIP;   /* parse the header, check CRC and size */
    z->failed = 0;
}

static const char *isal_message(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid code in a deflate block";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "inflate failed";
    }
}

tt_inflate_rc tt_inflater_step(tt_inflater *z, const unsigned char *src, size_t src_len,
                               size_t *src_used, unsigned char *dst, size_t dst_len,
                               size_t *dst_used, const char **msg)
{
    int rc;
    /* zlib repeats an error on every later call (input.c relies on it to
     * deliver what came before first); isal_inflate may not: remember it */
    if (z->failed) {
        *src_used = *dst_used = 0;
        *msg = isal_message(z->failed);
        return TT_INFLATE_CORRUPT;
    }
    z->st.next_in = (uint8_t *)src;   /* isal_inflate does not write it */
    z->st.avail_in = (uint32_t)clamp(src_len);
    z->st.next_out = dst;
    z->st.avail_out = (uint32_t)clamp(dst_len);
    rc = isal_inflate(&z->st);
    *src_used = (size_t)(z->st.next_in - src);
    *dst_used = (size_t)(z->st.next_out - dst);
    if (rc < 0) {
        z->failed = rc;
        *msg = isal_message(rc);
        return TT_INFLATE_CORRUPT;
    }
    return z->st.block_state == ISAL_BLOCK_FINISH ? TT_INFLATE_MEMBER_END : TT_INFLATE_OK;
}

void tt_inflater_free(tt_inflater *z)
{
    free(z);
}

const char *tt_inflater_name(void)
{
    return "ISA-L";
}

#else /* zlib */
#include <zlib.h>

struct tt_inflater {
    z_stream zs;
};

tt_inflater *tt_inflater_new(void)
{
    tt_inflater *z = calloc(1, sizeof *z);
    /* 15 + 16: gzip wrapper only; members are restarted by the caller */
    if (z && inflateInit2(&z->zs, 15 + 16) != Z_OK) {
        free(z);
        return NULL;
    }
    return z;
}

void tt_inflater_reset(tt_inflater *z)
{
    inflateReset(&z->zs);
}

tt_inflate_rc tt_inflater_step(tt_inflater *z, const unsigned char *src, size_t src_len,
                               size_t *src_used, unsigned char *dst, size_t dst_len,
                               size_t *dst_used, const char **msg)
{
    int rc;
    z->zs.next_in = (Bytef *)src;   /* inflate does not write it */
    z->zs.avail_in = (uInt)clamp(src_len);
    z->zs.next_out = dst;
    z->zs.avail_out = (uInt)clamp(dst_len);
    rc = inflate(&z->zs, Z_NO_FLUSH);
    *src_used = (size_t)(z->zs.next_in - src);
    *dst_used = (size_t)(z->zs.next_out - dst);
    switch (rc) {
    case Z_STREAM_END: return TT_INFLATE_MEMBER_END;
    case Z_OK:
    case Z_BUF_ERROR: return TT_INFLATE_OK;   /* no progress without more input */
    case Z_MEM_ERROR: return TT_INFLATE_NOMEM;
    default:
        *msg = z->zs.msg ? z->zs.msg : "inflate failed";
        return TT_INFLATE_CORRUPT;
    }
}

void tt_inflater_free(tt_inflater *z)
{
    if (!z)
        return;
    inflateEnd(&z->zs);
    free(z);
}

const char *tt_inflater_name(void)
{
    return "zlib";
}
#endif
