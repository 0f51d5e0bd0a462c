/* ranks.c - the view's data of each rank (see ranks.h). */
#include "config.h"

#include "tui/ranks.h"

#include "analysis/classify.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

/* Device lanes: those holding any device work. A host lane is read to
 * its end; a device lane stops at its first event. A trace without any
 * (a CPU-only profile) shows all its lanes in the combined view rather
 * than none. */
static int find_device_lanes(tt_vrank *r)
{
    const tt_trace *tr = r->tr;
    tt_classifier cls;
    uint32_t first_group = 0;
    if (tt_classifier_init(&cls, tr))
        return -1;
    r->dev = malloc(((size_t)tr->n_lanes + 1) * sizeof *r->dev);
    if (!r->dev) {
        tt_classifier_fini(&cls);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++)
            if (tt_classifier_category(&cls, &ln->ev[i]) != TT_CAT_OTHER) {
                if (r->n_dev == 0)
                    first_group = ln->group;
                else if (ln->group != first_group)
                    r->dev_groups = true;
                r->dev[r->n_dev++] = l;
                break;
            }
    }
    if (r->n_dev == 0) {
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            r->dev[l] = l;
            if (l > 0 && tr->lanes[l].group != tr->lanes[0].group)
                r->dev_groups = true;
        }
        r->n_dev = tr->n_lanes;
        r->no_device = tr->n_lanes > 0;
    }
    tt_classifier_fini(&cls);
    return 0;
}

int tt_vrank_init(tt_vrank *r, const tt_trace *tr, int64_t rank, tt_ns off, const char *path,
                  const char *source, bool devices)
{
    memset(r, 0, sizeof *r);
    tt_hits_init(&r->xhits);
    tt_hilite_init(&r->xhl);
    tt_busy_init(&r->busy);
    tt_busy_init(&r->comm);
    r->tr = tr;
    r->rank = rank;
    r->off = off;
    r->source = source ? source : "";
    if (path && strcmp(path, "-") != 0) {
        const char *b = base_name(path);
        tt_text_sanitize(b, strlen(b), r->file, sizeof r->file);
        if (!(r->path = strdup(path)))
            return -1;
    } else {
        snprintf(r->file, sizeof r->file, "(stdin)");
    }
    r->lv = tt_levels_new(tr);
    r->sp = tt_sparks_new(tr);
    r->collapsed = calloc((size_t)tr->n_groups + 1, sizeof *r->collapsed);
    if (!r->lv || !r->sp || !r->collapsed || tt_tl_init(&r->tl, tr, r->lv))
        return -1;
    return devices ? find_device_lanes(r) : 0;
}

void tt_vrank_fini(tt_vrank *r)
{
    tt_levels_free(r->lv);
    tt_sparks_free(r->sp);
    if (r->tl.tr)
        tt_tl_fini(&r->tl);
    tt_busy_fini(&r->busy);
    tt_busy_fini(&r->comm);
    tt_hits_fini(&r->xhits);
    tt_hilite_fini(&r->xhl);
    free(r->collapsed);
    free(r->match);
    free(r->used[0]);
    free(r->used[1]);
    free(r->dev);
    free(r->path);
    memset(r, 0, sizeof *r);
}

typedef struct keep_ctx {
    tt_classifier cls;
    bool          comm_only;
    bool          any;         /* no device work: every slice is the rank's work */
} keep_ctx;

static bool keep_device(void *ctx, uint32_t lane, const tt_event *e)
{
    keep_ctx *k = ctx;
    (void)lane;
    if (k->comm_only)
        return tt_classifier_gpu(&k->cls, e) == TT_GPU_COMM;
    return k->any ? e->kind == TT_EV_SLICE : tt_classifier_category(&k->cls, e) != TT_CAT_OTHER;
}

int tt_vrank_busy(tt_vrank *r)
{
    keep_ctx k;
    int rc;
    if (r->has_busy)
        return 0;
    if (tt_classifier_init(&k.cls, r->tr))
        return -1;
    k.comm_only = false;
    k.any = r->no_device;
    rc = tt_busy_build(&r->busy, r->tr, r->dev, r->n_dev, keep_device, &k);
    if (rc == 0) {
        k.comm_only = true;
        rc = tt_busy_build(&r->comm, r->tr, r->dev, r->n_dev, keep_device, &k);
    }
    tt_classifier_fini(&k.cls);
    if (rc) {
        tt_busy_fini(&r->busy);
        tt_busy_fini(&r->comm);
        return -1;
    }
    r->has_busy = true;
    return 0;
}

bool tt_vrank_is_dev(const tt_vrank *r, uint32_t lane)
{
    size_t lo = 0, hi = r->n_dev;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->dev[mid] < lane)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->n_dev && r->dev[lo] == lane;
}

const char *tt_vrank_lane_label(const tt_vrank *r, uint32_t lane, char *buf, size_t n)
{
    char raw[512];
    if (r->dev_groups)
        tt_lane_fullname(r->tr, lane, raw, sizeof raw);
    else
        tt_lane_label(r->tr, &r->tr->lanes[lane], raw, sizeof raw);
    tt_text_sanitize(raw, strlen(raw), buf, n);
    return buf;
}

const char *tt_vrank_shell_files(const tt_vrank *rk, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char q[4 * 1024 + 8];
        size_t k;
        if (rk[i].path)
            tt_shell_quote(rk[i].path, q, sizeof q, NULL);
        else
            snprintf(q, sizeof q, "TRACE");
        k = strlen(q);
        if (o + k + 6 >= cap) {
            snprintf(buf + o, cap - o, "%s...", o ? " " : "");
            break;
        }
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", q);
    }
    return buf;
}

size_t tt_vrank_memory(const tt_vrank *r)
{
    return sizeof *r + (r->lv ? tt_levels_memory(r->lv) : 0) + tt_busy_memory(&r->busy) +
           tt_busy_memory(&r->comm) + r->n_dev * sizeof *r->dev +
           (size_t)r->tr->n_groups * sizeof *r->collapsed +
           /* colors and legend counts per string id */
           (size_t)tt_strtab_count(r->tr->strings) * (1 + sizeof(uint32_t));
}

int tt_rows_build_job(tt_rows *rows, const tt_vrank *rk, size_t n, const uint32_t *base,
                      uint32_t n_glanes, const bool *folded, bool depth0)
{
    if (tt_rows_begin(rows, n_glanes, base))
        return -1;
    for (size_t i = 0; i < n; i++) {
        const tt_vrank *r = &rk[i];
        tt_row head = {TT_ROW_RANK, 0, 0, 0, 0, (uint32_t)i};
        if (tt_rows_push(rows, head))
            return -1;
        if (folded && folded[i])
            continue;
        for (size_t k = 0; k < r->n_dev; k++) {
            uint32_t l = r->dev[k];
            uint32_t nd = depth0 ? 1 : (uint32_t)r->tr->lanes[l].max_depth + 1;
            for (uint32_t d = 0; d < nd; d++) {
                tt_row lr = {TT_ROW_LANE, (uint16_t)d, r->tr->lanes[l].group, l, 0, (uint32_t)i};
                if (tt_rows_push(rows, lr))
                    return -1;
            }
        }
    }
    return 0;
}
