/* diff_scaling.c - the front end of `diff --scaling` (see diff_scaling.h
 * and analysis/scaling.h): runs are expanded into their trace files
 * (multi/rankset.h's rules, as for a directory of ranks), every file is
 * loaded in turn and measured, and the table goes through the report
 * writer, so the format rules (formula guard, escapes on a terminal, -o
 * written atomically) are report's.
 *
 * Columns: Name, Stat (avg or max), then per run k "RUN (ns)",
 * "RUN speedup", "RUN efficiency" (RUN: the last part of its path);
 * JSON keys r<k>_ns, r<k>_speedup, r<k>_efficiency, and a "runs" list
 * with each run's label and ranks.
 */
#include "config.h"

#include "cli/diff_scaling.h"

#include "analysis/scaling.h"
#include "io/atomic.h"
#include "multi/rankset.h"
#include "util/json.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int add_trace(void *ctx, size_t i, const tt_trace *tr)
{
    tt_scaling *s = ctx;
    tt_error err;
    (void)i;
    tt_error_clear(&err);
    if (tt_scaling_run_add(s, tr, &err)) {
        tt_cli_work_error("diff --scaling", &tr, 1, &err);
        return -1;
    }
    return 0;
}

/* Every run's files measured into s. 0, or -1 after printing why. */
static int measure(tt_scaling *s, char *const *runs, size_t n, const tt_cli_load *lo)
{
    for (size_t r = 0; r < n; r++) {
        size_t n_files = 0;
        char **files = tt_cli_expand(&runs[r], 1, &n_files);
        tt_error err;
        int rc;
        tt_error_clear(&err);
        if (!files)
            return -1;
        if (tt_scaling_run_begin(s, runs[r], &err)) {
            tt_rankset_free_files(files, n_files);
            tt_cli_error("diff: %s", err.what);
            return -1;
        }
        rc = tt_cli_each_trace(files, n_files, lo, add_trace, s);
        tt_rankset_free_files(files, n_files);
        if (rc)
            return -1;
    }
    return 0;
}

/* The document head: how the runs were measured, and each run. */
static cJSON *head_of(const tt_scaling *s)
{
    cJSON *doc = cJSON_CreateObject(), *runs = cJSON_CreateArray();
    if (!doc || !runs) {
        cJSON_Delete(doc);
        cJSON_Delete(runs);
        return NULL;
    }
    cJSON_AddStringToObject(doc, "measure", s->hugectr ? "hugectr" : "steps and names");
    cJSON_AddStringToObject(doc, "efficiency", s->weak ? "weak" : "strong");
    for (size_t r = 0; r < s->n_runs; r++) {
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "run", s->labels[r]);
        tt_json_add_int(o, "ranks", (int64_t)s->ranks[r]);
        cJSON_AddItemToArray(runs, o);
    }
    cJSON_AddItemToObject(doc, "runs", runs);
    return doc;
}

static tt_cell real_or_none(double v)
{
    return isnan(v) ? tt_cell_none() : tt_cell_real(v);
}

/* A run's name in column titles: its path's last component, without a
 * trailing '/' (the JSON "runs" list keeps the whole path). Its length;
 * *start at it. */
static size_t short_label(const char *label, const char **start)
{
    size_t n = strlen(label);
    const char *p;
    while (n > 1 && label[n - 1] == '/')
        n--;
    p = label + n;
    while (p > label && p[-1] != '/')
        p--;
    *start = p;
    return (size_t)(label + n - p);
}

