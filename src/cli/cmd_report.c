/* cmd_report.c - `tracetty report`: selection statistics as CSV, JSON or
 * text, for one trace or many ranks.
 *
 * This file only parses options, loads traces one at a time, and decides
 * where the output goes; the numbers come from analysis/ and the formatting
 * from report/. With -o the report is written atomically (io/atomic.h):
 * a failed or interrupted run leaves no file behind, and a fatal signal
 * removes the temporary file before the process dies.
 */
#include "config.h"

#include "analysis/ncu_kernels.h"
#include "cli/cli.h"
#include "cli/loadpart.h"
#include "cli/opts.h"

#include "io/atomic.h"
#include "markers/markers.h"
#include "report/annotations.h"
#include "report/collrows.h"
#include "report/job.h"
#include "report/kind.h"
#include "report/ncu_report.h"
#include "report/report.h"
#include "rules/rules.h"
#include "util/num.h"
#include "util/text.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_KIND = TT_OPT__NEXT,
    OPT_BY,
    OPT_WINDOW,
    OPT_LANES,
    OPT_MARKERS,
    OPT_BETWEEN,
    OPT_PER_INTERVAL,
    OPT_TOTALS,
    OPT_RULES,
    OPT_ALIGN,
    OPT_SORT,
    OPT_METRIC,
};

#define MAX_METRICS 32   /* --metric columns of an ncu kernels table */

/* Marker options: --markers SET with --between A:B or --per-interval. */
typedef struct report_marks {
    const char *set;
    const char *between;       /* "A:B" */
    bool        per_interval;
} report_marks;

/* The parts of a trace a report never reads (tt_cli_load.skip), as its
 * kind says (kind.h: skip, or skip_arg for an arg:KEY key). A .ttz then
 * skips rebuilding them, which is most of its reopen. */
static unsigned report_skips(const tt_report_opts *ro)
{
    for (unsigned i = 0; i < ro->n_keys; i++)
        if (ro->keys[i].kind == TT_KEY_ARG)
            return ro->kind->skip_arg;
    return ro->kind->skip;
}

/* Whether a report reads nothing but the events that meet its window on
 * its lanes (and the trace's lanes and metadata): a TT_KIND_WINDOW_ONLY
 * kind that reads no arguments or flows. Then a .ttz loads only those
 * (tt_cli_load.part). */
static bool report_reads_window(const tt_report_opts *ro, unsigned skip)
{
    return (ro->kind->flags & TT_KIND_WINDOW_ONLY) &&
           (skip & (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS)) == (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS);
}

/* Messages may quote what the user typed: sanitize them for stderr. */
static int usage_error(const char *what)
{
    char safe[1200];
    tt_cli_error("report: %s", tt_text_safe(what, safe, sizeof safe));
    return TT_EXIT_ERROR;
}

/* "WHAT --kind K1 or K2", the kinds the table lists for need/lack/scope
 * (tt_report_kind_list), as a usage error. */
static int kind_usage_error(const char *what, unsigned need, unsigned lack, int scope)
{
    char kinds[300], msg[400];
    snprintf(msg, sizeof msg, "%s --kind %s", what,
             tt_report_kind_list(need, lack, scope, kinds, sizeof kinds));
    return usage_error(msg);
}

/* --help: each kind of the table in a line, then the keys of --by. */
static void print_kinds(void)
{
    size_t n;
    int width = 12;
    const tt_report_kind *const *k = tt_report_kinds(&n);
    for (size_t i = 0; i < n; i++)   /* the names' column fits the longest */
        if ((int)strlen(k[i]->name) > width)
            width = (int)strlen(k[i]->name);
    printf("\nkinds:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-*s %s\n", width, k[i]->name, k[i]->help);
    printf("\n--by KEY: name, category, opcode, lane, layer or arg:NAME; with operators\n"
           "also shape (name and input shapes) or module (the innermost nn.Module)\n");
    printf("\n--metric NAME: kernels of an Nsight Compute (ncu --csv) table, a column with\n"
           "the mean of that ncu metric (repeatable)\n");
    printf("--metrics NCU.csv: ncu's metrics joined to the timeline's kernels (by name,\n"
           "launch order, grid/block): --kind kernels gains their means per name\n");
    printf("\n--totals: comm and comm-matrix, only the Total Op Info rows (per step and\n"
           "group, summed as msprof-analyze does)\n");
    printf("\noverview with --window: the steps meeting it (timeline rows cut at its\n"
           "edges, file rows whole); with --lanes: the timeline over those lanes\n");
}

/* The cut of one trace by --markers: its set, resolved with every other
 * trace's before the report writes anything (a missing set or marker
 * then prints nothing on stdout, and -o creates no file). */
typedef struct trace_cut {
    tt_markstore   store;
    tt_markset    *set;       /* in store; NULL: the trace has no such set */
    tt_trace_id    id;
    tt_window_spec between;   /* with --between */
} trace_cut;

