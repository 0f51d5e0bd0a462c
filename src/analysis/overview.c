/* overview.c - MindStudio's per-step overview (see overview.h). */
#include "config.h"

#include "analysis/overview.h"

#include "analysis/classify.h"
#include "analysis/intervals.h"
#include "analysis/steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The legacy MindSpore decoder's format name and lanes (decode/mindspore_steps.c). */
#define LEGACY_FORMAT "mindspore-step-trace"
#define LEGACY_STEPS_LANE "Steps"
#define LEGACY_FPBP_LANE "FP+BP"

const char *tt_overview_source_name(tt_overview_source s)
{
    return s == TT_OVERVIEW_TIMELINE ? "timeline" : "file";
}

void tt_overview_free(tt_overview *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++)
        free(o->v[i].name);
    free(o->v);
    free(o->path);
    free(o);
}

static tt_overview_step *add_step(tt_overview *o, size_t *cap, const char *name)
{
    tt_overview_step *s;
    if (o->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        tt_overview_step *v = realloc(o->v, nc * sizeof *v);
        if (!v)
            return NULL;
        o->v = v;
        *cap = nc;
    }
    s = &o->v[o->n];
    memset(s, 0, sizeof *s);
    if (!(s->name = strdup(name)))
        return NULL;
    o->n++;
    return s;
}

/* ------------------------------------------------------------ the file */

