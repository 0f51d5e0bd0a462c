/* report.c - the per-trace report tables: what every kind shares (see
 * report.h); each kind's columns and rows are its own (kind.h). */
#include "config.h"

#include "report/report.h"

#include "multi/rankset.h"

#include "analysis/stats.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct tt_report {
    tt_report_opts o;
    tt_writer     *w;
    tt_col        *cols;     /* owned copy (TT_KIND_KEY_COLUMNS add key columns) */
    size_t         ncols;
    char          *names;    /* key column titles, TT_KEY_ARG_MAX+8 bytes each */
    char           note[300]; /* why the last trace's table is empty (tt_report_note) */
};

int tt_report_kind_parse(const char *s, const tt_report_kind **k, tt_error *err)
{
    char all[400];
    if ((*k = tt_report_kind_find(s)))
        return 0;
    return tt_error_set(err, TT_ERR_USAGE, "unknown kind '%.200s' (%s)", s,
                        tt_report_kind_list(0, 0, -1, all, sizeof all));
}

const char *tt_report_kind_name(const tt_report_kind *k)
{
    return k ? k->name : "?";
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
    const tt_report_kind *k = o->kind;
    /* --by of the kinds of another scope: the CLI says it, after these */
    if (k->scope == TT_KIND_PER_TRACE) {
        if (!(k->flags & TT_KIND_BY) && o->n_keys)
            return tt_error_set(err, TT_ERR_USAGE, "--by does not apply to --kind %s", k->name);
        if ((k->flags & TT_KIND_BY_ONE) && o->n_keys > 1)
            return tt_error_set(err, TT_ERR_USAGE, "--kind %s groups by one key only", k->name);
    }
    if (o->n_keys > TT_REPORT_MAX_KEYS)
        return tt_error_set(err, TT_ERR_USAGE, "at most %d keys", TT_REPORT_MAX_KEYS);
    if (o->by_module && !(k->flags & TT_KIND_BY_MODULE)) {
        char which[200];
        return tt_error_set(err, TT_ERR_USAGE, "--by module applies to --kind %s",
                            tt_report_kind_list(TT_KIND_BY_MODULE, 0, -1, which, sizeof which));
    }
    if (!(k->flags & TT_KIND_SORT) && (o->sort || o->by_shape)) {
        char which[200];
        return tt_error_set(err, TT_ERR_USAGE, "--sort and --by shape apply to --kind %s",
                            tt_report_kind_list(TT_KIND_SORT, 0, -1, which, sizeof which));
    }
    return k->check ? k->check(o, err) : 0;
}

int tt_report_new(FILE *f, const tt_report_opts *o, tt_report **out, tt_error *err)
{
    const tt_report_kind *k = o->kind;
    tt_report *r;
    const tt_col *base = NULL;
    size_t nbase = 0, nmore;
    cJSON *doc;
    tt_writer_opts wo;
    char kb[TT_KEY_ARG_MAX + 8];

    *out = NULL;
    if (k->scope != TT_KIND_PER_TRACE)
        return tt_error_set(err, TT_ERR_USAGE, "--kind %s is not a per-trace report", k->name);
    base = k->cols;
    nbase = k->cols_used ? k->cols_used(o) : k->n_cols;
    if (tt_report_check(o, err))
        return TT_ERR_USAGE;

    r = calloc(1, sizeof *r);
    if (!r)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    r->o = *o;
    if (r->o.n_keys == 0 && (k->flags & TT_KIND_BY_NAME)) {
        memset(&r->o.keys[0], 0, sizeof r->o.keys[0]);
        r->o.keys[0].kind = TT_KEY_NAME;
        r->o.n_keys = 1;
    }
    nmore = k->more_cols && nbase ? k->more_cols(o, NULL) : 0;
    r->ncols = nbase + nmore + (k->flags & TT_KIND_KEY_COLUMNS ? r->o.n_keys : 0);
    r->cols = calloc(r->ncols, sizeof *r->cols);
    r->names = calloc(r->o.n_keys ? r->o.n_keys : 1, TT_KEY_ARG_MAX + 8);
    if (!r->cols || !r->names) {
        tt_report_free(r);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    memcpy(r->cols, base, nbase * sizeof *base);
    if (nmore) {
        /* before the kind's last column (its Name) */
        k->more_cols(o, r->cols + nbase - 1);
        r->cols[nbase - 1 + nmore] = base[nbase - 1];
        nbase += nmore;
    }
    if (k->flags & TT_KIND_KEY_COLUMNS)
        for (size_t i = 0; i < r->o.n_keys; i++) {
            char *name = r->names + i * (TT_KEY_ARG_MAX + 8);
            key_label(&r->o.keys[i], name, TT_KEY_ARG_MAX + 8);
            r->cols[nbase + i].title = name;
            r->cols[nbase + i].json = name;
            r->cols[nbase + i].type = TT_COL_TEXT;
        }

    doc = cJSON_CreateObject();
    if (doc) {
        cJSON_AddStringToObject(doc, "kind", k->name);
        if (k->flags & TT_KIND_BY_NAME)
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
    wo.one_table = (k->flags & TT_KIND_ONE_TABLE) != 0;
    wo.text_whole = (k->flags & TT_KIND_TEXT_WHOLE) != 0;
    wo.bar_title = k->bar_title;
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
            tt_kind_pct(s->busy, window));
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
        cJSON_AddNumberToObject(fields, "busy_percent", tt_kind_pct(s->busy, sel.to - sel.from));
    }
    if (r->o.format == TT_OUT_TEXT && !(r->o.kind->flags & TT_KIND_ONE_TABLE))
        title = title_line(tr, name, s, s->n_lanes);
    if (!fields || tt_writer_trace_begin(r->w, name, fields, title)) {
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (!no_lanes) {
        tt_kind_ctx x = {r->w, &r->o, tr, &sel, s, spans, rank};
        tt_kind_out ko = {NULL, NULL, r->note, sizeof r->note};
        rc = r->o.kind->rows(&x, &ko, err);
        extra = ko.extra;
        after = ko.text_after;
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