static void free_cuts(trace_cut *cuts, size_t n)
{
    if (!cuts)
        return;
    for (size_t i = 0; i < n; i++)
        tt_markstore_fini(&cuts[i].store);
    free(cuts);
}

/* Read the sidecar of a trace into c->store, c->set = the set `name`
 * (NULL when it has none). 0, or -1 after printing why. */
static int read_cut(const char *path, const char *name, trace_cut *c)
{
    tt_error err;
    char *side;
    char safe[600], msg[800];
    tt_text_safe(path, safe, sizeof safe);
    tt_error_clear(&err);
    if (tt_trace_id_of(path, &c->id, &err) || !(side = tt_markers_sidecar(path, false, &err))) {
        tt_cli_error("report: %s", tt_error_format(&err, safe, msg, sizeof msg));
        return -1;
    }
    if (tt_markstore_read(&c->store, side, &err)) {
        char sside[600];
        tt_text_safe(side, sside, sizeof sside);
        tt_cli_error("report: %s", tt_error_format(&err, sside, msg, sizeof msg));
        free(side);
        return -1;
    }
    free(side);
    c->set = tt_markstore_find(&c->store, name);
    return 0;
}

/* " (rank N)" when the file name says the rank, else "". */
static const char *rank_note(const char *path, char *buf, size_t n)
{
    int64_t r = tt_rank_from_name(path);
    if (r < 0)
        return "";
    snprintf(buf, n, " (rank %lld)", (long long)r);
    return buf;
}

/* Trace i has no set `name`: say so, and, over several traces, whether
 * another has one and where a job's sets come from. */
static void say_missing(char *const *files, size_t n, size_t i, const trace_cut *cuts,
                        const char *name)
{
    char safe[600], sname[300], rk[48], msg[2400];
    size_t other = n, missing = 0;
    tt_text_safe(files[i], safe, sizeof safe);
    tt_text_safe(name, sname, sizeof sname);
    for (size_t k = 0; k < n; k++) {
        if (!cuts[k].set)
            missing++;
        else if (other == n)
            other = k;
    }
    if (other == n) {
        if (n == 1)
            snprintf(msg, sizeof msg, "%s: no marker set named '%s' (`tracetty markers list "
                                      "TRACE` shows a trace's sets)", safe, sname);
        else
            snprintf(msg, sizeof msg, "none of the %zu traces has a marker set named '%s' "
                                      "(`tracetty markers list TRACE` shows a trace's sets; "
                                      "a set saved in the view of the job, S in `tracetty "
                                      "view DIR`, has a copy beside every rank's trace)",
                     n, sname);
    } else {
        const tt_markset *o = cuts[other].set;
        char sother[600], job[120], more[96];
        const char *base = strrchr(files[other], '/');
        tt_text_safe(base ? base + 1 : files[other], sother, sizeof sother);
        job[0] = more[0] = '\0';
        if (o->job.align)
            snprintf(job, sizeof job, ", saved in the view of a job of %u ranks", o->job.ranks);
        if (missing > 1)
            snprintf(more, sizeof more, " (%zu of the %zu traces lack it)", missing, n);
        snprintf(msg, sizeof msg, "%s%s: no marker set named '%s'%s; %s has one%s. Each "
                                  "rank is cut by its own copy: save the set in the view of "
                                  "the job (S in `tracetty view DIR`) to write one beside "
                                  "every rank's trace",
                 safe, rank_note(files[i], rk, sizeof rk), sname, more, sother, job);
    }
    tt_cli_error("report: %s", msg);
}

/* Window between two marker references "A:B" of a set. */
static int between_window(const char *path, const tt_markset *set, const char *spec,
                          tt_window_spec *w)
{
    const char *colon = strchr(spec, ':');
    char a[256], b[256], safe[600];
    tt_error err;
    if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof a) {
        tt_cli_error("report: --between expects A:B (two marker names or times)");
        return -1;
    }
    memcpy(a, spec, (size_t)(colon - spec));
    a[colon - spec] = '\0';
    snprintf(b, sizeof b, "%s", colon + 1);
    memset(w, 0, sizeof *w);
    w->has_from = w->has_to = true;
    tt_text_safe(path, safe, sizeof safe);
    if (tt_markset_resolve(set, a, &w->from, &err) || tt_markset_resolve(set, b, &w->to, &err)) {
        char msg[600];
        tt_cli_error("report: %s: %s", safe, tt_text_safe(err.what, msg, sizeof msg));
        return -1;
    }
    if (w->to < w->from) {
        char sa[300], sb[300];
        tt_cli_error("report: %s: marker '%s' comes after '%s': the window would end before "
                     "it starts", safe, tt_text_safe(a, sa, sizeof sa),
                     tt_text_safe(b, sb, sizeof sb));
        return -1;
    }
    return 0;
}

/* Every trace's cut by rm (see trace_cut), checked: the set exists beside
 * each trace, --between names markers of it in order, and (pairs) it has
 * two markers for --per-interval. Returns the cuts (free_cuts), or NULL
 * after printing why. */