int tt_overview_from_table(const tt_sidetab *t, tt_overview **out, tt_error *err)
{
    static const char *const need[] = {"Computing", "Communication(Not Overlapped)",
                                       "Overlapped", "Communication", "Free"};
    static const char *const opt[] = {"Stage", "Bubble", "Preparing"};
    static const unsigned opt_flag[] = {TT_OV_STAGE, TT_OV_BUBBLE, TT_OV_PREPARING};
    int step_col = tt_sidetab_col(t, "Step"), nc[5], oc[3];
    tt_overview *o;
    size_t cap = 0;

    *out = NULL;
    if (step_col < 0)
        return tt_error_at_row(err, TT_ERR_FORMAT, 1, 1, "no Step column in the header"), -1;
    for (int k = 0; k < 5; k++)
        if ((nc[k] = tt_sidetab_col(t, need[k])) < 0)
            return tt_error_at_row(err, TT_ERR_FORMAT, 1, 1, "no %s column in the header",
                                   need[k]),
                   -1;
    for (int k = 0; k < 3; k++)
        oc[k] = tt_sidetab_col(t, opt[k]);
    if (!(o = calloc(1, sizeof *o)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    o->source = TT_OVERVIEW_FILE;
    for (size_t r = 0; r < t->n_rows; r++) {
        tt_ns v[5], ov[3];
        tt_overview_step *s;
        for (int k = 0; k < 5; k++)   /* us, kept to the ns */
            if (tt_sidetab_decimal(t, r, (size_t)nc[k], 3, &v[k], err))
                goto fail;
        for (int k = 0; k < 3; k++)
            if (oc[k] >= 0 && *tt_sidetab_cell(t, r, (size_t)oc[k]) &&
                tt_sidetab_decimal(t, r, (size_t)oc[k], 3, &ov[k], err))
                goto fail;
        if (!(s = add_step(o, &cap, tt_sidetab_cell(t, r, (size_t)step_col))))
            goto nomem;
        s->computing = v[0];
        s->comm_not_overlapped = v[1];
        s->overlapped = v[2];
        s->communication = v[3];
        s->free = v[4];
        s->has = TT_OV_OVERLAPPED;
        for (int k = 0; k < 3; k++)
            if (oc[k] >= 0 && *tt_sidetab_cell(t, r, (size_t)oc[k])) {
                s->has |= opt_flag[k];
                *(k == 0 ? &s->stage : k == 1 ? &s->bubble : &s->preparing) = ov[k];
            }
    }
    *out = o;
    return 0;
nomem:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
fail:
    tt_overview_free(o);
    return -1;
}

/* -------------------------------------------------------- the timeline */

/* Ascend stream tasks that are bookkeeping, not computation (see overview.h). */
static bool ascend_not_compute(const char *name)
{
    static const char *const names[] = {
        "EVENT_WAIT", "EVENT_RECORD", "Notify Wait", "Notify Record", "Notify_Wait",
        "Notify_Record", "Write Value", "SDMA", "PROFILING_ENABLE", "PROFILING_DISABLE",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static const char *group_name(const tt_trace *tr, uint32_t lane)
{
    return tt_str(tr, tr->groups[tr->lanes[lane].group].name);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The interval sets of one trace. */
typedef struct ov_sets {
    tt_ivals comp, comm, recv;
    bool     ascend_hccl;   /* HCCL communication lanes seen: Bubble is known */
} ov_sets;

static void sets_fini(ov_sets *s)
{
    tt_ivals_fini(&s->comp);
    tt_ivals_fini(&s->comm);
    tt_ivals_fini(&s->recv);
}

/* The interval sets of the lanes of sel (every lane when NULL). */
static int collect(const tt_trace *tr, const tt_sel *sel, ov_sets *s)
{
    tt_classifier cl;
    int rc = -1;
    size_t nl = sel ? tt_sel_lane_count(tr, sel) : tr->n_lanes;
    if (tt_classifier_init(&cl, tr))
        return -1;
    for (size_t li = 0; li < nl; li++) {
        uint32_t l = sel ? tt_sel_lane(sel, li) : (uint32_t)li;
        const tt_lane *ln = &tr->lanes[l];
        const char *g = group_name(tr, l);
        bool hw = strcmp(g, "Ascend Hardware") == 0;
        bool hccl = strcmp(g, "HCCL") == 0 && ends_with(tt_str(tr, ln->name), "Communication");
        s->ascend_hccl |= hccl;
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_gpu_class c;
            if (e->kind != TT_EV_SLICE || e->dur <= 0)
                continue;
            c = hccl ? TT_GPU_COMM : tt_classifier_gpu(&cl, e);
            if (c == TT_GPU_COMPUTE && hw && ascend_not_compute(tt_str(tr, e->name)))
                c = TT_GPU_NONE;
            if (c == TT_GPU_COMM && hccl &&
                strncmp(tt_str(tr, e->name), "hcom_receive", 12) == 0 &&
                tt_ivals_push(&s->recv, e->start, tt_event_end(e)))
                goto out;
            if ((c == TT_GPU_COMPUTE && tt_ivals_push(&s->comp, e->start, tt_event_end(e))) ||
                (c == TT_GPU_COMM && tt_ivals_push(&s->comm, e->start, tt_event_end(e))))
                goto out;
        }
    }
    rc = tt_ivals_normalize(&s->comp) || tt_ivals_normalize(&s->comm) ||
                 tt_ivals_normalize(&s->recv)
             ? -1
             : 0;
out:
    tt_classifier_fini(&cl);
    return rc;
}

/* out = a ∩ [from, to) (a normalized; out normalized). 0 or -1 (OOM). */
static int clip(const tt_ivals *a, tt_ns from, tt_ns to, tt_ivals *out)
{
    size_t lo = 0, hi = a->n;
    out->n = 0;
    while (lo < hi) {   /* first interval ending after from */
        size_t mid = lo + (hi - lo) / 2;
        if (a->v[mid].e <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < a->n && a->v[i].s < to; i++)
        if (tt_ivals_push(out, a->v[i].s < from ? from : a->v[i].s,
                          a->v[i].e > to ? to : a->v[i].e))
            return -1;
    return 0;
}

/* One step's numbers from the sets clipped to [from, to). */
static int fill_step(const ov_sets *s, tt_ns from, tt_ns to, bool found_step,
                     tt_overview_step *st)
{
    tt_ivals c, m, r, u;
    int rc = -1;
    tt_ivals_init(&c);
    tt_ivals_init(&m);
    tt_ivals_init(&r);
    tt_ivals_init(&u);
    if (clip(&s->comp, from, to, &c) || clip(&s->comm, from, to, &m) ||
        clip(&s->recv, from, to, &r) || tt_ivals_union(&c, &m, &u))
        goto out;
    st->computing = tt_ivals_length(&c);
    st->communication = tt_ivals_length(&m);
    st->overlapped = tt_ivals_overlap_length(&c, &m);
    st->comm_not_overlapped = st->communication - st->overlapped;
    st->has = TT_OV_OVERLAPPED | TT_OV_STAGE;
    if (u.n) {
        tt_ns span = u.v[u.n - 1].e - u.v[0].s;
        st->free = span - tt_ivals_length(&u);
        st->stage = span;
        if (found_step) {
            st->preparing = u.v[0].s - from;
            st->has |= TT_OV_PREPARING;
        }
    }
    if (s->ascend_hccl) {
        st->bubble = tt_ivals_length(&r);
        st->stage -= st->bubble;
        st->has |= TT_OV_BUBBLE;
    }
    rc = 0;
out:
    tt_ivals_fini(&c);
    tt_ivals_fini(&m);
    tt_ivals_fini(&r);
    tt_ivals_fini(&u);
    return rc;
}

/* Whether [from, to) meets the window of sel (always, for NULL), as an
 * event meets a selection (select.h). */
static bool meets(const tt_sel *sel, tt_ns from, tt_ns to)
{
    if (!sel)
        return true;
    if (from == to)
        return from >= sel->from && (from < sel->to || (sel->to_inclusive && from == sel->to));
    return from < sel->to && to > sel->from;
}

/* The lane of the legacy decoder named name, or TT_NO_LANE. */
static uint32_t legacy_lane(const tt_trace *tr, const char *name)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        if (strcmp(tt_str(tr, tr->lanes[l].name), name) == 0)
            return l;
    return TT_NO_LANE;
}

/* Older MindSpore step_trace_raw files (see overview.h): the steps and
 * FP..BP spans are lanes of their own, the communication ops collectives. */
static int legacy_steps(const tt_trace *tr, const tt_sel *win, const ov_sets *s, tt_overview *o,
                        size_t *cap)
{
    uint32_t sl = legacy_lane(tr, LEGACY_STEPS_LANE), fl = legacy_lane(tr, LEGACY_FPBP_LANE);
    tt_ivals fp, fpw, mw, rw;
    int rc = -1;
    tt_ivals_init(&fp);
    tt_ivals_init(&fpw);
    tt_ivals_init(&mw);
    tt_ivals_init(&rw);
    for (size_t i = 0; fl != TT_NO_LANE && i < tr->lanes[fl].n; i++)
        if (tt_ivals_push(&fp, tr->lanes[fl].ev[i].start, tt_event_end(&tr->lanes[fl].ev[i])))
            goto out;
    if (tt_ivals_normalize(&fp))
        goto out;
    for (size_t i = 0; sl != TT_NO_LANE && i < tr->lanes[sl].n; i++) {
        const tt_event *e = &tr->lanes[sl].ev[i];
        tt_overview_step *st;
        tt_ns from = e->start, to = tt_event_end(e);
        if (!meets(win, from, to))
            continue;   /* the profiler's whole step, or none of it */
        if (clip(&fp, from, to, &fpw) || clip(&s->comm, from, to, &mw) ||
            clip(&s->recv, from, to, &rw) || !(st = add_step(o, cap, tt_str(tr, e->name))))
            goto out;
        st->communication = tt_ivals_length(&mw);
        st->comm_not_overlapped = st->communication;
        st->computing = tt_ivals_length(&fpw) - tt_ivals_overlap_length(&fpw, &mw);
        st->free = e->dur - st->computing - st->communication;
        st->bubble = tt_ivals_length(&rw);
        st->stage = e->dur - st->bubble;
        st->has = TT_OV_STAGE | TT_OV_BUBBLE;
    }
    rc = 0;
out:
    tt_ivals_fini(&fp);
    tt_ivals_fini(&fpw);
    tt_ivals_fini(&mw);
    tt_ivals_fini(&rw);
    return rc;
}

/* Receive ops of the legacy files are collectives named "Receive-opN". */
static int legacy_receives(const tt_trace *tr, ov_sets *s)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++)
            if (strncmp(tt_str(tr, ln->ev[i].name), "Receive", 7) == 0 &&
                tt_ivals_push(&s->recv, ln->ev[i].start, tt_event_end(&ln->ev[i])))
                return -1;
    }
    return tt_ivals_normalize(&s->recv);
}

/* The overview of tr's timeline in sel (NULL: the whole trace). */
static int from_timeline(const tt_trace *tr, const tt_sel *win, tt_overview **out, tt_error *err)
{
    tt_overview *o = calloc(1, sizeof *o);
    ov_sets s;
    tt_steps *steps = NULL;
    tt_sel sel;
    size_t cap = 0;
    bool legacy = tr->format && strcmp(tr->format, LEGACY_FORMAT) == 0;

    *out = NULL;
    memset(&s, 0, sizeof s);
    if (!o)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    o->source = legacy ? TT_OVERVIEW_FILE : TT_OVERVIEW_TIMELINE;
    if (legacy && tr->source && !(o->path = strdup(tr->source)))
        goto nomem;
    /* the legacy steps are lanes of their own: every lane, whole steps */
    if (collect(tr, legacy ? NULL : win, &s))
        goto nomem;
    if (legacy) {
        if (legacy_receives(tr, &s) || legacy_steps(tr, win, &s, o, &cap))
            goto nomem;
        goto done;
    }
    if (win) {
        sel = *win;
    } else {
        memset(&sel, 0, sizeof sel);
        tt_sel_window(tr, NULL, &sel);
    }
    /* steps meeting the window, cut at its edges (steps.h) */
    if (tt_steps_compute(tr, &sel, NULL, &steps, err))
        goto fail;
    /* no steps at all (not: none in the window): the trace is one step */
    if (steps->n == 0 && steps->outside == 0) {
        tt_overview_step *st = add_step(o, &cap, "trace");
        if (!st || fill_step(&s, sel.from, sel.to + (sel.to_inclusive ? 1 : 0), false, st))
            goto nomem;
    }
    for (size_t i = 0; i < steps->n; i++) {
        tt_overview_step *st = add_step(o, &cap, steps->v[i].name);
        if (!st || fill_step(&s, steps->v[i].start, steps->v[i].end, true, st))
            goto nomem;
    }
done:
    tt_steps_free(steps);
    sets_fini(&s);
    *out = o;
    return 0;
nomem:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
fail:
    tt_steps_free(steps);
    sets_fini(&s);
    tt_overview_free(o);
    return -1;
}

int tt_overview_from_timeline(const tt_trace *tr, tt_overview **out, tt_error *err)
{
    return from_timeline(tr, NULL, out, err);
}

/* Keep the rows of the file's overview o whose step the trace has in the
 * window of sel (a row names a step as steps.h does: "50" of
 * ProfilerStep#50, or the Step Id). 0, or -1 with err set. */
static int keep_window_steps(const tt_trace *tr, const tt_sel *sel, tt_overview *o, tt_error *err)
{
    tt_steps *steps = NULL;
    tt_sel win = *sel;
    size_t k = 0;
    win.lanes = NULL;   /* the step spans, not what the lanes hold */
    if (tt_steps_compute(tr, &win, NULL, &steps, err))
        return -1;
    for (size_t i = 0; i < o->n; i++) {
        bool in = false;
        for (size_t j = 0; j < steps->n && !in; j++)
            in = strcmp(steps->v[j].name, o->v[i].name) == 0;
        if (in)
            o->v[k++] = o->v[i];
        else
            free(o->v[i].name);
    }
    o->n = k;
    tt_steps_free(steps);
    return 0;
}

static bool whole_window(const tt_trace *tr, const tt_sel *sel)
{
    return !sel || (sel->from <= tr->t0 && sel->to >= tr->t1 && sel->to_inclusive);
}

int tt_overview_compute(const tt_trace *tr, tt_overview_source want, tt_overview **out,
                        tt_error *err)
{
    return tt_overview_compute_sel(tr, want, NULL, out, err);
}

int tt_overview_compute_sel(const tt_trace *tr, tt_overview_source want, const tt_sel *sel,
                            tt_overview **out, tt_error *err)
{
    char path[4096];
    tt_sidetab *t;
    int rc;
    bool have = tt_sidetab_beside(tr, TT_OVERVIEW_FILE_NAME, path, sizeof path) &&
                tt_sidetab_exists(path);
    bool lanes = sel && sel->lanes;
    bool legacy = tr->format && strcmp(tr->format, LEGACY_FORMAT) == 0;

    *out = NULL;
    if (lanes && legacy)
        return tt_error_set(err, TT_ERR_USAGE, "--lanes: an older MindSpore step trace's "
                            "overview needs all of its lanes (its steps are one of them)"), -1;
    if (lanes && want == TT_OVERVIEW_FILE)
        return tt_error_set(err, TT_ERR_USAGE, "--lanes: the profiler's %s sums every lane; "
                            "only the timeline source can keep to some", TT_OVERVIEW_FILE_NAME),
               -1;
    /* the file's numbers cover every lane: lanes are the timeline's */
    if (want == TT_OVERVIEW_TIMELINE || (want == TT_OVERVIEW_AUTO && (!have || lanes)))
        return from_timeline(tr, sel, out, err);
    if (!have)
        return tt_error_set(err, TT_ERR_USAGE, "no %s beside %s", TT_OVERVIEW_FILE_NAME,
                            tr->source ? tr->source : "the trace");
    if (tt_sidetab_read(path, &t, err))
        goto bad;
    rc = tt_overview_from_table(t, out, err);
    tt_sidetab_free(t);
    if (rc)
        goto bad;
    if (!whole_window(tr, sel) && keep_window_steps(tr, sel, *out, err)) {
        tt_overview_free(*out);
        *out = NULL;
        return -1;
    }
    if (!((*out)->path = strdup(path))) {
        tt_overview_free(*out);
        *out = NULL;
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    return 0;
bad:
    /* the table's rows are positions in that file, not in the trace */
    tt_sidetab_error_in(err, path);
    return -1;
}
