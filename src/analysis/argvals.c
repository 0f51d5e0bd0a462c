/* argvals.c - argument values of many events in storage order (see
 * argvals.h). */
#include "config.h"

#include "analysis/argvals.h"

#include "analysis/key.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

static int cmp_handle(const void *pa, const void *pb, void *ctx)
{
    const tt_event *const *ev = ctx;
    uint32_t a = ev[*(const uint32_t *)pa]->args, b = ev[*(const uint32_t *)pb]->args;
    return a < b ? -1 : a > b;
}

void tt_argvals_fini(tt_argvals *v)
{
    free(v->val);
    tt_strtab_free(v->text);
    memset(v, 0, sizeof *v);
}

int tt_argvals_fetch(const tt_trace *tr, const tt_event *const *ev, size_t n,
                     const char *const *keys, size_t n_keys, bool strict, tt_argvals *v,
                     tt_error *err)
{
    uint32_t *order = NULL;
    size_t m = 0;
    tt_argcache ac;
    int rc = 0;

    memset(v, 0, sizeof *v);
    if (n > UINT32_MAX || (n_keys && n > SIZE_MAX / sizeof *v->val / n_keys))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    v->n = n;
    v->n_keys = n_keys;
    v->val = calloc(n * n_keys > 0 ? n * n_keys : 1, sizeof *v->val);
    v->text = tt_strtab_new();
    order = malloc((n ? n : 1) * sizeof *order);
    if (!v->val || !v->text || !order) {
        free(order);
        tt_argvals_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    /* events without arguments have none of the keys: leave them out */
    for (size_t i = 0; i < n; i++)
        if (ev[i]->args)
            order[m++] = (uint32_t)i;
    if (tt_sort(order, m, sizeof *order, cmp_handle, (void *)ev)) {
        free(order);
        tt_argvals_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    /* one cache: events of the same record (consecutive now) share the
     * parsed copy, and the reader resumes inside its block */
    tt_argcache_init(&ac, tr);
    for (size_t j = 0; j < m && rc == 0; j++) {
        const tt_event *e = ev[order[j]];
        uint32_t *cell = v->val + (size_t)order[j] * n_keys;
        for (size_t k = 0; k < n_keys; k++) {
            const char *s;
            bool number;
            uint32_t id;
            tt_error rerr = {.code = TT_OK};
            int r = tt_argcache_get_typed(&ac, e, keys[k], &s, &number, &rerr);
            if (r < 0) {
                if (rerr.code == TT_ERR_NOMEM || strict) {
                    if (err)
                        *err = rerr;
                    rc = rerr.code == TT_ERR_NOMEM ? -1 : -2;
                }
                break;   /* lenient: an unreadable record has no arguments */
            }
            if (r == 0)
                continue;
            id = tt_strtab_intern(v->text, s, strlen(s));
            if (id == TT_STR_ERROR || id >= UINT32_MAX / 2 - 1) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                rc = -1;
                break;
            }
            cell[k] = (id + 1) << 1 | (number ? 1u : 0u);
        }
    }
    v->blocks_read = ac.rd.loads;
    tt_argcache_fini(&ac);
    free(order);
    if (rc)
        tt_argvals_fini(v);
    return rc;
}

int tt_argvals_sel_events(const tt_trace *tr, const tt_sel *sel, bool transfers_only,
                          const tt_event ***ev, size_t *n, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), m = 0, cap = 0;
    const tt_event **v = NULL;
    tt_idxbuf buf;
    int rc = 0;
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            if (transfers_only && e->bytes < 0)
                continue;
            if (m == cap) {
                size_t nc = cap ? cap * 2 : 256;
                const tt_event **nv = realloc(v, nc * sizeof *nv);
                if (!nv) {
                    rc = -1;
                    break;
                }
                v = nv;
                cap = nc;
            }
            v[m++] = e;
        }
    }
    tt_idxbuf_fini(&buf);
    if (rc) {
        free(v);
        *ev = NULL;
        *n = 0;
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    *ev = v;
    *n = m;
    return 0;
}
