/* chrome_chunks.c - the Chrome events array of a large plain file decoded
 * in parallel chunks (see chrome_chunks.h for the scheme).
 *
 * The file is mapped; worker threads take chunks in order, guess where
 * the chunk's first event starts and decode it into a fragment; the
 * calling thread verifies each chunk's start against where the chunk
 * before it stopped, decodes it again itself when the guess was wrong,
 * and merges the fragments in order. Where the parallel part ends, the
 * serial loop of chrome.c goes on reading the mapping (its window switched
 * over, line numbers carried from the workers' newline counts), so what
 * follows and any error come out of the serial code. Reading the file
 * through the load's input as well would copy it once more on the
 * merging thread (8% of the 1M-event load's cycles, measured with perf).
 * Workers stay at most `ahead` chunks ahead of the merge: memory is the
 * finished trace plus a few chunks' fragments, and the pages of merged
 * chunks are released from the mapping.
 */
#include "config.h"

#include "decode/chrome_chunks.h"

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

/* 8 MB chunks: about 30k Kineto events, long enough that the per-chunk
 * costs (a fragment trace, the merge's string remap) stay under 1%, short
 * enough for the last chunk's wait and the memory in flight to be small. */
#define CHUNK_BYTES ((size_t)8 << 20)
/* Below two chunks the threads cost more than they save. */
#define MIN_PARALLEL_BYTES (2 * CHUNK_BYTES)
#define MAX_WORKERS 16

typedef struct slot {
    chrome_chunk *chunk;     /* NULL: no event start found, or out of memory */
    size_t        start;     /* where the worker began */
    uint64_t      newlines;  /* in [start, where the chunk stopped) */
    bool          has_start;
    bool          done;
} slot;

typedef struct driver {
    const char         *data;
    size_t              size;
    size_t              first;      /* the array's first byte after '[' */
    size_t              chunk;      /* nominal chunk length */
    size_t              n;          /* chunks */
    const tt_load_opts *opts;
    slot               *slots;
    pthread_mutex_t     mu;
    pthread_cond_t      work;       /* a worker may take the next chunk */
    pthread_cond_t      done;       /* a chunk is done */
    size_t              next;       /* next chunk to take */
    size_t              merged;     /* chunks merged so far */
    size_t              ahead;      /* most chunks taken beyond merged */
    bool                stop;
} driver;

/* Nominal start of chunk i; the last chunk has no limit. */
static size_t chunk_limit(const driver *d, size_t i)
{
    return i >= d->n ? SIZE_MAX : d->first + i * d->chunk;
}

static bool is_ws(char ch)
{
    return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* A plausible event start at or after `from`: a '{' preceded by '}' and
 * ',' (whitespace allowed between). It may lie inside a string or an
 * argument object; the merge's check against the previous chunk's stop
 * catches that. */
static bool guess_event_start(const char *data, size_t size, size_t from, size_t *out)
{
    const char *p = data + from, *end = data + size;
    while (p < end && (p = memchr(p, ',', (size_t)(end - p))) != NULL) {
        const char *b = p, *f = p + 1;
        while (b > data && is_ws(b[-1]))
            b--;
        while (f < end && is_ws(*f))
            f++;
        if (b > data && b[-1] == '}' && f < end && *f == '{' && (size_t)(f - data) >= from) {
            *out = (size_t)(f - data);
            return true;
        }
        p++;
    }
    return false;
}

/* Newlines in p[0..n): the line numbers of what follows the chunks. */
static uint64_t count_newlines(const char *p, size_t n)
{
    uint64_t count = 0;
    size_t i = 0;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n');
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        count += (uint64_t)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
    }
#endif
    for (; i < n; i++)
        count += p[i] == '\n';
    return count;
}

/* Decode chunk i from `start` and count its newlines. NULL: out of memory. */
static chrome_chunk *decode_chunk(const driver *d, size_t i, size_t start, uint64_t *newlines)
{
    chrome_chunk *k = chrome_chunk_decode(d->data, d->size, start, chunk_limit(d, i + 1), d->opts);
    size_t end;
    bool at_limit, any;
    if (k) {
        chrome_chunk_end(k, &end, &at_limit, &any);
        *newlines = count_newlines(d->data + start, end - start);
    }
    return k;
}

static void *worker(void *arg)
{
    driver *d = arg;
    for (;;) {
        size_t i, start = 0;
        uint64_t newlines = 0;
        bool has_start;
        chrome_chunk *k = NULL;
        pthread_mutex_lock(&d->mu);
        while (!d->stop && d->next < d->n && d->next >= d->merged + d->ahead)
            pthread_cond_wait(&d->work, &d->mu);
        if (d->stop || d->next >= d->n) {
            pthread_mutex_unlock(&d->mu);
            return NULL;
        }
        i = d->next++;
        pthread_mutex_unlock(&d->mu);
        if (i == 0) {
            start = d->first;
            has_start = true;
        } else
            has_start = guess_event_start(d->data, d->size, chunk_limit(d, i), &start);
        if (has_start)
            k = decode_chunk(d, i, start, &newlines);
        pthread_mutex_lock(&d->mu);
        d->slots[i].chunk = k;
        d->slots[i].start = start;
        d->slots[i].newlines = newlines;
        d->slots[i].has_start = has_start;
        d->slots[i].done = true;
        pthread_cond_broadcast(&d->done);
        pthread_mutex_unlock(&d->mu);
    }
}

/* Merge the chunks in order. Returns 0 (resume, need_comma and the newlines
 * before resume set), or -1. */
