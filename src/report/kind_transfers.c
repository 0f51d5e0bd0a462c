/* kind_transfers.c - `report --kind transfers`: bytes moved by operation
 * (or another key), analysis/transfers.h:
 *
 *   Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),
 *   Operation,Throughput (MB/s)      (MB = 10^6 bytes, as nsys prints it)
 *
 * The text format adds the totals and a size histogram under the table.
 * One row of the kinds table (kind.h).
 */
#include "config.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/transfers.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* MB as nsys prints it: 10^6 bytes. */
#define MB 1e6
/* Width of the size-histogram bars under a text transfers table. */
#define HIST_BAR 30

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
#define N_XFER_COLS (sizeof transfers_cols / sizeof transfers_cols[0])

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

static int transfers_rows(const tt_kind_ctx *ctx, tt_kind_out *out, tt_error *err)
{
    tt_transfers *t;
    tt_cell c[N_XFER_COLS];
    if (tt_transfers_compute(ctx->tr, ctx->sel, &ctx->o->keys[0], &t, err))
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        const tt_xfer_row *x = &t->rows[i];
        xfer_cells(x, c, true);
        if (tt_writer_row(ctx->w, c, t->all.bytes.total > 0
                                       ? (double)x->bytes.total / (double)t->all.bytes.total
                                       : 0.0)) {
            tt_transfers_free(t);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
    }
    if ((out->extra = cJSON_CreateObject())) {
        cJSON *all = cJSON_AddObjectToObject(out->extra, "all");
        if (all) {
            tt_json_add_int(all, "count", (int64_t)t->all.bytes.n);
            tt_json_add_int(all, "total_bytes", t->all.bytes.total);
            tt_json_add_int(all, "busy_ns", t->all.busy);
            cJSON_AddNumberToObject(all, "throughput_mb_s", t->all.throughput / MB);
            cJSON_AddItemToObject(all, "size_histogram", hist_json(&t->all));
        }
    }
    if (ctx->o->format == TT_OUT_TEXT)
        out->text_after = xfer_text(&t->all, ctx->o->utf8);
    tt_transfers_free(t);
    return 0;
}

const tt_report_kind tt_kind_transfers = {
    .name = "transfers",
    .help = "bytes moved, by operation or another key (--by), with a size histogram",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_BY | TT_KIND_BY_ONE | TT_KIND_BY_NAME | TT_KIND_MARKERS |
             TT_KIND_WINDOW_ONLY,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .bar_title = "Bytes",
    .cols = transfers_cols,
    .n_cols = N_XFER_COLS,
    .rows = transfers_rows,
};
