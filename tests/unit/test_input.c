/* test_input.c - the decompressing input stream: plain, gzip (multi-member,
 * zero padding, trailing garbage, cut short), zstd (multi-frame, cut
 * short), a directory, a missing file, stdin through a pipe and
 * /dev/stdin, memory buffers, and peek-then-read. The compressed cases run
 * twice: decompressing on the reader's thread and on a thread of its own
 * (readahead), which must give the same bytes, ends and errors; and the
 * thread is stopped cleanly when the reader closes early. Compressed files are
 * made here with zlib and libzstd; every delivered byte is compared with
 * the original data.
 *
 * Temporary files go to a fresh directory under the current directory
 * (the build directory under `make check`) and are removed at the end. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "io/input.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static char tmpdir[64];
static int readahead_mode = -1;   /* tt_input_set_readahead before reading; -1: default */
static char paths[32][128];
static int n_paths;

typedef struct buf {
    unsigned char *p;
    size_t         n, cap;
} buf;

static void buf_add(buf *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

/* Test data: 3 MB of hex-like text, compressible about 2:1, so that the
 * compressed files are larger than the 1 MB read-ahead of input.c. */
static buf make_data(size_t n)
{
    buf b = {0};
    uint64_t x = 0x243f6a8885a308d3ULL;
    b.p = malloc(n);
    b.n = b.cap = n;
    for (size_t i = 0; i < n; i++) {
        tt_xorshift64(&x);
        b.p[i] = (i % 64 == 63) ? '\n' : "0123456789abcdef"[x & 15];
    }
    return b;
}

static buf gzip_of(const unsigned char *p, size_t n)
{
    buf b = {0};
    z_stream s;
    unsigned char out[65536];
    int rc;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    s.next_in = (unsigned char *)p;
    s.avail_in = (uInt)n;
    do {
        s.next_out = out;
        s.avail_out = sizeof out;
        rc = deflate(&s, Z_FINISH);
        buf_add(&b, out, sizeof out - s.avail_out);
    } while (rc == Z_OK);
    deflateEnd(&s);
    return b;
}

static buf zstd_of(const unsigned char *p, size_t n)
{
    buf b = {0};
    b.cap = ZSTD_compressBound(n);
    b.p = malloc(b.cap);
    b.n = ZSTD_compress(b.p, b.cap, p, n, 3);
    return b;
}

static const char *write_file(const char *name, const void *p, size_t n)
{
    char *path = paths[n_paths++];
    FILE *f;
    snprintf(path, sizeof paths[0], "%s/%s", tmpdir, name);
    f = fopen(path, "wb");
    if (n)
        fwrite(p, 1, n, f);
    fclose(f);
    return path;
}

/* Read everything with varying chunk sizes. Returns the last read result
 * (0 at a clean end, -1 on error). */
static ssize_t read_all(tt_input *in, buf *out, tt_error *err)
{
    static const size_t chunks[] = {1, 7, 4096, 65536, 1 << 20, 3};
    unsigned char *tmp = malloc(1 << 20);
    ssize_t got;
    size_t k = 0;
    out->n = 0;
    tt_error_clear(err);
    if (readahead_mode >= 0)
        tt_input_set_readahead(in, readahead_mode);
    for (;;) {
        got = tt_input_read(in, tmp, chunks[k++ % 6], err);
        if (got <= 0)
            break;
        buf_add(out, tmp, (size_t)got);
    }
    free(tmp);
    return got;
}

static bool same(const buf *a, const unsigned char *p, size_t n)
{
    return a->n == n && (n == 0 || memcmp(a->p, p, n) == 0);
}

static bool is_prefix(const buf *a, const unsigned char *p, size_t n)
{
    return a->n <= n && (a->n == 0 || memcmp(a->p, p, a->n) == 0);
}

static void test_plain(const buf *data)
{
    const char *path = write_file("plain.json", data->p, data->n);
    tt_input *in;
    tt_error err;
    buf got = {0};
    if (!ok(tt_input_open(path, &in, &err) == 0, "plain file opens"))
        return;
    is_str(tt_input_compression_name(in), "none", "plain: no compression detected");
    is_i64(tt_input_file_size(in), (int64_t)data->n, "plain: file size");
    is_i64(tt_input_is_plain_file(in), 1, "plain: reopenable by path");
    is_str(tt_input_path(in), path, "plain: path as given");
    ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n), "plain: all bytes, in order");
    is_i64(tt_input_data_pos(in), (int64_t)data->n, "plain: data position at the end");
    is_i64(tt_input_file_pos(in), (int64_t)data->n, "plain: file position at the end");
    is_i64(tt_input_truncated(in), 0, "plain: not truncated");
    is_i64(tt_input_read(in, got.p, 10, &err), 0, "plain: reading past the end gives 0 again");
    tt_input_close(in);

    /* a file that starts like gzip but is not, and a one-byte file */
    path = write_file("almost.gz", "\x1f" "x[]", 4);
    if (tt_input_open(path, &in, &err) == 0) {
        is_str(tt_input_compression_name(in), "none", "0x1f without 0x8b is not gzip");
        ok(read_all(in, &got, &err) == 0 && same(&got, (const unsigned char *)"\x1f" "x[]", 4),
           "its bytes are read as is");
        tt_input_close(in);
    }
    path = write_file("one.json", "[", 1);
    if (tt_input_open(path, &in, &err) == 0) {
        ok(read_all(in, &got, &err) == 0 && same(&got, (const unsigned char *)"[", 1),
           "a one-byte file (shorter than any magic)");
        tt_input_close(in);
    }
    path = write_file("empty.json", "", 0);
    if (ok(tt_input_open(path, &in, &err) == 0, "an empty file opens (the decoder reports it)")) {
        ok(read_all(in, &got, &err) == 0 && got.n == 0, "an empty file reads 0 bytes");
        is_i64(tt_input_truncated(in), 0, "an empty file is not truncated");
        tt_input_close(in);
    }
    free(got.p);
}

