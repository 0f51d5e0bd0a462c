/* scratch.c - big scratch blocks reused within a phase (see scratch.h). */
#include "config.h"

#include "util/scratch.h"

#include "util/bigalloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define HUGE_PAGE ((size_t)2 << 20)

struct tt_scratch {
    pthread_mutex_t mu;
    void           *block[TT_SCRATCH_KEEP];
    size_t          size[TT_SCRATCH_KEEP];   /* bytes usable: whole huge pages */
    size_t          n;
};

tt_scratch *tt_scratch_new(void)
{
    tt_scratch *s = calloc(1, sizeof *s);
    if (s && pthread_mutex_init(&s->mu, NULL)) {
        free(s);
        return NULL;
    }
    return s;
}

/* Take block i out of the pool (the lock held). */
static void *take(tt_scratch *s, size_t i, size_t *size)
{
    void *p = s->block[i];
    *size = s->size[i];
    s->n--;
    s->block[i] = s->block[s->n];
    s->size[i] = s->size[s->n];
    return p;
}

void *tt_scratch_get(tt_scratch *s, size_t n)
{
    size_t best = SIZE_MAX, big = SIZE_MAX, size = 0;
    void *p = NULL, *q;
    bool fits = false;
    if (!s || n < TT_BIGALLOC_FROM)
        return tt_bigalloc(n);
    pthread_mutex_lock(&s->mu);
    for (size_t i = 0; i < s->n; i++) {
        if (s->size[i] >= n && (best == SIZE_MAX || s->size[i] < s->size[best]))
            best = i;
        if (big == SIZE_MAX || s->size[i] > s->size[big])
            big = i;
    }
    if (best != SIZE_MAX) {
        p = take(s, best, &size);
        fits = true;
    } else if (big != SIZE_MAX) {
        p = take(s, big, &size);
    }
    pthread_mutex_unlock(&s->mu);
    if (fits)
        return p;
    if (!p)
        return tt_bigalloc(n);
    /* none is big enough: the biggest grows, its resident pages moved
     * along (tt_bigrealloc), so that only the difference is fresh and the
     * pool's blocks do not sit resident beside a fresh one */
    if ((q = tt_bigrealloc(p, size, n)))
        return q;
    free(p);
    return NULL;
}

void tt_scratch_put(tt_scratch *s, void *p, size_t n)
{
    size_t size, small = 0;
    if (!p)
        return;
    if (!s || n < TT_BIGALLOC_FROM) {
        free(p);
        return;
    }
    /* tt_bigalloc() made it whole huge pages (bigalloc.h) */
    size = n > SIZE_MAX - HUGE_PAGE ? n : (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    pthread_mutex_lock(&s->mu);
    if (s->n == TT_SCRATCH_KEEP) {
        for (size_t i = 1; i < s->n; i++)
            if (s->size[i] < s->size[small])
                small = i;
        if (s->size[small] < size) {
            /* keep the bigger one: it serves more of the gets */
            void *drop = s->block[small];
            s->block[small] = p;
            s->size[small] = size;
            p = drop;
        }
    } else {
        s->block[s->n] = p;
        s->size[s->n] = size;
        s->n++;
        p = NULL;
    }
    pthread_mutex_unlock(&s->mu);
    free(p);
}

void tt_scratch_trim(tt_scratch *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    for (size_t i = 0; i < s->n; i++)
        free(s->block[i]);
    s->n = 0;
    pthread_mutex_unlock(&s->mu);
}

void tt_scratch_free(tt_scratch *s)
{
    if (!s)
        return;
    tt_scratch_trim(s);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
