/* annotations.c - annotations as a report table (see annotations.h). */
#include "config.h"

#include "report/annotations.h"

#include "report/kind.h"

#include "rules/rank.h"

#include <stdlib.h>
#include <string.h>

static const tt_col ann_cols[] = {
    {"Severity", "severity", TT_COL_TEXT, 0, false},
    {"Rule", "rule", TT_COL_TEXT, 0, false},
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"End (ns)", "end_ns", TT_COL_INT, 0, false},
    {"Lanes", "lanes", TT_COL_TEXT, 0, false},
    {"Events", "events", TT_COL_INT, 0, false},
    {"Message", "message", TT_COL_TEXT, 0, false},
    {"Rank", "rank", TT_COL_INT, 0, false},
};

/* "group / lane; group / lane" (malloc'd). */
static char *lane_list(const tt_trace *tr, const tt_annotation *an)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap), name[512];
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < an->n_lanes; i++) {
        size_t k;
        if (an->lanes[i] >= tr->n_lanes)
            continue;
        tt_lane_fullname(tr, an->lanes[i], name, sizeof name);
        k = strlen(name) + 3;
        if (len + k >= cap) {
            char *ns;
            while (len + k >= cap)
                cap *= 2;
            if (!(ns = realloc(s, cap))) {
                free(s);
                return NULL;
            }
            s = ns;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", len ? "; " : "", name);
    }
    return s;
}

int tt_annotations_write(FILE *f, const tt_ann_report_opts *o, const tt_trace *const *traces,
                         const char *const *names, size_t n_traces, const tt_annotations *a)
{
    tt_writer_opts wo;
    tt_writer *w;
    tt_ranking rk;
    tt_error err;
    int rc = 0;
    /* the Rank column: the finding's place in check's ranked listing */
    if (tt_ranking_build(&rk, a, traces, n_traces, NULL, &err))
        return -1;
    memset(&wo, 0, sizeof wo);
    wo.format = o->format;
    wo.sanitize = o->sanitize;
    wo.utf8 = o->utf8;
    wo.trace_column = n_traces > 1;
    wo.one_table = true;
    w = tt_writer_new(f, &wo, ann_cols, sizeof ann_cols / sizeof ann_cols[0], NULL);
    if (!w) {
        tt_ranking_fini(&rk);
        return -1;
    }
    for (size_t t = 0; rc == 0 && t < n_traces; t++) {
        const tt_trace *tr = traces[t];
        if (tt_writer_trace_begin(w, names[t], NULL, NULL)) {
            rc = -1;
            break;
        }
        for (size_t i = 0; rc == 0 && i < a->n; i++) {
            const tt_annotation *an = &a->v[i];
            tt_cell c[8];
            char *lanes;
            if ((size_t)an->trace != t)
                continue;
            lanes = lane_list(tr, an);
            c[0] = tt_cell_text(tt_severity_name(an->sev));
            c[1] = tt_cell_text(an->rule);
            c[2] = tt_cell_int(an->start - tr->t0);
            c[3] = tt_cell_int(an->end - tr->t0);
            c[4] = tt_cell_text(lanes ? lanes : "");
            c[5] = tt_cell_int((int64_t)an->n_events_total);
            c[6] = tt_cell_text(an->msg);
            c[7] = tt_cell_int((int64_t)rk.order[i]);
            if (!lanes || tt_writer_row(w, c, 0))
                rc = -1;
            free(lanes);
        }
        if (rc == 0 && tt_writer_trace_end(w, NULL, NULL))
            rc = -1;
    }
    if (tt_writer_finish(w))
        rc = -1;
    tt_writer_free(w);
    tt_ranking_fini(&rk);
    return rc;
}

/* The kinds table's row: its rules read everything of every trace. */
const tt_report_kind tt_kind_annotations = {
    .name = "annotations",
    .help = "the findings of the warning rules (check's table)",
    .scope = TT_KIND_WHOLE,
    .flags = TT_KIND_MARKERS | TT_KIND_RULES,
    .skip = 0,
    .skip_arg = 0,
};