static void test_gzip(const buf *data)
{
    buf gz = gzip_of(data->p, data->n), got = {0}, multi = {0}, padded = {0}, junk = {0};
    buf m1 = gzip_of(data->p, data->n / 3), m2 = gzip_of(data->p + data->n / 3, data->n - data->n / 3);
    const char *path;
    tt_input *in;
    tt_error err;
    static const unsigned char zeros[5000];

    ok(gz.n > (1u << 20), "gzip test file is larger than the read-ahead (%zu bytes)", gz.n);
    path = write_file("data.json.gz", gz.p, gz.n);
    if (tt_input_open(path, &in, &err) == 0) {
        is_str(tt_input_compression_name(in), "gzip", "gzip detected from magic bytes");
        is_i64(tt_input_is_plain_file(in), 0, "gzip: not a plain file");
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n), "gzip: all bytes");
        is_i64(tt_input_truncated(in), 0, "gzip: complete stream is not truncated");
        is_i64(tt_input_file_pos(in), (int64_t)gz.n, "gzip: whole file consumed");
        is_i64(tt_input_data_pos(in), (int64_t)data->n, "gzip: decompressed size");
        tt_input_close(in);
    }

    buf_add(&multi, m1.p, m1.n);
    buf_add(&multi, m2.p, m2.n);
    path = write_file("multi.gz", multi.p, multi.n);
    if (tt_input_open(path, &in, &err) == 0) {
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n),
           "gzip: two members read as one stream");
        tt_input_close(in);
    }

    buf_add(&padded, gz.p, gz.n);
    buf_add(&padded, zeros, sizeof zeros);
    path = write_file("padded.gz", padded.p, padded.n);
    if (tt_input_open(path, &in, &err) == 0) {
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n),
           "gzip: zero padding after the last member is ignored");
        is_i64(tt_input_truncated(in), 0, "gzip: zero padding is not truncation");
        tt_input_close(in);
    }

    buf_add(&junk, m1.p, m1.n);
    buf_add(&junk, zeros, 10);
    buf_add(&junk, "junk", 4);
    path = write_file("junk.gz", junk.p, junk.n);
    if (tt_input_open(path, &in, &err) == 0) {
        ssize_t rc = read_all(in, &got, &err);
        ok(rc < 0 && err.code == TT_ERR_FORMAT && strstr(err.what, "after the end of the gzip"),
           "gzip: garbage after the stream is an error: %s", err.what);
        ok(same(&got, data->p, data->n / 3), "gzip: the data before the garbage was delivered");
        tt_input_close(in);
    }
    /* only zero bytes count as padding: a single 0x01 after zeros is junk */
    junk.n = 0;
    buf_add(&junk, m1.p, m1.n);
    buf_add(&junk, zeros, 100);
    buf_add(&junk, "\x01", 1);
    if (tt_input_open_mem(junk.p, junk.n, &in, &err) == 0) {
        ok(read_all(in, &got, &err) < 0 && err.code == TT_ERR_FORMAT,
           "gzip: zeros then a 0x01 byte is not padding: %s", err.what);
        tt_input_close(in);
    }

    /* cut short at several places: deliver a prefix, then end with the
     * truncated flag set and no error */
    {
        static const size_t cuts[] = {3, 10, 11, 1000, 700000, 0};
        int bad = 0;
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
            size_t cut = cuts[i] ? cuts[i] : gz.n - 4;   /* only the size trailer missing */
            if (tt_input_open_mem(gz.p, cut, &in, &err)) {
                bad++;
                continue;
            }
            if (read_all(in, &got, &err) != 0 || !is_prefix(&got, data->p, data->n) ||
                !tt_input_truncated(in)) {
                bad++;
                diag("cut at %zu: %zu bytes, truncated %d, err %s", cut, got.n,
                     tt_input_truncated(in), err.what);
            }
            if (cut == 700000 && got.n < 700000)
                bad++, diag("cut at 700000 delivered only %zu bytes", got.n);
            tt_input_close(in);
        }
        is_i64(bad, 0, "gzip cut short: a prefix of the data, then end with tt_input_truncated");
    }

    /* corrupt deflate data: an error, never silent wrong data past it */
    {
        buf bad = {0};
        buf_add(&bad, gz.p, gz.n);
        for (size_t i = 2000; i < 2100; i++)
            bad.p[i] ^= 0x5a;
        if (tt_input_open_mem(bad.p, bad.n, &in, &err) == 0) {
            ssize_t rc = read_all(in, &got, &err);
            ok(rc < 0 && err.code == TT_ERR_FORMAT, "gzip: corrupt data is a format error: %s",
               err.what);
            tt_input_close(in);
        }
        free(bad.p);
    }
    free(gz.p);
    free(got.p);
    free(multi.p);
    free(padded.p);
    free(junk.p);
    free(m1.p);
    free(m2.p);
}

