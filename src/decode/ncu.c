/* ncu.c - Nsight Compute `ncu --csv` metric tables.
 *
 * Two pages: `--page details` (the default: one row per kernel and metric,
 * "ID", "Kernel Name", ..., "Section Name", "Metric Name", "Metric Unit",
 * "Metric Value", with or without NVTX columns, Rule and Estimated Speedup
 * columns, or an older "Kernel Time" column) and `--page raw` (one row per
 * kernel, one column per metric, a row of units under the header). Files
 * written by a profiled program carry its output and `==PROF==` lines
 * before the header, Windows ones a UTF-8 BOM and CRLF, and values carry
 * thousands separators ("134,221,568"): all handled.
 *
 * Model: ncu replays each kernel alone and records no timestamps, so there
 * is no timeline; the trace holds no events, a note that says so, and the
 * kernels with their metrics in its metadata under "ncu" (read back by
 * analysis/ncu_kernels.h):
 *   {"page": "details"|"raw", "kernels": [{"id", "name", "block", "grid",
 *    "metrics": {NAME: value, ...}, "units": {NAME: unit, ...}}, ...]}
 * where value is a number (thousands separators removed, in the unit
 * given), a string for the few text metrics (no unit), or null ("n/a").
 * NAME is the metric's name; a name seen before in the kernel (sections
 * share some: "Memory Throughput" in % and in Gbyte/s) is keyed "Section:
 * Name", and a repeat of that (the roofline chart repeats its clocks) is
 * left out. An object reads well in the view's information panel.
 *
 * Bad input: a metric with a unit whose value is not a number, a row whose
 * kernel ID is not an integer, no header: one positioned error.
 */
#include "config.h"

#include "decode/csv_common.h"
#include "util/u64map.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PREAMBLE 500   /* lines of program output before the header */

typedef struct ncu {
    tt_csv_job job;
    bool       have_header, raw, have_units;
    int        c_id, c_name, c_block, c_grid, c_section, c_metric, c_unit, c_value;
    bool      *metric_col;    /* raw page: per column, a metric */
    char     **units;         /* raw page: per column, its unit (owned) */
    cJSON     *kernels;       /* array in tr->meta (borrowed) */
    tt_u64map  by_id;         /* kernel ID -> index + 1 in kernels */
    size_t     n_kernels;
    uint64_t   n_metrics;
} ncu;

/* Columns of the raw page that describe the launch, not metrics. */
static bool raw_identity(const char *h)
{
    static const char *const names[] = {"ID", "Process ID", "Process Name", "Host Name",
                                        "Kernel Name", "Kernel Time", "Context", "Stream",
                                        "Block Size", "Grid Size", "Device", "CC",
                                        "Section Name", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(h, names[i]) == 0)
            return true;
    return strncmp(h, "NVTX", 4) == 0 || strncmp(h, "thread_domain", 13) == 0;
}

static const char *cell(const tt_csv_row *row, int c)
{
    if (c < 0 || (size_t)c >= row->n)
        return "";
    return row->f[c];
}

/* A metric value: a decimal number with optional thousands separators,
 * returned as a double. 0 ok, 1 null ("n/a", empty), -1 not a number. */
static int ncu_number(const char *s, size_t n, double *out)
{
    char buf[96], *end;
    size_t k = 0;
    if (tt_csv_is_null(s, n) || (n == 3 && strncmp(s, "n/a", 3) == 0))
        return 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ',') {
            /* a separator sits between digits */
            if (i == 0 || i + 1 >= n || s[i - 1] < '0' || s[i - 1] > '9' || s[i + 1] < '0' ||
                s[i + 1] > '9')
                return -1;
            continue;
        }
        if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+' || ch == 'e' ||
              ch == 'E') ||
            k + 1 >= sizeof buf)
            return -1;
        buf[k++] = (char)ch;
    }
    buf[k] = '\0';
    if (k == 0)
        return -1;
    *out = strtod(buf, &end);
    return *end == '\0' && isfinite(*out) ? 0 : -1;
}

