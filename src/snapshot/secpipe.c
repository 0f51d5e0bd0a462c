/* secpipe.c - a helper thread that compresses finished snapshot sections
 * (see secpipe.h). */
#include "config.h"

#include "snapshot/secpipe.h"

#include "util/parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A snapshot has a dozen sections; a pipe takes at most this many jobs
 * and buffers at once (past it, a section is compressed on the caller). */
#define SLOTS 32u

typedef struct job {
    void    *dst;
    uint32_t id;
    int      level;
    tt_wbuf  raw;
} job;

struct tt_secpipe {
    tt_secpipe_fn   fn;
    pthread_mutex_t mu;
    pthread_cond_t  wake;          /* a job came, or the end */
    bool            threaded, stop;
    pthread_t       helper;
    job             q[SLOTS];      /* jobs [head, tail) waiting, in order */
    size_t          head, tail;
    tt_wbuf         pool[SLOTS];   /* free buffers (n = 0), capacity kept */
    size_t          n_pool;
    tt_error        err;           /* the first failure */
    bool            failed;
};

/* One job on whichever thread runs it; the buffer goes back to the pool
 * (or is freed when the pool is full). Takes the lock itself. */
static void run_job(tt_secpipe *p, job *j)
{
    tt_error e;
    int rc;
    tt_error_clear(&e);
    rc = p->fn(j->dst, j->id, &j->raw, j->level, &e);
    j->raw.n = 0;
    pthread_mutex_lock(&p->mu);
    if (rc && !p->failed) {
        p->err = e;
        p->failed = true;
    }
    if (j->raw.cap && p->n_pool < SLOTS)
        p->pool[p->n_pool++] = j->raw;
    else
        tt_wbuf_free(&j->raw);
    pthread_mutex_unlock(&p->mu);
}

static void *helper_main(void *arg)
{
    tt_secpipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        job j;
        while (p->head == p->tail && !p->stop)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->head == p->tail)
            break;   /* stopped and nothing left */
        j = p->q[p->head++ % SLOTS];
        pthread_mutex_unlock(&p->mu);
        run_job(p, &j);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

tt_secpipe *tt_secpipe_start(tt_secpipe_fn fn)
{
    tt_secpipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->fn = fn;
    tt_error_clear(&p->err);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    /* one core: nothing to overlap with; no thread: the caller does it */
    p->threaded = tt_parallel_cores() > 1 && pthread_create(&p->helper, NULL, helper_main, p) == 0;
    return p;
}

int tt_secpipe_submit(tt_secpipe *p, void *dst, uint32_t id, tt_wbuf *raw, int level,
                      tt_error *err)
{
    job j;
    size_t best = SIZE_MAX;
    bool queued = false;
    if (raw->oom)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
    j.dst = dst;
    j.id = id;
    j.level = level;
    j.raw = *raw;
    memset(raw, 0, sizeof *raw);
    pthread_mutex_lock(&p->mu);
    if (p->threaded && p->tail - p->head < SLOTS) {
        p->q[p->tail++ % SLOTS] = j;   /* the helper's now */
        pthread_cond_signal(&p->wake);
        queued = true;
    }
    pthread_mutex_unlock(&p->mu);
    if (!queued)
        run_job(p, &j);   /* here and now, its buffer back in the pool */
    /* the next section starts in the largest free buffer */
    pthread_mutex_lock(&p->mu);
    for (size_t i = 0; i < p->n_pool; i++)
        if (best == SIZE_MAX || p->pool[i].cap > p->pool[best].cap)
            best = i;
    if (best != SIZE_MAX) {
        *raw = p->pool[best];
        p->pool[best] = p->pool[--p->n_pool];
    }
    pthread_mutex_unlock(&p->mu);
    return 0;
}

int tt_secpipe_finish(tt_secpipe *p, tt_error *err)
{
    int rc;
    if (!p)
        return 0;
    if (p->threaded) {
        pthread_mutex_lock(&p->mu);
        p->stop = true;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->helper, NULL);
    }
    rc = p->failed ? -1 : 0;
    if (p->failed && err->code == TT_OK)
        *err = p->err;
    for (size_t i = 0; i < p->n_pool; i++)
        tt_wbuf_free(&p->pool[i]);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return rc;
}
