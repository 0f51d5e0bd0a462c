/* input.c - decompressing byte stream over a file, stdin or memory
 * (see input.h).
 *
 * Two ways to run the decompressor (read_decoded): on the caller's thread,
 * or, when the process may use more than one core, on a thread of its own
 * a few blocks ahead (io/readahead.c), so that inflating and parsing
 * overlap. While that thread runs it owns everything read_decoded touches
 * (the raw buffer, the decompressors, file_pos, truncated, done); the
 * caller's side keeps peek, data_pos and what open set, and takes the rest
 * back when the stream has ended. */
#include "config.h"

#include "io/input.h"

#include "io/inflater.h"
#include "io/readahead.h"
#include "util/bigalloc.h"
#include "util/parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* compressed bytes read at a time: the inflaters go through them in
 * microseconds, so more only holds memory */
#define RAW_CHUNK ((size_t)256 << 10)

struct tt_input {
    char                *path;
    int                  fd;          /* -1 in memory mode */
    int                  is_regular;
    const unsigned char *mem;         /* memory mode source (borrowed) */
    size_t               mem_len, mem_pos;

    tt_compression comp;
    unsigned char *raw;               /* compressed (or plain) bytes read ahead */
    size_t         raw_cap, raw_len, raw_pos;
    int            raw_eof;

    tt_inflater   *gz;
    int            gz_member_done;    /* between gzip members */
    ZSTD_DStream  *zd;
    size_t         zstd_hint;         /* last ZSTD_decompressStream result */

    unsigned char *peek;              /* decompressed look-ahead */
    size_t         peek_len, peek_pos, peek_cap;

    int64_t file_size, file_pos, data_pos;
    int     truncated, done;

    tt_readahead *ra;                 /* the decompressing thread, when running */
    int           readahead;          /* -1: decide at the first read; 0, 1 */
    int           ra_decided;

    int      failed;                  /* a read failed: fail_err, again */
    tt_error fail_err;
};

