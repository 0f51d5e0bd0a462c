/* chrome_chunks.c - the Chrome events array decoded in parallel chunks
 * (see chrome_chunks.h for the scheme).
 *
 * The calling thread cuts chunks and merges them; worker threads decode
 * them. A plain file is mapped and cut in place; any other input (gzip,
 * zstd, a pipe) is read through the load's input into chunk buffers by a
 * cutter thread, which decompresses while the workers parse and the
 * calling thread merges (see cutter()). Where the
 * parallel part ends, the serial loop of chrome.c goes on: over the rest
 * of the mapping, or over the data read but not merged followed by the
 * rest of the input; its line numbers come from the workers' newline
 * counts. Reading a mapped file through the input as well would copy it
 * once more on the merging thread (perf: 8% of the 1M-event load's
 * cycles). At most `ahead` chunks are cut beyond the merge: memory is the
 * finished trace plus a few chunks, and the pages of merged chunks are
 * released from the mapping.
 */
#include "config.h"

#include "decode/chrome_chunks.h"

#include "model/merge.h"
#include "util/memkeep.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* 4 MB chunks: about 15k Kineto events, long enough that the per-chunk
 * costs (a fragment trace, the merge's string remap) stay small, short
 * enough for the last chunk's wait and the memory in flight to be small. */
#define CHUNK_BYTES ((size_t)4 << 20)
#define MAX_WORKERS 16
/* A chunk is cut at most this many chunk lengths long: past that without
 * an event boundary (a huge event, or megabytes of whitespace), the rest
 * goes to the serial loop, which streams whitespace and knows the limits
 * of one value (tests/cli/input_limits.sh). */
#define MAX_GROW 4
/* A stream's chunks cut beyond one per worker (see chrome_chunks_run). */
#define STREAM_SPARE 2
/* ... and beyond those, by a stream's cutter thread, so that it goes on
 * decompressing while the merge takes a chunk (see cutter()) */
#define CUT_SLACK 2

typedef enum slot_state { SLOT_FREE, SLOT_READY, SLOT_TAKEN, SLOT_DONE } slot_state;

typedef struct slot {
    const char   *data;      /* the chunk: in the mapping, or `owned` */
    char         *owned;
    size_t        len;
    int64_t       base;      /* stream offset of data[0] */
    bool          more;      /* data follows */
    chrome_chunk *chunk;     /* decoded; NULL: out of memory */
    uint64_t      newlines;  /* in data[0..where it stopped) */
    int64_t       last_nl;   /* stream offset after the last of them, -1 none */
    int64_t       file_pos;  /* a stream's: the input's position once it was cut */
    slot_state    state;
} slot;

typedef struct driver {
    /* the data: a mapping, or the load's input */
    const char         *map;
    size_t              map_size;
    tt_input           *in;
    chrome             *c;
    char               *carry;      /* stream: read, not yet in a chunk */
    size_t              carry_len, carry_cap;
    int64_t             next_base;  /* stream offset of the next chunk */
    bool                in_eof;
    bool                cut_all;    /* the last chunk is cut */
    size_t              chunk;      /* nominal chunk length */
    char               *pool;       /* a stream's chunk buffers: one mapping */
    size_t              pool_len;   /* of ring + 1 of bufsz (see pool_init) */
    size_t              bufsz;      /* chunk + chunk / 8 */
    char              **spare;      /* the pool's buffers not in use; under mu */
    size_t              n_spare;

    const tt_load_opts *opts;
    slot               *slots;      /* ring of `ring` */
    size_t              ahead;      /* chunks cut beyond the merge, as it sees them */
    size_t              ring;       /* ahead, and a stream's cutter's slack */
    size_t              cut, merged;   /* chunks cut / merged so far */
    pthread_mutex_t     mu;
    pthread_cond_t      work;       /* a chunk is ready, or stop */
    pthread_cond_t      done;       /* a chunk is decoded */
    bool                stop;

    /* a stream's cutter thread (see cutter()); under mu */
    pthread_cond_t      cut_cv;     /* a chunk is cut, or the cutter left */
    pthread_cond_t      room;       /* a chunk is merged, or stop_cut */
    bool                cutting;    /* it was started (not under mu) */
    bool                stop_cut;
    bool                cut_left;   /* it left: the carry and the input are ours again */
    bool                cut_failed; /* ... reading the input: cut_err */
    size_t              fail_at;    /* the chunk it failed to cut */
    int64_t             end_pos;    /* the input's position when it left */
    tt_error            cut_err;
} driver;

static bool is_ws(char ch)
{
    return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* A plausible event start in data[from, n): a '{' after '}' and ','
 * (whitespace allowed between). It may lie inside a string or nested
 * arguments; the chunk before it says whether it was right. */
static bool guess_event_start(const char *data, size_t n, size_t from, size_t *out)
{
    const char *p = data + from, *end = data + n;
    while (p < end && (p = memchr(p, ',', (size_t)(end - p))) != NULL) {
        const char *b = p, *f = p + 1;
        while (b > data && is_ws(b[-1]))
            b--;
        while (f < end && is_ws(*f))
            f++;
        if (b > data && b[-1] == '}' && f < end && *f == '{') {
            *out = (size_t)(f - data);
            return true;
        }
        p++;
    }
    return false;
}

/* Newlines in p[0..n), and the offset after the last one (-1: none). */
static uint64_t count_newlines(const char *p, size_t n, int64_t *last)
{
    uint64_t count = 0;
    size_t i = 0;
    const char *nl;
#ifdef __SSE2__
    /* byte counters (a match is -1, subtracted), summed every 255 blocks:
     * no popcount, which without -mpopcnt is a libgcc call (perf: 2.8% of
     * a 1M-event summary) */
    const __m128i want = _mm_set1_epi8('\n');
    while (n - i >= 16) {
        __m128i acc = _mm_setzero_si128();
        size_t stop = n - i >= 255 * 16 ? i + 255 * 16 : i + (n - i) / 16 * 16;
        for (; i < stop; i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)),
                                                   want));
        acc = _mm_sad_epu8(acc, _mm_setzero_si128());
        count += (uint64_t)_mm_cvtsi128_si32(acc) + (uint64_t)_mm_extract_epi16(acc, 4);
    }
