/* collview.c - the collectives view's rows, status line and panel (see
 * collview.h). */
#include "config.h"

#include "tui/collview.h"

#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"
#include "util/u64map.h"
#include "tui/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_collview_init(tt_collview *v)
{
    memset(v, 0, sizeof *v);
    tt_colls_init(&v->c);
}

void tt_collview_fini(tt_collview *v)
{
    tt_colls_fini(&v->c);
    free(v->g);
    for (size_t i = 0; i < v->n_label; i++)
        free(v->label[i]);
    free(v->label);
    tt_collview_init(v);
}

/* The readable part of a kernel name: no "ncclKernel_" (or
 * "ncclDevKernel_") prefix, nothing from the parameter list on. */
static void short_name(const char *name, char *out, size_t cap)
{
    static const char *const prefixes[] = {"ncclDevKernel_", "ncclKernel_"};
    char raw[512];
    size_t n;
    const char *paren;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t pl = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], pl) == 0 && name[pl]) {
            name += pl;
            break;
        }
    }
    paren = strchr(name, '(');
    n = paren && paren > name ? (size_t)(paren - name) : strlen(name);
    if (n >= sizeof raw)
        n = sizeof raw - 1;
    memcpy(raw, name, n);
    raw[n] = '\0';
    tt_text_sanitize(raw, n, out, cap);
}

