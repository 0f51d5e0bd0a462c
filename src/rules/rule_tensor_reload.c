/* rule_tensor_reload.c - `tensor-reload`: the same tensor DMA-loaded more
 * than max_loads times (neuron-profile draws a warning box around these).
 *
 * Transfers are events with a byte count; the tensor is the event's
 * operand (decoders put the tensor a DMA moves there). Transfers without a
 * tensor name are grouped by source address and size when their arguments
 * carry an address ("src_addr", "source_address", "src", "address"), and
 * ignored otherwise.
 *
 * Only loads count. A transfer whose source is on-chip memory (SB, SBUF,
 * PSUM, state buffer, SRAM) and whose destination is not is a store (the
 * tensor written back to HBM) and is left out; every other transfer of the
 * tensor is a load. Source and destination come from the event name
 * "SRC -> DST" (the neuron decoder names DMA transfers so, from their
 * source and dest fields), else from the arguments "source"/"src" and
 * "dest"/"dst"/"destination"; a transfer that records neither is a load.
 */
#include "config.h"

#include "analysis/argvals.h"
#include "rules/rules_util.h"
#include "util/hash.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct load {
    uint64_t    key;     /* tensor identity */
    uint32_t    label;   /* string id naming it (operand), 0 = address key */
    const char *addr;    /* the source address of an address key */
    tt_ns       start, end;
    int64_t     bytes;
    tt_evref    ev;
} load;

static int cmp_load(const void *pa, const void *pb, void *ctx)
{
    const load *a = pa, *b = pb;
    (void)ctx;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->ev.lane != b->ev.lane)
        return a->ev.lane < b->ev.lane ? -1 : 1;
    return a->ev.idx < b->ev.idx ? -1 : a->ev.idx > b->ev.idx;
}

/* The arguments the rule reads, as indexes into arg_keys. */
enum { K_SRC_ADDR, K_SOURCE_ADDRESS, K_SRC, K_ADDRESS, K_SOURCE, K_DEST, K_DST, K_DESTINATION,
       N_ARG_KEYS };
static const char *const arg_keys[N_ARG_KEYS] = {
    "src_addr", "source_address", "src", "address", "source", "dest", "dst", "destination",
};

/* First key of keys (ending with -1) the i-th fetched event has, or NULL. */
static const char *arg_any(const tt_argvals *av, size_t i, const int *keys, bool nonempty)
{
    for (; *keys >= 0; keys++) {
        const char *v = tt_argvals_get(av, i, (size_t)*keys, NULL);
        if (v && (!nonempty || *v))
            return v;
    }
    return NULL;
}

/* The source address (non-empty) of the i-th fetched event, or NULL. */
static const char *source_address(const tt_argvals *av, size_t i)
{
    static const int keys[] = {K_SRC_ADDR, K_SOURCE_ADDRESS, K_SRC, K_ADDRESS, -1};
    return arg_any(av, i, keys, true);
}

/* Memory inside the core: the first word of a memory name is SB, SBUF,
 * PSUM or SRAM, or the name says state buffer or on-chip. */
static bool on_chip(const char *mem, size_t n)
{
    static const char *const words[] = {"sb", "sbuf", "psum", "sram"};
    char buf[64];
    size_t w = 0;
    while (n > 0 && (*mem == ' ' || *mem == '\t'))
        mem++, n--;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, mem, n);
    buf[n] = '\0';
    while (w < n && isalnum((unsigned char)buf[w]))
        w++;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (w == strlen(words[k]) && strncasecmp(buf, words[k], w) == 0)
            return true;
    return rule_icontains(buf, "state buffer") || rule_icontains(buf, "statebuf") ||
           rule_icontains(buf, "on-chip");
}

/* A store: out of on-chip memory into memory that is not (see above).
 * arrow: the " -> " in the event's name, or NULL; av/i: the event's
 * fetched arguments, or av NULL when it has none. */
static bool is_store(const char *name, const char *arrow, const tt_argvals *av, size_t i)
{
    static const int k_src[] = {K_SOURCE, K_SRC, -1};
    static const int k_dst[] = {K_DEST, K_DST, K_DESTINATION, -1};
    char src[64];
    const char *v;
    if (arrow)
        return on_chip(name, (size_t)(arrow - name)) && !on_chip(arrow + 4, strlen(arrow + 4));
    if (!av || !(v = arg_any(av, i, k_src, false)))
        return false;
    snprintf(src, sizeof src, "%s", v);
    if (!on_chip(src, strlen(src)))
        return false;
    v = arg_any(av, i, k_dst, false);
    return !v || !on_chip(v, strlen(v));
}

/* Whether the rule reads e's arguments: a transfer with arguments that
 * has no operand (its address) or no "SRC -> DST" name (store or load). */
static bool wants_args(const tt_trace *tr, const tt_event *e)
{
    return e->bytes >= 0 && e->args &&
           (!tt_event_operand(tr, e) || !strstr(tt_str(tr, e->name), " -> "));
}

/* The trace's transfers (events with a byte count), in lane order, into
 * *xs, and the arguments of those that need them read up front in
 * storage order (analysis/argvals.h): walking the lanes in time order and
 * reading each event's record there would decompress a block per event in
 * a file not in time order. Stored in walk order, so run_trace's walk over
 * *xs takes them one after the other. One walk over the events: the
 * second walk goes over the transfers alone. Unreadable records count as
 * having no arguments, as the rule always did. 0, or -1 with err set (*xs
 * then freed, av empty). */