#endif
    for (; i < n; i++)
        count += p[i] == '\n';
    nl = count ? memrchr(p, '\n', n) : NULL;
    *last = nl ? (int64_t)(nl + 1 - p) : -1;
    return count;
}

/* Decode one chunk's text and, for a stream, count its newlines up to
 * where it stopped. A mapped file's are not counted: the serial loop
 * counts them from the mapping when a message needs a position
 * (chrome_window_switch). */
static chrome_chunk *decode_text(const char *data, size_t len, bool more, int64_t base,
                                 const tt_load_opts *opts, bool count, uint64_t *newlines,
                                 int64_t *last_nl)
{
    chrome_chunk *k = chrome_chunk_decode(data, len, more, opts);
    size_t end;
    bool at_limit, any;
    *newlines = 0;
    *last_nl = -1;
    if (k && count) {
        chrome_chunk_end(k, &end, &at_limit, &any, NULL);
        *newlines = count_newlines(data, end, last_nl);
        if (*last_nl >= 0)
            *last_nl += base;
    }
    return k;
}

/* Release the mapped pages inside [p, p + n) from the process's memory
 * (they stay in the page cache, and are read back if touched again). */
static void drop_pages(const char *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)p + page - 1) / page * page;
    uintptr_t to = ((uintptr_t)p + n) / page * page;
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}