static int input_alloc(const char *path, tt_input **out, tt_error *err)
{
    tt_input *in = calloc(1, sizeof *in);
    if (!in || !(in->path = strdup(path))) {
        free(in);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    in->fd = -1;
    in->file_size = -1;
    in->readahead = -1;
    in->raw_cap = RAW_CHUNK;
    in->raw = malloc(in->raw_cap);
    if (!in->raw) {
        free(in->path);
        free(in);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    *out = in;
    return 0;
}

/* Read more source bytes into in->raw (after compacting). Returns bytes
 * added, 0 at end of file, -1 on error. */
static ssize_t raw_fill(tt_input *in, tt_error *err)
{
    ssize_t got;
    if (in->raw_eof)
        return 0;
    if (in->raw_pos > 0) {
        memmove(in->raw, in->raw + in->raw_pos, in->raw_len - in->raw_pos);
        in->raw_len -= in->raw_pos;
        in->raw_pos = 0;
    }
    if (in->raw_len == in->raw_cap)
        return 0;   /* caller must consume first */
    if (in->fd < 0) {
        size_t k = in->mem_len - in->mem_pos;
        if (k > in->raw_cap - in->raw_len)
            k = in->raw_cap - in->raw_len;
        memcpy(in->raw + in->raw_len, in->mem + in->mem_pos, k);
        in->mem_pos += k;
        got = (ssize_t)k;
    } else {
        do
            got = read(in->fd, in->raw + in->raw_len, in->raw_cap - in->raw_len);
        while (got < 0 && errno == EINTR);
        if (got < 0) {
            tt_error_set(err, TT_ERR_IO, "read error: %s", strerror(errno));
            return -1;
        }
    }
    if (got == 0)
        in->raw_eof = 1;
    in->raw_len += (size_t)got;
    in->file_pos += got;
    return got;
}

static int input_detect(tt_input *in, tt_error *err)
{
    while (in->raw_len - in->raw_pos < 4 && !in->raw_eof)
        if (raw_fill(in, err) < 0)
            return -1;
    if (in->raw_len - in->raw_pos >= 2 && in->raw[in->raw_pos] == 0x1f &&
        in->raw[in->raw_pos + 1] == 0x8b) {
        in->comp = TT_COMP_GZIP;
        /* members are restarted by hand (gzip_next_member) */
        if (!(in->gz = tt_inflater_new()))
            return tt_error_set(err, TT_ERR_NOMEM, "cannot initialise %s", tt_inflater_name());
    } else if (in->raw_len - in->raw_pos >= 4 && in->raw[in->raw_pos] == 0x28 &&
               in->raw[in->raw_pos + 1] == 0xb5 && in->raw[in->raw_pos + 2] == 0x2f &&
               in->raw[in->raw_pos + 3] == 0xfd) {
        in->comp = TT_COMP_ZSTD;
        in->zd = ZSTD_createDStream();
        if (!in->zd || ZSTD_isError(ZSTD_initDStream(in->zd)))
            return tt_error_set(err, TT_ERR_NOMEM, "cannot initialise zstd");
    } else {
        in->comp = TT_COMP_NONE;
    }
    return 0;
}

int tt_input_open(const char *path, tt_input **out, tt_error *err)
{
    tt_input *in;
    struct stat st;
    *out = NULL;
    if (input_alloc(path, &in, err))
        return -1;
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else {
        do
            in->fd = open(path, O_RDONLY | O_CLOEXEC);
        while (in->fd < 0 && errno == EINTR);
        if (in->fd < 0) {
            tt_error_set(err, TT_ERR_IO, "cannot open: %s", strerror(errno));
            tt_input_close(in);
            return -1;
        }
    }
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            tt_error_set(err, TT_ERR_IO, "is a directory, not a trace file");
            tt_input_close(in);
            return -1;
        }
        if (S_ISREG(st.st_mode)) {
            in->is_regular = 1;
            in->file_size = (int64_t)st.st_size;
        }
    }
#ifdef POSIX_FADV_SEQUENTIAL
    if (in->is_regular)
        (void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    if (input_detect(in, err)) {
        tt_input_close(in);
        return -1;
    }
    *out = in;
    return 0;
}

int tt_input_open_mem(const void *data, size_t n, tt_input **out, tt_error *err)
{
    tt_input *in;
    *out = NULL;
    if (input_alloc("<memory>", &in, err))
        return -1;
    in->mem = data;
    in->mem_len = n;
    in->file_size = (int64_t)n;
    if (input_detect(in, err)) {
        tt_input_close(in);
        return -1;
    }
    *out = in;
    return 0;
}

void tt_input_close(tt_input *in)
{
    if (!in)
        return;
    tt_readahead_free(in->ra);   /* first: the thread may be reading */
    if (in->fd > STDERR_FILENO)
        close(in->fd);
    tt_inflater_free(in->gz);
    ZSTD_freeDStream(in->zd);
    free(in->raw);
    free(in->peek);
    free(in->path);
    free(in);
}

/* The compressed stream has ended: its decompressor and raw buffer are
 * not needed again, and the load that read it goes on to finalize the
 * trace, where its memory peaks (zstd keeps the window the frame asks
 * for: 2 MB at zstd's default level). */
static void stream_done(tt_input *in)
{
    in->done = 1;
    tt_inflater_free(in->gz);
    in->gz = NULL;
    ZSTD_freeDStream(in->zd);
    in->zd = NULL;
    free(in->raw);
    in->raw = NULL;
    in->raw_cap = in->raw_len = in->raw_pos = 0;
}

/* After a gzip member ended: decide whether another member follows. */
static int gzip_next_member(tt_input *in, tt_error *err)
{
    while (in->raw_len - in->raw_pos < 2 && !in->raw_eof)
        if (raw_fill(in, err) < 0)
            return -1;
    if (in->raw_len == in->raw_pos) {
        stream_done(in);
        return 0;
    }
    if (in->raw_len - in->raw_pos >= 2 && in->raw[in->raw_pos] == 0x1f &&
        in->raw[in->raw_pos + 1] == 0x8b) {
        tt_inflater_reset(in->gz);
        in->gz_member_done = 0;
        return 0;
    }
    /* Zero padding after the last member (tape/blocked writers) is fine. */
    for (;;) {
        size_t i;
        for (i = in->raw_pos; i < in->raw_len; i++)
            if (in->raw[i] != 0)
                return tt_error_set(err, TT_ERR_FORMAT,
                                    "unexpected data after the end of the gzip stream");
        in->raw_pos = in->raw_len;
        if (in->raw_eof)
            break;
        if (raw_fill(in, err) < 0)
            return -1;
    }
    stream_done(in);
    return 0;
}

static ssize_t read_gzip(tt_input *in, unsigned char *buf, size_t n, tt_error *err)
{
    size_t produced = 0;
    while (produced == 0 && !in->done) {
        tt_inflate_rc rc;
        size_t used, made;
        const char *msg = NULL;
        if (in->gz_member_done) {
            if (gzip_next_member(in, err))
                return -1;
            continue;
        }
        if (in->raw_pos == in->raw_len && !in->raw_eof)
            if (raw_fill(in, err) < 0)
                return -1;
        rc = tt_inflater_step(in->gz, in->raw + in->raw_pos, in->raw_len - in->raw_pos, &used,
                              buf + produced, n - produced, &made, &msg);
        produced += made;
        in->raw_pos += used;
        if (rc == TT_INFLATE_MEMBER_END) {
            in->gz_member_done = 1;
        } else if (rc == TT_INFLATE_OK) {
            /* all input used, nothing more to give: the stream ends early */
            if (in->raw_eof && in->raw_pos == in->raw_len && produced == 0) {
                in->truncated = 1;
                stream_done(in);
            }
        } else {
            if (produced > 0)
                break;   /* deliver what we have; the error repeats next call */
            if (rc == TT_INFLATE_NOMEM)
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory in %s",
                                    tt_inflater_name()), -1;
            tt_error_set(err, TT_ERR_FORMAT, "corrupt gzip data near byte %lld: %s",
                         (long long)(in->file_pos - (int64_t)(in->raw_len - in->raw_pos)), msg);
            return -1;
        }
    }
    return (ssize_t)produced;
}