static int merge_in_order(driver *d, chrome *c, size_t *resume, bool *need_comma,
                          uint64_t *newlines)
{
    size_t expected = d->first;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *newlines = 0;
    for (size_t i = 0; i < d->n; i++) {
        chrome_chunk *k;
        size_t end;
        uint64_t nl;
        bool at_limit, any;
        pthread_mutex_lock(&d->mu);
        while (!d->slots[i].done)
            pthread_cond_wait(&d->done, &d->mu);
        k = d->slots[i].chunk;
        d->slots[i].chunk = NULL;
        nl = d->slots[i].newlines;
        pthread_mutex_unlock(&d->mu);
        if (!k || !d->slots[i].has_start || d->slots[i].start != expected) {
            /* the guess was wrong (or a worker ran out of memory) */
            chrome_chunk_free(k);
            if (!(k = decode_chunk(d, i, expected, &nl)))
                return chrome_chunk_merge(c, NULL);   /* says out of memory */
        }
        chrome_chunk_end(k, &end, &at_limit, &any);
        if (chrome_chunk_merge(c, k))
            return -1;
        *newlines += nl;
        chrome_progress(c, (int64_t)end);
        {
            /* the merged text is not needed again: release its pages */
            size_t from = (expected + page - 1) / page * page, to = end / page * page;
            if (to > from)
                madvise((char *)d->data + from, to - from, MADV_DONTNEED);
        }
        pthread_mutex_lock(&d->mu);
        d->merged = i + 1;
        pthread_cond_broadcast(&d->work);
        pthread_mutex_unlock(&d->mu);
        if (!at_limit) {
            /* the array's end, or something for the serial loop to judge */
            *resume = end;
            *need_comma = any;
            return 0;
        }
        expected = end;
    }
    /* unreachable: the last chunk has no limit */
    *resume = expected;
    *need_comma = false;
    return 0;
}

/* Chunk length: CHUNK_BYTES, or for tests TRACETTY_CHROME_CHUNK_BYTES
 * (tiny chunks put chunk boundaries everywhere in a small trace). */
static size_t chunk_bytes(void)
{
    const char *env = getenv("TRACETTY_CHROME_CHUNK_BYTES");
    if (env && *env) {
        char *endp;
        unsigned long long v = strtoull(env, &endp, 10);
        if (*endp == '\0' && v > 0)
            return (size_t)v;
    }
    return CHUNK_BYTES;
}

int chrome_chunks_run(chrome *c, tt_input *in, int64_t start, unsigned threads,
                      const tt_load_opts *opts, int64_t *resume, bool *need_comma)
{
    driver d;
    pthread_t tids[MAX_WORKERS];
    unsigned n_workers = 0;
    struct stat st;
    void *map;
    int fd, rc;
    size_t chunk = chunk_bytes(), at = 0;
    uint64_t newlines = 0;

    if (threads <= 1 || !in || !tt_input_is_plain_file(in) || start < 0)
        return 0;
    if (tt_input_file_size(in) < start + (int64_t)(2 * chunk))
        return 0;
    if ((fd = open(tt_input_path(in), O_RDONLY | O_CLOEXEC)) < 0)
        return 0;   /* the serial path reads it through the input */
    if (fstat(fd, &st) || st.st_size != tt_input_file_size(in)) {
        close(fd);
        return 0;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);

    memset(&d, 0, sizeof d);
    d.data = map;
    d.size = (size_t)st.st_size;
    d.first = (size_t)start;
    d.chunk = chunk;
    d.n = (d.size - d.first + chunk - 1) / chunk;
    d.opts = opts;
    if (threads > MAX_WORKERS)
        threads = MAX_WORKERS;
    d.ahead = 2 * (size_t)threads;
    if (!(d.slots = calloc(d.n, sizeof *d.slots))) {
        munmap(map, d.size);
        return 0;
    }
    pthread_mutex_init(&d.mu, NULL);
    pthread_cond_init(&d.work, NULL);
    pthread_cond_init(&d.done, NULL);
    for (unsigned t = 0; t < threads; t++)
        if (pthread_create(&tids[n_workers], NULL, worker, &d) == 0)
            n_workers++;
    if (n_workers == 0) {
        rc = 0;   /* nothing was done: the serial loop reads it all */
    } else {
        rc = merge_in_order(&d, c, &at, need_comma, &newlines) == 0 ? 1 : -1;
    }
    pthread_mutex_lock(&d.mu);
    d.stop = true;
    pthread_cond_broadcast(&d.work);
    pthread_mutex_unlock(&d.mu);
    for (unsigned t = 0; t < n_workers; t++)
        pthread_join(tids[t], NULL);
    for (size_t i = 0; i < d.n; i++)
        chrome_chunk_free(d.slots[i].chunk);
    free(d.slots);
    pthread_cond_destroy(&d.work);
    pthread_cond_destroy(&d.done);
    pthread_mutex_destroy(&d.mu);
    if (rc == 1) {
        /* the serial loop goes on from `at`, reading the mapping */
        int64_t line_start, line = chrome_window_line(c, &line_start);
        if (newlines) {
            const char *nl = memrchr(d.data + d.first, '\n', at - d.first);
            line += (int64_t)newlines;
            line_start = nl ? (int64_t)(nl + 1 - d.data) : line_start;
        }
        *resume = (int64_t)at;
        return chrome_window_switch(c, map, d.size, at, line, line_start) ? -1 : 1;
    }
    munmap(map, d.size);
    return rc;
}
