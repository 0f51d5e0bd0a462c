/* cmd_markers.c - `tracetty markers`: marker sets from scripts.
 *
 *   markers list   TRACE [--set NAME] [--format text|json]
 *   markers add    TRACE --set NAME --at TIME --name NAME [--note TEXT] [LOAD-OPTIONS]
 *   markers remove TRACE --set NAME [--name MARKER]
 *   markers rename TRACE --set NAME [--name MARKER] --to NEW
 *   markers export TRACE [--set NAME] [--format csv|json|text] [-o FILE]
 *
 * Times are relative to the trace start, with units (12.5ms). Sets are
 * keyed by the file's identity; only add decodes the trace, to warn when
 * --at falls outside it (a marker may be put there on purpose). A set
 * saved in the view of a job has a copy beside every rank's trace, in that
 * trace's times; list says so (and how the job's times relate).
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "io/atomic.h"
#include "markers/markers.h"
#include "report/writer.h"
#include "util/num.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct markers_args {
    const char *sub;
    const char *trace;
    const char *set;
    const char *name;
    const char *to;
    const char *note;
    const char *at;
    const char *format;
    const char *output;
    tt_trace_id id;
    int64_t     t;          /* add: --at */
} markers_args;

static void print_error(const char *what, const char *file, const tt_error *err)
{
    char msg[800], safe[1000];
    /* names in the message may come from the sidecar: sanitize it all */
    tt_error_format(err, file, msg, sizeof msg);
    tt_cli_error("markers %s: %s", what, tt_text_safe(msg, safe, sizeof safe));
}

/* err = "set 'S': " + err (names are unique per set; say which set). */
static int in_set(tt_error *err, const char *set)
{
    char msg[sizeof err->what];
    snprintf(msg, sizeof msg, "%s", err->what);
    return tt_error_set(err, err->code, "set '%s': %s", set, msg);
}

/* The marker --name of set: its index, or -1 with err set. A name that
 * several markers have (a file an older version wrote, before names were
 * unique) means the first in time, with a warning, so a script can still
 * remove or rename them one by one. */
static long find_marker(const tt_markset *set, const markers_args *a, tt_error *err)
{
    long i = tt_markset_find(set, a->name);
    size_t k;
    if (i < 0)
        return tt_error_set(err, TT_ERR_USAGE, "no marker named '%s' in set '%s'", a->name,
                            a->set), -1;
    if ((k = tt_markset_count(set, a->name)) > 1) {
        char at[48], msg[600], safe[800];
        snprintf(msg, sizeof msg, "%zu markers of set '%s' are named '%s' (an older version "
                                  "allowed it): %s the first, at %s", k, a->set, a->name,
                 strcmp(a->sub, "remove") == 0 ? "removing" : "renaming",
                 tt_fmt_dur(at, sizeof at, set->m[i].t, 3));
        tt_cli_warn("%s", tt_text_safe(msg, safe, sizeof safe));
    }
    return i;
}

/* ------------------------------------------------------------- edits */