static ssize_t read_zstd(tt_input *in, unsigned char *buf, size_t n, tt_error *err)
{
    ZSTD_outBuffer ob = {buf, n, 0};
    while (ob.pos == 0 && !in->done) {
        ZSTD_inBuffer ib;
        size_t rc;
        if (in->raw_pos == in->raw_len) {
            if (in->raw_eof) {
                if (in->zstd_hint != 0)
                    in->truncated = 1;
                stream_done(in);
                break;
            }
            if (raw_fill(in, err) < 0)
                return -1;
            continue;
        }
        ib.src = in->raw;
        ib.size = in->raw_len;
        ib.pos = in->raw_pos;
        rc = ZSTD_decompressStream(in->zd, &ob, &ib);
        in->raw_pos = ib.pos;
        if (ZSTD_isError(rc)) {
            if (ob.pos > 0)
                break;
            tt_error_set(err, TT_ERR_FORMAT, "corrupt zstd data: %s", ZSTD_getErrorName(rc));
            return -1;
        }
        in->zstd_hint = rc;
    }
    return (ssize_t)ob.pos;
}

static ssize_t read_plain(tt_input *in, unsigned char *buf, size_t n, tt_error *err)
{
    size_t have = in->raw_len - in->raw_pos;
    ssize_t got;
    if (have > 0) {
        if (have > n)
            have = n;
        memcpy(buf, in->raw + in->raw_pos, have);
        in->raw_pos += have;
        return (ssize_t)have;
    }
    if (in->raw_eof)
        return 0;
    if (in->fd < 0) {
        size_t k = in->mem_len - in->mem_pos;
        if (k > n)
            k = n;
        memcpy(buf, in->mem + in->mem_pos, k);
        in->mem_pos += k;
        in->file_pos += (int64_t)k;
        if (k == 0)
            in->raw_eof = 1;
        return (ssize_t)k;
    }
    do
        got = read(in->fd, buf, n);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
        tt_error_set(err, TT_ERR_IO, "read error: %s", strerror(errno));
        return -1;
    }
    if (got == 0)
        in->raw_eof = 1;
    in->file_pos += got;
    return got;
}

