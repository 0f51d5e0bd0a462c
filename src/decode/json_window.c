/* json_window.c - sliding input window for streaming decoders (see
 * json_window.h). */
#include "config.h"

#include "decode/json_window.h"

#include "decode/json_scan.h"
#include "util/bigalloc.h"

#include <stdlib.h>
#include <string.h>

int tt_jwin_init(tt_jwin *w, tt_input *in, size_t initial, size_t max, tt_error *err)
{
    memset(w, 0, sizeof *w);
    w->in = in;
    w->line = 1;
    w->cap = initial;
    w->max = max < initial ? initial : max;
    /* on huge pages when it is big (chrome's 4 MB): the first read fills
     * it whole, and fresh 4 KiB pages would fault 1024 times in read()
     * (perf, 1M-event JSON summary: 14% of its page faults); realloc()
     * and free() work on the block as on any other */
    w->data = tt_bigalloc(w->cap + 1);
    if (!w->data)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

void tt_jwin_fini(tt_jwin *w)
{
    free(w->data);
    w->data = NULL;
    w->len = w->cap = w->pos = 0;
}

/* Every byte dropped from the window is counted here: pretty-printed
 * traces have a newline every 30 bytes, so they are counted 16 at a time
 * rather than found one by one. */
static void count_lines(const char *p, size_t n, int64_t base, int64_t *line,
                        int64_t *line_start)
{
    size_t k = js_count_byte(p, n, '\n');
    if (k) {
        const char *last = memrchr(p, '\n', n);
        *line += (int64_t)k;
        *line_start = base + (last + 1 - p);
    }
}

int tt_jwin_refill(tt_jwin *w, tt_error *err)
{
    ssize_t got;
    if (w->eof)
        return 0;
    if (w->pos > 0) {
        if (!w->lines_origin)
            count_lines(w->data, w->pos, w->base, &w->line, &w->line_start);
        memmove(w->data, w->data + w->pos, w->len - w->pos);
        w->len -= w->pos;
        w->base += (int64_t)w->pos;
        w->pos = 0;
    }
    if (w->len == w->cap) {
        size_t nc = w->cap * 2;
        char *nd;
        if (w->cap >= w->max)
            return tt_error_set(err, TT_ERR_FORMAT, "a single JSON value is larger than %zu MB",
                                w->max >> 20), -1;
        if (nc > w->max)
            nc = w->max;
        nd = realloc(w->data, nc + 1);
        if (!nd)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        w->data = nd;
        w->cap = nc;
    }
    got = tt_input_read(w->in, w->data + w->len, w->cap - w->len, err);
    if (got < 0)
        return -1;
    if (got == 0) {
        w->eof = true;
        return 0;
    }
    w->len += (size_t)got;
    return 1;
}

void tt_jwin_position(const tt_jwin *w, const char *at, int64_t *off, int64_t *line,
                      int64_t *col)
{
    size_t k = (size_t)(at - w->data);
    int64_t ln = w->line, ls = w->line_start;
    if (k > w->len)
        k = w->len;
    if (w->lines_origin) {
        ln = 1;
        ls = 0;
        count_lines(w->lines_origin, (size_t)w->base, 0, &ln, &ls);
    }
    count_lines(w->data, k, w->base, &ln, &ls);
    *off = w->base + (int64_t)k;
    *line = ln;
    *col = *off - ls + 1;
}