static void test_zstd(const buf *data)
{
    buf z1 = zstd_of(data->p, data->n / 2), z2 = zstd_of(data->p + data->n / 2, data->n - data->n / 2);
    buf multi = {0}, got = {0};
    tt_input *in;
    tt_error err;
    const char *path;

    buf_add(&multi, z1.p, z1.n);
    buf_add(&multi, z2.p, z2.n);
    path = write_file("data.json.zst", multi.p, multi.n);
    if (tt_input_open(path, &in, &err) == 0) {
        is_str(tt_input_compression_name(in), "zstd", "zstd detected from magic bytes");
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n),
           "zstd: two frames read as one stream");
        is_i64(tt_input_truncated(in), 0, "zstd: complete frames are not truncated");
        tt_input_close(in);
    }
    {
        static const size_t cuts[] = {4, 5, 20, 100000, 0};
        int bad = 0;
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
            size_t cut = cuts[i] ? cuts[i] : multi.n - 1;
            if (tt_input_open_mem(multi.p, cut, &in, &err)) {
                bad++;
                continue;
            }
            if (read_all(in, &got, &err) != 0 || !is_prefix(&got, data->p, data->n) ||
                !tt_input_truncated(in)) {
                bad++;
                diag("zstd cut at %zu: %zu bytes, truncated %d, err %s", cut, got.n,
                     tt_input_truncated(in), err.what);
            }
            tt_input_close(in);
        }
        is_i64(bad, 0, "zstd cut short: a prefix of the data, then end with tt_input_truncated");
    }
    {
        /* cut exactly between the frames: the first frame is complete, so
         * this cannot be told from a one-frame file */
        if (tt_input_open_mem(multi.p, z1.n, &in, &err) == 0) {
            ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n / 2) &&
                   !tt_input_truncated(in), "zstd: a whole first frame alone reads cleanly");
            tt_input_close(in);
        }
    }
    {
        buf bad = {0};
        buf_add(&bad, z1.p, z1.n);
        buf_add(&bad, "garbage!", 8);
        if (tt_input_open_mem(bad.p, bad.n, &in, &err) == 0) {
            ok(read_all(in, &got, &err) < 0 && err.code == TT_ERR_FORMAT,
               "zstd: garbage after a frame is a format error: %s", err.what);
            tt_input_close(in);
        }
        free(bad.p);
    }
    free(z1.p);
    free(z2.p);
    free(multi.p);
    free(got.p);
}

