/* test_secpipe.c - the snapshot writer's section pipe (snapshot/secpipe.h):
 * every section handed over arrives in its own destination with its id,
 * level and bytes, on a helper thread and inline (TRACETTY_THREADS=1);
 * the caller gets an empty buffer back, the largest free one when the
 * pool has one; a buffer that ran out of memory is refused untouched; the
 * first failure of the compression is the one reported, and the other
 * sections are still done. The "compression" here is a copy, so what
 * arrived can be compared byte for byte. */
#include "config.h"

#include "../tap.h"
#include "snapshot/secpipe.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_SEC 12

typedef struct out {
    uint32_t       id;
    int            level;
    unsigned char *data;
    size_t         n;
} out;

static uint32_t fail_id;   /* sections with this id fail (0: none) */

static int copy_fn(void *dst, uint32_t id, const tt_wbuf *raw, int level, tt_error *err)
{
    out *o = dst;
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);   /* the caller runs ahead: jobs queue up */
    o->id = id;
    o->level = level;
    o->n = raw->n;
    if (id == fail_id)
        return tt_error_set(err, TT_ERR_NOMEM, "section %u failed", (unsigned)id);
    o->data = malloc(raw->n ? raw->n : 1);
    if (!o->data)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (raw->n)
        memcpy(o->data, raw->p, raw->n);
    return 0;
}

/* Section i: (i * 7919) % 300000 bytes of a pattern of its own. */
static size_t sec_len(int i)
{
    return (size_t)(i * 7919) % 300000u * (size_t)(i % 3 + 1);
}

static unsigned char sec_byte(int i, size_t k)
{
    return (unsigned char)(i * 31 + k * 7);
}

static void run(const char *threads, uint32_t fail)
{
    out o[N_SEC];
    tt_error err;
    tt_wbuf b = {0};
    tt_secpipe *p;
    int rc, good = 1, empty = 1;
    setenv("TRACETTY_THREADS", threads, 1);
    fail_id = fail;
    memset(o, 0, sizeof o);
    tt_error_clear(&err);
    p = tt_secpipe_start(copy_fn);
    ok(p != NULL, "threads %s: a pipe", threads);
    if (!p)
        return;
    for (int i = 0; i < N_SEC; i++) {
        for (size_t k = 0; k < sec_len(i); k++)
            tt_wbuf_byte(&b, sec_byte(i, k));
        if (tt_secpipe_submit(p, &o[i], (uint32_t)i + 1, &b, i % 20, &err))
            good = 0;
        if (b.n != 0 || b.oom)
            empty = 0;
    }
    ok(good, "threads %s: every section handed over", threads);
    ok(empty, "threads %s: each time an empty buffer comes back", threads);
    tt_wbuf_free(&b);
    rc = tt_secpipe_finish(p, &err);
    if (fail) {
        ok(rc != 0, "threads %s: a failure is reported", threads);
        is_str(err.what, "section 5 failed", "threads %s: the first failure's message", threads);
    } else {
        ok(rc == 0 && err.code == TT_OK, "threads %s: no failure", threads);
    }
    good = 1;
    for (int i = 0; i < N_SEC; i++) {
        size_t n = sec_len(i);
        if (o[i].id != (uint32_t)i + 1 || o[i].level != i % 20 || o[i].n != n) {
            good = 0;
            continue;
        }
        if (o[i].id == fail)
            continue;
        for (size_t k = 0; k < n && good; k++)
            good = o[i].data[k] == sec_byte(i, k);
    }
    ok(good, "threads %s: every section arrived whole, with its id and level", threads);
    for (int i = 0; i < N_SEC; i++)
        free(o[i].data);
}

int main(void)
{
    run("2", 0);
    run("1", 0);
    run("2", 5);
    run("1", 5);

    {
        /* inline, the buffer just compressed is the one that comes back */
        tt_wbuf b = {0};
        out o[2];
        tt_error err;
        unsigned char *was;
        tt_secpipe *p;
        setenv("TRACETTY_THREADS", "1", 1);
        fail_id = 0;
        memset(o, 0, sizeof o);
        tt_error_clear(&err);
        p = tt_secpipe_start(copy_fn);
        for (int k = 0; k < 100000; k++)
            tt_wbuf_byte(&b, (unsigned char)k);
        was = b.p;
        ok(p && tt_secpipe_submit(p, &o[0], 1, &b, 3, &err) == 0, "inline: handed over");
        ok(b.p == was && b.cap >= 100000 && b.n == 0, "inline: its buffer is recycled");
        /* a buffer that ran out of memory stays the caller's */
        tt_wbuf_byte(&b, 1);
        b.oom = true;
        ok(tt_secpipe_submit(p, &o[1], 2, &b, 3, &err) != 0 && err.code == TT_ERR_NOMEM,
           "a buffer out of memory is refused");
        ok(b.p == was && b.n == 1, "and left as it was");
        b.oom = false;
        tt_error_clear(&err);
        ok(tt_secpipe_finish(p, &err) == 0, "finished");
        ok(o[0].n == 100000 && o[1].id == 0, "the first section done, the refused one not");
        tt_wbuf_free(&b);
        free(o[0].data);
        free(o[1].data);
    }
    ok(tt_secpipe_finish(NULL, NULL) == 0, "finishing no pipe is a no-op");
    return tap_done();
}