/* The kernel of a row (created on first sight). NULL with err set. */
static cJSON *ncu_kernel(ncu *s, const tt_csv_row *row)
{
    tt_csv_job *j = &s->job;
    int64_t id;
    uint32_t *slot;
    cJSON *k;
    if (tt_csv_decimal(row, s->c_id, 0, &id) != 0 || id < 0 || id > UINT32_MAX) {
        tt_csv_reject(j, row, s->c_id, "kernel \"ID\": expected an integer >= 0");
        return NULL;
    }
    slot = tt_u64map_get(&s->by_id, (uint64_t)id);
    if (slot)
        return cJSON_GetArrayItem(s->kernels, (int)*slot - 1);
    if (!(k = cJSON_CreateObject()) || !cJSON_AddItemToArray(s->kernels, k) ||
        !cJSON_AddNumberToObject(k, "id", (double)id) ||
        !cJSON_AddStringToObject(k, "name", cell(row, s->c_name)) ||
        !cJSON_AddStringToObject(k, "block", cell(row, s->c_block)) ||
        !cJSON_AddStringToObject(k, "grid", cell(row, s->c_grid)) ||
        !cJSON_AddObjectToObject(k, "metrics") || !cJSON_AddObjectToObject(k, "units") ||
        tt_u64map_put(&s->by_id, (uint64_t)id, (uint32_t)++s->n_kernels)) {
        tt_error_set(j->err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return k;
}

/* Add one metric to kernel k. 0, or -1 with err set (bad value, OOM). */
static int ncu_metric(ncu *s, const tt_csv_row *row, cJSON *k, int col, const char *section,
                      const char *name, const char *unit)
{
    tt_csv_job *j = &s->job;
    cJSON *ms = cJSON_GetObjectItemCaseSensitive(k, "metrics");
    cJSON *us = cJSON_GetObjectItemCaseSensitive(k, "units");
    cJSON *v;
    char key[512];
    const char *text = cell(row, col);
    double d;
    int rc = ncu_number(text, strlen(text), &d);
    if (rc < 0 && unit[0])
        return tt_csv_reject(j, row, col, "metric \"%s\" (%s): \"%.40s\" is not a number", name,
                             unit, text);
    snprintf(key, sizeof key, "%s", name);
    if (cJSON_GetObjectItemCaseSensitive(ms, key)) {
        snprintf(key, sizeof key, "%s: %s", section, name);
        if (cJSON_GetObjectItemCaseSensitive(ms, key))
            return 0;   /* a repeat */
    }
    v = rc == 0 ? cJSON_CreateNumber(d) : rc > 0 ? cJSON_CreateNull() : cJSON_CreateString(text);
    if (!v || !cJSON_AddItemToObject(ms, key, v)) {
        cJSON_Delete(v);
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    if (!cJSON_AddStringToObject(us, key, unit))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    s->n_metrics++;
    return 0;
}

/* Try a row as the header. 1 it is, 0 not yet, -1 error. */
static int ncu_header(ncu *s, const tt_csv_row *row)
{
    tt_csv_job *j = &s->job;
    /* text_until skipped the program output: this is the header line */
    if (row->n < 2 || strcmp(row->f[0], "ID") != 0)
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 1,
                               "no ncu header (\"ID\", ..., \"Kernel Name\", ...)"), -1;
    if (tt_csv_set_header(j, row))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    s->c_id = 0;
    s->c_name = tt_csv_col(j, "Kernel Name");
    s->c_block = tt_csv_col(j, "Block Size");
    s->c_grid = tt_csv_col(j, "Grid Size");
    s->c_section = tt_csv_col(j, "Section Name");
    s->c_metric = tt_csv_col(j, "Metric Name");
    s->c_unit = tt_csv_col(j, "Metric Unit");
    s->c_value = tt_csv_col(j, "Metric Value");
    if (s->c_name < 0)
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                               "ncu header without a \"Kernel Name\" column"), -1;
    s->raw = s->c_metric < 0 || s->c_value < 0;
    if (s->raw) {
        if (!(s->metric_col = calloc(row->n, sizeof *s->metric_col)) ||
            !(s->units = calloc(row->n, sizeof *s->units)))
            return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
        for (size_t i = 0; i < row->n; i++)
            s->metric_col[i] = row->f[i][0] && !raw_identity(row->f[i]);
    } else if (s->c_unit < 0) {
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                               "ncu details header without a \"Metric Unit\" column"), -1;
    }
    s->have_header = true;
    return 1;
}

