/* argslazy.c - a snapshot's argument records rebuilt on first read (see
 * argslazy.h).
 *
 * The section is decompressed when the first record is read and its
 * chunk table checked (as the reopen did); the decompressed bytes are
 * kept until every chunk is rebuilt, the compressed ones for the life of
 * the store. The store (model/args.c) calls build() and prefetch() one
 * call at a time, so nothing here needs a lock; prefetch's threads each
 * write only the chunk they rebuild. Prefetch rebuilds chunks exactly as
 * build() does, so the store gets the same parts either way; a chunk it
 * fails on is left to build(), which then gives the same error. A corrupt section stays failed: every
 * later read of a chunk not yet rebuilt gets the same error.
 */
#include "config.h"

#include "snapshot/argslazy.h"

#include "snapshot/argcols.h"
#include "util/parallel.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* as snapshot.c: no zstd frame expands by more than this */
#define ZSTD_MAX_RATIO 44000u

typedef struct lazy {
    const tt_trace   *tr;
    unsigned char    *frame;     /* the section's stored bytes (a copy) */
    size_t            stored;
    uint64_t          raw;
    int64_t           offset;    /* of the section in the file */
    uint32_t          n_args, n_strings;
    tt_argslazy_mark *marks;
    size_t            n_marks;
    unsigned char    *payload;   /* decompressed, while chunks remain */
    tt_argcols_chunk *chunks;
    uint32_t          n_chunks, built;
    tt_args         **ready;     /* per chunk: rebuilt by prefetch, not yet given */
    unsigned char    *given;     /* per chunk: handed to the store */
    bool              failed;
    tt_error          fail;
    unsigned char    *tmpl;      /* the argument templates section (a copy), or NULL */
    tt_argcols_chunk *tchunks;   /* its chunks, their bytes in tmpl */
    uint32_t          n_tchunks;
} lazy;

/* The per-chunk state, once every chunk is in the store or at the end. */
static void lazy_drop_chunks(lazy *z)
{
    if (z->ready)
        for (uint32_t k = 0; k < z->n_chunks; k++)
            tt_args_free(z->ready[k]);
    free(z->payload);
    free(z->chunks);
    free(z->ready);
    free(z->given);
    z->payload = NULL;
    z->chunks = NULL;
    z->ready = NULL;
    z->given = NULL;
}

static void lazy_free(void *ctx)
{
    lazy *z = ctx;
    if (!z)
        return;
    lazy_drop_chunks(z);
    free(z->frame);
    free(z->marks);
    free(z->tmpl);
    free(z->tchunks);
    free(z);
}

/* The section is corrupt: remember why, for this read and every later one. */
static int lazy_bad(lazy *z, const char *what, tt_error *err)
{
    /* found long after the reopen, by a command that may print only the
     * message (after the file's name): it says where itself */
    z->failed = true;
    tt_error_at_offset(&z->fail, TT_ERR_FORMAT, z->offset,
                       "corrupt snapshot: arguments section at byte %lld: %s",
                       (long long)z->offset, what);
    *err = z->fail;
    return -1;
}

static int lazy_oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the snapshot's arguments"), -1;
}

/* Whether the templates section cut the records into the chunks the
 * arguments section holds (a file whose sections disagree is corrupt). */
static bool same_chunks(const lazy *z)
{
    if (z->n_tchunks != z->n_chunks)
        return false;
    for (uint32_t k = 0; k < z->n_chunks; k++)
        if (z->tchunks[k].first != z->chunks[k].first || z->tchunks[k].n != z->chunks[k].n)
            return false;
    return true;
}

/* Decompress the section and read its chunk table. */
static int lazy_open(lazy *z, tt_error *err)
{
    const char *what;
    size_t got;
    int rc;
    if (z->raw > (uint64_t)z->stored * ZSTD_MAX_RATIO + 64 || z->raw > SIZE_MAX - 1)
        return lazy_bad(z, "impossible size", err);
    if (ZSTD_getFrameContentSize(z->frame, z->stored) != z->raw)
        return lazy_bad(z, "size mismatch", err);
    if (!(z->payload = malloc(z->raw ? (size_t)z->raw : 1)))
        return lazy_oom(err);
    got = ZSTD_decompress(z->payload, (size_t)z->raw, z->frame, z->stored);
    if (ZSTD_isError(got) || got != z->raw)
        rc = lazy_bad(z, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "size mismatch", err);
    else if ((rc = tt_argcols_chunks(z->payload, (size_t)z->raw, z->n_args, &z->chunks,
                                     &z->n_chunks, &what)) != 0)
        rc = rc == -1 ? lazy_oom(err) : lazy_bad(z, what, err);
    else if (z->tchunks && !same_chunks(z))
        rc = lazy_bad(z, "chunks other than the argument templates section's", err);
    else if (!(z->ready = calloc(z->n_chunks ? z->n_chunks : 1, sizeof *z->ready)) ||
             !(z->given = calloc(z->n_chunks ? z->n_chunks : 1, 1)))
        rc = lazy_oom(err);
    if (rc) {
        lazy_drop_chunks(z);
        return -1;
    }
    z->built = 0;
    return 0;
}

