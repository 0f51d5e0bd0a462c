/* kind_launch.c - per-launch delays and durations (see kind_launch.h). */
#include "config.h"

#include "report/kind_launch.h"

#include "report/kind.h"
#include "report/report.h"

#include "analysis/attrib.h"
#include "index/index.h"
#include "util/grow.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tt_col launch_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Correlation", "correlation", TT_COL_INT, 0, false},
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"Launch Delay (ns)", "launch_delay_ns", TT_COL_INT, 0, false},
    {"Host Duration (ns)", "host_duration_ns", TT_COL_INT, 0, false},
    {"Device Duration (ns)", "device_duration_ns", TT_COL_INT, 0, false},
    {"Flags", "flags", TT_COL_TEXT, 0, false},
    {"Launcher", "launcher", TT_COL_TEXT, 0, false},
    {"Lane", "lane", TT_COL_TEXT, 0, false},
    {"Name", "name", TT_COL_TEXT, 0, false},
};
#define NCOLS (sizeof launch_cols / sizeof launch_cols[0])

/* One launch: the device event and its launching call. */
typedef struct launch {
    tt_evref dev, host;
    tt_ns    start;
} launch;

static int cmp_launch(const void *a, const void *b)
{
    const launch *x = a, *y = b;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    if (x->dev.lane != y->dev.lane)
        return (x->dev.lane > y->dev.lane) - (x->dev.lane < y->dev.lane);
    return (x->dev.idx > y->dev.idx) - (x->dev.idx < y->dev.idx);
}

static int cmp_ns(const void *a, const void *b)
{
    tt_ns x = *(const tt_ns *)a, y = *(const tt_ns *)b;
    return (x > y) - (x < y);
}

typedef struct launch_sum {
    size_t n, unlinked, shorter, slow, late;
    double mean, median;
    tt_ns  max;
} launch_sum;

/* The launches of the selection's device events, in device start order;
 * *unlinked counts device events without a launcher. */
static int collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel, launch **out,
                   size_t *n, size_t *unlinked)
{
    size_t nl = tt_sel_lane_count(tr, sel), cap = 0;
    tt_idxbuf buf;
    int rc = 0;
    *out = NULL;
    *n = *unlinked = 0;
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        if (!tt_attrib_lane_is_device(a, lane))
            continue;
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            tt_evref d = {lane, buf.v[k]};
            tt_evref h;
            if (!tt_attrib_is_device(a, d))
                continue;
            h = tt_attrib_launcher(a, d);
            if (!tt_evref_ok(h)) {
                (*unlinked)++;
                continue;
            }
            if (tt_grow_one((void **)out, &cap, *n, sizeof **out)) {
                rc = -1;
                break;
            }
            (*out)[*n].dev = d;
            (*out)[*n].host = h;
            (*out)[(*n)++].start = tt_trace_event(tr, d)->start;
        }
    }
    tt_idxbuf_fini(&buf);
    if (rc == 0)
        qsort(*out, *n, sizeof **out, cmp_launch);
    return rc;
}

static cJSON *summary_json(const launch_sum *s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    tt_json_add_int(o, "launches", (int64_t)s->n);
    tt_json_add_int(o, "device_events_without_launcher", (int64_t)s->unlinked);
    tt_json_add_int(o, "short", (int64_t)s->shorter);
    tt_json_add_int(o, "slow_call", (int64_t)s->slow);
    tt_json_add_int(o, "late", (int64_t)s->late);
    if (s->n) {
        cJSON_AddNumberToObject(o, "launch_delay_mean_ns", s->mean);
        cJSON_AddNumberToObject(o, "launch_delay_median_ns", s->median);
        tt_json_add_int(o, "launch_delay_max_ns", s->max);
    }
    return o;
}

static char *summary_text(const launch_sum *s)
{
    char *t = malloc(600);
    char a[32], b[32], c[32], n1[32];
    if (!t)
        return NULL;
    snprintf(t, 600,
             "\n%s launches; launch delay mean %s, median %s, max %s\n"
             "short (device shorter than the call) %zu, slow-call (over 50 us) %zu, "
             "late (delay over 100 us) %zu; %zu device events without a launcher",
             tt_fmt_count(n1, sizeof n1, s->n), tt_fmt_dur(a, sizeof a, (tt_ns)(s->mean + 0.5), 3),
             tt_fmt_dur(b, sizeof b, (tt_ns)(s->median + 0.5), 3), tt_fmt_dur(c, sizeof c, s->max, 3),
             s->shorter, s->slow, s->late, s->unlinked);
    return t;
}

