/* mindspore_steps.c - older MindSpore cluster step traces,
 * step_trace_raw_{rank}_detail_time.csv (MindInsight's cluster input).
 *
 * One row per step: step_num, start_point, end_point, total, fp_point,
 * bp_point, iteration_interval, fp_and_bp, tail, then three columns per
 * communication op, "stream_S_I_Name" (its duration), "..._start_point"
 * and "..._end_point". A last row with step_num "-" holds averages and is
 * skipped. Times are in 10 ns ticks of the device's 100 MHz system counter
 * (MindInsight divides by 1e5 for ms; the ops' durations against
 * hccl_raw_N.csv agree with 10 ns and not with 1 ns), stored exactly as ns.
 *
 * Why a decoder and not a side file read by the overview: these files are
 * a job's only timing data (a directory of them is a job with no
 * trace_view.json beside them), so each must open as a rank in `report`,
 * `view` and `check` like any trace, and only a decoder makes a file a
 * rank (multi/rankset.h). Detected from content (the header), never from
 * the name; the rank is the N of the file name, the only place it is
 * written.
 *
 * Model: group "Step trace" with lane "Steps" (one slice per step, named
 * by step_num) and lane "FP+BP" (fp_point to bp_point); group
 * "Communication" with a lane per stream ("Stream S") holding the ops,
 * category "collective" (analysis/classify.h: communication). The
 * overview (analysis/overview.h) reads these lanes by name.
 */
#include "config.h"

#include "decode/csv_common.h"
#include "decode/mindspore_hccl.h"
#include "io/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "step_num,start_point,end_point,total,fp_point,bp_point"
#define TICK_SCALE 1   /* 10 ns ticks: decimal scale 1 */

typedef struct msop {
    int      dur, start, end;   /* columns */
    uint32_t lane;
    char     name[128];
} msop;

typedef struct msteps {
    tt_csv_job job;
    bool       have_header;
    int        c_step, c_start, c_end, c_fp, c_bp;
    msop      *ops;
    size_t     n_ops;
    uint32_t   steps_lane, fpbp_lane;
} msteps;

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static int ms_header(msteps *m, const tt_csv_row *row)
{
    tt_csv_job *j = &m->job;
    if (tt_csv_set_header(j, row))
        return -1;
    m->c_step = tt_csv_col(j, "step_num");
    m->c_start = tt_csv_col(j, "start_point");
    m->c_end = tt_csv_col(j, "end_point");
    m->c_fp = tt_csv_col(j, "fp_point");
    m->c_bp = tt_csv_col(j, "bp_point");
    if (m->c_step < 0 || m->c_start < 0 || m->c_end < 0 || m->c_fp < 0 || m->c_bp < 0)
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                               "not a MindSpore step trace: no step_num, start_point, "
                               "end_point, fp_point and bp_point columns"), -1;
    if (!(m->ops = calloc(j->n_hdr, sizeof *m->ops)))
        goto nomem;
    /* an op is a column "stream_S_I_Name" followed by its two points */
    for (size_t c = 0; c + 2 < j->n_hdr; c++) {
        const char *h = j->hdr[c];
        char lane[64], start[300], end[300];
        unsigned stream, idx;
        int used = 0;
        msop *op = &m->ops[m->n_ops];
        if (strncmp(h, "stream_", 7) != 0 || has_suffix(h, "_point") ||
            sscanf(h, "stream_%u_%u_%n", &stream, &idx, &used) != 2 || used == 0)
            continue;
        snprintf(start, sizeof start, "%s_start_point", h);
        snprintf(end, sizeof end, "%s_end_point", h);
        if (strcmp(j->hdr[c + 1], start) != 0 || strcmp(j->hdr[c + 2], end) != 0)
            return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, (int64_t)c + 2,
                                   "expected \"%.100s\" after \"%.100s\"", start, h), -1;
        op->dur = (int)c;
        op->start = (int)c + 1;
        op->end = (int)c + 2;
        snprintf(op->name, sizeof op->name, "%s", h + used);
        snprintf(lane, sizeof lane, "Stream %u", stream);
        if ((op->lane = tt_csv_lane(j, "Communication", lane)) == TT_NO_LANE)
            goto nomem;
        m->n_ops++;
    }
    if ((m->steps_lane = tt_csv_lane(j, "Step trace", "Steps")) == TT_NO_LANE ||
        (m->fpbp_lane = tt_csv_lane(j, "Step trace", "FP+BP")) == TT_NO_LANE)
        goto nomem;
    m->have_header = true;
    return 0;