static int ncu_row(void *ctx, const tt_csv_row *row)
{
    ncu *s = ctx;
    tt_csv_job *j = &s->job;
    cJSON *k;

    if (!s->have_header)
        return ncu_header(s, row) < 0 ? -1 : 0;
    if (row->n > j->n_hdr)
        return tt_csv_reject(j, row, (int)j->n_hdr, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    if (s->raw && !s->have_units && cell(row, s->c_id)[0] == '\0') {
        /* the units row under a raw page's header */
        for (size_t i = 0; i < row->n; i++)
            if (s->metric_col[i] && !(s->units[i] = strdup(row->f[i])))
                return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
        s->have_units = true;
        return 0;
    }
    /* ncu leaves out the empty Rule and Speedup cells at a row's end */
    if (row->n < (s->raw ? j->n_hdr : (size_t)s->c_value + 1))
        return tt_csv_reject(j, row, (int)row->n, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    if (!(k = ncu_kernel(s, row)))
        return j->err->code ? -1 : 0;
    if (s->raw) {
        for (size_t i = 0; i < row->n; i++)
            if (s->metric_col[i] &&
                ncu_metric(s, row, k, (int)i, "", j->hdr[i], s->units[i] ? s->units[i] : ""))
                return j->err->code ? -1 : 0;
        return 0;
    }
    /* a section's rule rows name no metric */
    if (!cell(row, s->c_metric)[0])
        return 0;
    if (ncu_metric(s, row, k, s->c_value, cell(row, s->c_section), cell(row, s->c_metric),
                   cell(row, s->c_unit)))
        return j->err->code ? -1 : 0;
    return 0;
}

static int ncu_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                      tt_error *err)
{
    ncu s;
    cJSON *top;
    int rc = -1;
    memset(&s, 0, sizeof s);
    tt_u64map_init(&s.by_id);
    tt_csv_job_init(&s.job, in, opts, tr, info, err);
    if (!(top = cJSON_CreateObject()) || !cJSON_AddItemToObject(tr->meta, "ncu", top) ||
        !(s.kernels = cJSON_AddArrayToObject(top, "kernels"))) {
        if (top && !cJSON_GetObjectItemCaseSensitive(tr->meta, "ncu"))
            cJSON_Delete(top);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* program output may hold quotes a CSV reader would reject */
    s.job.text_until = "\"ID\",";
    if (tt_csv_read(&s.job, ncu_row, &s))
        goto out;
    if (!s.have_header) {
        tt_error_set(err, TT_ERR_FORMAT, "no ncu header (\"ID\", ..., \"Kernel Name\", ...)");
        goto out;
    }
    if (s.n_kernels == 0) {
        tt_error_set(err, TT_ERR_FORMAT, "ncu table without any kernel row");
        goto out;
    }
    if (!cJSON_AddStringToObject(top, "page", s.raw ? "raw" : "details")) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    snprintf(tr->note, sizeof tr->note,
             "Nsight Compute metrics of %zu profiled kernels (%llu values): a table, no "
             "timeline (ncu replays each kernel and records no timestamps)",
             s.n_kernels, (unsigned long long)s.n_metrics);
    rc = 0;
out:
    if (s.units)
        for (size_t i = 0; i < s.job.n_hdr; i++)
            free(s.units[i]);
    free(s.units);
    free(s.metric_col);
    tt_u64map_fini(&s.by_id);
    tt_csv_job_fini(&s.job);
    return rc;
}

/* The header starts with "ID" (quoted, as ncu writes every cell) and
 * names "Kernel Name" and "Process ID" (ncu's identity columns come
 * first), after at most MAX_PREAMBLE lines of program output that the
 * probe can see. */
static int ncu_probe(const unsigned char *head, size_t n)
{
    static const char *const id[] = {"\"ID\",", NULL};
    static const char *const need[] = {"Kernel Name", "Process ID", NULL};
    size_t len;
    const char *l = tt_csv_line_starting(head, n, MAX_PREAMBLE, id, &len);
    return l && tt_csv_head_has((const unsigned char *)l, len, 1, need) ? 95 : 0;
}

const tt_decoder tt_decoder_ncu_csv = {
    .name = "ncu-csv",
    .description = "Nsight Compute `ncu --csv` metrics (details or raw page)",
    .probe = ncu_probe,
    .decode = ncu_decode,
};