static int find_transfers(const tt_trace *tr, tt_evref **xs, size_t *nx, tt_argvals *av,
                          tt_error *err)
{
    const tt_event **ev = NULL;
    size_t n = 0, cap = 0, capx = 0;
    int rc;
    *xs = NULL;
    *nx = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            if (ln->ev[i].bytes < 0)
                continue;
            if (*nx == capx) {
                size_t nc = capx ? capx * 2 : 256;
                tt_evref *nv = realloc(*xs, nc * sizeof *nv);
                if (!nv)
                    goto oom;
                *xs = nv;
                capx = nc;
            }
            (*xs)[*nx].lane = l;
            (*xs)[*nx].idx = (uint32_t)i;
            (*nx)++;
            if (!wants_args(tr, &ln->ev[i]))
                continue;
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 256;
                const tt_event **nv = realloc(ev, nc * sizeof *nv);
                if (!nv)
                    goto oom;
                ev = nv;
                cap = nc;
            }
            ev[n++] = &ln->ev[i];
        }
    }
    rc = tt_argvals_fetch(tr, ev, n, arg_keys, N_ARG_KEYS, false, av, err);
    free(ev);
    if (rc) {
        free(*xs);
        *xs = NULL;
    }
    return rc;
oom:
    free(ev);
    free(*xs);
    *xs = NULL;
    memset(av, 0, sizeof *av);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

static int run_trace(const tt_rule_ctx *ctx, int ti, const tt_trace *tr)
{
    size_t max_loads = (size_t)tt_rule_param_value(ctx, "max_loads");
    load *v = NULL;
    tt_evref *xs;
    size_t n = 0, cap = 0, fetched = 0, nx;
    tt_argvals av;
    int rc = -1;
    if (find_transfers(tr, &xs, &nx, &av, ctx->err))
        return -1;
    for (size_t x = 0; x < nx; x++) {
        uint32_t l = xs[x].lane;
        size_t i = xs[x].idx;
        const tt_event *e = &tr->lanes[l].ev[i];
        const char *name, *addr = NULL;
        const tt_argvals *args = NULL;
        size_t ai = 0;
        uint32_t op;
        uint64_t key;
        if (wants_args(tr, e)) {
            args = &av;
            ai = fetched++;
        }
        op = tt_event_operand(tr, e);
        if (op)
            key = ((uint64_t)op << 1);
        else if (args && (addr = source_address(args, ai)) != NULL)
            key = tt_hash_bytes(addr, strlen(addr), (uint64_t)e->bytes) | 1;
        else
            continue;
        name = tt_str(tr, e->name);
        if (is_store(name, strstr(name, " -> "), args, ai))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 256;
            load *nv = realloc(v, nc * sizeof *nv);
            if (!nv)
                goto out;
            v = nv;
            cap = nc;
        }
        v[n].key = key;
        v[n].label = op;
        v[n].addr = addr;
        v[n].start = e->start;
        v[n].end = tt_event_end(e);
        v[n].bytes = e->bytes;
        v[n].ev.lane = l;
        v[n].ev.idx = (uint32_t)i;
        n++;
    }
    if (tt_sort(v, n, sizeof *v, cmp_load, NULL))
        goto out;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int64_t bytes = 0;
        tt_ns end = v[i].end;
        while (j < n && v[j].key == v[i].key) {
            bytes += v[j].bytes;
            if (v[j].end > end)
                end = v[j].end;
            j++;
        }
        if (j - i > max_loads) {
            uint32_t lanes[16];
            tt_evref ev[TT_ANN_MAX_EVENTS];
            size_t nl = 0, ne = 0;
            char a[32], b[32], sz[32], label[200];
            for (size_t k = i; k < j; k++) {
                rule_lane_add(lanes, &nl, 16, v[k].ev.lane);
                if (ne < TT_ANN_MAX_EVENTS)
                    ev[ne++] = v[k].ev;
            }
            if (v[i].label)
                snprintf(label, sizeof label, "tensor %s", tt_str(tr, v[i].label));
            else {
                char al[160];
                snprintf(al, sizeof al, "at %s (%lld bytes)", v[i].addr, (long long)v[i].bytes);
                snprintf(label, sizeof label, "data %s", al);
            }
            if (tt_rule_emit(ctx, ti, v[i].start, end, lanes, nl, ev, ne, j - i,
                             "%s loaded %zu times (%s total) between %s and %s", label, j - i,
                             tt_fmt_bytes(sz, sizeof sz, bytes),
                             tt_rule_time(tr, v[i].start, a, sizeof a),
                             tt_rule_time(tr, end, b, sizeof b)))
                goto out;
        }
        i = j;
    }
    rc = 0;
out:
    if (rc && ctx->err->code == TT_OK)
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    tt_argvals_fini(&av);
    free(xs);
    free(v);
    return rc;
}

static int run(const tt_rule_ctx *ctx)
{
    for (size_t t = 0; t < ctx->n_traces; t++)
        if (run_trace(ctx, (int)t, ctx->traces[t]))
            return -1;
    return 0;
}

const tt_rule tt_rule_tensor_reload = {
    .id = "tensor-reload",
    .summary = "the same tensor DMA-loaded more than max_loads times (stores do not count)",
    .params = {
        {"max_loads", TT_PARAM_NUMBER, 2, "loads of one tensor allowed before it is reported"},
    },
    .n_params = 1,
    .run = run,
};