static trace_cut *resolve_cuts(char *const *files, size_t n, const report_marks *rm, bool pairs)
{
    trace_cut *cuts = calloc(n ? n : 1, sizeof *cuts);
    if (!cuts) {
        tt_cli_error("report: out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        tt_markstore_init(&cuts[i].store);
        if (read_cut(files[i], rm->set, &cuts[i])) {
            free_cuts(cuts, n);
            return NULL;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!cuts[i].set) {
            say_missing(files, n, i, cuts, rm->set);
            free_cuts(cuts, n);
            return NULL;
        }
    for (size_t i = 0; i < n; i++) {
        const tt_markset *set = cuts[i].set;
        char safe[600], sname[300];
        tt_text_safe(files[i], safe, sizeof safe);
        tt_text_safe(rm->set, sname, sizeof sname);
        if (rm->between && between_window(files[i], set, rm->between, &cuts[i].between)) {
            free_cuts(cuts, n);
            return NULL;
        }
        if (rm->per_interval && pairs && set->n < 2) {
            tt_cli_error("report: %s: --per-interval needs at least two markers in set '%s'",
                         safe, sname);
            free_cuts(cuts, n);
            return NULL;
        }
    }
    /* only once the report will run */
    for (size_t i = 0; i < n; i++) {
        const tt_markset *set = cuts[i].set;
        if (set->trace.size != cuts[i].id.size || set->trace.hash != cuts[i].id.hash) {
            char safe[600], sname[300];
            tt_cli_warn("%s: marker set '%s' was saved for another trace",
                        tt_text_safe(files[i], safe, sizeof safe),
                        tt_text_safe(rm->set, sname, sizeof sname));
        }
    }
    return cuts;
}

/* --kind steps --per-interval: each interval between consecutive markers
 * of the set is a step named "A..B", all in one table. */
static int add_interval_steps(tt_report *rep, const tt_trace *tr, const char *path,
                              size_t position, const tt_markset *set, bool *none, tt_error *err)
{
    size_t n = set->n - 1;
    tt_ns *from = calloc(n, sizeof *from), *to = calloc(n, sizeof *to);
    char **names = calloc(n, sizeof *names);
    tt_step_spans sp;
    int rc = -1;
    if (!from || !to || !names) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(set->m[i].name) + strlen(set->m[i + 1].name) + 3;
        /* marker times are offsets from the trace start */
        from[i] = tr->t0 + tt_time_clamp(set->m[i].t);
        to[i] = tr->t0 + tt_time_clamp(set->m[i + 1].t);
        if (!(names[i] = malloc(len))) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        snprintf(names[i], len, "%s..%s", set->m[i].name, set->m[i + 1].name);
    }
    sp.from = from;
    sp.to = to;
    sp.names = (const char *const *)names;
    sp.n = n;
    rc = tt_report_add_spans(rep, tr, path, position, &sp, none, err);
out:
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(from);
    free(to);
    return rc;
}

/* Add one trace to the report: its whole window, the window between two
 * markers, or one group per consecutive marker pair (cut: resolved by
 * resolve_cuts; NULL without --markers). */
static int add_trace(tt_report *rep, const tt_trace *tr, const char *path, size_t position,
                     const report_marks *rm, const trace_cut *cut, bool several, bool steps,
                     bool *none, tt_error *err)
{
    const tt_markset *set;
    int rc = 0;
    if (!cut)
        return tt_report_add(rep, tr, path, position, none, err);
    set = cut->set;
    if (rm->between)
        return tt_report_add_window(rep, tr, path, position, &cut->between, none, err);
    if (steps)
        return add_interval_steps(rep, tr, path, position, set, none, err);
    for (size_t i = 0; rc == 0 && i + 1 < set->n; i++) {
        tt_window_spec w;
        char name[1200];
        bool this_none = false;
        memset(&w, 0, sizeof w);
        w.has_from = w.has_to = true;
        w.from = set->m[i].t;
        w.to = set->m[i + 1].t;
        if (several)
            snprintf(name, sizeof name, "%s: %s..%s", path, set->m[i].name, set->m[i + 1].name);
        else
            snprintf(name, sizeof name, "%s..%s", set->m[i].name, set->m[i + 1].name);
        rc = tt_report_add_window(rep, tr, name, position, &w, &this_none, err);
        *none = *none || this_none;
    }
    return rc;
}

/* Does an annotation fall in the selection (window and lane patterns)? */
static bool annotation_selected(const tt_annotation *a, const tt_sel *sel, const tt_laneset *ls)
{
    if (a->end < sel->from || a->start > sel->to || (a->start == sel->to && !sel->to_inclusive &&
                                                    a->end > a->start))
        return false;
    if (!ls || a->n_lanes == 0)
        return true;
    for (size_t i = 0; i < a->n_lanes; i++)
        for (size_t k = 0; k < ls->n; k++)
            if (ls->v[k] == a->lanes[i])
                return true;
    return false;
}

/* --kind annotations: every trace loaded together (the straggler rule
 * compares them), findings in the window and lanes written as a table. */
/* What the report functions return when writing the output failed and
 * nothing was said yet: report_exec says it once, with the path and the
 * reason (write_failed). */
#define RC_WRITE 3

/* "report: cannot write PATH: REASON" (or "the output" for stdout), right
 * after the write failed, so errno still holds the reason. */
static void write_failed(tt_atomic *out)
{
    if (out) {
        tt_error err;
        char safe[600];
        tt_error_clear(&err);
        tt_atomic_fail(out, &err);
        tt_cli_error("report: %s", tt_text_safe(err.what, safe, sizeof safe));
    } else {
        int e = errno ? errno : EIO;
        tt_cli_error("report: cannot write the output: %s", strerror(e));
    }
}

static int report_annotations(char **paths, size_t n, const tt_cli_load *lo,
                              const tt_report_opts *ro, const report_marks *rm,
                              const trace_cut *cuts, const tt_rules_config *cfg, FILE *f)
{
    tt_trace **traces = calloc(n, sizeof *traces);
    tt_annotations all, keep;
    tt_error err;
    int rc = TT_EXIT_OK;
    tt_annotations_init(&all);
    tt_annotations_init(&keep);
    if (!traces) {
        tt_cli_error("report: out of memory");
        return TT_EXIT_ERROR;
    }
    if (tt_cli_load_many(paths, n, lo, traces)) {
        rc = TT_EXIT_ERROR;
        goto out;
    }
    tt_error_clear(&err);
    if (tt_rules_run(cfg, (const tt_trace *const *)traces, n, &all, &err)) {
        tt_cli_error("report: %s", err.what);
        rc = TT_EXIT_ERROR;
        goto out;
    }
    /* keep what lies in each trace's selection */
    keep.v = calloc(all.n ? all.n : 1, sizeof *keep.v);
    keep.cap = all.n;
    if (!keep.v) {
        tt_cli_error("report: out of memory");
        rc = TT_EXIT_ERROR;
        goto out;
    }
    for (size_t t = 0; t < n && rc == TT_EXIT_OK; t++) {
        tt_sel sel;
        tt_laneset ls;
        tt_window_spec w;
        const tt_window_spec *wp = ro->window;
        memset(&sel, 0, sizeof sel);
        tt_laneset_init(&ls);
        if (cuts) {
            const tt_markset *set = cuts[t].set;
            if (rm->between) {
                wp = &cuts[t].between;
            } else if (set->n >= 1) {
                /* per interval: the span of the markers */
                memset(&w, 0, sizeof w);
                w.has_from = w.has_to = true;
                w.from = set->m[0].t;
                w.to = set->m[set->n - 1].t;
                wp = &w;
            }
        }
        tt_sel_window(traces[t], wp, &sel);
        if (ro->lanes && tt_laneset_match(traces[t], ro->lanes, &ls, &err)) {
            tt_cli_error("report: %s", err.what);
            rc = TT_EXIT_ERROR;
            break;
        }
        for (size_t i = 0; i < all.n; i++) {
            if ((size_t)all.v[i].trace != t ||
                !annotation_selected(&all.v[i], &sel, ro->lanes ? &ls : NULL))
                continue;
            keep.v[keep.n++] = all.v[i];
            memset(&all.v[i], 0, sizeof all.v[i]);   /* moved */
        }
        tt_laneset_fini(&ls);
    }
    if (rc == TT_EXIT_OK) {
        tt_ann_report_opts o;
        o.format = ro->format;
        o.sanitize = ro->sanitize;
        o.utf8 = ro->utf8;
        if (tt_annotations_write(f, &o, (const tt_trace *const *)traces,
                                 (const char *const *)paths, n, &keep))
            rc = RC_WRITE;
    }
out:
    tt_annotations_fini(&keep);
    tt_annotations_fini(&all);
    for (size_t i = 0; i < n; i++)
        tt_trace_free(traces[i]);
    free(traces);
    return rc;
}

/* Rows stream out as traces load, so a rank that metadata gives only once
 * loaded cannot take part in the numbering (tt_report_fallback_ranks):
 * say when trace i then has a rank an earlier one has. ranks[0..i) hold
 * the ranks used so far; ranks[i] becomes trace i's. */
static void warn_same_rank(char *const *files, int64_t *ranks, size_t i, const tt_trace *tr)
{
    ranks[i] = tt_report_rank(tr, files[i], ranks[i]);
    for (size_t k = 0; k < i; k++)
        if (ranks[k] == ranks[i]) {
            char a[300], b[300];
            tt_cli_warn("%s and %s both have rank %lld here: this report numbers a trace "
                        "before knowing later traces' metadata (view and --kind ranks do not; "
                        "rank names in the file names, rank_N, give all the same numbers)",
                        tt_text_safe(files[k], a, sizeof a), tt_text_safe(files[i], b, sizeof b),
                        (long long)ranks[i]);
            return;
        }
}

/* The offsets the alignment chose, on stderr (as view shows them in its
 * tab bar), when it moved any rank: "aligned by event X: rank 0 +0 ns,
 * rank 1 -2.006 ms, ...". */
static void say_offsets(const tt_job *job)
{
    size_t n = tt_job_ranks(job), shown = n < 16 ? n : 16;
    bool moved = false;
    int64_t rank;
    for (size_t i = 0; i < n; i++)
        moved |= tt_job_offset(job, i, &rank) != 0;
    if (!moved)
        return;
    fflush(stdout);
    fprintf(stderr, "tracetty: report: aligned by %s:", tt_job_alignment(job));
    for (size_t i = 0; i < shown; i++) {
        char d[48];
        tt_ns off = tt_job_offset(job, i, &rank);
        fprintf(stderr, "%s rank %lld %s%s", i ? "," : "", (long long)rank, off < 0 ? "-" : "+",
                tt_fmt_dur(d, sizeof d, off < 0 ? -off : off, 3));
    }
    if (shown < n)
        fprintf(stderr, " (and %zu more ranks)", n - shown);
    fputc('\n', stderr);
}

/* What the collectives' columns measure (the JSON says it in its header;
 * a CSV or text table has no place for it), then what they cannot say
 * (tt_job_notes), a line each. */
static void say_notes(const tt_job *job, tt_out_format format)
{
    const char *p = tt_job_notes(job);
    fflush(stdout);
    if (format != TT_OUT_JSON) {
        size_t nd;
        const tt_coll_definition *d = tt_coll_definitions(&nd);
        for (size_t i = 0; i < nd; i++)
            fprintf(stderr, "tracetty: report: %s: %s\n", d[i].column, d[i].text);
    }
    while (*p) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        fprintf(stderr, "tracetty: report: note: %.*s\n", len, p);
        p += len + (e != NULL);
    }
}