static int edit_add(tt_markstore *s, void *ctx, tt_error *err)
{
    markers_args *a = ctx;
    tt_markset *set;
    if (!(set = tt_markstore_get(s, a->set, a->id)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    /* a name the set has already is refused: --between names markers */
    if (tt_markset_add(set, a->t, a->name, a->note ? a->note : "", err) < 0)
        return in_set(err, a->set), -1;
    if (set->trace.size != a->id.size || set->trace.hash != a->id.hash)
        tt_cli_warn("set '%s' was saved for another trace (size or content differs)", a->set);
    return 0;
}

static int edit_remove(tt_markstore *s, void *ctx, tt_error *err)
{
    markers_args *a = ctx;
    tt_markset *set = tt_markstore_find(s, a->set);
    long i;
    if (!set)
        return tt_error_set(err, TT_ERR_USAGE, "no marker set named '%s'", a->set), -1;
    if (!a->name) {
        tt_markstore_remove(s, a->set);
        return 0;
    }
    if ((i = find_marker(set, a, err)) < 0)
        return -1;
    tt_markset_remove(set, (size_t)i);
    return 0;
}

static int edit_rename(tt_markstore *s, void *ctx, tt_error *err)
{
    markers_args *a = ctx;
    tt_markset *set = tt_markstore_find(s, a->set);
    long i;
    if (!set)
        return tt_error_set(err, TT_ERR_USAGE, "no marker set named '%s'", a->set), -1;
    if (!a->name)
        return tt_markstore_rename(s, a->set, a->to, err) ? -1 : 0;
    if ((i = find_marker(set, a, err)) < 0)
        return -1;
    if (tt_markset_rename(set, (size_t)i, a->to, err))
        return in_set(err, a->set), -1;
    return 0;
}

/* ------------------------------------------------------------- reads */

static bool same_trace(const tt_markset *set, const tt_trace_id *id)
{
    return set->trace.size == id->size && set->trace.hash == id->hash;
}

static int list_sets(const tt_markstore *s, const markers_args *a)
{
    bool json = a->format && strcmp(a->format, "json") == 0;
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        char *text = NULL, *safe = NULL;
        bool ok = arr != NULL;
        for (size_t i = 0; ok && i < s->n; i++) {
            const tt_markset *set = &s->sets[i];
            cJSON *o;
            if (a->set && strcmp(set->name, a->set) != 0)
                continue;
            ok = (o = cJSON_CreateObject()) != NULL;
            if (ok) {
                cJSON_AddItemToArray(arr, o);
                ok = cJSON_AddStringToObject(o, "set", set->name) &&
                     cJSON_AddBoolToObject(o, "same_trace", same_trace(set, &a->id)) &&
                     tt_markset_add_job_json(o, set) && tt_markset_add_json(o, set);
            }
        }
        if (ok && (text = cJSON_Print(arr)))
            safe = tt_json_repair(text);   /* names typed by users */
        cJSON_Delete(arr);
        free(text);
        if (!safe) {
            tt_cli_error("markers: out of memory");
            return TT_EXIT_ERROR;
        }
        puts(safe);
        free(safe);
        return TT_EXIT_OK;
    }
    if (s->n == 0) {
        printf("no marker sets\n");
        return TT_EXIT_OK;
    }
    for (size_t i = 0; i < s->n; i++) {
        const tt_markset *set = &s->sets[i];
        if (a->set && strcmp(set->name, a->set) != 0)
            continue;
        tt_cli_put_safe(stdout, set->name);
        printf(": %zu marker%s%s\n", set->n, set->n == 1 ? "" : "s",
               same_trace(set, &a->id) ? "" : " (saved for another trace)");
        if (set->job.align) {
            char st[48], off[48];
            /* the job's times are these minus the job's start */
            fputs("  saved in the view of a job of ", stdout);
            printf("%u ranks as rank %lld's copy, clocks aligned ", set->job.ranks,
                   (long long)set->job.rank);
            tt_cli_put_safe(stdout, set->job.align);
            printf(" (offset %s); the job starts at %s on this trace\n",
                   tt_fmt_dur(off, sizeof off, set->job.offset, 9),
                   tt_fmt_dur(st, sizeof st, set->job.start, 9));
        }
        for (size_t k = 0; k < set->n; k++) {
            char t[48];
            printf("  %14s  ", tt_fmt_dur(t, sizeof t, set->m[k].t, 3));
            tt_cli_put_safe(stdout, set->m[k].name);
            if (set->m[k].note[0]) {
                fputs("  -- ", stdout);
                tt_cli_put_safe(stdout, set->m[k].note);
            }
            if (k > 0) {
                char d[48];
                printf("  (+%s)", tt_fmt_dur(d, sizeof d, set->m[k].t - set->m[k - 1].t, 3));
            }
            fputc('\n', stdout);
        }
    }
    return TT_EXIT_OK;
}

static const tt_col export_cols[] = {
    {"Set", "set", TT_COL_TEXT, 0, false},
    {"Marker", "marker", TT_COL_TEXT, 0, false},
    {"Time (ns)", "t_ns", TT_COL_INT, 0, false},
    {"Note", "note", TT_COL_TEXT, 0, false},
};

/* Write the markers of set `only` (NULL: of every set, in name order) as
 * one table, CSV (default), JSON or text, to f: the trace is the table's
 * trace (JSON "trace"), each row says its set. 0 or -1. */
static int write_sets(FILE *f, const tt_markstore *s, const char *only, const char *trace,
                      tt_out_format fmt, bool sanitize)
{
    tt_writer_opts o;
    tt_writer *w;
    cJSON *doc = cJSON_CreateObject();
    int rc = 0;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.sanitize = sanitize;
    o.utf8 = tt_text_utf8();
    if (!doc || !cJSON_AddStringToObject(doc, "kind", "markers")) {
        cJSON_Delete(doc);
        return -1;
    }
    w = tt_writer_new(f, &o, export_cols, sizeof export_cols / sizeof export_cols[0], doc);
    if (!w)
        return -1;
    if (tt_writer_trace_begin(w, trace, NULL, NULL))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < s->n; i++) {
        const tt_markset *set = &s->sets[i];
        if (only && strcmp(set->name, only) != 0)
            continue;
        for (size_t k = 0; rc == 0 && k < set->n; k++) {
            tt_cell c[4];
            c[0] = tt_cell_text(set->name);
            c[1] = tt_cell_text(set->m[k].name);
            c[2] = tt_cell_int(set->m[k].t);
            c[3] = tt_cell_text(set->m[k].note);
            if (tt_writer_row(w, c, 0))
                rc = -1;
        }
    }
    if (rc == 0 && tt_writer_trace_end(w, NULL, NULL))
        rc = -1;
    if (tt_writer_finish(w))
        rc = -1;
    tt_writer_free(w);
    return rc;
}