/* The decompressor: the producer of the readahead thread, or called
 * directly. */
static ssize_t decode_some(void *ctx, unsigned char *buf, size_t n, tt_error *err)
{
    tt_input *in = ctx;
    switch (in->comp) {
    case TT_COMP_GZIP: return read_gzip(in, buf, n, err);
    case TT_COMP_ZSTD: return read_zstd(in, buf, n, err);
    case TT_COMP_NONE: break;
    }
    return read_plain(in, buf, n, err);
}

static int64_t producer_file_pos(void *ctx)
{
    return ((tt_input *)ctx)->file_pos;
}

/* Decompress on a thread of its own? Only compressed data gains (a plain
 * file is read as fast as it is copied), only with another core to run it,
 * and only from a file or memory: a pipe could leave the thread blocked in
 * read() when the caller stops early. */
static int wants_readahead(const tt_input *in)
{
    if (in->readahead >= 0)
        return in->readahead && in->comp != TT_COMP_NONE;
    return in->comp != TT_COMP_NONE && (in->fd < 0 || in->is_regular) &&
           tt_parallel_cores() > 1;
}

static ssize_t decode_on(tt_input *in, unsigned char *buf, size_t n, tt_error *err)
{
    if (!in->ra_decided) {
        in->ra_decided = 1;
        /* when the thread cannot start, decompress here: nothing is lost */
        if (wants_readahead(in))
            in->ra = tt_readahead_start(decode_some, producer_file_pos, in);
    }
    if (in->ra) {
        ssize_t got = tt_readahead_read(in->ra, buf, n, err);
        if (got != -2)
            return got;
        /* halted and drained: the stream goes on here */
        tt_readahead_free(in->ra);
        in->ra = NULL;
    }
    return decode_some(in, buf, n, err);
}

/* decode_on(), an error repeated on every later read: a decompressor
 * is not asked again after it failed (zstd's state after an error is
 * not defined), and a reader who reads on after an error (chrome_chunks.c
 * hands the rest of a stream its thread failed to read to the serial
 * loop) gets the error the first read gave. */
static ssize_t read_decoded(tt_input *in, unsigned char *buf, size_t n, tt_error *err)
{
    ssize_t got;
    if (in->failed) {
        if (err)
            *err = in->fail_err;
        return -1;
    }
    got = decode_on(in, buf, n, err);
    if (got < 0 && err) {
        in->failed = 1;
        in->fail_err = *err;
    }
    return got;
}

void tt_input_set_readahead(tt_input *in, int on)
{
    if (!in->ra_decided)
        in->readahead = on != 0;
    else if (!on && in->ra)
        tt_readahead_halt(in->ra);
}

ssize_t tt_input_read(tt_input *in, void *buf, size_t n, tt_error *err)
{
    ssize_t got;
    if (n == 0)
        return 0;
    if (in->peek_pos < in->peek_len) {
        size_t k = in->peek_len - in->peek_pos;
        if (k > n)
            k = n;
        memcpy(buf, in->peek + in->peek_pos, k);
        in->peek_pos += k;
        return (ssize_t)k;
    }
    got = read_decoded(in, buf, n, err);
    if (got > 0)
        in->data_pos += got;
    return got;
}

