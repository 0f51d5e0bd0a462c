/* kind_operators.c - per-operator host and device time (see
 * kind_operators.h). */
#include "config.h"

#include "report/kind_operators.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/argvals.h"
#include "analysis/attrib.h"
#include "analysis/modules.h"
#include "analysis/operators.h"
#include "index/index.h"
#include "util/json.h"
#include "util/sort.h"
#include "util/strtab.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tt_col op_cols[] = {
    {"Name", "name", TT_COL_TEXT, 0, false},
    {"Calls", "calls", TT_COL_INT, 0, false},
    {"Host Self (ns)", "host_self_ns", TT_COL_INT, 0, false},
    {"Host Total (ns)", "host_total_ns", TT_COL_INT, 0, false},
    {"Device Self (ns)", "device_self_ns", TT_COL_INT, 0, false},
    {"Device Total (ns)", "device_total_ns", TT_COL_INT, 0, false},
    {"Host Self Avg (ns)", "host_self_avg_ns", TT_COL_REAL, 1, false},
    {"Host Total Avg (ns)", "host_total_avg_ns", TT_COL_REAL, 1, false},
    {"Device Self Avg (ns)", "device_self_avg_ns", TT_COL_REAL, 1, false},
    {"Device Total Avg (ns)", "device_total_avg_ns", TT_COL_REAL, 1, false},
    {"Host Self (%)", "host_self_percent", TT_COL_REAL, 2, false},
    {"Host Total (%)", "host_total_percent", TT_COL_REAL, 2, false},
    {"Device Self (%)", "device_self_percent", TT_COL_REAL, 2, false},
    {"Device Total (%)", "device_total_percent", TT_COL_REAL, 2, false},
    {"Input Shapes", "input_shapes", TT_COL_TEXT, 0, false},
};
#define N_OP_COLS (sizeof op_cols / sizeof op_cols[0])

/* Input Shapes, the last, only with --by shape. */
static size_t operators_cols_used(const tt_report_opts *o)
{
    return N_OP_COLS - (o->by_shape ? 0 : 1);
}

typedef enum op_sort { SORT_DEVICE_SELF = 0, SORT_HOST_SELF, SORT_HOST_TOTAL, SORT_DEVICE_TOTAL,
                       SORT_CALLS } op_sort;

static const char *const sort_names[] = {"device-self", "host-self", "host-total",
                                         "device-total", "calls"};

static int sort_parse(const char *s, op_sort *out, tt_error *err)
{
    *out = SORT_DEVICE_SELF;
    if (!s)
        return 0;
    for (size_t i = 0; i < sizeof sort_names / sizeof sort_names[0]; i++)
        if (!strcmp(s, sort_names[i])) {
            *out = (op_sort)i;
            return 0;
        }
    return tt_error_set(err, TT_ERR_USAGE,
                        "unknown --sort '%.100s' (device-self, host-self, host-total, "
                        "device-total or calls)", s);
}

/* One key at most is the table's TT_KIND_BY_ONE; the --sort is ours. */
static int operators_check(const tt_report_opts *o, tt_error *err)
{
    op_sort s;
    return sort_parse(o->sort, &s, err);
}

/* --------------------------------------------------------------- rows */

typedef struct op_row {
    const char *label;    /* the Name cell (trace's or vals' string), NULL = none */
    const char *shape;    /* by shape: the Input Dims text, NULL = none */
    tt_op_times t;        /* calls and times (analysis/operators.h) */
} op_row;

typedef struct op_table {
    op_row   *rows;       /* indexed by group id */
    size_t    cap;
    uint32_t *used;       /* group ids in first-seen order */
    size_t    n_used, cap_used;
    tt_strtab *vals;      /* labels of composite keys */
} op_table;

/* The row of group id g (created empty on first use). NULL on OOM. */
static op_row *row_at(op_table *t, uint32_t g, bool *fresh)
{
    *fresh = false;
    if (g >= t->cap) {
        size_t nc = t->cap ? t->cap : 256;
        op_row *nr;
        while (nc <= g)
            nc *= 2;
        if (!(nr = realloc(t->rows, nc * sizeof *nr)))
            return NULL;
        memset(nr + t->cap, 0, (nc - t->cap) * sizeof *nr);
        t->rows = nr;
        t->cap = nc;
    }
    if (!t->rows[g].t.calls) {
        if (t->n_used == t->cap_used) {
            size_t nc = t->cap_used ? t->cap_used * 2 : 256;
            uint32_t *nu = realloc(t->used, nc * sizeof *nu);
            if (!nu)
                return NULL;
            t->used = nu;
            t->cap_used = nc;
        }
        t->used[t->n_used++] = g;
        *fresh = true;
    }
    return &t->rows[g];
}