/* hint[0..n) for records lo .. lo + n - 1: the events that introduce
 * them, found from the last mark at or before lo. 0, or -1 when the
 * events introduce fewer (they never do once they have been checked). */
static int lazy_hints(const lazy *z, uint32_t lo, uint32_t n, tt_argcols_hint *hint)
{
    const tt_trace *tr = z->tr;
    size_t a = 0, b = z->n_marks, i;
    uint32_t next, hi = lo + n, l;
    /* the last mark with arg <= lo (the first mark is at 1) */
    while (b - a > 1) {
        size_t mid = a + (b - a) / 2;
        if (z->marks[mid].arg <= lo)
            a = mid;
        else
            b = mid;
    }
    next = z->marks[a].arg;
    l = z->marks[a].lane;
    i = z->marks[a].idx;
    for (; l < tr->n_lanes && next < hi; l++, i = 0) {
        const tt_lane *ln = &tr->lanes[l];
        for (; i < ln->n && next < hi; i++)
            if (ln->ev[i].args == next) {
                if (next >= lo) {
                    hint[next - lo].corr = ln->ev[i].corr;
                    hint[next - lo].name = ln->ev[i].name;
                }
                next++;
            }
    }
    return next == hi ? 0 : -1;
}

/* Rebuild chunk k into *out: 0, -1 out of memory, -2 with *what (a
 * static string) when the chunk is corrupt. Touches nothing of z but
 * reads, so chunks rebuild on several threads at once. */
static int lazy_rebuild(const lazy *z, uint32_t k, tt_args **out, const char **what)
{
    const tt_argcols_chunk *c = &z->chunks[k];
    tt_argcols_hint *hint = malloc((size_t)(c->n ? c->n : 1) * sizeof *hint);
    tt_args *s = tt_args_new();
    int rc;
    *out = NULL;
    if (!hint || !s) {
        free(hint);
        tt_args_free(s);
        return -1;
    }
    if (lazy_hints(z, c->first + 1, c->n, hint)) {
        free(hint);
        tt_args_free(s);
        *what = "records no event introduces";
        return -2;
    }
    rc = tt_argcols_decode_chunk(z->payload, c, hint, z->n_strings, s, what);
    free(hint);
    if (rc) {
        tt_args_free(s);
        return rc == -1 ? -1 : -2;
    }
    *out = s;
    return 0;
}

static int lazy_build(void *ctx, uint32_t handle, tt_args **part, uint32_t *first, uint32_t *n,
                      tt_error *err)
{
    lazy *z = ctx;
    const tt_argcols_chunk *c;
    tt_args *s;
    const char *what = "?";
    uint32_t a = 0, b;
    int rc;
    if (z->failed) {
        *err = z->fail;
        return -1;
    }
    if (!z->payload && lazy_open(z, err))
        return -1;
    /* the chunk of record handle - 1 (positions from 0) */
    b = z->n_chunks;
    while (b - a > 1) {
        uint32_t mid = a + (b - a) / 2;
        if (z->chunks[mid].first <= handle - 1)
            a = mid;
        else
            b = mid;
    }
    c = &z->chunks[a];
    if (handle == 0 || handle - 1 - c->first >= c->n)
        return lazy_bad(z, "no chunk holds a record", err);
    if (z->ready[a]) {
        /* prefetched */
        s = z->ready[a];
        z->ready[a] = NULL;
    } else if ((rc = lazy_rebuild(z, a, &s, &what)) != 0) {
        return rc == -1 ? lazy_oom(err) : lazy_bad(z, what, err);
    }
    z->given[a] = 1;
    *part = s;
    *first = c->first + 1;
    *n = c->n;
    if (++z->built == z->n_chunks)
        lazy_drop_chunks(z);   /* every record is in the store now */
    return 0;
}

/* Prefetch: the chunks to rebuild, one job each. */
typedef struct prefetch_job {
    lazy     *z;
    uint32_t *todo;
} prefetch_job;

static void prefetch_run(void *ctx, size_t job)
{
    prefetch_job *j = ctx;
    uint32_t k = j->todo[job];
    const char *what;
    /* a chunk that fails stays not ready: build() fails on it as before */
    if (lazy_rebuild(j->z, k, &j->z->ready[k], &what))
        j->z->ready[k] = NULL;
}

