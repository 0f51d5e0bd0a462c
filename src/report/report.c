/* report.c - report kinds: statistics to rows (see report.h). */
#include "config.h"

#include "report/report.h"

#include "report/kind_kernels.h"
#include "report/kind_operators.h"

#include "multi/rankset.h"

#include "analysis/argvals.h"
#include "analysis/classify.h"
#include "analysis/gpu.h"
#include "analysis/stats.h"
#include "analysis/transfers.h"
#include "index/index.h"
#include "report/kind_launch.h"
#include "report/kind_steps.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* MB as nsys prints it: 10^6 bytes. */
#define MB 1e6
/* Width of the size-histogram bars under a text transfers report. */
#define HIST_BAR 30

static const tt_col ops_cols[] = {
    {"Time (%)", "time_percent", TT_COL_REAL, 1, false},
    {"Total Time (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Instances", "instances", TT_COL_INT, 0, false},
    {"Avg (ns)", "avg_ns", TT_COL_REAL, 1, false},
    {"Med (ns)", "med_ns", TT_COL_REAL, 1, false},
    {"Min (ns)", "min_ns", TT_COL_INT, 0, false},
    {"Max (ns)", "max_ns", TT_COL_INT, 0, false},
    {"StdDev (ns)", "stddev_ns", TT_COL_REAL, 1, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
};

static const tt_col lanes_cols[] = {
    {"Lane", "lane", TT_COL_TEXT, 0, false},
    {"Events", "events", TT_COL_INT, 0, false},
    {"Busy (ns)", "busy_ns", TT_COL_INT, 0, false},
    {"Busy (%)", "busy_percent", TT_COL_REAL, 1, false},
    {"First (ns)", "first_ns", TT_COL_INT, 0, false},
    {"Last (ns)", "last_ns", TT_COL_INT, 0, false},
    {"", "total_ns", TT_COL_INT, 0, true},
    {"", "total_clipped_ns", TT_COL_INT, 0, true},
};

static const tt_col transfers_cols[] = {
    {"Total (MB)", "total_mb", TT_COL_REAL, 3, false},
    {"Count", "count", TT_COL_INT, 0, false},
    {"Avg (MB)", "avg_mb", TT_COL_REAL, 3, false},
    {"Med (MB)", "med_mb", TT_COL_REAL, 3, false},
    {"Min (MB)", "min_mb", TT_COL_REAL, 3, false},
    {"Max (MB)", "max_mb", TT_COL_REAL, 3, false},
    {"StdDev (MB)", "stddev_mb", TT_COL_REAL, 3, false},
    {"Operation", "operation", TT_COL_TEXT, 0, false},
    {"Throughput (MB/s)", "throughput_mb_s", TT_COL_REAL, 3, false},
    {"", "total_bytes", TT_COL_INT, 0, true},
    {"", "min_bytes", TT_COL_INT, 0, true},
    {"", "max_bytes", TT_COL_INT, 0, true},
    {"", "busy_ns", TT_COL_INT, 0, true},
    {"", "size_histogram", TT_COL_JSON, 0, true},
};

static const tt_col gpu_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Total (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Busy (ns)", "busy_ns", TT_COL_INT, 0, false},
    {"Idle (ns)", "idle_ns", TT_COL_INT, 0, false},
    {"Computation (ns)", "computation_ns", TT_COL_INT, 0, false},
    {"Communication (ns)", "communication_ns", TT_COL_INT, 0, false},
    {"Exposed Communication (ns)", "exposed_communication_ns", TT_COL_INT, 0, false},
    {"Memcpy (ns)", "memcpy_ns", TT_COL_INT, 0, false},
    {"Exposed Memcpy (ns)", "exposed_memcpy_ns", TT_COL_INT, 0, false},
    {"Idle (%)", "idle_percent", TT_COL_REAL, 1, false},
    {"", "kernels", TT_COL_INT, 0, true},
    {"", "memcpys", TT_COL_INT, 0, true},
    {"", "memsets", TT_COL_INT, 0, true},
    {"", "collectives", TT_COL_INT, 0, true},
};

static const tt_col events_cols[] = {
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"Duration (ns)", "duration_ns", TT_COL_INT, 0, false},
    {"Lane", "lane", TT_COL_TEXT, 0, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
    {"Category", "category", TT_COL_TEXT, 0, false},
    {"Bytes", "bytes", TT_COL_INT, 0, false},
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))
#define N_EVENTS_FIXED NCOLS(events_cols)