typedef struct job_ctx {
    tt_job     *job;
    char *const *files;
} job_ctx;

/* tt_cli_trace_fn of --kind ranks and collectives: keep a rank's facts. */
static int job_trace(void *ctx, size_t i, const tt_trace *tr)
{
    job_ctx *c = ctx;
    tt_error err;
    tt_error_clear(&err);
    if (tt_job_add(c->job, tr, c->files[i], tt_report_rank(tr, c->files[i], -1), &err)) {
        char safe[600], msg[600];
        tt_cli_error("report: %s: %s", tt_text_safe(c->files[i], safe, sizeof safe),
                     tt_text_safe(err.what, msg, sizeof msg));
        return -1;
    }
    return 0;
}

/* --kind ranks and collectives: ranks stream through in parallel batches;
 * only their small per-rank facts are kept. */
static int report_job(char **files, size_t n, const tt_cli_load *lo, const tt_report_opts *ro,
                      const tt_align_spec *align, FILE *f)
{
    tt_job_opts jo;
    tt_job *job = NULL;
    job_ctx jc;
    tt_writer_opts wo;
    tt_error err;
    int rc = TT_EXIT_OK;
    memset(&jo, 0, sizeof jo);
    jo.kind = (tt_job_kind)ro->kind->job;
    jo.window = ro->window;
    jo.lanes = ro->lanes;
    if (align)
        jo.align = *align;
    tt_error_clear(&err);
    if (tt_job_new(&jo, &job, &err)) {
        tt_cli_error("report: %s", err.what);
        return TT_EXIT_ERROR;
    }
    jc.job = job;
    jc.files = files;
    if (tt_cli_each_trace(files, n, lo, job_trace, &jc))
        rc = TT_EXIT_ERROR;
    if (rc == TT_EXIT_OK) {
        memset(&wo, 0, sizeof wo);
        wo.format = ro->format;
        wo.sanitize = ro->sanitize;
        wo.utf8 = ro->utf8;
        if (tt_job_write(job, f, &wo, &err)) {
            char safe[600];
            if (err.code == TT_ERR_IO)
                rc = RC_WRITE;
            else {
                tt_cli_error("report: %s", tt_text_safe(err.what, safe, sizeof safe));
                rc = TT_EXIT_ERROR;
            }
        } else if (jo.kind == TT_JOB_COLLECTIVES && !lo->quiet) {
            say_offsets(job);
            say_notes(job, ro->format);
        }
    }
    tt_job_free(job);
    return rc;
}