static void test_errors(void)
{
    tt_input *in = (tt_input *)&in;
    tt_error err;
    char missing[160];

    tt_error_clear(&err);
    ok(tt_input_open(tmpdir, &in, &err) != 0 && in == NULL, "a directory is refused");
    ok(err.code == TT_ERR_IO && strstr(err.what, "directory"), "... saying so: %s", err.what);

    snprintf(missing, sizeof missing, "%s/no-such-file.json", tmpdir);
    tt_error_clear(&err);
    ok(tt_input_open(missing, &in, &err) != 0 && in == NULL, "a missing file is refused");
    ok(err.code == TT_ERR_IO && strstr(err.what, "No such file"), "... saying so: %s", err.what);
    tt_input_close(NULL);
    ok(1, "close(NULL) is a no-op");
}

/* Feed data into fd 0 from a child process; returns the child pid. */
static pid_t feed_stdin(const unsigned char *p, size_t n, int *saved)
{
    int fds[2];
    pid_t pid;
    if (pipe(fds))
        return -1;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        while (n > 0) {
            ssize_t w = write(fds[1], p, n);
            if (w <= 0)
                _exit(1);
            p += w;
            n -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    *saved = dup(STDIN_FILENO);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    return pid;
}

static void restore_stdin(pid_t pid, int saved)
{
    int st;
    if (pid <= 0)
        return;
    dup2(saved, STDIN_FILENO);
    close(saved);
    waitpid(pid, &st, 0);
}

static void test_stdin(const buf *data)
{
    buf gz = gzip_of(data->p, data->n), got = {0};
    tt_input *in;
    tt_error err;
    int saved;
    pid_t pid;

    pid = feed_stdin(gz.p, gz.n, &saved);
    if (ok(pid > 0 && tt_input_open("-", &in, &err) == 0, "stdin (\"-\") through a pipe opens")) {
        is_str(tt_input_compression_name(in), "gzip", "stdin: gzip detected on a pipe");
        is_i64(tt_input_file_size(in), -1, "stdin: size unknown on a pipe");
        is_i64(tt_input_is_plain_file(in), 0, "stdin: not reopenable");
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n), "stdin: all bytes");
        tt_input_close(in);
    }
    restore_stdin(pid, saved);

    pid = feed_stdin(data->p, data->n, &saved);
    if (ok(pid > 0 && tt_input_open("/dev/stdin", &in, &err) == 0, "/dev/stdin on a pipe opens")) {
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n), "/dev/stdin: all bytes");
        tt_input_close(in);
    }
    restore_stdin(pid, saved);
    free(gz.p);
    free(got.p);
}