static int export_sets(const tt_markstore *s, const markers_args *a)
{
    tt_out_format fmt = TT_OUT_CSV;
    tt_error err;
    bool found = !a->set;   /* without --set: every set */
    for (size_t i = 0; !found && i < s->n; i++)
        found = strcmp(s->sets[i].name, a->set) == 0;
    if (!found) {
        char safe[300];
        tt_cli_error("markers export: no marker set named '%s'",
                     tt_text_safe(a->set, safe, sizeof safe));
        return TT_EXIT_ERROR;
    }
    if (a->format) {
        if (strcmp(a->format, "csv") == 0)
            fmt = TT_OUT_CSV;
        else if (strcmp(a->format, "json") == 0)
            fmt = TT_OUT_JSON;
        else if (strcmp(a->format, "text") == 0)
            fmt = TT_OUT_TEXT;
        else {
            tt_cli_error("markers export: unknown format '%s' (csv, json or text)", a->format);
            return TT_EXIT_ERROR;
        }
    }
    tt_error_clear(&err);
    if (!a->output || strcmp(a->output, "-") == 0) {
        if (write_sets(stdout, s, a->set, a->trace, fmt, isatty(STDOUT_FILENO)) &&
            !ferror(stdout)) {
            tt_cli_error("markers export: out of memory");
            return TT_EXIT_ERROR;
        }
        return tt_cli_flush_stdout("markers export") ? TT_EXIT_ERROR : TT_EXIT_OK;
    }
    {
        tt_atomic out = {0};
        if (tt_atomic_open(&out, a->output, &err)) {
            print_error("export", a->output, &err);
            return TT_EXIT_ERROR;
        }
        if (write_sets(tt_atomic_file(&out), s, a->set, a->trace, fmt, false)) {
            /* the path and the reason, the temporary file removed */
            tt_atomic_fail(&out, &err);
            print_error("export", NULL, &err);
            return TT_EXIT_ERROR;
        }
        if (tt_atomic_commit(&out, &err)) {
            print_error("export", NULL, &err);   /* names the path */
            return TT_EXIT_ERROR;
        }
    }
    return TT_EXIT_OK;
}

/* ------------------------------------------------------------- main */

/* add: where --at falls against the trace (loaded with the load options).
 * A time before its start or after its end is kept, since a marker may be
 * put there on purpose, but *why says so ("" inside). 0, or -1 after
 * printing why the trace does not load. */
static int check_at(const markers_args *a, const tt_cli_load *lo, char *why, size_t n)
{
    tt_trace *tr;
    char end[48], at[300];
    why[0] = '\0';
    if (!(tr = tt_cli_load_trace(a->trace, lo)))
        return -1;
    tt_text_safe(a->at, at, sizeof at);
    if (a->t < 0)
        snprintf(why, n, "%s is before the start of the trace", at);
    else if (a->t > tr->t1 - tr->t0)
        snprintf(why, n, "%s is after the end of the trace (%s)", at,
                 tt_fmt_dur(end, sizeof end, tr->t1 - tr->t0, 3));
    tt_trace_free(tr);
    return 0;
}

static int usage_error(const char *msg)
{
    tt_cli_error("markers: %s (usage: tracetty %s)", msg, tt_cmd_markers.usage);
    return TT_EXIT_ERROR;
}