/* The other kinds: each trace's rows go out as it loads. */
typedef struct table_ctx {
    tt_report         **rep;        /* started with the first trace */
    FILE               *f;
    const tt_report_opts *ro;
    const report_marks *rm;
    const trace_cut    *cuts;       /* with --markers, else NULL */
    int64_t            *ranks;      /* fallback ranks in, ranks used out */
    char *const        *files;
    size_t              n;
    tt_ncu_report     **ncu;        /* kernels of ncu tables (started likewise) */
    const char *const  *metrics;    /* --metric names */
    size_t              n_metrics;
} table_ctx;

/* What the kind's trace_note says of a trace (e.g. a gpu report of a trace
 * without GPU events is a row of zeros, device cells of one without launch
 * links are empty). 0, or -1 when out of memory. */
static int warn_trace_note(const char *path, const tt_trace *tr, const tt_report_kind *k)
{
    char note[400], safe_note[1200], safe[600];
    int r = k->trace_note(tr, note, sizeof note);
    if (r < 0) {
        tt_cli_error("report: out of memory");
        return -1;
    }
    if (r > 0)
        tt_cli_warn("%s: %s", tt_text_safe(path, safe, sizeof safe),
                    tt_text_safe(note, safe_note, sizeof safe_note));
    return 0;
}