struct tt_report {
    tt_report_opts o;
    tt_writer     *w;
    tt_col        *cols;     /* owned copy (events add key columns) */
    size_t         ncols;
    char          *names;    /* key column titles, TT_KEY_ARG_MAX+8 bytes each */
    char           note[300]; /* why the last trace's table is empty (tt_report_note) */
};

static const char *const kind_names[] = {"ops", "lanes", "transfers", "gpu", "events",
                                         "annotations", "ranks", "collectives",
                                         "operators", "kernels", "steps", "launch"};

int tt_report_kind_parse(const char *s, tt_report_kind *k, tt_error *err)
{
    for (size_t i = 0; i < NCOLS(kind_names); i++)
        if (strcmp(s, kind_names[i]) == 0) {
            *k = (tt_report_kind)i;
            return 0;
        }
    return tt_error_set(err, TT_ERR_USAGE,
                        "unknown kind '%.200s' (ops, lanes, transfers, gpu, events, "
                        "annotations, ranks, collectives, operators, kernels, steps or "
                        "launch)", s);
}

const char *tt_report_kind_name(tt_report_kind k)
{
    return (unsigned)k < NCOLS(kind_names) ? kind_names[k] : "?";
}

int tt_report_format_parse(const char *s, tt_out_format *f, tt_error *err)
{
    if (strcmp(s, "csv") == 0)
        *f = TT_OUT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = TT_OUT_JSON;
    else if (strcmp(s, "text") == 0)
        *f = TT_OUT_TEXT;
    else
        return tt_error_set(err, TT_ERR_USAGE, "unknown format '%.200s' (csv, json or text)", s);
    return 0;
}

/* ---------------------------------------------------------------- rank */

int64_t tt_report_rank(const tt_trace *tr, const char *name, int64_t fallback)
{
    int64_t r;
    if (tr && tr->rank >= 0)
        return tr->rank;
    r = tt_rank_from_name(name);
    return r >= 0 ? r : fallback < 0 ? -1 : fallback;
}

int64_t *tt_report_fallback_ranks(char *const *files, size_t n)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t a, b;
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++)
        v[i] = tt_rank_from_name(files[i]);
    if (tt_ranks_resolve(v, n, &a, &b))   /* names claim one rank twice: */
        for (size_t i = 0; i < n; i++)    /* the order then, as before */
            v[i] = (int64_t)i;
    return v;
}

/* -------------------------------------------------------------- set up */

static const char *key_label(const tt_key *k, char *buf, size_t n)
{
    return tt_key_str(k, buf, n);
}

int tt_report_check(const tt_report_opts *o, tt_error *err)
{
    if ((o->kind == TT_REPORT_LANES || o->kind == TT_REPORT_GPU || o->kind == TT_REPORT_STEPS ||
         o->kind == TT_REPORT_LAUNCH) && o->n_keys)
        return tt_error_set(err, TT_ERR_USAGE, "--by does not apply to --kind %s",
                            tt_report_kind_name(o->kind));
    if ((o->kind == TT_REPORT_OPS || o->kind == TT_REPORT_TRANSFERS) && o->n_keys > 1)
        return tt_error_set(err, TT_ERR_USAGE, "--kind %s groups by one key only",
                            tt_report_kind_name(o->kind));
    if (o->n_keys > TT_REPORT_MAX_KEYS)
        return tt_error_set(err, TT_ERR_USAGE, "at most %d keys", TT_REPORT_MAX_KEYS);
    if (o->kind == TT_REPORT_OPERATORS)
        return tt_kind_operators_check(o, err);
    if (o->kind == TT_REPORT_KERNELS)
        return tt_kind_kernels_check(o, err);
    if (o->sort || o->by_shape)
        return tt_error_set(err, TT_ERR_USAGE, "--sort and --by shape apply to --kind operators");
    return 0;
}