static void test_peek(const buf *data)
{
    buf gz = gzip_of(data->p, data->n), got = {0};
    const char *path = write_file("peek.json", data->p, data->n);
    for (int mode = 0; mode < 2; mode++) {
        const char *what = mode ? "gzip" : "plain";
        tt_input *in;
        tt_error err;
        const unsigned char *p;
        size_t n;
        unsigned char first[5];
        int rc = mode ? tt_input_open_mem(gz.p, gz.n, &in, &err) : tt_input_open(path, &in, &err);
        if (rc)
            continue;
        ok(tt_input_peek(in, 100, &p, &n, &err) == 0 && n == 100 && memcmp(p, data->p, 100) == 0,
           "%s: peek 100 bytes", what);
        ok(tt_input_peek(in, 70000, &p, &n, &err) == 0 && n == 70000 &&
               memcmp(p, data->p, 70000) == 0, "%s: a longer peek still starts at byte 0", what);
        is_i64(tt_input_data_pos(in), 70000, "%s: peeked bytes count as delivered", what);
        ok(tt_input_read(in, first, 5, &err) == 5 && memcmp(first, data->p, 5) == 0,
           "%s: read after peek returns the same first bytes", what);
        ok(tt_input_peek(in, 10, &p, &n, &err) == 0 && n == 10 && memcmp(p, data->p + 5, 10) == 0,
           "%s: peek after a read shows the next unread bytes", what);
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p + 5, data->n - 5),
           "%s: the rest reads once, nothing lost or repeated", what);
        is_i64(tt_input_data_pos(in), (int64_t)data->n, "%s: data position at the end", what);
        tt_input_close(in);
    }
    {
        tt_input *in;
        tt_error err;
        const unsigned char *p;
        size_t n;
        if (tt_input_open_mem("[1]", 3, &in, &err) == 0) {
            ok(tt_input_peek(in, 65536, &p, &n, &err) == 0 && n == 3 && memcmp(p, "[1]", 3) == 0,
               "memory: a peek longer than the data gives what there is");
            ok(read_all(in, &got, &err) == 0 && same(&got, (const unsigned char *)"[1]", 3),
               "memory: then the same bytes read");
            is_str(tt_input_path(in), "<memory>", "memory: path is <memory>");
            tt_input_close(in);
        }
    }
    free(gz.p);
    free(got.p);
}

/* tt_input_read_all: everything in one buffer, NUL after it, the limit. */
static void test_read_all(const buf *data)
{
    const char *plain = write_file("all.json", data->p, data->n);
    buf gz = gzip_of(data->p, data->n);
    const char *zipped = write_file("all.json.gz", gz.p, gz.n);
    const char *const paths_[] = {plain, zipped};
    tt_input *in;
    tt_error err;
    unsigned char *out;
    size_t n;
    for (int k = 0; k < 2; k++) {
        const char *what = k ? "gzip" : "plain";
        tt_error_clear(&err);
        if (!ok(tt_input_open(paths_[k], &in, &err) == 0, "read_all %s: opens", what))
            continue;
        /* the first bytes already peeked are part of the result */
        {
            const unsigned char *p;
            size_t pn;
            tt_input_peek(in, 100, &p, &pn, &err);
        }
        ok(tt_input_read_all(in, (size_t)1 << 30, &out, &n, &err) == 0 && n == data->n &&
               memcmp(out, data->p, n) == 0 && out[n] == '\0',
           "read_all %s: every byte, then a NUL", what);
        free(out);
        tt_input_close(in);
        /* exactly at the limit is fine, one byte over is -2 */
        tt_input_open(paths_[k], &in, &err);
        ok(tt_input_read_all(in, data->n, &out, &n, &err) == 0 && n == data->n,
           "read_all %s: data of exactly the limit", what);
        free(out);
        tt_input_close(in);
        tt_input_open(paths_[k], &in, &err);
        ok(tt_input_read_all(in, data->n - 1, &out, &n, &err) == -2 && out == NULL,
           "read_all %s: one byte over the limit is -2", what);
        tt_input_close(in);
    }
    free(gz.p);
}

