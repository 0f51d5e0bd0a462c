/* job.c - reports across the ranks of a job (see job.h). */
#include "config.h"

#include "report/job.h"

#include "report/collrows.h"
#include "report/kind.h"

#include "analysis/gpu.h"
#include "multi/collectives.h"
#include "multi/rankset.h"
#include "util/sort.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct job_rank {
    char       *name;       /* file as given (owned) */
    int64_t     rank;
    uint64_t    steps;
    tt_ns       step_total;
    tt_gpu_time gpu;
    tt_ns       t0, t1;
    tt_ns       event_at;   /* alignment event, when aligning on one */
    tt_ns       offset;     /* added to its times by the alignment (collectives) */
} job_rank;

struct tt_job {
    tt_job_opts o;
    job_rank   *r;
    size_t      n, cap;
    tt_colls    colls;      /* collectives; tt_coll.rank indexes r[] */
    char        align_desc[300];
    char        notes[2048];  /* tt_colls_notes of the matched collectives */
};

static const tt_col ranks_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Steps", "steps", TT_COL_INT, 0, false},
    {"Avg Step (ns)", "avg_step_ns", TT_COL_INT, 0, false},
    {"Computation (ns)", "computation_ns", TT_COL_INT, 0, false},
    {"Communication (ns)", "communication_ns", TT_COL_INT, 0, false},
    {"Exposed Communication (ns)", "exposed_communication_ns", TT_COL_INT, 0, false},
    {"Idle (ns)", "idle_ns", TT_COL_INT, 0, false},
    {"Step vs Median (%)", "step_vs_median_percent", TT_COL_REAL, 1, false},
    {"Computation vs Median (%)", "computation_vs_median_percent", TT_COL_REAL, 1, false},
    {"Trace", "trace", TT_COL_TEXT, 0, false},
};


int tt_job_new(const tt_job_opts *o, tt_job **out, tt_error *err)
{
    tt_job *j = calloc(1, sizeof *j);
    if (!j)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    j->o = *o;
    tt_colls_init(&j->colls);
    *out = j;
    return 0;
}

void tt_job_free(tt_job *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        free(j->r[i].name);
    free(j->r);
    tt_colls_fini(&j->colls);
    free(j);
}

/* Steps: events named ProfilerStep#N starting in the window. */
static void count_steps(const tt_trace *tr, const tt_sel *sel, job_rank *r)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (e->start < sel->from || e->start >= sel->to)
                continue;
            if (strncmp(tt_str(tr, e->name), "ProfilerStep#", 13) != 0)
                continue;
            r->steps++;
            r->step_total += e->dur;
        }
    }
}