static void *worker(void *arg)
{
    driver *d = arg;
    /* this thread's fragments start their lanes in merged ones' arrays */
    tt_merge_pool_thread(true);
    pthread_mutex_lock(&d->mu);
    for (;;) {
        slot *s = NULL;
        /* the oldest chunk ready, so the merge waits least */
        for (size_t i = d->merged; i < d->cut; i++)
            if (d->slots[i % d->ring].state == SLOT_READY) {
                s = &d->slots[i % d->ring];
                break;
            }
        if (d->stop)
            break;
        if (!s) {
            pthread_cond_wait(&d->work, &d->mu);
            continue;
        }
        s->state = SLOT_TAKEN;
        pthread_mutex_unlock(&d->mu);
        s->chunk = decode_text(s->data, s->len, s->more, s->base, d->opts, !d->map,
                               &s->newlines, &s->last_nl);
        if (d->map)
            drop_pages(s->data, s->len);   /* read again only to join a wrong guess */
        pthread_mutex_lock(&d->mu);
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&d->done);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* ------------------------------------------------------------- cutting */

/* The next chunk of the mapping into s; false when there is none to cut
 * (the rest is the serial loop's). */
static bool cut_mapped(driver *d, slot *s)
{
    size_t from = (size_t)d->next_base, rest = d->map_size - from, to;
    s->data = d->map + from;
    s->owned = NULL;
    s->base = d->next_base;
    if (rest > d->chunk &&
        guess_event_start(d->map, from + (rest < MAX_GROW * d->chunk ? rest : MAX_GROW * d->chunk),
                          from + d->chunk, &to)) {
        s->len = to - from;
        s->more = true;
    } else if (rest <= MAX_GROW * d->chunk) {
        s->len = rest;
        s->more = false;
        d->cut_all = true;
    } else {
        d->cut_all = true;
        return false;
    }
    d->next_base += (int64_t)s->len;
    return true;
}

static bool in_pool(const driver *d, const char *p)
{
    return d->pool && p >= d->pool && p < d->pool + d->pool_len;
}

/* A chunk buffer no longer needed: the pool's back to it, others freed.
 * Once the threads may run (mu). */
static void give_back(driver *d, char *p)
{
    if (!in_pool(d, p)) {
        free(p);
        return;
    }
    pthread_mutex_lock(&d->mu);
    d->spare[d->n_spare++] = p;
    pthread_mutex_unlock(&d->mu);
}

static int carry_reserve(driver *d, size_t n)
{
    char *nb;
    size_t nc = d->carry_cap ? d->carry_cap : d->chunk;
    if (n <= d->carry_cap)
        return 0;
    while (nc < n)
        nc *= 2;
    if (in_pool(d, d->carry)) {
        /* a pool buffer does not grow: longer than usual, this one
         * is the heap's */
        if (!(nb = malloc(nc)))
            return -1;
        memcpy(nb, d->carry, d->carry_len);
        give_back(d, d->carry);
    } else if (!(nb = realloc(d->carry, nc))) {
        return -1;
    }
    d->carry = nb;
    d->carry_cap = nc;
    return 0;
}

/* Read until the carry holds n bytes or the input ends. */
static int carry_fill(driver *d, size_t n, tt_error *err)
{
    if (carry_reserve(d, n))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    while (d->carry_len < n && !d->in_eof) {
        ssize_t got = tt_input_read(d->in, d->carry + d->carry_len, n - d->carry_len, err);
        if (got < 0)
            return -1;
        if (got == 0)
            d->in_eof = true;
        d->carry_len += (size_t)got;
    }
    return 0;
}

/* The next chunk of the input into s: the carry up to a guessed event
 * start, the rest carried to the next one. *cut false: none to cut, the
 * carry is the serial loop's. 0, or -1 (err set). */
static int cut_streamed(driver *d, slot *s, bool *cut, tt_error *err)
{
    /* first a little past the chunk's length, where the next event
     * usually starts within a few hundred bytes: what is read past that
     * start is copied into the next chunk's buffer (an eighth of a chunk
     * read past it was 12% of the data copied twice); then, as before,
     * growing from an eighth past */
    size_t grow = d->chunk + d->chunk / 8, edge = d->chunk / 8 < 4096 ? d->chunk / 8 : 4096;
    size_t want = d->chunk + edge, from = d->chunk, to = 0;
    bool found = false;
    *cut = false;
    for (;;) {
        if (carry_fill(d, want, err))
            return -1;
        if (d->carry_len > from &&
            (found = guess_event_start(d->carry, d->carry_len, from, &to)))
            break;
        if (d->in_eof || want >= MAX_GROW * d->chunk)
            break;
        from = d->carry_len > 64 ? d->carry_len - 64 : 0;
        want = want < grow ? 2 * grow : want * 2;
    }
    if (!found && !d->in_eof) {
        d->cut_all = true;
        return 0;
    }
    s->base = d->next_base;
    s->owned = d->carry;
    s->data = d->carry;
    if (found) {
        /* the rest starts the next chunk */
        size_t left = d->carry_len - to, cap = d->bufsz;
        char *rest = NULL;
        pthread_mutex_lock(&d->mu);   /* the merge gives buffers back */
        if (left <= cap && d->n_spare)
            rest = d->spare[--d->n_spare];
        pthread_mutex_unlock(&d->mu);
        if (!rest)
            rest = malloc(cap > left ? cap : left);
        if (!rest)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        memcpy(rest, d->carry + to, left);
        s->len = to;
        s->more = true;
        d->carry = rest;
        d->carry_len = left;
        d->carry_cap = cap > left ? cap : left;
    } else {
        s->len = d->carry_len;   /* the last chunk */
        s->more = false;
        d->carry = NULL;
        d->carry_len = d->carry_cap = 0;
        d->cut_all = true;
    }
    d->next_base += (int64_t)s->len;
    *cut = true;
    return 0;
}

/* Cut chunks while there is room ahead of the merge. 0, or -1. */
static int cut_more(driver *d, tt_error *err)
{
    while (!d->cut_all && d->cut < d->merged + d->ahead) {
        slot *s = &d->slots[d->cut % d->ring];
        slot fresh;
        bool cut;
        memset(&fresh, 0, sizeof fresh);
        if (d->map)
            cut = cut_mapped(d, &fresh);
        else if (cut_streamed(d, &fresh, &cut, err))
            return -1;
        if (!cut)
            break;
        fresh.state = SLOT_READY;
        pthread_mutex_lock(&d->mu);
        *s = fresh;
        d->cut++;
        pthread_cond_broadcast(&d->work);
        pthread_mutex_unlock(&d->mu);
    }
    return 0;
}

/* A stream's cutter: decompresses and cuts chunks on a thread of its own,
 * up to `ring` chunks beyond the merge. On the merging thread, as the
 * chunks' own decompression, it was the load's critical path: that thread
 * decompressed, merged and waited in turn, and shared the two cores with
 * two workers, which then waited for chunks (1M events in zstd: each
 * worker idle 1.1 s of 1.6). The merge still sees exactly what it saw
 * when it cut for itself: it waits until the cutter is `ahead` chunks
 * beyond it, and a read error counts once the chunk it stopped is within
 * those (merge_all), so errors and their order do not change. While it
 * runs, the carry, next_base, in_eof, cut_all and the input are its own. */
static void *cutter(void *arg)
{
    driver *d = arg;
    tt_error err;
    tt_error_clear(&err);
    pthread_mutex_lock(&d->mu);
    for (;;) {
        slot fresh;
        bool cut;
        int rc;
        while (!d->stop_cut && !d->cut_all && d->cut >= d->merged + d->ring)
            pthread_cond_wait(&d->room, &d->mu);
        if (d->stop_cut || d->cut_all)
            break;
        pthread_mutex_unlock(&d->mu);
        memset(&fresh, 0, sizeof fresh);
        rc = cut_streamed(d, &fresh, &cut, &err);
        fresh.file_pos = tt_input_file_pos(d->in);
        pthread_mutex_lock(&d->mu);
        if (rc) {
            d->cut_failed = true;
            d->fail_at = d->cut;
            d->cut_err = err;
            break;
        }
        if (!cut)
            break;
        fresh.state = SLOT_READY;
        d->slots[d->cut % d->ring] = fresh;
        d->cut++;
        pthread_cond_broadcast(&d->work);
        pthread_cond_broadcast(&d->cut_cv);
    }
    d->end_pos = tt_input_file_pos(d->in);
    d->cut_left = true;
    pthread_cond_broadcast(&d->cut_cv);
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* Wait until the cutter is as far beyond merged as cut_more() would have
 * cut. *cut the chunks cut then, *pos the input's position after the
 * last of those. 0, or -1 with its read error when cut_more() would have
 * met it by now. */
static int await_cutter(driver *d, size_t *cut, int64_t *pos, tt_error *err)
{
    size_t want;
    pthread_mutex_lock(&d->mu);
    want = d->merged + d->ahead;
    while (!d->cut_left && d->cut < want)
        pthread_cond_wait(&d->cut_cv, &d->mu);
    if (d->cut_failed && d->fail_at < want) {
        *err = d->cut_err;
        pthread_mutex_unlock(&d->mu);
        return -1;
    }
    *cut = d->cut < want ? d->cut : want;
    *pos = d->cut < want ? d->end_pos : d->slots[(want - 1) % d->ring].file_pos;
    pthread_mutex_unlock(&d->mu);
    return 0;
}

/* ------------------------------------------------------------- merging */

/* Free what s holds (a pool buffer goes with the pool). */
static void release(driver *d, slot *s)
{
    chrome_chunk_free(s->chunk);
    if (!in_pool(d, s->owned))
        free(s->owned);
    memset(s, 0, sizeof *s);
}

/* release() of a merged chunk, its buffer back to the pool */
static void recycle(driver *d, slot *s)
{
    if (in_pool(d, s->owned)) {
        give_back(d, s->owned);
        s->owned = NULL;
    }
    release(d, s);
}

/* Where the serial loop takes over. */
typedef struct handover {
    int64_t  at;          /* stream offset */
    bool     need_comma;
    uint64_t newlines;    /* from the array's start to `at` */
    int64_t  last_nl;     /* offset after the last of them, -1 none */
} handover;

/* A chunk that did not end at its end (its successor's start was a wrong
 * guess, or something is wrong there) joined with the next one, so that
 * it is decoded again from its last complete event. */
static int join_next(driver *d, slot *s, size_t from, tt_error *err)
{
    /* a chunk stopped inside an event: the event starts the next one */
    slot *next = &d->slots[(d->merged + 1) % d->ring];
    char *joined;
    size_t rest = s->len - from;
    pthread_mutex_lock(&d->mu);
    while (next->state == SLOT_TAKEN)   /* a worker is decoding it: let it finish */
        pthread_cond_wait(&d->done, &d->mu);
    next->state = SLOT_TAKEN;           /* the merge's own now */
    pthread_mutex_unlock(&d->mu);
    if (!(joined = malloc(rest + next->len)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    memcpy(joined, s->data + from, rest);
    memcpy(joined + rest, next->data, next->len);
    chrome_chunk_free(next->chunk);
    give_back(d, next->owned);
    next->owned = joined;
    next->data = joined;
    next->len += rest;
    next->base = s->base + (int64_t)from;
    /* decoded right here: the workers have moved on */
    next->chunk = decode_text(next->data, next->len, next->more, next->base, d->opts, !d->map,
                              &next->newlines, &next->last_nl);
    pthread_mutex_lock(&d->mu);
    next->state = SLOT_DONE;
    pthread_mutex_unlock(&d->mu);
    return 0;
}

/* Merge the chunks in order until one does not end at its end. 0 with *h
 * set, or -1. */
static int merge_all(driver *d, handover *h, tt_error *err)
{
    bool joined_last = false;
    h->newlines = 0;
    h->last_nl = -1;
    h->at = 0;
    h->need_comma = false;
    for (;;) {
        slot *s = &d->slots[d->merged % d->ring];
        chrome_chunk *k;
        size_t end, in_event, cut;
        int64_t pos = 0;
        bool at_limit, any;
        if (d->cutting) {
            if (await_cutter(d, &cut, &pos, err))
                return -1;
        } else {
            if (cut_more(d, err))
                return -1;
            cut = d->cut;
            if (!d->map)
                pos = tt_input_file_pos(d->in);
        }
        if (d->merged == cut) {
            /* no chunk could be cut here: the serial loop goes on after
             * the last one (it ended after a comma; the cutter has left) */
            h->at = d->next_base;
            h->need_comma = false;
            return 0;
        }
        pthread_mutex_lock(&d->mu);
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&d->done, &d->mu);
        k = s->chunk;
        s->chunk = NULL;
        pthread_mutex_unlock(&d->mu);
        if (!k)
            return chrome_chunk_merge(d->c, NULL, 0);   /* says out of memory */
        chrome_chunk_end(k, &end, &at_limit, &any, &in_event);
        if (chrome_chunk_merge(d->c, k, s->base))
            return -1;
        h->newlines += s->newlines;
        if (s->last_nl >= 0)
            h->last_nl = s->last_nl;
        chrome_progress(d->c, d->map ? s->base + (int64_t)end : pos, s->base + (int64_t)end);
        if (!at_limit && in_event != SIZE_MAX && !joined_last && d->merged + 1 < cut) {
            /* it stopped inside an event: maybe the next chunk's start was
             * a wrong guess; once more from that event, joined with the
             * next chunk (the newlines skipped up to it counted here) */
            if (!d->map) {
                int64_t last;
                uint64_t nl = count_newlines(s->data + end, in_event - end, &last);
                h->newlines += nl;
                if (last >= 0)
                    h->last_nl = s->base + (int64_t)end + last;
            }
            if (join_next(d, s, in_event, err))
                return -1;
            joined_last = true;
            recycle(d, s);
            pthread_mutex_lock(&d->mu);
            d->merged++;
            pthread_cond_signal(&d->room);
            pthread_mutex_unlock(&d->mu);
            continue;
        }
        if (!at_limit) {
            /* the array's end, or something for the serial loop to judge */
            h->at = s->base + (int64_t)end;
            h->need_comma = any;
            /* s stays: its rest is handed over with the chunks after it */
            return 0;
        }
        joined_last = false;
        recycle(d, s);
        pthread_mutex_lock(&d->mu);
        d->merged++;
        pthread_cond_signal(&d->room);
        pthread_mutex_unlock(&d->mu);
    }
}

/* The data cut but not merged, from h->at on, then the carry: what the
 * serial loop reads before the rest of the input. */
static int pending_data(driver *d, const handover *h, char **out, size_t *n, tt_error *err)
{
    size_t total = d->carry_len, at = 0;
    char *buf;
    for (size_t i = d->merged; i < d->cut; i++) {
        slot *s = &d->slots[i % d->ring];
        total += s->len - (i == d->merged ? (size_t)(h->at - s->base) : 0);
    }
    if (!(buf = malloc(total ? total : 1)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    for (size_t i = d->merged; i < d->cut; i++) {
        slot *s = &d->slots[i % d->ring];
        size_t skip = i == d->merged ? (size_t)(h->at - s->base) : 0;
        memcpy(buf + at, s->data + skip, s->len - skip);
        at += s->len - skip;
    }
    if (d->carry_len)
        memcpy(buf + at, d->carry, d->carry_len);
    *out = buf;
    *n = total;
    return 0;
}

/* ------------------------------------------------------------- driving */

/* Chunk length: CHUNK_BYTES, or for tests TRACETTY_CHROME_CHUNK_BYTES
 * (tiny chunks put chunk boundaries everywhere in a small trace). */
static size_t chunk_bytes(void)
{
    const char *env = getenv("TRACETTY_CHROME_CHUNK_BYTES");
    if (env && *env) {
        char *endp;
        unsigned long long v = strtoull(env, &endp, 10);
        if (*endp == '\0' && v >= 16)
            return (size_t)v;
    }
    return CHUNK_BYTES;
}

/* A stream's chunk buffers, one for each slot and one for the carry,
 * taken in turn and given back as their chunks are merged: one mapping
 * of their own, outside malloc's arenas, so that their pages are faulted
 * in once, not for each chunk, and leave nothing behind in the arenas of
 * the threads that used them (the peak memory of a load comes after the
 * chunks, when the trace is finalized). 0, or -1 out of memory. */
static int pool_init(driver *d)
{
    size_t n = d->ring + 1;
    void *p;
    d->bufsz = d->chunk + d->chunk / 8;
    if (!(d->spare = malloc(n * sizeof *d->spare)))
        return -1;
    p = mmap(NULL, n * d->bufsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;   /* the heap's buffers, then */
    d->pool = p;
    d->pool_len = n * d->bufsz;
    for (size_t i = 0; i < n; i++)
        d->spare[d->n_spare++] = d->pool + (n - 1 - i) * d->bufsz;
    return 0;
}

/* Map a plain file when it is worth it. */
static bool map_file(driver *d, tt_input *in, int64_t start)
{
    struct stat st;
    void *map;
    int fd;
    if (!tt_input_is_plain_file(in))
        return false;
    if ((fd = open(tt_input_path(in), O_RDONLY | O_CLOEXEC)) < 0)
        return false;
    if (fstat(fd, &st) || st.st_size != tt_input_file_size(in) || st.st_size <= start) {
        close(fd);
        return false;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return false;
    madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
    d->map = map;
    d->map_size = (size_t)st.st_size;
    return true;
}

int chrome_chunks_run(chrome *c, tt_input *in, int64_t start, unsigned threads,
                      const tt_load_opts *opts, int64_t *resume, bool *need_comma)
{
    driver d;
    pthread_t tids[MAX_WORKERS], cut_tid;
    unsigned n_workers = 0;
    handover h;
    tt_error *err = chrome_error(c);
    int rc = -1;

    if (!in)
        return 0;
    memset(&d, 0, sizeof d);
    d.c = c;
    d.in = in;
    d.opts = opts;
    d.chunk = chunk_bytes();
    d.next_base = start;
    if (map_file(&d, in, start)) {
        /* below two chunks the threads cost more than they save; with one
         * thread there are none: the serial loop parses the mapping in
         * place (a read window copies every byte in read() and counts
         * its newlines: 6% of a pinned 1M-event summary), unless the
         * window holds the rest of the file already */
        if (threads <= 1 || d.map_size - (size_t)start < 2 * d.chunk) {
            const char *p;
            size_t n;
            chrome_window_pending(c, &p, &n);
            if ((size_t)start + n < d.map_size)
                return chrome_window_map(c, d.map, d.map_size, (size_t)start);
            munmap((void *)d.map, d.map_size);
            return 0;
        }
        /* cut a quarter as long, 1 MB: each chunk being decoded is
         * resident twice, its mapped text and its fragment, until it is
         * merged (1M events: peak 92 MB instead of 98, and fewer faults
         * for the same CPU time; the merges' string remaps grow by 0.6%
         * of the instructions) */
        if (d.chunk == CHUNK_BYTES)
            d.chunk /= 4;
    } else if (threads <= 1) {
        return 0;
    } else {
        /* what the window holds already starts the first chunk; chunks
         * are buffers of their own, and each worker's fragment of one
         * stays in its malloc arena until it is reused: an eighth as
         * long, 512 KB (1M events in gzip: 6 MB less at the peak than at
         * 2 MB, in zstd 10 MB, at the same CPU time) */
        const char *p;
        size_t n;
        if (d.chunk == CHUNK_BYTES)
            d.chunk /= 8;
        /* decompressed by the cutter, straight into the chunk buffers: a
         * thread of the input's own would fill blocks of its own, copied
         * once more into these (1M events in zstd: perf 7% of the cycles
         * in memmove and page clearing) */
        tt_input_set_readahead(in, 0);
        chrome_window_pending(c, &p, &n);
        if (carry_reserve(&d, n + d.chunk))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        memcpy(d.carry, p, n);
        d.carry_len = n;
        if (carry_fill(&d, 2 * d.chunk, err)) {
            free(d.carry);
            return -1;
        }
        if (d.in_eof && d.carry_len < 2 * d.chunk) {
            /* small: the serial loop reads it, from the window */
            int64_t line_start, line = chrome_window_line(c, &line_start);
            int r = chrome_window_resume(c, d.carry, d.carry_len, start, line, line_start, true);
            free(d.carry);
            return r ? -1 : 0;
        }
    }

    /* the window's bytes are the first chunk's now (mapped, or copied
     * into the carry): its buffer is not needed until the serial loop */
    chrome_window_release(c);
    if (threads > MAX_WORKERS)
        threads = MAX_WORKERS;
    /* a mapped file: one chunk waiting beside those being decoded, so the
     * merge rarely waits; a stream: each chunk is a buffer of its own
     * (1M events in gzip: 7 MB less at the peak), and a few more, which
     * the cutter decompresses while the workers decode: with none, it
     * waited for the oldest chunk while the workers waited for it */
    d.ahead = d.map ? (size_t)threads + 1 : (size_t)threads + STREAM_SPARE;
    d.ring = d.map ? d.ahead : d.ahead + CUT_SLACK;
    if (!(d.slots = calloc(d.ring, sizeof *d.slots))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (!d.map && pool_init(&d)) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    pthread_mutex_init(&d.mu, NULL);
    pthread_cond_init(&d.work, NULL);
    pthread_cond_init(&d.done, NULL);
    pthread_cond_init(&d.cut_cv, NULL);
    pthread_cond_init(&d.room, NULL);
    tt_merge_pool_open();
    for (unsigned t = 0; t < threads; t++)
        if (pthread_create(&tids[n_workers], NULL, worker, &d) == 0)
            n_workers++;
    /* a stream is cut on a thread of its own; without one, here */
    if (n_workers > 0 && !d.map && pthread_create(&cut_tid, NULL, cutter, &d) == 0)
        d.cutting = true;
    if (n_workers > 0)
        rc = merge_all(&d, &h, err);
    else
        rc = 1;   /* no thread: all of it is handed over */
    if (d.cutting) {
        /* it finishes the chunk it is cutting: what it read is kept */
        pthread_mutex_lock(&d.mu);
        d.stop_cut = true;
        pthread_cond_signal(&d.room);
        pthread_mutex_unlock(&d.mu);
        pthread_join(cut_tid, NULL);
    }
    pthread_mutex_lock(&d.mu);
    d.stop = true;
    pthread_cond_broadcast(&d.work);
    pthread_mutex_unlock(&d.mu);
    for (unsigned t = 0; t < n_workers; t++)
        pthread_join(tids[t], NULL);
    tt_merge_pool_close();
    pthread_cond_destroy(&d.work);
    pthread_cond_destroy(&d.done);
    pthread_cond_destroy(&d.cut_cv);
    pthread_cond_destroy(&d.room);
    pthread_mutex_destroy(&d.mu);
    if (rc == 1) {
        h.at = start;
        h.need_comma = false;
        h.newlines = 0;
        h.last_nl = -1;
        rc = 0;
    }
    if (rc == 0) {
        /* the serial loop goes on from h.at */
        int64_t line_start, line = chrome_window_line(c, &line_start);
        line += (int64_t)h.newlines;
        if (h.last_nl >= 0)
            line_start = h.last_nl;
        *resume = h.at;
        *need_comma = h.need_comma;
        if (d.map) {
            rc = chrome_window_switch(c, d.map, d.map_size, (size_t)h.at, line, line_start);
            d.map = NULL;   /* c's now */
        } else {
            char *pend;
            size_t n;
            rc = pending_data(&d, &h, &pend, &n, err);
            if (rc == 0) {
                rc = chrome_window_resume(c, pend, n, h.at, line, line_start, d.in_eof);
                free(pend);
            }
        }
        rc = rc == 0 ? 1 : -1;
    }
out:
    if (d.slots)
        for (size_t i = 0; i < d.ring; i++)
            release(&d, &d.slots[i]);
    free(d.slots);
    if (!in_pool(&d, d.carry))
        free(d.carry);
    free(d.spare);
    if (d.pool)
        munmap(d.pool, d.pool_len);
    if (d.map)
        munmap((void *)d.map, d.map_size);
    /* the workers' fragments were freed into their threads' malloc
     * arenas, which glibc keeps: give that memory back before finalize
     * needs its own (1M events: 10 MB less at the peak), unless the
     * command keeps it for work after the load (util/memkeep.h) */
    tt_mem_trim();
    return rc;
}