static int markers_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"set", required_argument, NULL, 's'},
        {"name", required_argument, NULL, 'n'},
        {"to", required_argument, NULL, 't'},
        {"note", required_argument, NULL, 'N'},
        {"at", required_argument, NULL, 'a'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    markers_args a;
    tt_cli_load lo = {0};
    tt_error err;
    char *sidecar, outside[400] = "";
    int opt, rc, num;
    tt_cli_opts op;
    bool writing, load_given = false;

    memset(&a, 0, sizeof a);
    /* permute: options may come before or after the subcommand and trace */
    tt_cli_opts_init(&op, &tt_cmd_markers, argc, argv, "s:n:t:N:a:f:o:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo)) {
            load_given = true;
            continue;
        }
        switch (opt) {
        case 's': a.set = optarg; break;
        case 'n': a.name = optarg; break;
        case 't': a.to = optarg; break;
        case 'N': a.note = optarg; break;
        case 'a': a.at = optarg; break;
        case 'f': a.format = optarg; break;
        case 'o': a.output = optarg; break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_markers.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands != 2)
        return usage_error("expected a subcommand and one TRACE");
    a.sub = op.operands[0];
    a.trace = op.operands[1];

    if (strcmp(a.sub, "add") == 0) {
        if (!a.set || !a.at || !a.name)
            return usage_error("add needs --set, --at and --name");
        if ((num = tt_parse_duration(a.at, &a.t)) != TT_NUM_OK) {
            char safe[300];
            tt_cli_error("markers add: --at '%s' %s", tt_text_safe(a.at, safe, sizeof safe),
                         num == TT_NUM_RANGE ? "is out of range" : "is not a time (e.g. 12.5ms)");
            return TT_EXIT_ERROR;
        }
        a.t = tt_time_clamp(a.t);
    } else if (strcmp(a.sub, "remove") == 0) {
        if (!a.set)
            return usage_error("remove needs --set");
    } else if (strcmp(a.sub, "rename") == 0) {
        if (!a.set || !a.to)
            return usage_error("rename needs --set and --to");
    } else if (strcmp(a.sub, "list") != 0 && strcmp(a.sub, "export") != 0) {
        return usage_error("unknown subcommand (list, add, remove, rename or export)");
    }
    if (a.format && strcmp(a.sub, "list") == 0 && strcmp(a.format, "json") != 0 &&
        strcmp(a.format, "text") != 0)
        return usage_error("list --format is text or json");
    if (load_given && strcmp(a.sub, "add") != 0)
        return usage_error("the load options apply to add (which reads the trace)");

    tt_error_clear(&err);
    if (tt_trace_id_of(a.trace, &a.id, &err)) {
        print_error(a.sub, a.trace, &err);
        return TT_EXIT_ERROR;
    }
    if (strcmp(a.sub, "add") == 0 && check_at(&a, &lo, outside, sizeof outside))
        return TT_EXIT_ERROR;
    writing = strcmp(a.sub, "list") != 0 && strcmp(a.sub, "export") != 0;
    sidecar = tt_markers_sidecar(a.trace, writing, &err);
    if (!sidecar) {
        print_error(a.sub, a.trace, &err);
        return TT_EXIT_ERROR;
    }
    if (writing) {
        tt_markstore_edit_fn fn = strcmp(a.sub, "add") == 0      ? edit_add
                                  : strcmp(a.sub, "remove") == 0 ? edit_remove
                                                                 : edit_rename;
        rc = tt_markstore_update(sidecar, fn, &a, &err) ? TT_EXIT_ERROR : TT_EXIT_OK;
        if (rc)
            print_error(a.sub, err.code == TT_ERR_USAGE ? a.trace : sidecar, &err);
        else if (outside[0])
            tt_cli_warn("%s; added anyway", outside);
    } else {
        tt_markstore s;
        tt_markstore_init(&s);
        if (tt_markstore_read(&s, sidecar, &err)) {
            print_error(a.sub, sidecar, &err);
            rc = TT_EXIT_ERROR;
        } else {
            rc = strcmp(a.sub, "list") == 0 ? list_sets(&s, &a) : export_sets(&s, &a);
        }
        tt_markstore_fini(&s);
    }
    free(sidecar);
    if (rc == TT_EXIT_OK) {
        /* named as the subcommand's other messages are ("markers list: ") */
        char cmd[64];
        snprintf(cmd, sizeof cmd, "markers %s", a.sub);
        if (tt_cli_flush_stdout(cmd))
            rc = TT_EXIT_ERROR;
    }
    return rc;
}

const tt_command tt_cmd_markers = {
    .name = "markers",
    .usage = "markers list|add|remove|rename|export TRACE [--set NAME] [--at TIME] "
             "[--name MARKER] [--to NEW] [--note TEXT] [--format F] [-o FILE] "
             "[LOAD-OPTIONS]",
    .help = "named marker sets kept beside the trace, for scripts",
    .exec = markers_exec,
};