typedef struct sort_ctx {
    op_sort by;
} sort_ctx;

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const op_row *a = *(op_row *const *)pa, *b = *(op_row *const *)pb;
    const sort_ctx *c = ctx;
    int64_t x = 0, y = 0;
    int r;
    switch (c->by) {
    case SORT_DEVICE_SELF: x = a->t.dself; y = b->t.dself; break;
    case SORT_HOST_SELF: x = a->t.hself; y = b->t.hself; break;
    case SORT_HOST_TOTAL: x = a->t.htotal; y = b->t.htotal; break;
    case SORT_DEVICE_TOTAL: x = a->t.dtotal; y = b->t.dtotal; break;
    case SORT_CALLS: x = (int64_t)a->t.calls; y = (int64_t)b->t.calls; break;
    }
    if (x != y)
        return x < y ? 1 : -1;
    if (!a->label || !b->label)
        return (a->label == NULL) - (b->label == NULL);
    if ((r = strcmp(a->label, b->label)))
        return r;
    if (!a->shape || !b->shape)
        return (a->shape == NULL) - (b->shape == NULL);
    return strcmp(a->shape, b->shape);
}

/* Group id and label of op i: string keys by the trace's id, the others
 * through t->vals. 0, or -1 with err set. */
static int group_of(const tt_trace *tr, const tt_report_opts *o, const tt_argvals *av,
                    op_table *t, size_t i, tt_evref r, uint32_t *gid, const char **label,
                    const char **shape, tt_error *err)
{
    const tt_event *e = tt_trace_event(tr, r);
    const tt_key *k = o->n_keys ? &o->keys[0] : NULL;
    char lbuf[600];
    const char *v;
    uint32_t id;
    *shape = NULL;
    if (!k || (k->kind != TT_KEY_LANE && k->kind != TT_KEY_ARG)) {
        id = k ? tt_key_string_id(tr, k, e) : e->name;
        *gid = id;
        *label = id ? tt_str(tr, id) : NULL;
        if (!k || k->kind == TT_KEY_NAME)
            *label = tt_str(tr, e->name);
        return 0;
    }
    if (k->kind == TT_KEY_LANE) {
        v = tt_lane_fullname(tr, r.lane, lbuf, sizeof lbuf);
        id = tt_strtab_intern(t->vals, v, strlen(v));
    } else if (o->by_shape) {
        /* name and shape: "<name id> <shape>" is the group */
        const char *dims = tt_argvals_get(av, i, 0, NULL);
        int nb = snprintf(lbuf, sizeof lbuf, "%u %s", e->name, dims ? dims : "");
        id = tt_strtab_intern(t->vals, lbuf, (size_t)nb < sizeof lbuf ? (size_t)nb : sizeof lbuf - 1);
        *label = tt_str(tr, e->name);
        *shape = dims;
        if (id == TT_STR_ERROR)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        *gid = id + 1;
        return 0;
    } else {
        v = tt_argvals_get(av, i, 0, NULL);
        id = v ? tt_strtab_intern(t->vals, v, strlen(v)) : 0;
        if (!v) {
            *gid = 0;
            *label = NULL;
            return 0;
        }
    }
    if (id == TT_STR_ERROR)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    *gid = id + 1;
    *label = tt_strtab_get(t->vals, id);
    return 0;
}

/* The device's name in PyTorch's headers: CUDA for CUDA and HIP runtime
 * launches, NPU for Ascend's, else Device. */
static const char *device_name(const tt_trace *tr, const tt_attrib *a)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        if (!tt_attrib_lane_is_device(a, l))
            continue;
        for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
            tt_evref h = tt_attrib_launcher(a, (tt_evref){l, i});
            const char *n;
            if (!tt_evref_ok(h))
                continue;
            n = tt_str(tr, tt_trace_event(tr, h)->name);
            if (!strncmp(n, "cu", 2) || !strncmp(n, "hip", 3))
                return "CUDA";
            if (!strncmp(n, "acl", 3) || strstr(n, "Ascend") || strstr(n, "CANN"))
                return "NPU";
            return "Device";
        }
    }
    return "Device";
}

/* ------------------------------------------------ PyTorch's text table */

static double avg(tt_ns v, uint64_t n) { return n ? (double)v / (double)n : 0.0; }

/* _format_time(): us, ms or s with three decimals (of a time in ns). */
static void torch_time(char *buf, size_t n, double ns)
{
    double us = ns / 1000.0;
    if (us >= 1e6)
        snprintf(buf, n, "%.3fs", us / 1e6);
    else if (us >= 1e3)
        snprintf(buf, n, "%.3fms", us / 1e3);
    else
        snprintf(buf, n, "%.3fus", us);
}