/* An Nsight Compute table under --kind kernels has columns of its own
 * (report/ncu_report.h). 1 when the trace was one and went out, -1 on
 * error (said), 0 for any other trace. */
static int ncu_trace(table_ctx *c, const char *path, const tt_trace *tr, tt_error *err)
{
    char safe[600], msg[600];
    bool ncu = tt_ncu_present(tr);
    if (strcmp(c->ro->kind->name, "kernels") != 0 || (!ncu && !c->n_metrics && !*c->ncu) ||
        (!ncu && c->ro->ncu_join && !*c->ncu))
        return 0;
    if (!ncu || *c->rep) {
        tt_cli_error("report: %s: %s", tt_text_safe(path, safe, sizeof safe),
                     ncu || *c->ncu
                         ? "an Nsight Compute table cannot share a kernels report with timelines"
                         : "--metric applies to Nsight Compute (ncu --csv) tables");
        return -1;
    }
    if (!*c->ncu && !(*c->ncu = tt_ncu_report_new(c->f, c->ro, c->metrics, c->n_metrics))) {
        tt_cli_error("report: out of memory");
        return -1;
    }
    if (tt_ncu_report_add(*c->ncu, tr, path, err)) {
        tt_cli_error("report: %s: %s", tt_text_safe(path, safe, sizeof safe),
                     tt_text_safe(err->what, msg, sizeof msg));
        return -1;
    }
    return 1;
}

/* tt_cli_trace_fn of the table kinds. */
static int table_trace(void *ctx, size_t i, const tt_trace *tr)
{
    table_ctx *c = ctx;
    const tt_report_kind *k = c->ro->kind;
    const char *path = c->files[i];
    char safe[600], pat[300];
    bool none = false;
    tt_error err;
    tt_error_clear(&err);
    switch (ncu_trace(c, path, tr, &err)) {
    case 1:
        return 0;
    case -1:
        return -1;
    }
    /* The report starts (CSV header, JSON head) only once a trace has
     * loaded, so a bad first trace prints nothing on stdout. */
    if (!*c->rep && tt_report_new(c->f, c->ro, c->rep, &err)) {
        tt_cli_error("report: %s", err.what);
        return -1;
    }
    if (add_trace(*c->rep, tr, path, (size_t)c->ranks[i], c->rm, c->cuts ? &c->cuts[i] : NULL,
                  c->n > 1, (k->flags & TT_KIND_STEP_SPANS) != 0, &none, &err)) {
        char msg[600];
        tt_cli_error("report: %s: %s", tt_text_safe(path, safe, sizeof safe),
                     tt_text_safe(err.what, msg, sizeof msg));
        return -1;
    }
    if (none)
        tt_cli_warn("%s: lane pattern '%s' matches no lane", tt_text_safe(path, safe, sizeof safe),
                    tt_text_safe(c->ro->lanes, pat, sizeof pat));
    else if (tt_report_note(*c->rep)) {
        char note[900];
        tt_cli_warn("%s: %s", tt_text_safe(path, safe, sizeof safe),
                    tt_text_safe(tt_report_note(*c->rep), note, sizeof note));
    }
    if (k->trace_note && warn_trace_note(path, tr, k))
        return -1;
    /* only a kind with a Rank column shows the rank a trace got */
    if (c->n > 1 && (k->flags & TT_KIND_RANK_COLUMN))
        warn_same_rank(c->files, c->ranks, i, tr);
    return 0;
}

