/* csv_nsys.c - `nsys stats --format csv` trace reports.
 *
 * Made for `--report cuda_gpu_trace` ("Start (ns)", "Duration (ns)",
 * "CorrId", grid/block sizes, "Bytes (MB)", "Throughput (MBps)",
 * "SrcMemKd", "DstMemKd", "Device", "Ctx", "GreenCtx", "Strm", "Name"), so a
 * user with only the nsys CLI on a cluster can browse a trace. Columns are
 * found by name, so older layouts (no "GreenCtx", "Bytes (B)" when asked
 * with a unit) load too, and so do the host-side trace reports that name
 * threads instead of streams ("Pid"/"Tid", e.g. cuda_api_trace). Units come
 * from the headers. Lines nsys prints before the table are skipped.
 *
 * Model: GPU rows group by "Device" with one lane per "Strm"; host rows by
 * process with one lane per thread. Categories follow Kineto, so the GPU
 * time breakdown recognises them (src/analysis/classify.h): "kernel",
 * "gpu_memcpy" for "[CUDA memcpy ...]" rows (bytes kept), "gpu_memset" for
 * "[CUDA memset]"; host rows "cuda_runtime". "CorrId" is the correlation id;
 * all other columns stay in the event's arguments.
 */
#include "config.h"

#include "decode/csv_common.h"

#include <stdio.h>
#include <string.h>

#define MAX_PREAMBLE 20   /* lines nsys may print before the header */

typedef struct nsys {
    tt_csv_job job;
    int        c_start, c_dur, c_end, c_name, c_corr, c_bytes, c_device, c_strm, c_pid, c_tid;
    int        c_src, c_dst;
    int        s_start, s_dur, s_end, s_bytes;
    bool       have_header;
} nsys;

static int any_col(const tt_csv_job *j, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        int c = tt_csv_col(j, names[i]);
        if (c >= 0)
            return c;
    }
    return -1;
}

/* Try a row as the header. 1 = it is, 0 = not (yet), -1 = error. */
static int nsys_header(nsys *s, const tt_csv_row *row)
{
    static const char *const corr[] = {"CorrId", "CorrID", "Correlation ID", NULL};
    static const char *const pid[] = {"Pid", "PID", NULL};
    static const char *const tid[] = {"Tid", "TID", NULL};
    tt_csv_job *j = &s->job;
    bool has_start = false, has_name = false;
    for (size_t i = 0; i < row->n; i++) {
        if (strncmp(row->f[i], "Start (", 7) == 0 || strcmp(row->f[i], "Start") == 0)
            has_start = true;
        if (strcmp(row->f[i], "Name") == 0)
            has_name = true;
    }
    if (!has_start || !has_name) {
        if (row->row >= MAX_PREAMBLE)
            return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                                   "no nsys trace header (\"Start (ns)\", ..., \"Name\") in the "
                                   "first %d rows",
                                   MAX_PREAMBLE), -1;
        return 0;
    }
    if (tt_csv_set_header(j, row))
        return -1;
    s->c_start = tt_csv_col_prefix(j, "Start (");
    if (s->c_start < 0)
        s->c_start = tt_csv_col(j, "Start");
    s->c_dur = tt_csv_col_prefix(j, "Duration (");
    if (s->c_dur < 0)
        s->c_dur = tt_csv_col(j, "Duration");
    s->c_end = tt_csv_col_prefix(j, "End (");
    s->c_name = tt_csv_col(j, "Name");
    s->c_corr = any_col(j, corr);
    s->c_bytes = tt_csv_col_prefix(j, "Bytes");
    if (s->c_bytes < 0)
        s->c_bytes = tt_csv_col_prefix(j, "Size (");
    s->c_device = tt_csv_col(j, "Device");
    s->c_strm = tt_csv_col(j, "Strm");
    s->c_src = tt_csv_col(j, "SrcMemKd");
    s->c_dst = tt_csv_col(j, "DstMemKd");
    s->c_pid = any_col(j, pid);
    s->c_tid = any_col(j, tid);
    if (s->c_dur < 0 && s->c_end < 0)
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                               "nsys table without a \"Duration (ns)\" or \"End (ns)\" column"), -1;
    /* nsys writes nanoseconds unless --timeunit says otherwise, and then
     * the header names the unit */
    s->s_start = tt_csv_time_scale(j->hdr[s->c_start]);
    s->s_dur = s->c_dur >= 0 ? tt_csv_time_scale(j->hdr[s->c_dur]) : 0;
    s->s_end = s->c_end >= 0 ? tt_csv_time_scale(j->hdr[s->c_end]) : 0;
    if (s->s_start < 0)
        s->s_start = 0;
    if (s->s_dur < 0)
        s->s_dur = 0;
    if (s->s_end < 0)
        s->s_end = 0;
    s->s_bytes = s->c_bytes >= 0 ? tt_csv_bytes_scale(j->hdr[s->c_bytes]) : 0;
    j->keep[s->c_start] = false;
    if (s->c_dur >= 0)
        j->keep[s->c_dur] = false;
    if (s->c_end >= 0)
        j->keep[s->c_end] = false;
    s->have_header = true;
    return 1;
}

static const char *cell(const tt_csv_row *row, int c)
{
    if (c < 0 || (size_t)c >= row->n || tt_csv_is_null(row->f[c], row->len[c]))
        return NULL;
    return row->f[c];
}

