/* argtmplsec.c - the argument templates section of a .ttz (see
 * argtmplsec.h). */
#include "config.h"

#include "snapshot/argtmplsec.h"

#include <stdlib.h>

/* templates above 1/ARGTMPL_MAX_SHARE of the payload, and above
 * ARGTMPL_SMALL bytes, are not kept (argtmplsec.h) */
#define ARGTMPL_MAX_SHARE 16u
#define ARGTMPL_SMALL ((uint64_t)64 << 10)
/* nor those of a payload under this: it opens in a millisecond, and in a
 * small snapshot the section would be a share of the file (issue 7: a
 * .ttz stays under a third of the gzip'd JSON) */
#define ARGTMPL_FROM_BYTES ((uint64_t)1 << 20)

/* ARGTMPL_FROM_BYTES, or for tests TRACETTY_TTZ_ARGTMPL_FROM (bytes of
 * payload; 0: keep the templates of any). */
static uint64_t keep_from(void)
{
    const char *env = getenv("TRACETTY_TTZ_ARGTMPL_FROM");
    if (env && *env) {
        char *endp;
        unsigned long long v = strtoull(env, &endp, 10);
        if (*endp == '\0')
            return v;
    }
    return ARGTMPL_FROM_BYTES;
}

int tt_argtmplsec_encode(const unsigned char *p, size_t len, uint32_t n, tt_wbuf *out)
{
    tt_argcols_chunk *c = NULL;
    uint32_t nc = 0;
    const char *what;
    int rc;
    if (len < keep_from())
        return 1;
    if ((rc = tt_argcols_chunks(p, len, n, &c, &nc, &what)) != 0)
        return rc;
    {
        /* worth keeping only when small beside the payload (argtmplsec.h) */
        uint64_t total = 0;
        for (uint32_t k = 0; k < nc && rc == 0; k++) {
            const unsigned char *t;
            size_t tlen;
            if ((rc = tt_argcols_chunk_templates(p, &c[k], &t, &tlen, &what)) == 0)
                total += tlen;
        }
        if (rc == 0 && total > ARGTMPL_SMALL && total > len / ARGTMPL_MAX_SHARE) {
            free(c);
            return 1;
        }
    }
    tt_wbuf_varint(out, n);
    tt_wbuf_varint(out, nc);
    for (uint32_t k = 0; k < nc && rc == 0; k++) {
        const unsigned char *t;
        size_t tlen;
        if ((rc = tt_argcols_chunk_templates(p, &c[k], &t, &tlen, &what)) != 0)
            break;
        tt_wbuf_varint(out, c[k].n);
        tt_wbuf_varint(out, tlen);
        tt_wbuf_put(out, t, tlen);
    }
    free(c);
    return rc ? rc : out->oom ? -1 : 0;
}

int tt_argtmplsec_decode(const unsigned char *p, size_t len, uint32_t n,
                         tt_argcols_chunk **chunks, uint32_t *n_chunks, const char **why)
{
    tt_rd r = {p, p + len, false};
    tt_argcols_chunk *c;
    uint64_t records = 0;
    uint32_t nc;
    *chunks = NULL;
    *n_chunks = 0;
    *why = "record count";
    if (tt_rd_varint(&r) != n || r.bad)
        return -2;
    nc = tt_rd_u32(&r);
    /* a chunk holds a record at least and takes two bytes here */
    *why = "chunk count";
    if (r.bad || nc > n || (n > 0 && nc == 0) || nc > (size_t)(r.end - r.p) / 2)
        return -2;
    if (!(c = calloc((size_t)nc + 1, sizeof *c)))
        return -1;
    for (uint32_t k = 0; k < nc; k++) {
        uint64_t tl;
        c[k].first = (uint32_t)records;
        c[k].n = tt_rd_u32(&r);
        tl = tt_rd_varint(&r);
        records += c[k].n;
        if (r.bad || c[k].n == 0 || records > n || !tt_rd_bytes(&r, tl)) {
            free(c);
            *why = "chunks";
            return -2;
        }
        c[k].off = (size_t)(r.p - p) - (size_t)tl;
        c[k].len = (size_t)tl;
    }
    if (records != n || r.p != r.end) {
        free(c);
        *why = records != n ? "chunks" : "extra data";
        return -2;
    }
    *chunks = c;
    *n_chunks = nc;
    return 0;
}