int tt_input_read_all(tt_input *in, size_t limit, unsigned char **out, size_t *n,
                      tt_error *err)
{
    size_t len = 0, cap = (size_t)1 << 16;
    unsigned char *buf;
    /* a plain file is read in one go; a pipe or compressed stream grows */
    if (in->comp == TT_COMP_NONE && in->file_size > 0 && (uint64_t)in->file_size < limit)
        cap = (size_t)in->file_size + 1;   /* room to see the end in one read */
    if (cap > limit)
        cap = limit;
    *out = NULL;
    *n = 0;
    /* A big file's buffer on huge pages (util/bigalloc.h): read() copies
     * the whole file into it, and each fresh 4 KiB page of a malloc()'ed
     * one was a fault (a 3.5 MB HugeCTR profile: 850 of its 1950, ~21 us
     * each on a VM). Freed with free() like any other. */
    if (!(buf = tt_bigalloc(cap + 1)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the input"), -1;
    for (;;) {
        ssize_t got;
        if (len == cap) {
            unsigned char *nb;
            if (cap >= limit) {
                /* one more byte tells a file of exactly `limit` bytes apart */
                unsigned char probe;
                got = tt_input_read(in, &probe, 1, err);
                if (got == 0)
                    break;
                free(buf);
                return got < 0 ? -1 : -2;
            }
            cap = cap > limit / 2 ? limit : cap * 2;
            if (!(nb = realloc(buf, cap + 1))) {
                free(buf);
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the input"), -1;
            }
            buf = nb;
        }
        got = tt_input_read(in, buf + len, cap - len, err);
        if (got < 0) {
            free(buf);
            return -1;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
    *out = buf;
    *n = len;
    return 0;
}

int tt_input_peek(tt_input *in, size_t want, const unsigned char **p, size_t *n,
                  tt_error *err)
{
    if (in->peek_pos > 0) {
        memmove(in->peek, in->peek + in->peek_pos, in->peek_len - in->peek_pos);
        in->peek_len -= in->peek_pos;
        in->peek_pos = 0;
    }
    if (want > in->peek_cap) {
        unsigned char *np = realloc(in->peek, want);
        if (!np)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        in->peek = np;
        in->peek_cap = want;
    }
    while (in->peek_len < want) {
        ssize_t got = read_decoded(in, in->peek + in->peek_len, want - in->peek_len, err);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        in->peek_len += (size_t)got;
        in->data_pos += got;
    }
    *p = in->peek;
    /* a peek after a shorter read may hold more than asked for */
    *n = in->peek_len < want ? in->peek_len : want;
    return 0;
}

tt_compression tt_input_compression(const tt_input *in) { return in->comp; }

const char *tt_input_compression_name(const tt_input *in)
{
    switch (in->comp) {
    case TT_COMP_GZIP: return "gzip";
    case TT_COMP_ZSTD: return "zstd";
    case TT_COMP_NONE: break;
    }
    return "none";
}

int64_t tt_input_file_size(const tt_input *in) { return in->file_size; }
/* While the thread runs, file_pos and truncated are its own: the position
 * of the block being read stands in, and truncation is known at the end. */
static int producer_running(const tt_input *in)
{
    return in->ra && !tt_readahead_finished(in->ra);
}

int64_t tt_input_file_pos(const tt_input *in)
{
    return producer_running(in) ? tt_readahead_pos(in->ra) : in->file_pos;
}

int64_t tt_input_data_pos(const tt_input *in) { return in->data_pos; }

int tt_input_truncated(const tt_input *in)
{
    return producer_running(in) ? 0 : in->truncated;
}
const char *tt_input_path(const tt_input *in) { return in->path; }

int tt_input_is_plain_file(const tt_input *in)
{
    return in->is_regular && in->comp == TT_COMP_NONE && in->fd >= 0 &&
           strcmp(in->path, "-") != 0;
}