static int cmp_rank(const void *pa, const void *pb, void *ctx)
{
    const tt_coll *a = pa, *b = pb;
    (void)ctx;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

int tt_collview_build(tt_collview *v, const tt_vrank *rk, size_t n, tt_error *err)
{
    size_t cap = 0;
    tt_collview_fini(v);
    for (size_t i = 0; i < n; i++)
        if (tt_colls_add(&v->c, rk[i].tr, i, rk[i].off, err))
            goto fail;
    if (tt_colls_match(&v->c, err))
        goto fail;
    /* the matched list is grouped by collective, in order of first
     * arrival; each group in rank order */
    for (size_t i = 0; i < v->c.n;) {
        size_t j = i;
        tt_cgroup *g;
        while (j < v->c.n && v->c.v[j].name == v->c.v[i].name && v->c.v[j].seq == v->c.v[i].seq)
            j++;
        if (v->n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            tt_cgroup *ng = realloc(v->g, nc * sizeof *ng);
            if (!ng)
                goto oom;
            v->g = ng;
            cap = nc;
        }
        g = &v->g[v->n++];
        memset(g, 0, sizeof *g);
        if (tt_sort(v->c.v + i, j - i, sizeof *v->c.v, cmp_rank, NULL))
            goto oom;
        g->first = i;
        g->n = (uint32_t)(j - i);
        g->ann = -1;
        g->late = i;
        g->t_first = g->t_last = v->c.v[i].start;
        g->e_last = v->c.v[i].start + v->c.v[i].dur;
        for (size_t k = i; k < j; k++) {
            const tt_coll *x = &v->c.v[k];
            if (x->start < g->t_first)
                g->t_first = x->start;
            if (x->start > g->t_last)
                g->t_last = x->start;
            if (x->start + x->dur > g->e_last)
                g->e_last = x->start + x->dur;
            /* the last to arrive as multi/collectives.h defines it */
            if (x->last)
                g->late = k;
        }
        i = j;
    }
    v->label = calloc(v->c.n_names + 1, sizeof *v->label);
    if (!v->label)
        goto oom;
    v->n_label = v->c.n_names;
    for (size_t i = 0; i < v->c.n_names; i++) {
        char s[1024];
        short_name(v->c.names[i], s, sizeof s);
        if (!(v->label[i] = strdup(s)))
            goto oom;
    }
    v->built = true;
    return 0;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
fail:
    tt_collview_fini(v);
    return -1;
}

int tt_collview_annotate(tt_collview *v, const tt_annotations *ann, const uint32_t *base)
{
    tt_u64map where;
    int rc = -1;
    tt_u64map_init(&where);
    for (size_t gi = 0; gi < v->n; gi++) {
        const tt_cgroup *g = &v->g[gi];
        v->g[gi].ann = -1;
        for (size_t k = g->first; k < g->first + g->n; k++) {
            const tt_coll *x = &v->c.v[k];
            uint64_t key = ((uint64_t)(base[x->rank] + x->ev.lane) << 32) | x->ev.idx;
            if (tt_u64map_put(&where, key, (uint32_t)gi))
                goto out;
        }
    }
    for (size_t i = 0; i < ann->n; i++) {
        const tt_annotation *an = &ann->v[i];
        for (size_t k = 0; k < an->n_events; k++) {
            uint64_t key = ((uint64_t)(base[an->trace] + an->events[k].lane) << 32) |
                           an->events[k].idx;
            uint32_t *gi = tt_u64map_get(&where, key);
            /* the list is in severity order: the first one found stays */
            if (gi && v->g[*gi].ann < 0)
                v->g[*gi].ann = (int64_t)i;
        }
    }
    rc = 0;
out:
    tt_u64map_fini(&where);
    return rc;
}

const char *tt_collview_name(const tt_collview *v, const tt_cgroup *g)
{
    return v->c.names[v->c.v[g->first].name];
}

const char *tt_collview_label(const tt_collview *v, const tt_cgroup *g, char *buf, size_t n)
{
    const tt_coll *x = &v->c.v[g->first];
    /* the sequence first: a cut label still says which occurrence */
    snprintf(buf, n, "#%u %s", x->seq, v->label[x->name]);
    return buf;
}

size_t tt_collview_lower(const tt_collview *v, tt_ns t)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->g[mid].t_first < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void tt_collview_row(const tt_collview *v, size_t gi, const tt_vrank *rk, tt_grid *g, int x0,
                     int y, const tt_viewport *vp, tt_ns shift, const tt_glyphs *gl)
{
    const tt_cgroup *c = &v->g[gi];
    const char *name = tt_collview_name(v, c);
    uint8_t color = tt_theme_color_of(name, strlen(name));
    tt_ns a = c->t_first - shift, m = c->t_last - shift, e = c->e_last - shift;
    tt_ns ws = vp->start, we = vp->start + vp->span;
    int64_t ca, ce, lo, hi;
    if (e <= ws || a >= we)
        return;
    ca = tt_vp_col(vp, a);
    ce = tt_vp_col(vp, e > a ? e - 1 : a);
    lo = ca < 0 ? 0 : ca;
    hi = ce >= vp->cols ? vp->cols - 1 : ce;
    for (int64_t col = lo; col <= hi; col++) {
        /* the line while ranks are still arriving, the bar once all are in */
        tt_ns cb = tt_vp_time(vp, col + 1);
        if (cb <= m && m > a)
            tt_grid_set(g, x0 + (int)col, y, gl->spread, TT_R_COLL_SPREAD, 0);
        else if (ca == ce && (e - a) * 2 < tt_vp_time(vp, col + 1) - tt_vp_time(vp, col))
            tt_grid_set(g, x0 + (int)col, y, gl->sliver, TT_R_EV, color);
        else
            tt_grid_set(g, x0 + (int)col, y, gl->full, TT_R_EV, color);
    }
    if (c->n > 1 && ce + 2 < vp->cols) {
        char note[48];
        int room = vp->cols - (int)ce - 2;
        const tt_vrank *r = &rk[v->c.v[c->late].rank];
        snprintf(note, sizeof note, "last r%lld", (long long)r->rank);
        if (tt_grid_text_width(note) > room)
            snprintf(note, sizeof note, "r%lld", (long long)r->rank);
        if (tt_grid_text_width(note) <= room)
            tt_grid_text(g, x0 + (int)ce + 2, y, room, note, TT_R_COLL_NOTE, 0);
    }
}

/* Entries of a collective by wait, largest first (ties: rank order). */
static int cmp_wait(const void *pa, const void *pb, void *ctx)
{
    const tt_coll *v = ctx, *a = &v[*(const size_t *)pa], *b = &v[*(const size_t *)pb];
    if (a->wait != b->wait)
        return a->wait > b->wait ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

void tt_collview_status(const tt_collview *v, size_t gi, const tt_vrank *rk, bool utf8,
                        char *out, size_t cap)
{
    const tt_cgroup *c = &v->g[gi];
    char label[600], sp[48], lo[48], hi[48];
    size_t o, *ix;
    tt_ns dmin = INT64_MAX, dmax = 0;
    tt_collview_label(v, c, label, sizeof label);
    for (size_t k = c->first; k < c->first + c->n; k++) {
        if (v->c.v[k].dur < dmin)
            dmin = v->c.v[k].dur;
        if (v->c.v[k].dur > dmax)
            dmax = v->c.v[k].dur;
    }
    if (c->n == 1) {
        snprintf(out, cap, "%s%sonly on rank %lld%sduration %s", label, tt_tab_sep(utf8),
                 (long long)rk[v->c.v[c->first].rank].rank, tt_tab_sep(utf8),
                 tt_fmt_dur(lo, sizeof lo, v->c.v[c->first].dur, 3));
        return;
    }
    snprintf(out, cap, "%s%s%u ranks%sspread %s, last rank %lld%sduration %s to %s%swaits", label,
             tt_tab_sep(utf8), c->n, tt_tab_sep(utf8), tt_fmt_dur(sp, sizeof sp, c->t_last - c->t_first, 3),
             (long long)rk[v->c.v[c->late].rank].rank, tt_tab_sep(utf8),
             tt_fmt_dur(lo, sizeof lo, dmin, 3), tt_fmt_dur(hi, sizeof hi, dmax, 3), tt_tab_sep(utf8));
    ix = malloc(c->n * sizeof *ix);
    if (!ix)
        return;
    for (uint32_t k = 0; k < c->n; k++)
        ix[k] = c->first + k;
    if (tt_sort(ix, c->n, sizeof *ix, cmp_wait, v->c.v) == 0) {
        o = strlen(out);
        for (uint32_t k = 0; k < c->n && o + 40 < cap; k++) {
            const tt_coll *x = &v->c.v[ix[k]];
            char w[48];
            if (ix[k] == c->late)
                continue;
            o += (size_t)snprintf(out + o, cap - o, "%s r%lld %s", k ? "," : "",
                                  (long long)rk[x->rank].rank, tt_fmt_dur(w, sizeof w, x->wait, 3));
        }
    }
    free(ix);
}

/* Above the table: what each column is measured from, and what this
 * collective cannot say (multi/collectives.h). late: the last to arrive,
 * latest: the latest start. 0 or -1 on OOM. */
static int panel_notes(const tt_collview *v, const tt_cgroup *c, const tt_vrank *rk,
                       const tt_coll *late, const tt_coll *latest, int width, tt_plist *pl)
{
    tt_colls_facts f;
    char line[1024], d[64];
    if (tt_plist_wrap(pl, TT_R_PANEL,
                      "Start offset: from the earliest start, on the aligned clock. Wait: in "
                      "the kernel, its duration minus the shortest among the ranks (needs no "
                      "aligned clocks); the last to arrive waits least.",
                      width))
        return -1;
    tt_colls_facts_range(&v->c, c->first, c->first + c->n, &f);
    if (f.contradict || f.disjoint) {
        size_t o = 0;
        if (f.contradict)
            o = (size_t)snprintf(line, sizeof line,
                                 "Clocks not aligned: rank %lld starts %s after rank %lld, the "
                                 "last to arrive by its in-kernel wait. ",
                                 (long long)rk[latest->rank].rank,
                                 tt_fmt_dur(d, sizeof d, latest->start - late->start, 3),
                                 (long long)rk[late->rank].rank);
        snprintf(line + o, sizeof line - o, "%sThe start offsets contradict the waits; "
                 "the waits are kept.",
                 f.disjoint ? "The ranks' kernels do not overlap in time. " : "");
        if (tt_plist_wrap(pl, TT_R_PANEL, line, width))
            return -1;
    }
    if (f.world_size > 0 && (uint64_t)f.world_size > f.ranks) {
        snprintf(line, sizeof line,
                 "%zu of %lld ranks (world_size) loaded: the waits and the last to arrive are "
                 "among these only.",
                 f.ranks, (long long)f.world_size);
        if (tt_plist_wrap(pl, TT_R_PANEL, line, width))
            return -1;
    }
    if (f.p2p && c->n > 1 &&
        tt_plist_wrap(pl, TT_R_PANEL,
                      "Point-to-point (SendRecv, Send, Recv): a rank waits for its peer only, "
                      "so \"last to arrive\" means little; the straggler rule leaves it out.",
                      width))
        return -1;
    return 0;
}

int tt_collview_panel(const tt_collview *v, size_t gi, const tt_vrank *rk, size_t n_rk,
                      tt_ns origin, const char *align, int width, bool utf8, tt_plist *pl)
{
    const tt_cgroup *c = &v->g[gi];
    const tt_coll *first = NULL, *latest = NULL, *late = &v->c.v[c->late];
    char line[2048], a[64], b[64], d[64], e[64], f[64], files[8192], cmd[sizeof files + 300];
    size_t o;
    int bw = width - 6 - 17 - 3 * 17 - 2, cw = width >= 100 ? 17 : 15;
    tt_ns wmax = 0;
    if (bw > 30)
        bw = 30;
    for (size_t k = c->first; k < c->first + c->n; k++) {
        if (!first || v->c.v[k].start < first->start)
            first = &v->c.v[k];
        if (!latest || v->c.v[k].start > latest->start)
            latest = &v->c.v[k];
        if (v->c.v[k].wait > wmax)
            wmax = v->c.v[k].wait;
    }
    if (tt_plist_wrap(pl, TT_R_PANEL, tt_collview_name(v, c), width))
        return -1;
    snprintf(line, sizeof line,
             "sequence %u%s%u rank%s%sfirst start %s (rank %lld)%slast start %s (rank %lld)%s"
             "spread %s%sall done %s%slast to arrive (least in-kernel wait): rank %lld",
             late->seq, tt_tab_sep(utf8), c->n, c->n == 1 ? "" : "s", tt_tab_sep(utf8),
             tt_fmt_dur(a, sizeof a, c->t_first - origin, 9), (long long)rk[first->rank].rank,
             tt_tab_sep(utf8), tt_fmt_dur(b, sizeof b, c->t_last - origin, 9),
             (long long)rk[latest->rank].rank, tt_tab_sep(utf8),
             tt_fmt_dur(d, sizeof d, c->t_last - c->t_first, 9), tt_tab_sep(utf8),
             tt_fmt_dur(e, sizeof e, c->e_last - origin, 9), tt_tab_sep(utf8),
             (long long)rk[late->rank].rank);
    if (tt_plist_wrap(pl, TT_R_PANEL, line, width))
        return -1;
    /* the definitions, the notes and the batch command (one file per
     * rank: several lines) before the table: End still shows the last
     * ranks' lines */
    if (panel_notes(v, c, rk, late, latest, width, pl))
        return -1;
    snprintf(cmd, sizeof cmd, "tracetty report --kind collectives --align %s %s (the rows of "
                              "this name, sequence %u)", align,
             tt_vrank_shell_files(rk, n_rk, files, sizeof files), late->seq);
    if (!tt_plist_add(pl, TT_R_PANEL_TITLE, "The same numbers in batch") ||
        tt_plist_wrap(pl, TT_R_PANEL_KEY, cmd, width))
        return -1;
    /* a narrow panel drops the start (the offset says the same) */
    if (width < 100)
        bw = 0;
    o = 0;
    tt_tab_col(line, sizeof line, &o, "Rank", 6, false, utf8);
    if (width >= 100)
        tt_tab_col(line, sizeof line, &o, "Start", 17, false, utf8);
    tt_tab_col(line, sizeof line, &o, "Start offset", cw, false, utf8);
    tt_tab_col(line, sizeof line, &o, "Duration", cw, false, utf8);
    tt_tab_col(line, sizeof line, &o, "Wait", cw, false, utf8);
    if (!tt_plist_add(pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t k = c->first; k < c->first + c->n; k++) {
        const tt_coll *x = &v->c.v[k];
        char rn[32];
        o = 0;
        snprintf(rn, sizeof rn, "%lld", (long long)rk[x->rank].rank);
        tt_tab_col(line, sizeof line, &o, rn, 6, false, utf8);
        if (width >= 100)
            tt_tab_col(line, sizeof line, &o, tt_fmt_dur(a, sizeof a, x->start - origin, 9), 17,
                       false, utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(b, sizeof b, x->offset, 9), cw, false, utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(d, sizeof d, x->dur, 9), cw, false, utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(e, sizeof e, x->wait, 9), cw, false, utf8);
        if (bw > 0 && o + 2 < sizeof line) {
            line[o++] = ' ';
            line[o++] = ' ';
            tt_tab_bar(line, sizeof line, &o, wmax > 0 ? (double)x->wait / (double)wmax : 0, bw,
                       utf8);
        }
        if (k == c->late && c->n > 1) {
            snprintf(f, sizeof f, "  last to arrive");
            if (o + strlen(f) + 1 < sizeof line) {
                memcpy(line + o, f, strlen(f) + 1);
                o += strlen(f);
            }
        }
        if (!tt_plist_item(pl, TT_R_PANEL, TT_CV_LINE_RANK, (int64_t)k, line))
            return -1;
    }
    return 0;
}