/* What the reader sees, whichever thread decompresses: the bytes, the
 * return of the last read, the truncated flag and the error message. */
typedef struct outcome {
    buf     got;
    ssize_t last;
    int     truncated;
    char    what[400];
} outcome;

static void outcome_of(const unsigned char *p, size_t n, int mode, outcome *o)
{
    tt_input *in;
    tt_error err;
    tt_error_clear(&err);
    o->got.n = 0;
    o->last = -2;
    o->truncated = -1;
    o->what[0] = '\0';
    if (tt_input_open_mem(p, n, &in, &err))
        return;
    tt_input_set_readahead(in, mode != 0);
    if (mode == 2) {
        /* halted after the first bytes: the rest on this thread */
        unsigned char first[5000];
        buf rest = {0};
        ssize_t k = tt_input_read(in, first, sizeof first, &err);
        tt_input_set_readahead(in, 0);
        o->last = k < 0 ? k : read_all(in, &rest, &err);
        buf_add(&o->got, first, k > 0 ? (size_t)k : 0);
        if (rest.n)
            buf_add(&o->got, rest.p, rest.n);
        free(rest.p);
    } else {
        o->last = read_all(in, &o->got, &err);
    }
    o->truncated = tt_input_truncated(in);
    snprintf(o->what, sizeof o->what, "%s", o->last < 0 ? err.what : "");
    tt_input_close(in);
}

static bool same_outcome(const outcome *a, const outcome *b)
{
    return a->last == b->last && a->truncated == b->truncated && strcmp(a->what, b->what) == 0 &&
           same(&a->got, b->got.p, b->got.n);
}

