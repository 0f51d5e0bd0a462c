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

#include "analysis/key.h"
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
    uint64_t key;     /* tensor identity */
    uint32_t label;   /* string id naming it (operand), 0 = address key */
    tt_ns    start, end;
    int64_t  bytes;
    tt_evref ev;
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

/* Key from the source address and size in the arguments, or 0. */
static uint64_t address_key(tt_argcache *ac, const tt_event *e, char *label, size_t n)
{
    static const char *const keys[] = {"src_addr", "source_address", "src", "address"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *v;
        tt_error err;
        if (tt_argcache_get(ac, e, keys[k], &v, &err) == 1 && *v) {
            snprintf(label, n, "at %s (%lld bytes)", v, (long long)e->bytes);
            return tt_hash_bytes(v, strlen(v), (uint64_t)e->bytes) | 1;
        }
    }
    return 0;
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

/* Argument text of the first key of keys the event has, or NULL (valid
 * until the next call on ac). */
static const char *arg_any(tt_argcache *ac, const tt_event *e, const char *const *keys)
{
    for (; *keys; keys++) {
        const char *v;
        tt_error err;
        if (tt_argcache_get(ac, e, *keys, &v, &err) == 1)
            return v;
    }
    return NULL;
}

/* A store: out of on-chip memory into memory that is not (see above). */
static bool is_store(const tt_trace *tr, tt_argcache *ac, const tt_event *e)
{
    static const char *const k_src[] = {"source", "src", NULL};
    static const char *const k_dst[] = {"dest", "dst", "destination", NULL};
    const char *name = tt_str(tr, e->name), *arrow = strstr(name, " -> ");
    char src[64];
    const char *v;
    if (arrow)
        return on_chip(name, (size_t)(arrow - name)) && !on_chip(arrow + 4, strlen(arrow + 4));
    if (!e->args || !(v = arg_any(ac, e, k_src)))
        return false;
    snprintf(src, sizeof src, "%s", v);
    if (!on_chip(src, strlen(src)))
        return false;
    v = arg_any(ac, e, k_dst);
    return !v || !on_chip(v, strlen(v));
}

static int run_trace(const tt_rule_ctx *ctx, int ti, const tt_trace *tr)
{
    size_t max_loads = (size_t)tt_rule_param_value(ctx, "max_loads");
    load *v = NULL;
    size_t n = 0, cap = 0;
    tt_argcache ac;
    int rc = -1;
    tt_argcache_init(&ac, tr);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            uint32_t op;
            uint64_t key;
            char label[160];
            if (e->bytes < 0)
                continue;
            op = tt_event_operand(tr, e);
            if (op)
                key = ((uint64_t)op << 1);
            else if (e->args && (key = address_key(&ac, e, label, sizeof label)) != 0)
                ;
            else
                continue;
            if (is_store(tr, &ac, e))
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
            v[n].start = e->start;
            v[n].end = tt_event_end(e);
            v[n].bytes = e->bytes;
            v[n].ev.lane = l;
            v[n].ev.idx = (uint32_t)i;
            n++;
        }
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
                const tt_event *e = tt_trace_event(tr, v[i].ev);
                char al[160] = "";
                address_key(&ac, e, al, sizeof al);
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
    tt_argcache_fini(&ac);
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