static void lazy_prefetch(void *ctx, const uint32_t *handles, size_t n, unsigned threads)
{
    lazy *z = ctx;
    prefetch_job j;
    uint32_t n_todo = 0, k = 0;
    tt_error ignored;
    if (z->failed || (!z->payload && (z->built > 0 || lazy_open(z, &ignored))))
        return;   /* failed, every chunk given, or left to build() to fail */
    if (!(j.todo = malloc((size_t)(z->n_chunks ? z->n_chunks : 1) * sizeof *j.todo)))
        return;
    /* the chunks of the handles, in order (both ascend) */
    for (size_t i = 0; i < n && k < z->n_chunks; i++) {
        uint32_t pos = handles[i] - 1;
        if (handles[i] == 0)
            continue;
        while (k < z->n_chunks && pos - z->chunks[k].first >= z->chunks[k].n &&
               pos >= z->chunks[k].first)
            k++;
        if (k == z->n_chunks || pos < z->chunks[k].first)
            continue;   /* below the chunk: not ascending; no chunk holds it */
        if (!z->given[k] && !z->ready[k] && (n_todo == 0 || j.todo[n_todo - 1] != k))
            j.todo[n_todo++] = k;
    }
    j.z = z;
    if (threads == 0)
        threads = tt_parallel_cores();
    /* as tt_argcols_decode: no more than 8 threads */
    tt_parallel_run(n_todo, threads < 8 ? threads : 8, prefetch_run, &j);
    free(j.todo);
}

/* Filter: the chunks of the handles not yet handed to the store, told
 * from their templates (argcols.h). A chunk given or prefetched is
 * rebuilt already: its records stay "may hold" and are read. */
static int lazy_filter(void *ctx, const uint32_t *handles, size_t n, const char *const *needles,
                       size_t n_needles, unsigned char *maybe, tt_error *err)
{
    lazy *z = ctx;
    const tt_argcols_chunk *ch;
    uint32_t k = 0, nch;
    int says = 1;   /* of chunk k, once told */
    bool told = false, opened;
    if (z->failed) {
        *err = z->fail;
        return -1;
    }
    if (!z->payload && z->built > 0)
        return 0;   /* every chunk is in the store */
    /* nothing rebuilt yet: the templates section answers without opening
     * the arguments section; else the arguments section's own chunks */
    opened = z->payload || !z->tchunks;
    if (!z->payload && !z->tchunks && lazy_open(z, err))
        return -1;
    ch = opened ? z->chunks : z->tchunks;
    nch = opened ? z->n_chunks : z->n_tchunks;
    /* the chunks of the handles, in order (both ascend) */
    for (size_t i = 0; i < n; i++) {
        uint32_t pos = handles[i] - 1;
        if (handles[i] == 0)
            continue;
        while (k < nch && pos >= ch[k].first && pos - ch[k].first >= ch[k].n) {
            k++;
            told = false;
        }
        if (k == nch || pos < ch[k].first)
            continue;   /* not ascending, or no chunk holds it: read() fails it */
        if (opened && (z->given[k] || z->ready[k]))
            continue;
        if (!told) {
            const unsigned char *t = z->tmpl ? z->tmpl + ch[k].off : NULL;
            size_t tlen = ch[k].len;
            const char *what;
            if (opened && tt_argcols_chunk_templates(z->payload, &ch[k], &t, &tlen, &what))
                return lazy_bad(z, what, err);
            says = tt_argcols_templates_may_hold(t, tlen, needles, n_needles);
            told = true;
        }
        if (!says)
            maybe[i] = 0;
    }
    return 0;
}

static const tt_args_source lazy_source = {
    .build = lazy_build,
    .free = lazy_free,
    .prefetch = lazy_prefetch,
    .filter = lazy_filter,
};

int tt_argslazy_attach(tt_trace *tr, const unsigned char *frame, size_t stored, uint64_t raw,
                       int64_t offset, uint32_t n_args, uint32_t n_strings,
                       const tt_argslazy_mark *marks, size_t n_marks,
                       const unsigned char *tmpl, size_t tmpl_len, tt_argcols_chunk *tchunks,
                       uint32_t n_tchunks, tt_error *err)
{
    lazy *z = calloc(1, sizeof *z);
    if (!z || n_marks == 0 || marks[0].arg != 1) {
        free(z);
        free(tchunks);
        return z ? tt_error_set(err, TT_ERR_USAGE, "argument marks must start at record 1"), -1
                 : lazy_oom(err);
    }
    z->tr = tr;
    z->stored = stored;
    z->raw = raw;
    z->offset = offset;
    z->n_args = n_args;
    z->n_strings = n_strings;
    z->n_marks = n_marks;
    z->frame = malloc(stored ? stored : 1);
    z->marks = malloc(n_marks * sizeof *z->marks);
    z->tchunks = tchunks;
    z->n_tchunks = n_tchunks;
    if (tchunks && (z->tmpl = malloc(tmpl_len ? tmpl_len : 1)) != NULL)
        memcpy(z->tmpl, tmpl, tmpl_len);
    if (!z->frame || !z->marks || (tchunks && !z->tmpl)) {
        lazy_free(z);
        return lazy_oom(err);
    }
    memcpy(z->frame, frame, stored);
    memcpy(z->marks, marks, n_marks * sizeof *marks);
    if (tt_args_set_source(tr->args, n_args, &lazy_source, z))
        return lazy_oom(err);
    return 0;
}