int tt_kind_launch_rows(tt_writer *w, const tt_trace *tr, const tt_sel *sel, int64_t rank,
                        bool text, cJSON **extra, char **text_after, char *note, size_t cap,
                        tt_error *err)
{
    const tt_attrib *a;
    launch *v = NULL;
    tt_ns *delays = NULL;
    launch_sum s;
    char lname[600], flags[40];
    tt_cell c[NCOLS];
    double sum = 0;

    *extra = NULL;
    *text_after = NULL;
    note[0] = '\0';
    memset(&s, 0, sizeof s);
    if (!(a = tt_attrib_get(tr, err)))
        return -1;
    if (!tt_attrib_has_links(a)) {
        snprintf(note, cap, "no launch links in this trace (%zu device events, none linked to a "
                            "host call): no launch statistics", tt_attrib_n_device(a));
        return 0;
    }
    if (collect(tr, a, sel, &v, &s.n, &s.unlinked) ||
        !(delays = malloc((s.n ? s.n : 1) * sizeof *delays)))
        goto nomem;
    for (size_t i = 0; i < s.n; i++) {
        const tt_event *d = tt_trace_event(tr, v[i].dev), *h = tt_trace_event(tr, v[i].host);
        tt_ns delay = d->start - h->start;
        size_t fl = 0;
        flags[0] = '\0';
        if (d->dur < h->dur) {
            fl += (size_t)snprintf(flags + fl, sizeof flags - fl, "short");
            s.shorter++;
        }
        if (h->dur > TT_LAUNCH_SLOW_CALL_NS) {
            fl += (size_t)snprintf(flags + fl, sizeof flags - fl, "%sslow-call", fl ? " " : "");
            s.slow++;
        }
        if (delay > TT_LAUNCH_LATE_NS) {
            snprintf(flags + fl, sizeof flags - fl, "%slate", fl ? " " : "");
            s.late++;
        }
        delays[i] = delay;
        sum += (double)delay;
        if (i == 0 || delay > s.max)
            s.max = delay;
        tt_lane_fullname(tr, v[i].dev.lane, lname, sizeof lname);
        c[0] = tt_cell_int(rank);
        c[1] = d->corr ? tt_cell_int(d->corr) : tt_cell_none();
        c[2] = tt_cell_int(d->start - tr->t0);
        c[3] = tt_cell_int(delay);
        c[4] = tt_cell_int(h->dur);
        c[5] = tt_cell_int(d->dur);
        c[6] = tt_cell_text(flags);
        c[7] = tt_cell_text(tt_str(tr, h->name));
        c[8] = tt_cell_text(lname);
        c[9] = tt_cell_text(tt_str(tr, d->name));
        if (tt_writer_row(w, c, 0))
            goto nomem;
    }
    if (s.n) {
        s.mean = sum / (double)s.n;
        qsort(delays, s.n, sizeof *delays, cmp_ns);
        s.median = s.n % 2 ? (double)delays[s.n / 2]
                           : ((double)delays[s.n / 2 - 1] + (double)delays[s.n / 2]) / 2;
    } else {
        snprintf(note, cap, "no launched device event in the selection (%zu without a launcher)",
                 s.unlinked);
    }
    if ((*extra = cJSON_CreateObject()))
        cJSON_AddItemToObject(*extra, "summary", summary_json(&s));
    if (text && s.n)
        *text_after = summary_text(&s);
    free(v);
    free(delays);
    return 0;
nomem:
    free(v);
    free(delays);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* ------------------------------------------------------ the table's row */

static int launch_rows(const tt_kind_ctx *x, tt_kind_out *out, tt_error *err)
{
    return tt_kind_launch_rows(x->w, x->tr, x->sel, x->rank, x->o->format == TT_OUT_TEXT,
                               &out->extra, &out->text_after, out->note, out->note_cap, err);
}

const tt_report_kind tt_kind_launch = {
    .name = "launch",
    .help = "one row per launched kernel, copy or memset: launch delay, host and device times",
    .scope = TT_KIND_PER_TRACE,
    .flags = TT_KIND_MARKERS | TT_KIND_RANK_COLUMN,
    .skip = TT_TRACE_NO_ARGS,   /* flows and correlation ids only */
    .skip_arg = TT_TRACE_NO_ARGS,
    .cols = launch_cols,
    .n_cols = NCOLS,
    .rows = launch_rows,
};