nomem:
    return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* A time cell in ns: 0; 1 when the row is skipped (--lenient); -1 with
 * the error set at its row and column. */
static int tick(msteps *m, const tt_csv_row *row, int col, tt_ns *out)
{
    if (tt_csv_time(row, col, TICK_SCALE, out) == 0)
        return 0;
    return tt_csv_reject(&m->job, row, col, "\"%s\": expected a number", m->job.hdr[col]) < 0
               ? -1
               : 1;
}

static int ms_row(void *ctx, const tt_csv_row *row)
{
    msteps *m = ctx;
    tt_csv_job *j = &m->job;
    tt_ns s, e, fp, bp;
    char name[64];
    int rc;

    if (!m->have_header)
        return ms_header(m, row);
    if (row->n > j->n_hdr)
        return tt_csv_reject(j, row, (int)j->n_hdr, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    if ((size_t)m->c_step < row->n && strcmp(row->f[m->c_step], "-") == 0)
        return 0;   /* the averages row */
    if ((rc = tick(m, row, m->c_start, &s)) || (rc = tick(m, row, m->c_end, &e)) ||
        (rc = tick(m, row, m->c_fp, &fp)) || (rc = tick(m, row, m->c_bp, &bp)))
        return rc < 0 ? -1 : 0;
    if (e < s)
        return tt_csv_reject(j, row, m->c_end, "end_point before start_point");
    snprintf(name, sizeof name, "%s", (size_t)m->c_step < row->n ? row->f[m->c_step] : "");
    if (tt_csv_push(j, m->steps_lane, s, e - s, name, NULL, 0) < 0 ||
        (bp > fp && tt_csv_push(j, m->fpbp_lane, fp, bp - fp, "FP+BP", NULL, 0) < 0))
        return -1;
    for (size_t k = 0; k < m->n_ops; k++) {
        const msop *op = &m->ops[k];
        tt_ns os, oe;
        if ((size_t)op->start >= row->n || tt_csv_is_null(row->f[op->start], row->len[op->start]))
            continue;   /* an op this step did not run */
        if ((rc = tick(m, row, op->start, &os)) || (rc = tick(m, row, op->end, &oe)))
            return rc < 0 ? -1 : 0;
        if (oe < os)
            return tt_csv_reject(j, row, op->end, "end point before start point");
        if (tt_csv_push(j, op->lane, os, oe - os, op->name, "collective", 0) < 0)
            return -1;
    }
    return 0;
}

int64_t tt_mindspore_steps_rank(const char *path)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    long long r;
    int used = 0;
    base = base ? base + 1 : path;
    if (base && sscanf(base, "step_trace_raw_%lld_detail_time%n", &r, &used) == 1 && used > 0 &&
        r >= 0)
        return r;
    return -1;
}

static int ms_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                     tt_error *err)
{
    msteps m;
    int rc;
    memset(&m, 0, sizeof m);
    tt_csv_job_init(&m.job, in, opts, tr, info, err);
    rc = tt_csv_read(&m.job, ms_row, &m);
    if (rc == 0 && !m.have_header)
        rc = (tt_error_set(err, TT_ERR_FORMAT, "no header row"), -1);
    tt_csv_job_fini(&m.job);
    free(m.ops);
    if (rc == 0)
        tr->rank = tt_mindspore_steps_rank(tt_input_path(in));
    return rc;
}

static int ms_probe(const unsigned char *head, size_t n)
{
    size_t k = strlen(HEAD), skip = 0;
    if (n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
        skip = 3;
    return n >= skip + k && memcmp(head + skip, HEAD, k) == 0 ? 96 : 0;
}

const tt_decoder tt_decoder_mindspore_steps = {
    .name = "mindspore-step-trace",
    .description = "MindSpore step_trace_raw_N_detail_time.csv (older cluster step trace)",
    .probe = ms_probe,
    .decode = ms_decode,
};