static int nsys_row(void *ctx, const tt_csv_row *row)
{
    nsys *s = ctx;
    tt_csv_job *j = &s->job;
    int64_t start, dur, end, idx, v;
    int rc;
    const char *name, *cat, *dev, *strm, *pid, *tid;
    char group[160], lane[96], copy[200];
    uint32_t lid, args;
    tt_event *e;

    if (!s->have_header)
        return nsys_header(s, row) < 0 ? -1 : 0;
    if (row->n > j->n_hdr)
        return tt_csv_reject(j, row, (int)j->n_hdr, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    rc = tt_csv_time(row, s->c_start, s->s_start, &start);
    if (rc)
        return tt_csv_reject(j, row, s->c_start, "%s \"%s\": expected a number",
                             rc > 0 ? "no start time in" : "invalid start time in",
                             j->hdr[s->c_start]);
    if (s->c_dur >= 0) {
        rc = tt_csv_time(row, s->c_dur, s->s_dur, &dur);
        if (rc || dur < 0)
            return tt_csv_reject(j, row, s->c_dur, "%s \"%s\": expected a number >= 0",
                                 rc > 0 ? "no duration in" : "invalid duration in",
                                 j->hdr[s->c_dur]);
    } else {
        rc = tt_csv_time(row, s->c_end, s->s_end, &end);
        if (rc || end < start || end - start > TT_TIME_LIMIT)
            return tt_csv_reject(j, row, s->c_end, "%s \"%s\": expected a time >= the start (and within 3e18 ns of it)",
                                 rc > 0 ? "no end time in" : "invalid end time in",
                                 j->hdr[s->c_end]);
        dur = end - start;
    }
    name = cell(row, s->c_name);
    if (!name)
        return tt_csv_reject(j, row, s->c_name, "no name");

    dev = cell(row, s->c_device);
    strm = cell(row, s->c_strm);
    pid = cell(row, s->c_pid);
    tid = cell(row, s->c_tid);
    if (strm || s->c_strm >= 0) {
        /* GPU activity */
        snprintf(group, sizeof group, "%s", dev ? dev : "GPU");
        snprintf(lane, sizeof lane, "Stream %s", strm ? strm : "?");
        if (strncmp(name, "[CUDA memcpy ", 13) == 0) {
            /* "[CUDA memcpy Host-to-Device]": Kineto's words, with the
             * memory kinds, so pageable copies can be found */
            char kind[96];
            const char *close = strchr(name + 13, ']');
            snprintf(kind, sizeof kind, "%.*s", close ? (int)(close - name - 13) : 80, name + 13);
            tt_nsys_memcpy_name(copy, sizeof copy, kind, cell(row, s->c_src), cell(row, s->c_dst));
            name = copy;
            cat = "gpu_memcpy";
        } else if (strncmp(name, "[CUDA memset", 12) == 0) {
            tt_nsys_memset_name(copy, sizeof copy, cell(row, s->c_src));
            name = copy;
            cat = "gpu_memset";
        } else {
            cat = "kernel";
        }
    } else {
        snprintf(group, sizeof group, "pid %s", pid ? pid : "?");
        snprintf(lane, sizeof lane, "tid %s", tid ? tid : "?");
        cat = "cuda_runtime";
    }
    /* the nsys name stays in the arguments only where it was replaced */
    j->keep[s->c_name] = name == copy;
    lid = tt_csv_lane(j, group, lane);
    if (lid == TT_NO_LANE || tt_csv_args(j, row, &args))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    idx = tt_csv_push(j, lid, start, dur, name, cat, args);
    if (idx < 0)
        return -1;
    e = &j->tr->lanes[lid].ev[idx];
    if (s->c_corr >= 0 && tt_csv_decimal(row, s->c_corr, 0, &v) == 0 && v > 0 && v <= UINT32_MAX)
        e->corr = (uint32_t)v;
    if (s->c_bytes >= 0 && strcmp(cat, "kernel") != 0 &&
        tt_csv_bytes(row, s->c_bytes, s->s_bytes, &v) == 0 && v >= 0)
        e->bytes = v;
    if (tt_trace_tally_phase(j->tr, cat, strlen(cat), 1))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

static int nsys_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                       tt_error *err)
{
    nsys s;
    int rc;
    memset(&s, 0, sizeof s);
    tt_csv_job_init(&s.job, in, opts, tr, info, err);
    rc = tt_csv_read(&s.job, nsys_row, &s);
    if (rc == 0 && !s.have_header)
        rc = (tt_error_set(err, TT_ERR_FORMAT,
                          "no nsys trace header (\"Start (ns)\", ..., \"Name\")"), -1);
    tt_csv_job_fini(&s.job);
    return rc;
}

/* nsys trace tables start with their "Start (unit)" column; the line must
 * also name "Name" and a duration or end column. */
static int nsys_probe(const unsigned char *head, size_t n)
{
    static const char *const start[] = {"Start (", "\"Start (", NULL};
    static const char *const dur[] = {"Duration (", "Name", NULL};
    static const char *const end[] = {"End (", "Name", NULL};
    size_t len;
    const char *l = tt_csv_line_starting(head, n, MAX_PREAMBLE, start, &len);
    if (l && (tt_csv_head_has((const unsigned char *)l, len, 1, dur) ||
              tt_csv_head_has((const unsigned char *)l, len, 1, end)))
        return 95;
    return 0;
}

const tt_decoder tt_decoder_nsys_csv = {
    .name = "nsys-csv",
    .description = "nsys stats --format csv trace report (cuda_gpu_trace, ...)",
    .probe = nsys_probe,
    .decode = nsys_decode,
};
