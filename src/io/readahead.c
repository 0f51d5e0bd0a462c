/* readahead.c - a producer thread filling a ring of blocks (see
 * readahead.h).
 *
 * The ring: blocks [head, head + count) are filled and wait for the
 * consumer, who reads b[head] from offset `off`; the producer fills
 * b[(head + count) % N]. Only the producer raises count and only the
 * consumer lowers it, both under the mutex, so a block the consumer has
 * seen counted is stable, and one it has released is the producer's.
 * The producer's last block carries the end (1) or an error (-1); it then
 * leaves, and the consumer joins it when it reaches that block. Halted,
 * it leaves between blocks instead, and says so (left); the consumer
 * joins it once no filled block is left.
 */
#include "config.h"

#include "io/readahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct ra_block {
    unsigned char *data;
    size_t         len;
    int64_t        pos;    /* pos() after the block was filled */
    int            end;    /* 0: more follows; 1: end of data; -1: error */
} ra_block;

struct tt_readahead {
    tt_readahead_fill_fn fill;
    tt_readahead_pos_fn  pos;
    void                *ctx;

    pthread_t       thread;
    pthread_mutex_t mu;
    pthread_cond_t  filled, freed;
    ra_block        b[TT_READAHEAD_BLOCKS];
    size_t          head, count;   /* under mu */
    bool            stop;          /* under mu: the consumer leaves early */
    bool            halt;          /* under mu: stop after this block (tt_readahead_halt) */
    bool            left;          /* under mu: the producer left at a halt */

    tt_error err;       /* the producer's; read by the consumer after join */
    size_t   off;       /* consumer: read offset in b[head] */
    int64_t  pos_seen;  /* consumer: pos of the block being read */
    int      state;     /* consumer: 0 streaming, 1 ended, -1 failed, 2 halted */
    bool     joined;
};

static void *producer(void *arg)
{
    tt_readahead *ra = arg;
    size_t tail = 0;
    pthread_mutex_lock(&ra->mu);
    for (;;) {
        ra_block *blk;
        size_t len = 0;
        int end = 0;
        while (ra->count == TT_READAHEAD_BLOCKS && !ra->stop && !ra->halt)
            pthread_cond_wait(&ra->freed, &ra->mu);
        if (ra->stop)
            break;
        if (ra->halt) {
            ra->left = true;
            pthread_cond_signal(&ra->filled);
            break;
        }
        blk = &ra->b[tail];
        pthread_mutex_unlock(&ra->mu);
        /* fill the whole block: fewer, larger hand-overs */
        while (len < TT_READAHEAD_BLOCK) {
            ssize_t got = ra->fill(ra->ctx, blk->data + len, TT_READAHEAD_BLOCK - len, &ra->err);
            if (got <= 0) {
                end = got < 0 ? -1 : 1;
                break;
            }
            len += (size_t)got;
        }
        blk->len = len;
        blk->end = end;
        blk->pos = ra->pos(ra->ctx);
        pthread_mutex_lock(&ra->mu);
        ra->count++;
        tail = (tail + 1) % TT_READAHEAD_BLOCKS;
        pthread_cond_signal(&ra->filled);
        if (end)
            break;
    }
    pthread_mutex_unlock(&ra->mu);
    return NULL;
}

static void free_blocks(tt_readahead *ra)
{
    for (size_t i = 0; i < TT_READAHEAD_BLOCKS; i++)
        free(ra->b[i].data);
}

tt_readahead *tt_readahead_start(tt_readahead_fill_fn fill, tt_readahead_pos_fn pos, void *ctx)
{
    tt_readahead *ra = calloc(1, sizeof *ra);
    if (!ra)
        return NULL;
    ra->fill = fill;
    ra->pos = pos;
    ra->ctx = ctx;
    ra->pos_seen = pos(ctx);
    tt_error_clear(&ra->err);
    for (size_t i = 0; i < TT_READAHEAD_BLOCKS; i++) {
        if (!(ra->b[i].data = malloc(TT_READAHEAD_BLOCK))) {
            free_blocks(ra);
            free(ra);
            return NULL;
        }
    }
    pthread_mutex_init(&ra->mu, NULL);
    pthread_cond_init(&ra->filled, NULL);
    pthread_cond_init(&ra->freed, NULL);
    if (pthread_create(&ra->thread, NULL, producer, ra) != 0) {
        pthread_cond_destroy(&ra->freed);
        pthread_cond_destroy(&ra->filled);
        pthread_mutex_destroy(&ra->mu);
        free_blocks(ra);
        free(ra);
        return NULL;
    }
    return ra;
}

static void join(tt_readahead *ra)
{
    if (!ra->joined) {
        pthread_join(ra->thread, NULL);
        ra->joined = true;
    }
}

ssize_t tt_readahead_read(tt_readahead *ra, void *buf, size_t n, tt_error *err)
{
    for (;;) {
        ra_block *blk;
        if (ra->state < 0) {
            if (err)
                *err = ra->err;
            return -1;
        }
        if (ra->state > 0 || n == 0)
            return ra->state > 1 ? -2 : 0;
        pthread_mutex_lock(&ra->mu);
        while (ra->count == 0 && !ra->left)
            pthread_cond_wait(&ra->filled, &ra->mu);
        if (ra->count == 0) {
            /* halted, and every block it filled is read: ctx is the
             * caller's again */
            pthread_mutex_unlock(&ra->mu);
            join(ra);
            ra->state = 2;
            return -2;
        }
        pthread_mutex_unlock(&ra->mu);
        blk = &ra->b[ra->head];
        ra->pos_seen = blk->pos;
        if (ra->off < blk->len) {
            size_t k = blk->len - ra->off;
            if (k > n)
                k = n;
            memcpy(buf, blk->data + ra->off, k);
            ra->off += k;
            return (ssize_t)k;
        }
        if (blk->end) {
            /* the producer has left: take its state back */
            join(ra);
            ra->state = blk->end;
            continue;
        }
        pthread_mutex_lock(&ra->mu);
        ra->head = (ra->head + 1) % TT_READAHEAD_BLOCKS;
        ra->count--;
        ra->off = 0;
        pthread_cond_signal(&ra->freed);
        pthread_mutex_unlock(&ra->mu);
    }
}

int64_t tt_readahead_pos(const tt_readahead *ra)
{
    return ra->pos_seen;
}

void tt_readahead_halt(tt_readahead *ra)
{
    pthread_mutex_lock(&ra->mu);
    ra->halt = true;
    pthread_cond_signal(&ra->freed);
    pthread_mutex_unlock(&ra->mu);
}

bool tt_readahead_finished(const tt_readahead *ra)
{
    return ra->joined;
}

void tt_readahead_free(tt_readahead *ra)
{
    if (!ra)
        return;
    pthread_mutex_lock(&ra->mu);
    ra->stop = true;
    pthread_cond_signal(&ra->freed);
    pthread_mutex_unlock(&ra->mu);
    join(ra);   /* the producer finishes the block it is filling, then sees stop */
    pthread_cond_destroy(&ra->freed);
    pthread_cond_destroy(&ra->filled);
    pthread_mutex_destroy(&ra->mu);
    free_blocks(ra);
    free(ra);
}
