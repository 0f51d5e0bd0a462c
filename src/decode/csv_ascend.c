/* csv_ascend.c - Ascend `kernel_details.csv` (msprof / torch_npu profiler).
 *
 * Layouts: the older 33-column one and the CANN 8 46-column one (which
 * adds "OP State", "HF32 Eligible" and more counters); also op_summary
 * tables that name their times "Task Start Time(us)". Columns are found by
 * header name, so other column sets load too. Start times may be quoted
 * with a trailing tab, shapes are quoted lists, "N/A" means no value.
 *
 * Model: one group per device ("NPU", or "NPU <Device_id>"), one lane per
 * "Stream ID", or per "Accelerator Core" for rows without a stream (HCCL
 * collectives). Event name = "Name", opcode = "Type", category "kernel"
 * (collectives are told apart by name, see src/analysis/classify.h); every
 * other column, "Step Id" included, stays in the event's arguments.
 */
#include "config.h"

#include "decode/csv_common.h"

#include <stdio.h>
#include <string.h>

typedef struct ascend {
    tt_csv_job job;
    int        c_start, c_dur, c_name, c_type, c_stream, c_core, c_device;
    int        s_start, s_dur;
    bool       have_header;
    /* rows come in runs of one stream: the cells that named the last
     * row's lane (device, stream, core, each with a presence byte) and
     * that lane, reused while they match instead of formatting and
     * interning its names again */
    char       last_cells[200];
    size_t     last_len;
    uint32_t   last_lid;
} ascend;

static int pick(const tt_csv_job *j, const char *a, const char *b)
{
    int c = tt_csv_col(j, a);
    return c >= 0 || !b ? c : tt_csv_col(j, b);
}

static int ascend_header(ascend *a, const tt_csv_row *row)
{
    tt_csv_job *j = &a->job;
    if (tt_csv_set_header(j, row))
        return -1;
    a->c_start = pick(j, "Start Time(us)", "Task Start Time(us)");
    a->c_dur = pick(j, "Duration(us)", "Task Duration(us)");
    a->c_name = pick(j, "Name", "Op Name");
    a->c_type = pick(j, "Type", "OP Type");
    a->c_stream = pick(j, "Stream ID", NULL);
    a->c_core = pick(j, "Accelerator Core", "Task Type");
    a->c_device = pick(j, "Device_id", "Device ID");
    if (a->c_start < 0 || a->c_dur < 0)
        return tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, 0,
                               "not an Ascend kernel table: no \"Start Time(us)\" and "
                               "\"Duration(us)\" columns"), -1;
    a->s_start = tt_csv_time_scale(j->hdr[a->c_start]);
    a->s_dur = tt_csv_time_scale(j->hdr[a->c_dur]);
    if (a->s_start < 0)
        a->s_start = 3;
    if (a->s_dur < 0)
        a->s_dur = 3;
    /* kept as attributes or event fields already */
    j->keep[a->c_start] = j->keep[a->c_dur] = false;
    if (a->c_name >= 0)
        j->keep[a->c_name] = false;
    a->have_header = true;
    return 0;
}

static const char *cell(const tt_csv_row *row, int c)
{
    if (c < 0 || (size_t)c >= row->n || tt_csv_is_null(row->f[c], row->len[c]))
        return NULL;
    return row->f[c];
}

/* The cells that name a row's lane, each as a presence byte and its text
 * with its NUL, into buf; 0 when they do not fit (the lane is then looked
 * up as usual). The core only names the lane of a row without a stream. */
static size_t lane_cells(char *buf, size_t cap, const char *dev, const char *stream,
                         const char *core)
{
    const char *part[3] = {dev, stream, stream ? NULL : core};
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        size_t len = part[i] ? strlen(part[i]) + 1 : 0;
        if (n + 1 + len > cap)
            return 0;
        buf[n++] = part[i] ? 1 : 0;
        if (len)
            memcpy(buf + n, part[i], len);
        n += len;
    }
    return n;
}