static void torch_share(char *buf, size_t n, tt_ns part, tt_ns whole)
{
    if (whole == 0)
        snprintf(buf, n, "NaN");
    else
        snprintf(buf, n, "%.2f%%", (double)part * 100.0 / (double)whole);
}

typedef struct sbuf {
    char  *s;
    size_t n, cap;
    bool   failed;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        char *ns;
        while (b->n + n + 1 > nc)
            nc *= 2;
        if (!(ns = realloc(b->s, nc))) {
            b->failed = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

/* One cell right-aligned in width columns, then the two spaces. */
static void sb_cell(sbuf *b, const char *s, int width)
{
    int w = tt_text_width(s);
    for (; w < width; w++)
        sb_put(b, " ", 1);
    sb_put(b, s, strlen(s));
    sb_put(b, "  ", 2);
}

static void sb_dashes(sbuf *b, int width)
{
    for (int i = 0; i < width; i++)
        sb_put(b, "-", 1);
    sb_put(b, "  ", 2);
}

/* The Python repr of a JSON list of lists: a space after each comma. */
static void py_list(const char *json, char *out, size_t cap)
{
    size_t o = 0;
    for (; *json && o + 2 < cap; json++) {
        out[o++] = *json;
        if (*json == ',')
            out[o++] = ' ';
    }
    out[o] = '\0';
}

#define NAME_MAX_W 55
#define SHAPES_MAX_W 80
#define COL_W 12

static char *torch_table(op_row *const *rows, size_t n, bool device, const char *dev,
                         bool shapes, tt_ns sum_hself, tt_ns sum_dself)
{
    sbuf b = {0};
    char (*names)[NAME_MAX_W * 4 + 8] = calloc(n ? n : 1, sizeof *names);
    char (*shp)[SHAPES_MAX_W * 4 + 8] = shapes ? calloc(n ? n : 1, sizeof *shp) : NULL;
    char t[64], hdr[4][48];
    int name_w = 0, shape_w = 0, ncols;
    const char *heads[16];
    if (!names || (shapes && !shp)) {
        free(names);
        free(shp);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char safe[NAME_MAX_W * 4 + 8], py[SHAPES_MAX_W * 4 + 8];
        const char *nm = rows[i]->label ? rows[i]->label : "";
        size_t len = strlen(nm);
        int w;
        /* names of 52 characters or more: the first 52 and "..." */
        if (len >= NAME_MAX_W - 3) {
            char cut[NAME_MAX_W + 1];
            memcpy(cut, nm, NAME_MAX_W - 3);
            memcpy(cut + NAME_MAX_W - 3, "...", 4);
            tt_text_sanitize(cut, strlen(cut), safe, sizeof safe);
        } else {
            tt_text_sanitize(nm, len, safe, sizeof safe);
        }
        snprintf(names[i], sizeof names[i], "%s", safe);
        if ((w = (int)len + 4) > name_w)
            name_w = w;
        if (shapes) {
            py_list(rows[i]->shape ? rows[i]->shape : "[]", py, sizeof py);
            if ((w = (int)strlen(py) + 4) > shape_w)
                shape_w = w;
            py[SHAPES_MAX_W < strlen(py) ? SHAPES_MAX_W : strlen(py)] = '\0';
            tt_text_sanitize(py, strlen(py), shp[i], sizeof shp[i]);
        }
    }
    if (name_w > NAME_MAX_W)
        name_w = NAME_MAX_W;
    if (shape_w > SHAPES_MAX_W)
        shape_w = SHAPES_MAX_W;
    ncols = 0;
    heads[ncols++] = "Name";
    heads[ncols++] = "Self CPU %";
    heads[ncols++] = "Self CPU";
    heads[ncols++] = "CPU total %";
    heads[ncols++] = "CPU total";
    heads[ncols++] = "CPU time avg";
    if (device) {
        snprintf(hdr[0], sizeof hdr[0], "Self %s", dev);
        snprintf(hdr[1], sizeof hdr[1], "Self %s %%", dev);
        snprintf(hdr[2], sizeof hdr[2], "%s total", dev);
        snprintf(hdr[3], sizeof hdr[3], "%s time avg", dev);
        for (int k = 0; k < 4; k++)
            heads[ncols++] = hdr[k];
    }
    heads[ncols++] = "# of Calls";
    if (shapes)
        heads[ncols++] = "Input Shapes";
#define WIDTH(c) ((c) == 0 ? name_w : shapes && (c) == ncols - 1 ? shape_w : COL_W)
    for (int c = 0; c < ncols; c++)
        sb_dashes(&b, WIDTH(c));
    sb_put(&b, "\n", 1);
    for (int c = 0; c < ncols; c++)
        sb_cell(&b, heads[c], WIDTH(c));
    sb_put(&b, "\n", 1);
    for (int c = 0; c < ncols; c++)
        sb_dashes(&b, WIDTH(c));
    sb_put(&b, "\n", 1);
    for (size_t i = 0; i < n; i++) {
        const op_row *r = rows[i];
        int c = 0;
        sb_cell(&b, names[i], WIDTH(c++));
        torch_share(t, sizeof t, r->t.hself, sum_hself);
        sb_cell(&b, t, WIDTH(c++));
        torch_time(t, sizeof t, (double)r->t.hself);
        sb_cell(&b, t, WIDTH(c++));
        torch_share(t, sizeof t, r->t.htotal, sum_hself);
        sb_cell(&b, t, WIDTH(c++));
        torch_time(t, sizeof t, (double)r->t.htotal);
        sb_cell(&b, t, WIDTH(c++));
        torch_time(t, sizeof t, avg(r->t.htotal, r->t.calls));
        sb_cell(&b, t, WIDTH(c++));
        if (device) {
            torch_time(t, sizeof t, (double)r->t.dself);
            sb_cell(&b, t, WIDTH(c++));
            torch_share(t, sizeof t, r->t.dself, sum_dself);
            sb_cell(&b, t, WIDTH(c++));
            torch_time(t, sizeof t, (double)r->t.dtotal);
            sb_cell(&b, t, WIDTH(c++));
            torch_time(t, sizeof t, avg(r->t.dtotal, r->t.calls));
            sb_cell(&b, t, WIDTH(c++));
        }
        snprintf(t, sizeof t, "%llu", (unsigned long long)r->t.calls);
        sb_cell(&b, t, WIDTH(c++));
        if (shapes)
            sb_cell(&b, shp[i], WIDTH(c++));
        sb_put(&b, "\n", 1);
    }
    for (int c = 0; c < ncols; c++)
        sb_dashes(&b, WIDTH(c));
#undef WIDTH
    sb_put(&b, "\n", 1);
    torch_time(t, sizeof t, (double)sum_hself);
    sb_put(&b, "Self CPU time total: ", 21);
    sb_put(&b, t, strlen(t));
    if (device) {
        char line[96];
        torch_time(t, sizeof t, (double)sum_dself);
        snprintf(line, sizeof line, "\nSelf %s time total: %s", dev, t);
        sb_put(&b, line, strlen(line));
    }
    free(names);
    free(shp);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ------------------------------------------------------------------ add */

static double share(tt_ns v, tt_ns whole) { return whole > 0 ? 100.0 * (double)v / (double)whole : 0.0; }

static int operators_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    const tt_report_opts *o = x->o;
    const tt_trace *tr = x->tr;
    const tt_attrib *a = tt_attrib_get(tr, err);
    tt_op_inst *ops = NULL;
    size_t n = 0, n_rows = 0;
    op_table t;
    op_row **sorted = NULL;
    tt_argvals av;
    const tt_event **evs = NULL;
    op_sort by;
    sort_ctx sc;
    tt_ns sum_hself = 0, sum_dself = 0;
    bool links, need_args;
    int rc = -1;

    memset(&t, 0, sizeof t);
    memset(&av, 0, sizeof av);
    if (!a || sort_parse(o->sort, &by, err))
        return -1;
    links = tt_attrib_has_links(a);
    need_args = o->n_keys && o->keys[0].kind == TT_KEY_ARG;
    if (!(t.vals = tt_strtab_new()))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    if (tt_operators_collect(tr, a, x->sel, &ops, &n, err))
        goto out;
    if (need_args) {
        const char *key = o->keys[0].arg;
        if (!(evs = malloc((n ? n : 1) * sizeof *evs))) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < n; i++)
            evs[i] = tt_trace_event(tr, ops[i].ev);
        if (tt_argvals_fetch(tr, evs, n, &key, 1, true, &av, err))
            goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t gid;
        const char *label, *shape;
        bool fresh;
        op_row *r;
        if (o->by_module) {
            /* the innermost module: one row per module call name */
            tt_evref m = tt_module_of(tr, a, ops[i].ev);
            gid = tt_evref_ok(m) ? tt_trace_event(tr, m)->name : 0;
            label = tt_evref_ok(m) ? tt_module_name(tr, m) : NULL;
            shape = NULL;
        } else if (group_of(tr, o, &av, &t, i, ops[i].ev, &gid, &label, &shape, err)) {
            goto out;
        }
        if (!(r = row_at(&t, gid, &fresh))) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        if (fresh) {
            r->label = label;
            r->shape = shape;
        }
        tt_op_times_add(&r->t, tr, &ops[i]);
    }
    n_rows = t.n_used;
    if (!(sorted = malloc((n_rows ? n_rows : 1) * sizeof *sorted))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n_rows; i++) {
        sorted[i] = &t.rows[t.used[i]];
        sum_hself += sorted[i]->t.hself;
        sum_dself += sorted[i]->t.dself;
    }
    sc.by = by;
    if (tt_sort(sorted, n_rows, sizeof *sorted, cmp_rows, &sc)) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (o->format == TT_OUT_TEXT) {
        if (!(out->text_after = torch_table(sorted, n_rows, links && sum_dself > 0,
                                        device_name(tr, a), o->by_shape, sum_hself,
                                        sum_dself))) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
    } else {
        for (size_t i = 0; i < n_rows; i++) {
            const op_row *r = sorted[i];
            tt_cell c[N_OP_COLS];
            c[0] = r->label ? tt_cell_text(r->label) : tt_cell_none();
            c[1] = tt_cell_int((int64_t)r->t.calls);
            c[2] = tt_cell_int(r->t.hself);
            c[3] = tt_cell_int(r->t.htotal);
            c[4] = links ? tt_cell_int(r->t.dself) : tt_cell_none();
            c[5] = links ? tt_cell_int(r->t.dtotal) : tt_cell_none();
            c[6] = tt_cell_real(avg(r->t.hself, r->t.calls));
            c[7] = tt_cell_real(avg(r->t.htotal, r->t.calls));
            c[8] = links ? tt_cell_real(avg(r->t.dself, r->t.calls)) : tt_cell_none();
            c[9] = links ? tt_cell_real(avg(r->t.dtotal, r->t.calls)) : tt_cell_none();
            c[10] = tt_cell_real(share(r->t.hself, sum_hself));
            c[11] = tt_cell_real(share(r->t.htotal, sum_hself));
            c[12] = links ? tt_cell_real(share(r->t.dself, sum_dself)) : tt_cell_none();
            c[13] = links ? tt_cell_real(share(r->t.dtotal, sum_dself)) : tt_cell_none();
            c[14] = r->shape ? tt_cell_text(r->shape) : tt_cell_none();
            if (tt_writer_row(x->w, c, 0)) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                goto out;
            }
        }
    }
    if ((out->extra = cJSON_CreateObject())) {
        tt_json_add_int(out->extra, "sum_host_self_ns", sum_hself);
        if (links)
            tt_json_add_int(out->extra, "sum_device_self_ns", sum_dself);
        else
            cJSON_AddNullToObject(out->extra, "sum_device_self_ns");
        cJSON_AddBoolToObject(out->extra, "launch_links", links);
    }
    if (o->by_module && !tt_modules_present(tr, a))
        snprintf(out->note, out->note_cap,
                 "no nn.Module events in this trace (PyTorch's profiler writes them with "
                 "with_stack=True): every operator is outside any module");
    rc = 0;
out:
    free(sorted);
    free(evs);
    free(ops);
    free(t.rows);
    free(t.used);
    tt_argvals_fini(&av);
    tt_strtab_free(t.vals);
    return rc;
}

int tt_kind_attrib_note(const tt_trace *tr, char *buf, size_t cap)
{
    tt_error err;
    const tt_attrib *a = tt_attrib_get(tr, &err);
    if (!a)
        return -1;
    if (tt_attrib_has_links(a))
        return 0;
    snprintf(buf, cap, "no launch links in this trace (%zu device events, none linked to a host "
             "call): device columns are empty", tt_attrib_n_device(a));
    return 1;
}

const tt_report_kind tt_kind_operators = {
    .name = "operators",
    .help = "per operator: calls, host and device self and total time (key_averages())",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_BY | TT_KIND_BY_ONE | TT_KIND_BY_MODULE | TT_KIND_SORT | TT_KIND_MARKERS |
             TT_KIND_TEXT_WHOLE,
    /* launch links come from flows; arguments only for an arg:KEY key */
    .skip = TT_TRACE_NO_ARGS,
    .skip_arg = 0,
    .cols = op_cols,
    .n_cols = N_OP_COLS,
    .cols_used = operators_cols_used,
    .check = operators_check,
    .rows = operators_rows,
    .trace_note = tt_kind_attrib_note,
};