/* The table of s on f. 0, or -1 (out of memory or a write error). */
static int write_table(FILE *f, const tt_scaling *s, const tt_diff_scaling_opts *o, bool sanitize)
{
    size_t ncols = 2 + 3 * s->n_runs;
    tt_col *cols = calloc(ncols, sizeof *cols);
    char **names = calloc(2 * 3 * s->n_runs, sizeof *names);
    tt_cell *cells = calloc(ncols, sizeof *cells);
    tt_writer_opts wo;
    tt_writer *w = NULL;
    char title[200];
    int rc = -1;
    if (!cols || !names || !cells)
        goto done;
    cols[0] = (tt_col){"Name", "name", TT_COL_TEXT, 0, false};
    cols[1] = (tt_col){"Stat", "stat", TT_COL_TEXT, 0, false};
    for (size_t r = 0; r < s->n_runs; r++) {
        static const char *const what[3] = {"(ns)", "speedup", "efficiency"};
        static const char *const key[3] = {"ns", "speedup", "efficiency"};
        for (int j = 0; j < 3; j++) {
            const char *base;
            char **t = &names[6 * r + 2 * (size_t)j], **k = t + 1;
            size_t tn = strlen(s->labels[r]) + 16;
            if (!(*t = malloc(tn)) || !(*k = malloc(48)))
                goto done;
            int bn = (int)short_label(s->labels[r], &base);
            snprintf(*t, tn, "%.*s %s", bn, base, what[j]);
            snprintf(*k, 48, "r%zu_%s", r + 1, key[j]);
            cols[2 + 3 * r + (size_t)j] = (tt_col){*t, *k, TT_COL_REAL, j == 0 ? 1 : 3, false};
        }
    }
    memset(&wo, 0, sizeof wo);
    wo.format = o->format;
    wo.sanitize = sanitize;
    wo.utf8 = tt_text_utf8();
    snprintf(title, sizeof title, "scaling over %zu runs (%s, %s efficiency)", s->n_runs,
             s->hugectr ? "HugeCTR iteration and labels" : "step time and totals by name",
             s->weak ? "weak" : "strong");
    if (!(w = tt_writer_new(f, &wo, cols, ncols, head_of(s))) ||
        tt_writer_trace_begin(w, "scaling", NULL, title))
        goto done;
    for (size_t i = 0; i < s->n; i++) {
        const tt_scaling_row *row = &s->rows[i];
        cells[0] = tt_cell_text(row->name);
        cells[1] = tt_cell_text(row->avg ? "avg" : "max");
        for (size_t r = 0; r < s->n_runs; r++) {
            cells[2 + 3 * r] = real_or_none(row->t[r]);
            cells[3 + 3 * r] = real_or_none(row->speedup[r]);
            cells[4 + 3 * r] = real_or_none(row->eff[r]);
        }
        if (tt_writer_row(w, cells, 0))
            goto done;
    }
    if (tt_writer_trace_end(w, NULL, NULL))
        goto done;
    rc = tt_writer_finish(w);
done:
    tt_writer_free(w);
    if (names)
        for (size_t i = 0; i < 6 * s->n_runs; i++)
            free(names[i]);
    free(names);
    free(cols);
    free(cells);
    return rc;
}

/* Warnings that change how the table reads. */
static void say_notes(const tt_scaling *s, const tt_cli_load *lo)
{
    char safe[400];
    if (lo->quiet)
        return;
    for (size_t r = 0; r < s->n_runs; r++)
        if (s->no_steps[r])
            tt_cli_warn("diff: %s: %zu of %zu traces have no steps (no ProfilerStep#N or Step Id): "
                        "left out of the step rows",
                        tt_text_safe(s->labels[r], safe, sizeof safe), s->no_steps[r], s->ranks[r]);
}

int tt_diff_scaling(char *const *runs, size_t n, const tt_diff_scaling_opts *o)
{
    tt_scaling *s = tt_scaling_new(o->weak);
    tt_error err;
    tt_atomic out;
    bool to_file = o->out_path && strcmp(o->out_path, "-") != 0;
    FILE *f = stdout;
    char safe[600];
    int rc = TT_EXIT_ERROR;
    tt_error_clear(&err);
    if (!s) {
        tt_cli_error("diff: out of memory");
        return TT_EXIT_ERROR;
    }
    if (n < 2) {
        tt_cli_error("diff: --scaling compares two runs or more (got %zu)", n);
        goto done;
    }
    if (measure(s, runs, n, o->lo))
        goto done;
    if (tt_scaling_finish(s, &err)) {
        tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
        goto done;
    }
    say_notes(s, o->lo);
    if (to_file) {
        if (tt_atomic_open(&out, o->out_path, &err)) {
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
            goto done;
        }
        f = tt_atomic_file(&out);
    }
    if (write_table(f, s, o, !to_file && isatty(fileno(stdout)))) {
        if (to_file) {
            tt_atomic_fail(&out, &err);
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
        } else {
            tt_cli_flush_stdout("diff");
        }
        goto done;
    }
    if (to_file ? tt_atomic_commit(&out, &err) : tt_cli_flush_stdout("diff")) {
        if (to_file)
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
        goto done;
    }
    rc = TT_EXIT_OK;
done:
    tt_scaling_free(s);
    return rc;
}