static int ascend_row(void *ctx, const tt_csv_row *row)
{
    ascend *a = ctx;
    tt_csv_job *j = &a->job;
    int64_t start, dur, idx;
    int rc;
    const char *name, *type, *stream, *core, *dev;
    char group[96], lane[96];
    uint32_t lid, args;

    if (!a->have_header)
        return ascend_header(a, row);
    if (row->n > j->n_hdr)
        return tt_csv_reject(j, row, (int)j->n_hdr, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    rc = tt_csv_time(row, a->c_start, a->s_start, &start);
    if (rc)
        return tt_csv_reject(j, row, a->c_start, "%s \"%s\": expected a number",
                             rc > 0 ? "no start time in" : "invalid start time in",
                             j->hdr[a->c_start]);
    rc = tt_csv_time(row, a->c_dur, a->s_dur, &dur);
    if (rc || dur < 0)
        return tt_csv_reject(j, row, a->c_dur, "%s \"%s\": expected a number >= 0",
                             rc > 0 ? "no duration in" : "invalid duration in",
                             j->hdr[a->c_dur]);

    name = cell(row, a->c_name);
    type = cell(row, a->c_type);
    stream = cell(row, a->c_stream);
    core = cell(row, a->c_core);
    dev = cell(row, a->c_device);
    {
        char cells[sizeof a->last_cells];
        size_t n = lane_cells(cells, sizeof cells, dev, stream, core);
        if (n && n == a->last_len && memcmp(cells, a->last_cells, n) == 0) {
            lid = a->last_lid;
        } else {
            if (dev)
                snprintf(group, sizeof group, "NPU %s", dev);
            else
                snprintf(group, sizeof group, "NPU");
            if (stream)
                snprintf(lane, sizeof lane, "Stream %s", stream);
            else
                snprintf(lane, sizeof lane, "%s", core ? core : "(no stream)");
            lid = tt_csv_lane(j, group, lane);
            memcpy(a->last_cells, cells, n);
            a->last_len = n;
            a->last_lid = lid;
        }
    }
    if (lid == TT_NO_LANE || tt_csv_args(j, row, &args))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    idx = tt_csv_push(j, lid, start, dur, name ? name : type ? type : "(unnamed)", "kernel", args);
    if (idx < 0)
        return -1;
    if (type) {
        tt_attr_tuple t = {0, 0, 0};
        uint32_t id;
        t.opcode = tt_trace_intern_cstr(j->tr, type);
        id = t.opcode == TT_STR_ERROR ? UINT32_MAX : tt_attrs_intern(j->tr->attrs, t);
        if (id == UINT32_MAX)
            return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
        j->tr->lanes[lid].ev[idx].attrs = id;
    }
    /* rows by accelerator core, as the summary's "by phase" line */
    if (tt_trace_tally_phase(j->tr, core ? core : "row", strlen(core ? core : "row"), 1))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

static int ascend_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                         tt_error *err)
{
    ascend a;
    int rc;
    memset(&a, 0, sizeof a);
    tt_csv_job_init(&a.job, in, opts, tr, info, err);
    rc = tt_csv_read(&a.job, ascend_row, &a);
    if (rc == 0 && !a.have_header)
        rc = (tt_error_set(err, TT_ERR_FORMAT, "no header row"), -1);
    tt_csv_job_fini(&a.job);
    return rc;
}

static int ascend_probe(const unsigned char *head, size_t n)
{
    static const char *const v1[] = {"Start Time(us)", "Duration(us)", NULL};
    static const char *const v2[] = {"Task Start Time(us)", "Task Duration(us)", NULL};
    char line[4096];
    if (!tt_csv_first_line(head, n, line, sizeof line))
        return 0;
    return tt_csv_head_has(head, n, 1, v1) || tt_csv_head_has(head, n, 1, v2) ? 95 : 0;
}

const tt_decoder tt_decoder_ascend_csv = {
    .name = "ascend-csv",
    .description = "Ascend kernel_details.csv / op_summary CSV",
    .probe = ascend_probe,
    .decode = ascend_decode,
};