int tt_job_add(tt_job *j, const tt_trace *tr, const char *name, int64_t rank, tt_error *err)
{
    job_rank *r;
    tt_sel sel;
    tt_laneset ls;
    size_t first;
    if (j->n == j->cap) {
        size_t nc = j->cap ? j->cap * 2 : 16;
        job_rank *nr = realloc(j->r, nc * sizeof *nr);
        if (!nr)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        j->r = nr;
        j->cap = nc;
    }
    r = &j->r[j->n];
    memset(r, 0, sizeof *r);
    if (!(r->name = strdup(name)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    r->rank = rank;
    r->t0 = tr->t0;
    r->t1 = tr->t1;
    j->n++;

    memset(&sel, 0, sizeof sel);
    tt_laneset_init(&ls);
    tt_sel_window(tr, j->o.window, &sel);
    if (j->o.lanes) {
        if (tt_laneset_match(tr, j->o.lanes, &ls, err))
            return -1;
        tt_sel_lanes(&sel, &ls);
    }
    if (j->o.kind == TT_JOB_RANKS) {
        int rc;
        count_steps(tr, &sel, r);
        rc = tt_gpu_time_compute(tr, &sel, &r->gpu, err);
        tt_laneset_fini(&ls);
        return rc ? -1 : 0;
    }

    if (j->o.align.mode == TT_ALIGN_EVENT) {
        int rc = tt_align_event_time(tr, &j->o.align, &r->event_at);
        if (rc) {
            char what[600];
            tt_laneset_fini(&ls);
            if (rc < 0)
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            return tt_error_set(err, TT_ERR_USAGE, "no %s to align on",
                                tt_align_target(&j->o.align, what, sizeof what));
        }
    }
    first = j->colls.n;
    if (tt_colls_add(&j->colls, tr, j->n - 1, 0, err)) {
        tt_laneset_fini(&ls);
        return -1;
    }
    /* keep the collectives of the selection (sequence numbers stay those
     * of the whole rank, so they still match across ranks) */
    {
        size_t k = first;
        for (size_t i = first; i < j->colls.n; i++) {
            const tt_coll *c = &j->colls.v[i];
            const tt_event *e = tt_trace_event(tr, c->ev);
            bool in = e->start < sel.to && tt_event_end(e) > sel.from;
            if (in && sel.lanes) {
                in = false;
                for (size_t q = 0; q < sel.n_lanes && !in; q++)
                    in = sel.lanes[q] == c->ev.lane;
            }
            if (in)
                j->colls.v[k++] = *c;
        }
        j->colls.n = k;
    }
    tt_laneset_fini(&ls);
    return 0;
}

static int cmp_ns(const void *pa, const void *pb, void *ctx)
{
    tt_ns a = *(const tt_ns *)pa, b = *(const tt_ns *)pb;
    (void)ctx;
    return a < b ? -1 : a > b;
}

/* Median of n values (copied). */
static tt_ns median_of(const tt_ns *v, size_t n)
{
    tt_ns *c, m;
    if (n == 0)
        return 0;
    c = malloc(n * sizeof *c);
    if (!c)
        return 0;
    memcpy(c, v, n * sizeof *c);
    tt_sort(c, n, sizeof *c, cmp_ns, NULL);
    m = n % 2 ? c[n / 2] : c[n / 2 - 1] + (c[n / 2] - c[n / 2 - 1]) / 2;
    free(c);
    return m;
}

static int cmp_rank_idx(const void *pa, const void *pb, void *ctx)
{
    const job_rank *r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (r[a].rank != r[b].rank)
        return r[a].rank < r[b].rank ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int write_ranks(tt_job *j, tt_writer *w, tt_error *err)
{
    size_t n = j->n, *order = malloc((n + 1) * sizeof *order), ns = 0;
    tt_ns *steps = calloc(n + 1, sizeof *steps), *comp = calloc(n + 1, sizeof *comp);
    tt_ns med_step, med_comp;
    int rc = 0;
    if (!order || !steps || !comp) {
        free(order);
        free(steps);
        free(comp);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        if (j->r[i].steps)
            steps[ns++] = j->r[i].step_total / (tt_ns)j->r[i].steps;
        comp[i] = j->r[i].gpu.computation;
    }
    med_step = median_of(steps, ns);
    med_comp = median_of(comp, n);
    tt_sort(order, n, sizeof *order, cmp_rank_idx, j->r);
    for (size_t k = 0; k < n && rc == 0; k++) {
        const job_rank *r = &j->r[order[k]];
        tt_cell c[10];
        tt_ns avg = r->steps ? r->step_total / (tt_ns)r->steps : 0;
        c[0] = tt_cell_int(r->rank);
        c[1] = tt_cell_int((int64_t)r->steps);
        c[2] = r->steps ? tt_cell_int(avg) : tt_cell_none();
        c[3] = tt_cell_int(r->gpu.computation);
        c[4] = tt_cell_int(r->gpu.communication);
        c[5] = tt_cell_int(r->gpu.exposed_communication);
        c[6] = tt_cell_int(r->gpu.idle);
        c[7] = r->steps && med_step > 0
                   ? tt_cell_real(100.0 * (double)(avg - med_step) / (double)med_step)
                   : tt_cell_none();
        c[8] = med_comp > 0
                   ? tt_cell_real(100.0 * (double)(r->gpu.computation - med_comp) / (double)med_comp)
                   : tt_cell_none();
        c[9] = tt_cell_text(r->name);
        if (tt_writer_row(w, c, 0))
            rc = tt_error_set(err, TT_ERR_IO, "cannot write the report");
    }
    free(order);
    free(steps);
    free(comp);
    return rc;
}

/* Align the ranks' clocks, match the collectives and note what the
 * match cannot know (before the writer starts: the JSON header carries the
 * notes). */
static int match_collectives(tt_job *j, tt_error *err)
{
    size_t n = j->n;
    tt_ns *t0 = calloc(n + 1, sizeof *t0), *t1 = calloc(n + 1, sizeof *t1);
    tt_ns *ev = calloc(n + 1, sizeof *ev), *off = calloc(n + 1, sizeof *off);
    tt_align_mode applied;
    tt_colls_facts facts;
    int rc = 0;
    if (!t0 || !t1 || !ev || !off) {
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        t0[i] = j->r[i].t0;
        t1[i] = j->r[i].t1;
        ev[i] = j->r[i].event_at;
    }
    tt_align_offsets(&j->o.align, t0, t1, j->o.align.mode == TT_ALIGN_EVENT ? ev : NULL, n, off,
                     &applied);
    tt_align_describe(&j->o.align, applied, j->align_desc, sizeof j->align_desc);
    for (size_t i = 0; i < n; i++)
        j->r[i].offset = off[i];
    for (size_t i = 0; i < j->colls.n; i++)
        j->colls.v[i].start += off[j->colls.v[i].rank];
    if (tt_colls_match(&j->colls, err)) {
        rc = -1;
        goto out;
    }
    tt_colls_facts_of(&j->colls, &facts);
    tt_colls_notes(&facts, j->notes, sizeof j->notes);
out:
    free(t0);
    free(t1);
    free(ev);
    free(off);
    return rc;
}

static int write_collectives(tt_job *j, tt_writer *w, tt_error *err)
{
    tt_coll_row *rows = NULL;
    int rc = 0;
    if (!(rows = malloc((j->colls.n ? j->colls.n : 1) * sizeof *rows)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < j->colls.n; i++) {
        const tt_coll *x = &j->colls.v[i];
        tt_coll_row row = {j->r[x->rank].rank, tt_coll_name(&j->colls, x), x->seq, x->start,
                           x->offset, x->dur, x->wait, x->ranks, j->r[x->rank].name};
        rows[i] = row;
    }
    if (tt_coll_rows_sort(rows, j->colls.n)) {
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < j->colls.n && rc == 0; i++)
        if (tt_coll_row_write(w, &rows[i]))
            rc = tt_error_set(err, TT_ERR_IO, "cannot write the report");
out:
    free(rows);
    return rc;
}

/* The JSON header of the collectives: what each number is measured from,
 * and the notes. */
static void collectives_header(const tt_job *j, cJSON *doc)
{
    cJSON *def = cJSON_AddObjectToObject(doc, "definitions");
    cJSON *notes = cJSON_AddArrayToObject(doc, "notes");
    const char *p = j->notes;
    size_t nd;
    const tt_coll_definition *d = tt_coll_definitions(&nd);
    for (size_t i = 0; def && i < nd; i++)
        cJSON_AddStringToObject(def, d[i].key, d[i].text);
    while (notes && *p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[sizeof j->notes];
        memcpy(line, p, len);
        line[len] = '\0';
        cJSON_AddItemToArray(notes, cJSON_CreateString(line));
        p += len + (e != NULL);
    }
}

int tt_job_write(tt_job *j, FILE *f, const tt_writer_opts *wo, tt_error *err)
{
    tt_writer_opts o = *wo;
    tt_writer *w;
    cJSON *doc = cJSON_CreateObject();
    int rc;
    bool ranks = j->o.kind == TT_JOB_RANKS;
    int64_t *rk = malloc((j->n ? j->n : 1) * sizeof *rk);
    size_t da, db;
    if (!rk) {
        cJSON_Delete(doc);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < j->n; i++)
        rk[i] = j->r[i].rank;
    rc = tt_ranks_resolve(rk, j->n, &da, &db);
    if (rc)
        tt_error_set(err, TT_ERR_USAGE, "%s and %s both claim rank %lld", j->r[da].name,
                     j->r[db].name, (long long)rk[da]);
    else
        for (size_t i = 0; i < j->n; i++)
            j->r[i].rank = rk[i];
    free(rk);
    if (rc) {
        cJSON_Delete(doc);
        return -1;
    }
    o.trace_column = false;   /* the Trace column is part of these tables */
    o.one_table = true;
    o.bar_title = NULL;
    if (!ranks && match_collectives(j, err)) {
        cJSON_Delete(doc);
        return -1;
    }
    if (doc)
        cJSON_AddStringToObject(doc, "kind", ranks ? "ranks" : "collectives");
    if (doc && !ranks)
        collectives_header(j, doc);
    {
        size_t ncolls;
        const tt_col *colls = tt_coll_row_columns(&ncolls);
        w = tt_writer_new(f, &o, ranks ? ranks_cols : colls,
                          ranks ? sizeof ranks_cols / sizeof ranks_cols[0] : ncolls, doc);
    }
    if (!w)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    rc = tt_writer_trace_begin(w, "job", NULL, NULL) ? tt_error_set(err, TT_ERR_NOMEM, "out of memory")
                                                     : 0;
    if (rc == 0)
        rc = ranks ? write_ranks(j, w, err) : write_collectives(j, w, err);
    if (rc == 0 && tt_writer_trace_end(w, NULL, NULL))
        rc = tt_error_set(err, TT_ERR_IO, "cannot write the report");
    if (tt_writer_finish(w) && rc == 0)
        rc = tt_error_set(err, TT_ERR_IO, "cannot write the report");
    tt_writer_free(w);
    return rc ? -1 : 0;
}

const char *tt_job_alignment(const tt_job *j)
{
    return j->align_desc[0] ? j->align_desc : "absolute";
}

const char *tt_job_notes(const tt_job *j)
{
    return j->notes;
}

size_t tt_job_ranks(const tt_job *j)
{
    return j->n;
}

tt_ns tt_job_offset(const tt_job *j, size_t i, int64_t *rank)
{
    *rank = j->r[i].rank;
    return j->r[i].offset;
}

/* ------------------------------------------------- the kinds table's rows */

/* Per rank, its facts only: no arguments, flows or counters read. */
const tt_report_kind tt_kind_ranks = {
    .name = "ranks",
    .help = "one row per rank, compared with the median rank",
    .scope = TT_KIND_JOB,
    .flags = 0,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .job = TT_JOB_RANKS,
};

const tt_report_kind tt_kind_collectives = {
    .name = "collectives",
    .help = "one row per collective per rank: when it started, how long it waited",
    .scope = TT_KIND_JOB,
    .flags = TT_KIND_ALIGN,
    .skip = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .skip_arg = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS,
    .job = TT_JOB_COLLECTIVES,
};