static int report_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"kind", required_argument, NULL, OPT_KIND},
        {"by", required_argument, NULL, OPT_BY},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"lanes", required_argument, NULL, OPT_LANES},
        {"markers", required_argument, NULL, OPT_MARKERS},
        {"between", required_argument, NULL, OPT_BETWEEN},
        {"per-interval", no_argument, NULL, OPT_PER_INTERVAL},
        {"totals", no_argument, NULL, OPT_TOTALS},
        {"rules", required_argument, NULL, OPT_RULES},
        {"align", required_argument, NULL, OPT_ALIGN},
        {"sort", required_argument, NULL, OPT_SORT},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo = {0};
    tt_cli_part part;
    tt_report_opts ro;
    tt_window_spec window;
    tt_error err;
    tt_atomic out;
    bool to_file = false;
    const char *out_path = NULL;
    tt_report *rep = NULL;
    int64_t *fallback = NULL;
    FILE *f = stdout;
    int opt, rc = TT_EXIT_OK;
    tt_cli_opts op;
    report_marks rm = {NULL, NULL, false};
    tt_rules_config rules;
    bool rules_given = false;
    tt_align_spec align;
    bool align_given = false;
    char **files = NULL;
    size_t n_files = 0;
    trace_cut *cuts = NULL;
    const char *metrics[MAX_METRICS];
    size_t n_metrics = 0;
    tt_ncu_report *ncu = NULL;

    tt_rules_config_defaults(&rules);
    memset(&align, 0, sizeof align);
    memset(&ro, 0, sizeof ro);
    ro.kind = tt_report_kind_find("ops");
    ro.format = TT_OUT_CSV;
    tt_error_clear(&err);
    tt_cli_opts_init(&op, &tt_cmd_report, argc, argv, "f:o:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        switch (opt) {
        case OPT_KIND:
            if (tt_report_kind_parse(optarg, &ro.kind, &err))
                return usage_error(err.what);
            break;
        case OPT_BY:
            if (ro.n_keys == TT_REPORT_MAX_KEYS)
                return usage_error("too many --by keys");
            if (strcmp(optarg, "shape") == 0) {   /* operators: name and input shapes */
                ro.by_shape = true;
                optarg = "arg:Input Dims";
            } else if (strcmp(optarg, "module") == 0) {   /* operators: innermost nn.Module */
                ro.by_module = true;
                optarg = "name";
            }
            if (tt_key_parse(optarg, &ro.keys[ro.n_keys], &err))
                return usage_error(err.what);
            ro.n_keys++;
            break;
        case OPT_SORT:
            ro.sort = optarg;
            break;
        case OPT_METRIC:
            if (n_metrics == MAX_METRICS)
                return usage_error("too many --metric names");
            metrics[n_metrics++] = optarg;
            break;
        case OPT_WINDOW:
            if (tt_window_parse(optarg, &window, &err))
                return usage_error(err.what);
            ro.window = &window;
            break;
        case OPT_LANES:
            if (tt_lane_patterns_check(optarg, &err))
                return usage_error(err.what);
            ro.lanes = optarg;
            break;
        case OPT_MARKERS:
            rm.set = optarg;
            break;
        case OPT_BETWEEN:
            rm.between = optarg;
            break;
        case OPT_TOTALS:
            ro.totals = true;
            break;
        case OPT_PER_INTERVAL:
            rm.per_interval = true;
            break;
        case OPT_RULES:
            if (tt_rules_config_load(&rules, optarg, &err)) {
                char msg[800], safe[400];
                tt_cli_error("report: %s",
                             tt_error_format(&err, tt_text_safe(optarg, safe, sizeof safe), msg,
                                             sizeof msg));
                return TT_EXIT_ERROR;
            }
            rules_given = true;
            break;
        case OPT_ALIGN:
            if (tt_align_parse(optarg, &align, &err))
                return usage_error(err.what);
            align_given = true;
            break;
        case 'f':
            if (tt_report_format_parse(optarg, &ro.format, &err))
                return usage_error(err.what);
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_report.usage);
            print_kinds();
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands == 0) {
        tt_cli_error("report: no trace given (usage: tracetty %s)", tt_cmd_report.usage);
        return TT_EXIT_ERROR;
    }
    ro.utf8 = tt_text_utf8();
    if ((rm.between || rm.per_interval) && !rm.set)
        return usage_error("--between and --per-interval need --markers SET");
    if (rm.set && !rm.between && !rm.per_interval)
        return usage_error("--markers needs --between A:B or --per-interval");
    if (rm.between && rm.per_interval)
        return usage_error("--between and --per-interval exclude each other");
    if (rm.set && ro.window)
        return usage_error("--window and --markers exclude each other");
    if (n_metrics && strcmp(ro.kind->name, "kernels") != 0)
        return usage_error("--metric applies to --kind kernels (of ncu --csv tables)");
    /* --metrics FILE: the kernels table of a timeline gains ncu's columns */
    ro.ncu_join = lo.metrics != NULL;
    ro.metrics = metrics;
    ro.n_metrics = n_metrics;
    /* what the kind takes, from its flags in the table (kind.h); a job
     * kind's --by is refused before the traces are listed, the others'
     * after (a missing file is said first), as the messages always came */
    if (rules_given && !(ro.kind->flags & TT_KIND_RULES))
        return kind_usage_error("--rules applies to", TT_KIND_RULES, 0, -1);
    if (align_given && !(ro.kind->flags & TT_KIND_ALIGN))
        return kind_usage_error("--align applies to", TT_KIND_ALIGN, 0, -1);
    if (rm.set && !(ro.kind->flags & TT_KIND_MARKERS))
        return kind_usage_error("--markers does not apply to", 0, TT_KIND_MARKERS, -1);
    if (ro.totals && !(ro.kind->flags & TT_KIND_TOTALS))
        return kind_usage_error("--totals applies to", TT_KIND_TOTALS, 0, -1);
    if (ro.n_keys && ro.kind->scope == TT_KIND_JOB && !(ro.kind->flags & TT_KIND_BY))
        return kind_usage_error("--by does not apply to", 0, TT_KIND_BY, TT_KIND_JOB);
    if (!(files = tt_cli_expand(op.operands, op.n_operands, &n_files)))
        return TT_EXIT_ERROR;
    lo.skip = report_skips(&ro);
    if (!rm.set && report_reads_window(&ro, lo.skip))
        lo.part = tt_cli_part_init(&part, ro.window, ro.lanes);
    ro.several = n_files > 1;
    if (rm.per_interval && ro.kind->scope == TT_KIND_PER_TRACE &&
        !(ro.kind->flags & TT_KIND_STEP_SPANS)) {
        ro.several = true;   /* one row group per interval */
        ro.group_title = "Interval";
    }
    if ((ro.kind->scope == TT_KIND_PER_TRACE || ro.sort || ro.by_shape) &&
        tt_report_check(&ro, &err)) {
        tt_rankset_free_files(files, n_files);
        return usage_error(err.what);
    }
    if (ro.n_keys && !(ro.kind->flags & TT_KIND_BY)) {
        char msg[200];
        snprintf(msg, sizeof msg, "--by does not apply to --kind %s", ro.kind->name);
        tt_rankset_free_files(files, n_files);
        return usage_error(msg);
    }

    /* the markers are checked before anything is written, as --window is */
    if (rm.set &&
        !(cuts = resolve_cuts(files, n_files, &rm, ro.kind->scope == TT_KIND_PER_TRACE))) {
        tt_rankset_free_files(files, n_files);
        return TT_EXIT_ERROR;
    }
    to_file = out_path && strcmp(out_path, "-") != 0;
    if (to_file) {
        tt_cli_catch_fatal_signals();
        if (tt_atomic_open(&out, out_path, &err)) {
            char safe[600];
            tt_cli_error("report: %s", tt_text_safe(err.what, safe, sizeof safe));
            free_cuts(cuts, n_files);
            tt_rankset_free_files(files, n_files);
            return TT_EXIT_ERROR;
        }
        f = tt_atomic_file(&out);
    } else {
        /* Real bytes go to files and pipes; a terminal gets escapes. */
        ro.sanitize = isatty(fileno(stdout));
    }
    if (ro.kind->scope == TT_KIND_WHOLE) {
        rc = report_annotations(files, n_files, &lo, &ro, &rm, cuts, &rules, f);
        goto finish;
    }
    if (ro.kind->scope == TT_KIND_JOB) {
        rc = report_job(files, n_files, &lo, &ro, align_given ? &align : NULL, f);
        goto finish;
    }
    /* traces without a rank of their own take the lowest ranks no file
     * name claims, as in the terminal UI */
    if (!(fallback = tt_report_fallback_ranks(files, n_files))) {
        tt_cli_error("report: out of memory");
        rc = TT_EXIT_ERROR;
    }
    if (rc == TT_EXIT_OK) {
        table_ctx tc = {&rep, f, &ro, &rm, cuts, fallback, files, n_files,
                        &ncu, metrics, n_metrics};
        if (tt_cli_each_trace(files, n_files, &lo, table_trace, &tc))
            rc = TT_EXIT_ERROR;
    }