static void test_readahead(const buf *data)
{
    buf gz = gzip_of(data->p, data->n), zs = zstd_of(data->p, data->n), bad = {0};
    outcome sync = {0}, thr = {0}, halted = {0};
    tt_input *in;
    tt_error err;
    unsigned char small[100];
    const char *path = write_file("ra.json.gz", gz.p, gz.n);

    /* corrupt, cut short, garbage after: the same message, position and
     * bytes before it on either thread */
    buf_add(&bad, gz.p, gz.n);
    for (size_t i = 900000; i < 900050; i++)
        bad.p[i] ^= 0x33;
    outcome_of(bad.p, bad.n, 0, &sync);
    outcome_of(bad.p, bad.n, 1, &thr);
    ok(sync.last < 0 && strstr(sync.what, "corrupt gzip data near byte"),
       "corrupt gzip deep in the stream: %s", sync.what);
    ok(same_outcome(&thr, &sync), "readahead: the same bytes (%zu) and error as without: %s",
       thr.got.n, thr.what);
    outcome_of(bad.p, bad.n, 2, &halted);
    ok(same_outcome(&halted, &sync), "readahead halted mid-stream: the same bytes and error: %s",
       halted.what);
    outcome_of(gz.p, gz.n, 0, &sync);
    outcome_of(gz.p, gz.n, 2, &halted);
    ok(sync.last == 0 && same_outcome(&halted, &sync),
       "readahead halted mid-stream: all of gzip (%zu bytes), the same", halted.got.n);
    outcome_of(gz.p, gz.n / 2, 0, &sync);
    outcome_of(gz.p, gz.n / 2, 1, &thr);
    ok(sync.truncated == 1 && same_outcome(&thr, &sync),
       "readahead: gzip cut in half, the same prefix (%zu bytes) and truncated", thr.got.n);
    outcome_of(zs.p, zs.n - 3, 0, &sync);
    outcome_of(zs.p, zs.n - 3, 1, &thr);
    ok(sync.truncated == 1 && same_outcome(&thr, &sync),
       "readahead: zstd cut short, the same prefix (%zu bytes) and truncated", thr.got.n);
    outcome_of(zs.p, zs.n - 3, 2, &halted);
    ok(same_outcome(&halted, &sync),
       "readahead halted mid-stream: zstd cut short, the same prefix (%zu bytes) and truncated",
       halted.got.n);
    /* a whole frame, then one whose header sets a reserved bit */
    bad.n = 0;
    buf_add(&bad, zs.p, zs.n);
    buf_add(&bad, "\x28\xb5\x2f\xfd\x08\0\0\0\0\0\0\0", 12);
    outcome_of(bad.p, bad.n, 0, &sync);
    outcome_of(bad.p, bad.n, 1, &thr);
    ok(sync.last < 0 && same_outcome(&thr, &sync), "readahead: corrupt zstd, the same error: %s",
       thr.what);

    /* the reader stops early: close must stop the thread (ASan and
     * helgrind watch for leaks and races) */
    if (tt_input_open(path, &in, &err) == 0) {
        tt_input_set_readahead(in, 1);
        ok(tt_input_read(in, small, sizeof small, &err) == (ssize_t)sizeof small &&
               memcmp(small, data->p, sizeof small) == 0,
           "readahead: the first bytes");
        ok(tt_input_file_pos(in) > 0 && tt_input_file_pos(in) <= (int64_t)gz.n,
           "readahead: the file position while reading is within the file (%lld)",
           (long long)tt_input_file_pos(in));
        is_i64(tt_input_truncated(in), 0, "readahead: not truncated while reading");
        tt_input_close(in);
        ok(1, "readahead: closed after 100 bytes of %zu", data->n);
    }
    if (tt_input_open(path, &in, &err) == 0) {
        tt_input_set_readahead(in, 1);
        tt_input_close(in);
        ok(1, "readahead: closed before the first read");
    }
    if (tt_input_open(path, &in, &err) == 0) {
        buf got = {0};
        tt_input_set_readahead(in, 1);
        ok(read_all(in, &got, &err) == 0 && same(&got, data->p, data->n) &&
               tt_input_file_pos(in) == (int64_t)gz.n && tt_input_data_pos(in) == (int64_t)data->n,
           "readahead from a file: all bytes, the whole file consumed");
        tt_input_set_readahead(in, 0);   /* too late: ignored */
        ok(tt_input_read(in, small, sizeof small, &err) == 0, "readahead: 0 again after the end");
        tt_input_close(in);
        free(got.p);
    }
    free(sync.got.p);
    free(thr.got.p);
    free(halted.got.p);
    free(bad.p);
    free(gz.p);
    free(zs.p);
}

int main(void)
{
    buf data = make_data((size_t)3 << 20);
    snprintf(tmpdir, sizeof tmpdir, "test_input.XXXXXX");
    if (!mkdtemp(tmpdir))
        return tap_skip_all("cannot create a temporary directory here");
    test_plain(&data);
    for (readahead_mode = 0; readahead_mode <= 1; readahead_mode++) {
        diag("decompressing on %s", readahead_mode ? "a thread of its own" : "the reader's thread");
        test_gzip(&data);
        test_zstd(&data);
    }
    readahead_mode = -1;
    test_readahead(&data);
    test_errors();
    test_stdin(&data);
    test_peek(&data);
    test_read_all(&data);
    for (int i = 0; i < n_paths; i++)
        unlink(paths[i]);
    rmdir(tmpdir);
    free(data.p);
    return tap_done();
}