int tt_report_new(FILE *f, const tt_report_opts *o, tt_report **out, tt_error *err)
{
    tt_report *r;
    const tt_col *base = NULL;
    size_t nbase = 0;
    cJSON *doc;
    tt_writer_opts wo;
    char kb[TT_KEY_ARG_MAX + 8];

    *out = NULL;
    switch (o->kind) {
    case TT_REPORT_OPS: base = ops_cols; nbase = NCOLS(ops_cols); break;
    case TT_REPORT_LANES: base = lanes_cols; nbase = NCOLS(lanes_cols); break;
    case TT_REPORT_TRANSFERS: base = transfers_cols; nbase = NCOLS(transfers_cols); break;
    case TT_REPORT_GPU: base = gpu_cols; nbase = NCOLS(gpu_cols); break;
    case TT_REPORT_EVENTS: base = events_cols; nbase = NCOLS(events_cols); break;
    case TT_REPORT_OPERATORS: base = tt_kind_operators_cols(o, &nbase); break;
    case TT_REPORT_KERNELS: base = tt_kind_kernels_cols(&nbase); break;
    case TT_REPORT_STEPS: base = tt_kind_steps_cols(&nbase); break;
    case TT_REPORT_LAUNCH: base = tt_kind_launch_cols(&nbase); break;
    case TT_REPORT_ANNOTATIONS:
    case TT_REPORT_RANKS:
    case TT_REPORT_COLLECTIVES:
        return tt_error_set(err, TT_ERR_USAGE, "--kind %s is not a per-trace report",
                            tt_report_kind_name(o->kind));
    }
    if (tt_report_check(o, err))
        return TT_ERR_USAGE;

    r = calloc(1, sizeof *r);
    if (!r)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    r->o = *o;
    if (r->o.n_keys == 0 && (o->kind == TT_REPORT_OPS || o->kind == TT_REPORT_TRANSFERS)) {
        memset(&r->o.keys[0], 0, sizeof r->o.keys[0]);
        r->o.keys[0].kind = TT_KEY_NAME;
        r->o.n_keys = 1;
    }
    r->ncols = nbase + (o->kind == TT_REPORT_EVENTS ? r->o.n_keys : 0);
    r->cols = calloc(r->ncols, sizeof *r->cols);
    r->names = calloc(r->o.n_keys ? r->o.n_keys : 1, TT_KEY_ARG_MAX + 8);
    if (!r->cols || !r->names) {
        tt_report_free(r);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    memcpy(r->cols, base, nbase * sizeof *base);
    if (o->kind == TT_REPORT_EVENTS)
        for (size_t i = 0; i < r->o.n_keys; i++) {
            char *name = r->names + i * (TT_KEY_ARG_MAX + 8);
            key_label(&r->o.keys[i], name, TT_KEY_ARG_MAX + 8);
            r->cols[nbase + i].title = name;
            r->cols[nbase + i].json = name;
            r->cols[nbase + i].type = TT_COL_TEXT;
        }

    doc = cJSON_CreateObject();
    if (doc) {
        cJSON_AddStringToObject(doc, "kind", tt_report_kind_name(o->kind));
        if (o->kind == TT_REPORT_OPS || o->kind == TT_REPORT_TRANSFERS)
            cJSON_AddStringToObject(doc, "by", key_label(&r->o.keys[0], kb, sizeof kb));
        if (o->lanes)
            cJSON_AddStringToObject(doc, "lanes", o->lanes);
        else
            cJSON_AddNullToObject(doc, "lanes");
    }
    memset(&wo, 0, sizeof wo);
    wo.format = o->format;
    wo.sanitize = o->sanitize;
    wo.utf8 = o->utf8;
    wo.trace_column = o->several;
    wo.group_title = o->group_title;
    wo.one_table = o->kind == TT_REPORT_GPU;
    wo.text_whole = o->kind == TT_REPORT_OPERATORS;
    switch (o->kind) {
    case TT_REPORT_OPS: wo.bar_title = "Time"; break;
    case TT_REPORT_LANES: wo.bar_title = "Busy"; break;
    case TT_REPORT_TRANSFERS: wo.bar_title = "Bytes"; break;
    case TT_REPORT_GPU: wo.bar_title = "Busy"; break;
    case TT_REPORT_KERNELS: wo.bar_title = "Total"; break;
    case TT_REPORT_STEPS: wo.bar_title = "Kernel"; break;
    case TT_REPORT_LAUNCH:
    case TT_REPORT_EVENTS:
    case TT_REPORT_OPERATORS:
    case TT_REPORT_ANNOTATIONS:
    case TT_REPORT_RANKS:
    case TT_REPORT_COLLECTIVES: wo.bar_title = NULL; break;
    }
    /* the writer takes doc, also when it fails */
    if (!doc || !(r->w = tt_writer_new(f, &wo, r->cols, r->ncols, doc))) {
        tt_report_free(r);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    *out = r;
    return 0;
}

void tt_report_free(tt_report *r)
{
    if (!r)
        return;
    tt_writer_free(r->w);
    free(r->cols);
    free(r->names);
    free(r);
}

int tt_report_finish(tt_report *r, tt_error *err)
{
    if (tt_writer_finish(r->w))
        return tt_error_set(err, TT_ERR_IO, "cannot write the report");
    return 0;
}

/* ------------------------------------------------------------- helpers */

/* 2^e bytes in binary units: "512 B", "4 KiB", "1 GiB". */
static const char *fmt_pow2(char *buf, size_t n, int e)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = e / 10;
    if (u > 6)
        u = 6;
    snprintf(buf, n, "%llu %s", 1ULL << (e - 10 * u), units[u]);
    return buf;
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Lane full name into buf. */
static const char *lane_name(const tt_trace *tr, uint32_t lane, char *buf, size_t n)
{
    return tt_lane_fullname(tr, lane, buf, n);
}

/* ---------------------------------------------------------------- rows */

static int rows_ops(tt_report *r, const tt_trace *tr, const tt_sel *sel, cJSON **extra,
                    tt_error *err)
{
    tt_breakdown *b;
    tt_cell c[NCOLS(ops_cols)];
    if (tt_breakdown_compute(tr, sel, &r->o.keys[0], &b, err))
        return -1;
    for (size_t i = 0; i < b->n; i++) {
        const tt_brk_row *row = &b->rows[i];
        c[0] = tt_cell_real(row->share);
        c[1] = tt_cell_int(row->d.total);
        c[2] = tt_cell_int((int64_t)row->d.n);
        c[3] = tt_cell_real(row->d.avg);
        c[4] = tt_cell_real(row->d.median);
        c[5] = tt_cell_int(row->d.min);
        c[6] = tt_cell_int(row->d.max);
        c[7] = tt_cell_real(row->d.stddev);
        c[8] = row->none ? tt_cell_none() : tt_cell_text(row->label);
        if (tt_writer_row(r->w, c, row->share / 100.0)) {
            tt_breakdown_free(b);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
    }
    if ((*extra = cJSON_CreateObject()))
        tt_json_add_int(*extra, "sum_total_ns", b->sum_total);
    tt_breakdown_free(b);
    return 0;
}

static int rows_lanes(tt_report *r, const tt_trace *tr, const tt_summary *s)
{
    tt_cell c[NCOLS(lanes_cols)];
    char name[600];
    tt_ns window = s->to - s->from;
    for (size_t i = 0; i < s->n_lanes; i++) {
        const tt_lane_stat *ls = &s->lanes[i];
        c[0] = tt_cell_text(lane_name(tr, ls->lane, name, sizeof name));
        c[1] = tt_cell_int((int64_t)ls->events);
        c[2] = tt_cell_int(ls->busy);
        c[3] = tt_cell_real(pct(ls->busy, window));
        c[4] = ls->events ? tt_cell_int(ls->first - tr->t0) : tt_cell_none();
        c[5] = ls->events ? tt_cell_int(ls->last - tr->t0) : tt_cell_none();
        c[6] = tt_cell_int(ls->total);
        c[7] = tt_cell_int(ls->total_clipped);
        if (tt_writer_row(r->w, c, tt_stats_util(ls->busy, window)))
            return -1;
    }
    return 0;
}

/* Non-empty buckets as [{"from_bytes", "to_bytes", "count"}]; to_bytes is
 * exclusive (null for the top bucket, whose bound does not fit). */
static cJSON *hist_json(const tt_xfer_row *x)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; a && k < TT_XFER_BUCKETS; k++) {
        cJSON *b;
        if (!x->hist[k])
            continue;
        if (!(b = cJSON_CreateObject()))
            break;
        tt_json_add_int(b, "from_bytes", tt_xfer_bucket_min(k));
        if (k == 0)
            tt_json_add_int(b, "to_bytes", 1);
        else if (k < 63)
            tt_json_add_int(b, "to_bytes", (int64_t)1 << k);
        else
            cJSON_AddNullToObject(b, "to_bytes");
        tt_json_add_int(b, "count", (int64_t)x->hist[k]);
        cJSON_AddItemToArray(a, b);
    }
    return a;
}

static void xfer_cells(const tt_xfer_row *x, tt_cell *c, bool with_label)
{
    c[0] = tt_cell_real((double)x->bytes.total / MB);
    c[1] = tt_cell_int((int64_t)x->bytes.n);
    c[2] = tt_cell_real(x->bytes.avg / MB);
    c[3] = tt_cell_real(x->bytes.median / MB);
    c[4] = tt_cell_real((double)x->bytes.min / MB);
    c[5] = tt_cell_real((double)x->bytes.max / MB);
    c[6] = tt_cell_real(x->bytes.stddev / MB);
    c[7] = !with_label || x->none ? tt_cell_none() : tt_cell_text(x->label);
    c[8] = tt_cell_real(x->throughput / MB);
    c[9] = tt_cell_int(x->bytes.total);
    c[10] = tt_cell_int(x->bytes.min);
    c[11] = tt_cell_int(x->bytes.max);
    c[12] = tt_cell_int(x->busy);
    c[13] = tt_cell_json(hist_json(x));
}

/* Text shown under a transfers table: the totals and the size histogram. */
static char *xfer_text(const tt_xfer_row *all, bool utf8)
{
    size_t cap = 8192, o = 0;
    char *s = malloc(cap), n1[32], d1[32], lo[32], hi[32], bar[4 * HIST_BAR + 8];
    char m1[64], m2[64];
    uint64_t top = 0;
    if (!s)
        return NULL;
    o += (size_t)snprintf(s + o, cap - o, "\nAll transfers: %s moving %s MB, busy %s, %s MB/s\n",
                          tt_fmt_count(n1, sizeof n1, all->bytes.n),
                          tt_fmt_real(m1, sizeof m1, (double)all->bytes.total / MB, 3),
                          tt_fmt_dur(d1, sizeof d1, all->busy, 3),
                          tt_fmt_real(m2, sizeof m2, all->throughput / MB, 3));
    if (!all->bytes.n)
        return s;
    for (int k = 0; k < TT_XFER_BUCKETS; k++)
        if (all->hist[k] > top)
            top = all->hist[k];
    o += (size_t)snprintf(s + o, cap - o, "Sizes\n");
    for (int k = 0; k < TT_XFER_BUCKETS && o < cap; k++) {
        char range[80];
        if (!all->hist[k])
            continue;
        if (k == 0)
            snprintf(range, sizeof range, "0 B");
        else
            snprintf(range, sizeof range, "[%s, %s)", fmt_pow2(lo, sizeof lo, k - 1),
                     fmt_pow2(hi, sizeof hi, k));
        tt_writer_bar(utf8, (double)all->hist[k] / (double)top, HIST_BAR, bar, sizeof bar);
        {
            size_t bl = strlen(bar);
            while (bl > 0 && bar[bl - 1] == ' ')
                bar[--bl] = '\0';
        }
        o += (size_t)snprintf(s + o, cap - o, "  %-22s %12s  %s\n", range,
                              tt_fmt_count(n1, sizeof n1, all->hist[k]), bar);
    }
    if (o > 0 && s[o - 1] == '\n')
        s[o - 1] = '\0';   /* the writer ends each line */
    return s;
}

static int rows_transfers(tt_report *r, const tt_trace *tr, const tt_sel *sel, cJSON **extra,
                          char **text_after, tt_error *err)
{
    tt_transfers *t;
    tt_cell c[NCOLS(transfers_cols)];
    if (tt_transfers_compute(tr, sel, &r->o.keys[0], &t, err))
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        const tt_xfer_row *x = &t->rows[i];
        xfer_cells(x, c, true);
        if (tt_writer_row(r->w, c, t->all.bytes.total > 0
                                       ? (double)x->bytes.total / (double)t->all.bytes.total
                                       : 0.0)) {
            tt_transfers_free(t);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
    }
    if ((*extra = cJSON_CreateObject())) {
        cJSON *all = cJSON_AddObjectToObject(*extra, "all");
        if (all) {
            tt_json_add_int(all, "count", (int64_t)t->all.bytes.n);
            tt_json_add_int(all, "total_bytes", t->all.bytes.total);
            tt_json_add_int(all, "busy_ns", t->all.busy);
            cJSON_AddNumberToObject(all, "throughput_mb_s", t->all.throughput / MB);
            cJSON_AddItemToObject(all, "size_histogram", hist_json(&t->all));
        }
    }
    if (r->o.format == TT_OUT_TEXT)
        *text_after = xfer_text(&t->all, r->o.utf8);
    tt_transfers_free(t);
    return 0;
}

static int rows_gpu(tt_report *r, const tt_trace *tr, const tt_sel *sel, int64_t rank,
                    tt_error *err)
{
    tt_gpu_time g;
    tt_cell c[NCOLS(gpu_cols)];
    if (tt_gpu_time_compute(tr, sel, &g, err))
        return -1;
    c[0] = tt_cell_int(rank);
    c[1] = tt_cell_int(g.total);
    c[2] = tt_cell_int(g.busy);
    c[3] = tt_cell_int(g.idle);
    c[4] = tt_cell_int(g.computation);
    c[5] = tt_cell_int(g.communication);
    c[6] = tt_cell_int(g.exposed_communication);
    c[7] = tt_cell_int(g.memcpy);
    c[8] = tt_cell_int(g.exposed_memcpy);
    c[9] = tt_cell_real(pct(g.idle, g.total));
    c[10] = tt_cell_int((int64_t)g.kernels);
    c[11] = tt_cell_int((int64_t)g.memcpys);
    c[12] = tt_cell_int((int64_t)g.memsets);
    c[13] = tt_cell_int((int64_t)g.collectives);
    if (tt_writer_row(r->w, c, tt_stats_util(g.busy, g.total)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

/* Value of an extra key column for one event. An argument value comes
 * from av, fetched before the rows (fetch_key_args): the i-th event's
 * value of argument slot `slot`, borrowed from av, which outlives the
 * row. */
static void key_cell(const tt_trace *tr, const tt_key *k, const tt_event *e, const char *lname,
                     const tt_argvals *av, size_t i, size_t slot, tt_cell *c)
{
    uint32_t id;
    switch (k->kind) {
    case TT_KEY_LANE:
        *c = tt_cell_text(lname);
        return;
    case TT_KEY_ARG: {
        bool number;
        const char *v = tt_argvals_get(av, i, slot, &number);
        if (!v)
            *c = tt_cell_none();
        else
            *c = number ? tt_cell_number_text(v) : tt_cell_text(v);
        return;
    }
    default:
        id = tt_key_string_id(tr, k, e);
        *c = id ? tt_cell_text(tt_str(tr, id)) : tt_cell_none();
        return;
    }
}

/* The argument values the key columns need, for the selection's events in
 * row order: read up front in storage order (analysis/argvals.h), since
 * reading each row's record in time order decompresses a block per row in
 * a file not in time order. Slot i of av is the i-th argument key of
 * r->o.keys. An empty av when no key is an argument. */
static int fetch_key_args(const tt_report *r, const tt_trace *tr, const tt_sel *sel,
                          tt_argvals *av, tt_error *err)
{
    const char *keys[TT_REPORT_MAX_KEYS];
    const tt_event **ev = NULL;
    size_t n = 0, n_keys = 0;
    int rc;
    memset(av, 0, sizeof *av);
    for (size_t i = 0; i < r->o.n_keys; i++)
        if (r->o.keys[i].kind == TT_KEY_ARG)
            keys[n_keys++] = r->o.keys[i].arg;
    if (n_keys == 0)
        return 0;
    if (tt_argvals_sel_events(tr, sel, false, &ev, &n, err))
        return -1;
    rc = tt_argvals_fetch(tr, ev, n, keys, n_keys, true, av, err);
    free(ev);
    return rc ? -1 : 0;
}

static int rows_events(tt_report *r, const tt_trace *tr, const tt_sel *sel, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), row = 0;
    tt_cell *c = calloc(r->ncols, sizeof *c);
    tt_idxbuf buf;
    tt_argvals av;
    char lname[600];
    int rc = 0;
    if (!c)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    if (fetch_key_args(r, tr, sel, &av, err)) {
        free(c);
        return -1;
    }
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            break;
        }
        lane_name(tr, lane, lname, sizeof lname);
        for (size_t k = 0; k < buf.n && rc == 0; k++, row++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            c[0] = tt_cell_int(e->start - tr->t0);
            c[1] = tt_cell_int(e->dur);
            c[2] = tt_cell_text(lname);
            c[3] = tt_cell_text(tt_str(tr, e->name));
            c[4] = e->cat ? tt_cell_text(tt_str(tr, e->cat)) : tt_cell_none();
            c[5] = e->bytes >= 0 ? tt_cell_int(e->bytes) : tt_cell_none();
            for (size_t i = 0, slot = 0; i < r->o.n_keys; i++)
                key_cell(tr, &r->o.keys[i], e, lname, &av, row,
                         r->o.keys[i].kind == TT_KEY_ARG ? slot++ : 0, &c[N_EVENTS_FIXED + i]);
            if (tt_writer_row(r->w, c, 0))
                rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
    }
    tt_argvals_fini(&av);
    tt_idxbuf_fini(&buf);
    free(c);
    return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- add */

static char *title_line(const tt_trace *tr, const char *name, const tt_summary *s,
                        size_t n_lanes)
{
    char a[32], b[32], w[32], ev[32], t1[32], t2[32], bu[32];
    size_t cap = strlen(name) + 400;
    char *out = malloc(cap);
    tt_ns window = s->to - s->from;
    if (!out)
        return NULL;
    snprintf(out, cap, "%s: window [%s, %s) of %s, %zu lanes, %s events, total %s (%s in the window), "
                 "busy %s (%.1f%%)",
            name, tt_fmt_dur(a, sizeof a, s->from - tr->t0, 3),
            tt_fmt_dur(b, sizeof b, s->to - tr->t0, 3), tt_fmt_dur(w, sizeof w, window, 3),
            n_lanes, tt_fmt_count(ev, sizeof ev, s->events), tt_fmt_dur(t1, sizeof t1, s->total, 3),
            tt_fmt_dur(t2, sizeof t2, s->total_clipped, 3), tt_fmt_dur(bu, sizeof bu, s->busy, 3),
            pct(s->busy, window));
    return out;
}

int tt_report_add(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                  bool *no_lanes, tt_error *err)
{
    return tt_report_add_window(r, tr, name, position, r->o.window, no_lanes, err);
}

/* One trace over a resolved selection: its summary fields, title and
 * rows (none when no_lanes: the lane patterns matched nothing). */
static int add_sel(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                   const tt_sel *selp, const tt_step_spans *spans, bool no_lanes, tt_error *err)
{
    tt_sel sel = *selp;
    tt_summary *s = NULL;
    cJSON *fields = NULL, *extra = NULL;
    char *title = NULL, *after = NULL;
    int64_t rank = tt_report_rank(tr, name, (int64_t)position);
    int rc = 0;

    r->note[0] = '\0';
    if (tt_summary_compute(tr, &sel, &s, err))
        return -1;
    if ((fields = cJSON_CreateObject())) {
        tt_json_add_int(fields, "rank", rank);
        tt_json_add_int(fields, "from_ns", sel.from - tr->t0);
        tt_json_add_int(fields, "to_ns", sel.to - tr->t0);
        tt_json_add_int(fields, "window_ns", sel.to - sel.from);
        tt_json_add_int(fields, "lanes", (int64_t)s->n_lanes);
        tt_json_add_int(fields, "events", (int64_t)s->events);
        tt_json_add_int(fields, "total_ns", s->total);
        tt_json_add_int(fields, "total_clipped_ns", s->total_clipped);
        tt_json_add_int(fields, "busy_ns", s->busy);
        cJSON_AddNumberToObject(fields, "busy_percent", pct(s->busy, sel.to - sel.from));
    }
    if (r->o.format == TT_OUT_TEXT && r->o.kind != TT_REPORT_GPU)
        title = title_line(tr, name, s, s->n_lanes);
    if (!fields || tt_writer_trace_begin(r->w, name, fields, title)) {
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (!no_lanes) {
        switch (r->o.kind) {
        case TT_REPORT_OPS:
            rc = rows_ops(r, tr, &sel, &extra, err);
            break;
        case TT_REPORT_LANES:
            if ((rc = rows_lanes(r, tr, s)))
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            break;
        case TT_REPORT_TRANSFERS:
            rc = rows_transfers(r, tr, &sel, &extra, &after, err);
            break;
        case TT_REPORT_GPU:
            rc = rows_gpu(r, tr, &sel, rank, err);
            break;
        case TT_REPORT_EVENTS:
            rc = rows_events(r, tr, &sel, err);
            break;
        case TT_REPORT_OPERATORS:
            rc = tt_kind_operators_rows(r->w, &r->o, tr, &sel, &extra, &after, err);
            break;
        case TT_REPORT_KERNELS:
            rc = tt_kind_kernels_rows(r->w, &r->o, tr, &sel, &extra, err);
            break;
        case TT_REPORT_STEPS:
            rc = tt_kind_steps_rows(r->w, tr, &sel, spans, rank, &extra, r->note,
                                    sizeof r->note, err);
            break;
        case TT_REPORT_LAUNCH:
            rc = tt_kind_launch_rows(r->w, tr, &sel, rank, r->o.format == TT_OUT_TEXT, &extra,
                                     &after, r->note, sizeof r->note, err);
            break;
        case TT_REPORT_ANNOTATIONS:
        case TT_REPORT_RANKS:
        case TT_REPORT_COLLECTIVES:
            break;
        }
    }
    if (rc == 0) {
        rc = tt_writer_trace_end(r->w, extra, after);
        extra = NULL;   /* taken */
        if (rc)
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
out:
    cJSON_Delete(extra);
    free(title);
    free(after);
    tt_summary_free(s);
    return rc ? -1 : 0;
}

/* One trace over a window and the report's lane patterns; spans: the
 * steps of --kind steps, or NULL. */
static int add_window_spans(tt_report *r, const tt_trace *tr, const char *name,
                            size_t position, const tt_window_spec *window,
                            const tt_step_spans *spans, bool *no_lanes, tt_error *err)
{
    tt_laneset ls;
    tt_sel sel;
    int rc;

    *no_lanes = false;
    tt_laneset_init(&ls);
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, window, &sel);
    if (r->o.lanes) {
        if (tt_laneset_match(tr, r->o.lanes, &ls, err)) {
            tt_laneset_fini(&ls);
            return -1;
        }
        tt_sel_lanes(&sel, &ls);
        *no_lanes = ls.n == 0;
    }
    rc = add_sel(r, tr, name, position, &sel, spans, *no_lanes, err);
    tt_laneset_fini(&ls);
    return rc;
}

int tt_report_add_window(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                         const tt_window_spec *window, bool *no_lanes, tt_error *err)
{
    return add_window_spans(r, tr, name, position, window, NULL, no_lanes, err);
}

int tt_report_add_sel(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                      const tt_sel *sel, tt_error *err)
{
    return add_sel(r, tr, name, position, sel, NULL, false, err);
}

int tt_report_add_spans(tt_report *r, const tt_trace *tr, const char *name, size_t position,
                        const tt_step_spans *spans, bool *no_lanes, tt_error *err)
{
    return add_window_spans(r, tr, name, position, NULL, spans, no_lanes, err);
}

const char *tt_report_note(const tt_report *r)
{
    return r->note[0] ? r->note : NULL;
}

/* ------------------------------------------------------ no GPU events */

typedef struct cat_count {
    uint32_t cat;
    uint64_t n;
} cat_count;

static int cmp_cat_count(const void *a, const void *b)
{
    const cat_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return (x->cat > y->cat) - (x->cat < y->cat);
}

int tt_report_gpu_absent(const tt_trace *tr, char *buf, size_t cap)
{
    tt_classifier cl;
    uint32_t n_str = tt_strtab_count(tr->strings);
    cat_count *counts;
    size_t used, n_cats = 0;

    if (tt_classifier_init(&cl, tr))
        return -1;
    if (!(counts = calloc(n_str ? n_str : 1, sizeof *counts))) {
        tt_classifier_fini(&cl);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (tt_classifier_gpu(&cl, e) != TT_GPU_NONE) {
                free(counts);
                tt_classifier_fini(&cl);
                return 0;
            }
            if (e->cat && e->cat < n_str)
                counts[e->cat].n++;
        }
    }
    tt_classifier_fini(&cl);
    for (uint32_t id = 0; id < n_str; id++)
        if (counts[id].n) {
            counts[n_cats].cat = id;
            counts[n_cats++].n = counts[id].n;
        }
    qsort(counts, n_cats, sizeof *counts, cmp_cat_count);
    used = (size_t)snprintf(buf, cap, "no GPU kernels, memcpy or memset events: %s",
                            n_cats ? "the trace's categories are " : "its events have no category");
    for (size_t k = 0; k < n_cats && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", k ? ", " : "",
                                 tt_str(tr, counts[k].cat));
    free(counts);
    return 1;
}