finish:
    free(fallback);
    free_cuts(cuts, n_files);
    if (rc == TT_EXIT_OK && rep && tt_report_finish(rep, &err))
        rc = RC_WRITE;
    if (rc == TT_EXIT_OK && ncu && tt_ncu_report_finish(ncu))
        rc = RC_WRITE;
    if (rc == TT_EXIT_OK && !to_file && (fflush(stdout) != 0 || ferror(stdout)))
        rc = RC_WRITE;
    if (rc == RC_WRITE) {
        /* one message, with the path and the reason, before anything
         * else can reset errno; a file's temporary copy goes */
        write_failed(to_file ? &out : NULL);
        rc = TT_EXIT_ERROR;
    }
    tt_report_free(rep);
    tt_ncu_report_free(ncu);
    tt_rankset_free_files(files, n_files);
    if (to_file) {
        if (rc != TT_EXIT_OK) {
            tt_atomic_abort(&out);   /* a no-op after write_failed */
        } else if (tt_atomic_commit(&out, &err)) {
            char safe[600];
            tt_cli_error("report: %s", tt_text_safe(err.what, safe, sizeof safe));
            rc = TT_EXIT_ERROR;
        }
    }
    return rc;
}

const tt_command tt_cmd_report = {
    .name = "report",
    /* the --kind list is the table's (report/kinds.c), in its order:
     * tests/unit/test_stats.c checks it */
    .usage = "report [--kind ops|lanes|transfers|gpu|events|annotations|ranks|collectives|"
             "operators|kernels|steps|launch|overview|op-statistic|api-statistic|comm|comm-matrix] [--totals] "
             "[--by KEY] [--window FROM:TO | --markers SET (--between A:B | --per-interval)] "
             "[--lanes PATTERN] [--rules FILE] [--align MODE] [--sort ORDER] [--metric NAME] "
             "[--format csv|json|text] [-o FILE] TRACE|DIR...",
    .help = "statistics of a window and lanes as CSV, JSON or text (nsys stats columns)",
    .exec = report_exec,
};
