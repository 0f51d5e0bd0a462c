/* cmd_query.c - `tracetty query`: SQL over the loaded traces, its result
 * as CSV, JSON or text.
 *
 * This file parses options, finds the SQL (an operand, -f FILE, or
 * stdin), reads the marker sets --markers names, and writes the result
 * with report's writer (report/writer.h: the formula guard, escapes on a
 * terminal; -o atomic through io/atomic.h). The sources, tables and the
 * database are sql/'s. Exit status: 0, 1 for an SQL or load error, 2 for
 * a usage error or a failed write.
 *
 * Ctrl-C: a SIGINT handler sets a flag (and nothing else); the database's
 * progress handler stops the statement at its next check, a load that is
 * running finishes (the decoders cannot be stopped midway) but no further
 * one starts, and the query ends with "interrupted" and status 130 (as a
 * shell reports a process ended by SIGINT); -o leaves neither the file
 * nor its temporary. A second SIGINT ends the process at once, removing
 * the temporary file first (as tt_cli_catch_fatal_signals would).
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "decode/captures.h"
#include "io/atomic.h"
#include "markers/markers.h"
#include "multi/rankset.h"
#include "report/report.h"
#include "report/writer.h"
#include "sql/db.h"
#include "sql/result.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timings.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define QUERY_SQL_ERROR 1
#define QUERY_INTERRUPTED 130   /* 128 + SIGINT */

enum {
    OPT_WINDOW = TT_OPT__NEXT,
    OPT_LANES,
    OPT_MARKERS,
    OPT_BETWEEN,
    OPT_TABLES,
};

static volatile sig_atomic_t query_stop;

static void on_sigint(int sig)
{
    if (!query_stop) {
        query_stop = 1;
        return;
    }
    /* the second one: die of it, as the user asked (async-signal-safe:
     * unlink, signal, raise) */
    tt_atomic_signal_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int usage_error(const char *what)
{
    char safe[1200];
    tt_cli_error("query: %s (usage: tracetty %s)", tt_text_safe(what, safe, sizeof safe),
                 tt_cmd_query.usage);
    return TT_EXIT_ERROR;
}

/* --tables: every table of the registry with its columns. */
static void print_tables(void)
{
    size_t n;
    const tt_sql_table *const *t = tt_sql_tables(&n);
    for (size_t i = 0; i < n; i++) {
        printf("%s: %s\n ", t[i]->name, t[i]->help);
        for (size_t c = 0; c < t[i]->n_cols; c++)
            printf(" %s %s%s,", t[i]->cols[c].name, t[i]->cols[c].type,
                   (t[i]->cols[c].flags & TT_SQLCOL_HIDDEN) ? " (hidden)" : "");
        printf(" rank INTEGER\n");
    }
}

/* The whole of f as a string (malloc'd), or NULL with errno set. */
static char *read_all(FILE *f)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    while (s) {
        size_t got = fread(s + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) {
            if (ferror(f)) {
                free(s);
                return NULL;
            }
            break;
        }
        char *t = realloc(s, cap * 2);
        if (!t) {
            free(s);
            return NULL;
        }
        s = t;
        cap *= 2;
    }
    if (s)
        s[n] = '\0';
    return s;
}

/* ------------------------------------------------------------- markers */

/* --markers SET --between A:B: per trace its set (kept in stores[i]) and
 * the window between the two markers. 0, or -1 after saying why. */
static int read_between(char *const *files, size_t n, const char *set, const char *between,
                        tt_markstore *stores, const tt_markset **sets, tt_window_spec *w)
{
    const char *colon = strchr(between, ':');
    char a[256], b[256];
    if (!colon || colon == between || !colon[1] || (size_t)(colon - between) >= sizeof a ||
        strlen(colon + 1) >= sizeof b) {
        usage_error("--between expects A:B (two marker names or times)");
        return -1;
    }
    memcpy(a, between, (size_t)(colon - between));
    a[colon - between] = '\0';
    strcpy(b, colon + 1);
    for (size_t i = 0; i < n; i++) {
        char *side;
        char safe[600], msg[800], sname[300];
        tt_error err;
        tt_error_clear(&err);
        tt_text_safe(files[i], safe, sizeof safe);
        if (!(side = tt_markers_sidecar(files[i], false, &err)) ||
            tt_markstore_read(&stores[i], side, &err)) {
            tt_cli_error("query: %s", tt_error_format(&err, safe, msg, sizeof msg));
            free(side);
            return -1;
        }
        free(side);
        if (!(sets[i] = tt_markstore_find(&stores[i], set))) {
            tt_cli_error("query: %s: no marker set named '%s' (`tracetty markers list TRACE` "
                         "shows a trace's sets)", safe, tt_text_safe(set, sname, sizeof sname));
            return -1;
        }
        memset(&w[i], 0, sizeof w[i]);
        w[i].has_from = w[i].has_to = true;
        if (tt_markset_resolve(sets[i], a, &w[i].from, &err) ||
            tt_markset_resolve(sets[i], b, &w[i].to, &err)) {
            tt_cli_error("query: %s: %s", safe, tt_text_safe(err.what, msg, sizeof msg));
            return -1;
        }
        if (w[i].to < w[i].from) {
            tt_cli_error("query: %s: marker '%s' comes after '%s': the window would end before "
                         "it starts", safe, a, b);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------- loading */

typedef struct load_ctx {
    tt_cli_load lo;
    bool        failed;   /* a load failed and said why */
} load_ctx;

static tt_trace *load_source(void *vctx, size_t i, const char *path, unsigned skip,
                             tt_error *err)
{
    load_ctx *c = vctx;
    tt_trace *tr;
    (void)i;
    if (query_stop)   /* Ctrl-C: start no other load */
        return tt_error_set(err, TT_ERR_IO, "interrupted"), NULL;
    c->lo.skip = skip;
    if (!(tr = tt_cli_load_trace(path, &c->lo))) {
        c->failed = true;
        tt_error_set(err, TT_ERR_IO, "cannot load a trace");
    }
    return tr;
}

/* A batch, in parallel as report loads ranks (tt_cli_load_many). */
static int load_sources(void *vctx, char *const *paths, size_t n, unsigned skip,
                        tt_trace **out, tt_error *err)
{
    load_ctx *c = vctx;
    if (query_stop)
        return tt_error_set(err, TT_ERR_IO, "interrupted"), -1;
    c->lo.skip = skip;
    if (tt_cli_load_many(paths, n, &c->lo, out)) {
        c->failed = true;
        return tt_error_set(err, TT_ERR_IO, "cannot load a trace"), -1;
    }
    return 0;
}

/* Whether a source can be read, else false having said why. A worker's
 * tensorboard captures (a directory's member "DIR/{worker}.*.pt.trace.json",
 * decode/captures.h) are a pattern, not a file: each of its files must be
 * readable. */
static bool source_readable(const char *path)
{
    char safe[600];
    bool ok = true;
    if (tt_captures_is_group(path)) {
        char **files = NULL;
        size_t n = 0;
        tt_error err;
        tt_error_clear(&err);
        if (tt_captures_list(path, &files, &n, &err)) {
            tt_cli_error("%s: %s", tt_text_safe(path, safe, sizeof safe), err.what);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (ok && !source_readable(files[i]))
                ok = false;
            free(files[i]);
        }
        free(files);
        return ok;
    }
    if (access(path, R_OK) != 0) {
        tt_cli_error("%s: cannot open: %s", tt_text_safe(path, safe, sizeof safe),
                     strerror(errno));
        return false;
    }
    return true;
}

/* ------------------------------------------------------------- output */

typedef struct out_ctx {
    FILE          *f;
    tt_writer_opts wo;
    tt_writer     *w;
    tt_col        *cols;
    char         **names;
    tt_cell       *cells;
    char          *nums;      /* a number's text per column */
    int            n;
    bool           failed;    /* out of memory or the writer failed */
} out_ctx;

#define NUM_CAP TT_SQL_NUM_CAP

static int start_output(out_ctx *o, sqlite3_stmt *st)
{
    cJSON *doc = cJSON_CreateObject();
    o->n = sqlite3_column_count(st);
    o->cols = calloc((size_t)o->n + 1, sizeof *o->cols);
    o->names = calloc((size_t)o->n + 1, sizeof *o->names);
    o->cells = calloc((size_t)o->n + 1, sizeof *o->cells);
    o->nums = malloc(((size_t)o->n + 1) * NUM_CAP);
    if (!doc || !o->cols || !o->names || !o->cells || !o->nums ||
        !cJSON_AddStringToObject(doc, "kind", "query")) {
        cJSON_Delete(doc);
        return -1;
    }
    for (int c = 0; c < o->n; c++) {
        const char *name = sqlite3_column_name(st, c);
        if (!(o->names[c] = strdup(name ? name : ""))) {
            cJSON_Delete(doc);
            return -1;
        }
        /* SQLite's types are per value, not per column: CSV and text
         * get every cell as text, a number's text bare (tt_cell.number);
         * JSON gets a JSON value per cell, integers exact */
        o->cols[c].title = o->names[c];
        o->cols[c].json = o->names[c];
        o->cols[c].type = o->wo.format == TT_OUT_JSON ? TT_COL_JSON : TT_COL_TEXT;
    }
    if (!(o->w = tt_writer_new(o->f, &o->wo, o->cols, (size_t)o->n, doc)))
        return -1;
    return tt_writer_trace_begin(o->w, "query", NULL, NULL);
}

/* The row's cells as JSON values (the writer takes them); text and blobs
 * keep the text put_row made. 0, or -1 when out of memory. */
static int json_cells(out_ctx *o, sqlite3_stmt *st)
{
    int rc = 0;
    for (int c = 0; c < o->n; c++) {
        cJSON *v = NULL;
        double d;
        switch (sqlite3_column_type(st, c)) {
        case SQLITE_INTEGER: v = tt_json_int(sqlite3_column_int64(st, c)); break;
        case SQLITE_FLOAT:
            d = sqlite3_column_double(st, c);
            v = isfinite(d) ? cJSON_CreateNumber(d) : cJSON_CreateString(o->cells[c].s);
            break;
        case SQLITE_NULL: v = cJSON_CreateNull(); break;
        default: v = cJSON_CreateString(o->cells[c].s ? o->cells[c].s : ""); break;
        }
        if (!v)
            rc = -1;
        o->cells[c] = tt_cell_json(v);
    }
    return rc;
}

static int put_row(out_ctx *o, sqlite3_stmt *st)
{
    char **hex = calloc((size_t)o->n + 1, sizeof *hex);
    int rc = 0;
    if (!hex)
        return -1;
    for (int c = 0; c < o->n; c++) {
        char *num = o->nums + (size_t)c * NUM_CAP;
        const char *text = tt_sql_cell_text(st, c, num, NUM_CAP, &hex[c]);
        switch (sqlite3_column_type(st, c)) {
        case SQLITE_INTEGER: o->cells[c] = tt_cell_number_text(num); break;
        case SQLITE_FLOAT:
            /* JSON has no infinity: a text cell */
            o->cells[c] = isfinite(sqlite3_column_double(st, c)) ? tt_cell_number_text(num)
                                                                 : tt_cell_text(num);
            break;
        case SQLITE_NULL: o->cells[c] = tt_cell_none(); break;
        default:
            if (!text)
                rc = -1;   /* a blob's text: out of memory */
            o->cells[c] = tt_cell_text(text);
            break;
        }
    }
    if (rc == 0 && o->wo.format == TT_OUT_JSON && json_cells(o, st))
        rc = -1;
    /* also after a failed json_cells: the writer frees the JSON cells */
    if ((rc == 0 || o->wo.format == TT_OUT_JSON) && tt_writer_row(o->w, o->cells, 0))
        rc = -1;
    for (int c = 0; c < o->n; c++)
        free(hex[c]);
    free(hex);
    return rc;
}

static int on_row(void *ctx, sqlite3_stmt *st, long long row)
{
    out_ctx *o = ctx;
    if (query_stop)   /* Ctrl-C came during a load: write no row after it */
        return -1;
    if ((row < 0 ? start_output(o, st) : put_row(o, st)) != 0) {
        o->failed = true;
        return -2;
    }
    return 0;
}

static int finish_output(out_ctx *o)
{
    int rc = 0;
    if (o->w && (tt_writer_trace_end(o->w, NULL, NULL) || tt_writer_finish(o->w)))
        rc = -1;
    tt_writer_free(o->w);
    for (int c = 0; o->names && c < o->n; c++)
        free(o->names[c]);
    free(o->names);
    free(o->cols);
    free(o->cells);
    free(o->nums);
    return rc;
}

/* ---------------------------------------------------------------- run */

typedef struct query_args {
    const char           *sql;
    const tt_window_spec *window;
    const char           *lanes;
    const char           *mark_set, *between;
    tt_out_format         format;
    const char           *out_path;
} query_args;

/* Run the query over files; the exit status. */
static int query_run(char **files, size_t n, const query_args *qa, load_ctx *lc)
{
    tt_markstore *stores = NULL;
    const tt_markset **sets = NULL;
    tt_window_spec *between = NULL;
    tt_sql_srcset_opts so;
    tt_sql_srcset *set = NULL;
    tt_sql_db *db = NULL;
    out_ctx oc;
    tt_atomic out;
    tt_error err;
    bool to_file = false;   /* out is open */
    int rc = TT_EXIT_OK, r;
    char msg[1200];

    memset(&so, 0, sizeof so);
    memset(&oc, 0, sizeof oc);
    tt_error_clear(&err);
    if (qa->mark_set) {
        stores = calloc(n, sizeof *stores);
        sets = calloc(n, sizeof *sets);
        between = calloc(n, sizeof *between);
        if (!stores || !sets || !between) {
            tt_cli_error("query: out of memory");
            rc = TT_EXIT_ERROR;
            goto out;
        }
        for (size_t i = 0; i < n; i++)
            tt_markstore_init(&stores[i]);
        if (read_between(files, n, qa->mark_set, qa->between, stores, sets, between)) {
            rc = TT_EXIT_ERROR;
            goto out;
        }
        so.markers = sets;
        so.between = between;
    }
    so.window = qa->window;
    so.lanes = qa->lanes;
    so.load = load_source;
    so.load_many = load_sources;
    so.load_ctx = lc;
    if (!(set = tt_sql_srcset_new(files, n, &so, &err)) ||
        !(db = tt_sql_db_open(set, &query_stop, &err))) {
        tt_cli_error("query: %s", err.what);
        rc = QUERY_SQL_ERROR;
        goto out;
    }
    /* every statement is checked before anything loads or is written */
    if (tt_sql_db_prepare(db, qa->sql, &err)) {
        tt_cli_error("%s", tt_text_safe(err.what, msg, sizeof msg));
        rc = QUERY_SQL_ERROR;
        goto out;
    }
    if (qa->out_path && strcmp(qa->out_path, "-") != 0) {
        tt_cli_catch_fatal_signals();
        if (tt_atomic_open(&out, qa->out_path, &err)) {
            tt_cli_error("query: %s", tt_text_safe(err.what, msg, sizeof msg));
            rc = TT_EXIT_ERROR;
            goto out;
        }
        to_file = true;
        oc.f = tt_atomic_file(&out);
    } else {
        oc.f = stdout;
        oc.wo.sanitize = isatty(fileno(stdout));   /* a terminal gets escapes */
    }
    oc.wo.format = qa->format;
    oc.wo.utf8 = tt_text_utf8();
    {
        /* Ctrl-C stops the statement (after catch_fatal_signals, which
         * would end the process) */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
    }
    r = tt_sql_db_run(db, on_row, &oc, &err);
    if (query_stop) {
        /* whatever the statement said (a load or a statement stopped, or
         * it ended just before the check): the user asked to stop, and
         * -o must not be left with a result they think was cut */
        tt_cli_error("query: interrupted");
        rc = QUERY_INTERRUPTED;
    } else if (r == -1 && !lc->failed) {   /* a failed load said why already */
        tt_cli_error("%s", tt_text_safe(err.what, msg, sizeof msg));
        rc = QUERY_SQL_ERROR;
    } else if (r == -1) {
        rc = QUERY_SQL_ERROR;
    } else if (r != 0 || oc.failed) {
        rc = TT_EXIT_ERROR;   /* the writer failed: said below */
    }
    if (finish_output(&oc) && rc == TT_EXIT_OK)
        rc = TT_EXIT_ERROR;
    if (rc == TT_EXIT_OK && !to_file && tt_cli_flush_stdout("query"))
        rc = TT_EXIT_ERROR;
    else if (rc == TT_EXIT_ERROR && (oc.failed || r == 0)) {
        if (to_file) {
            tt_atomic_fail(&out, &err);
            to_file = false;
            tt_cli_error("query: %s", tt_text_safe(err.what, msg, sizeof msg));
        } else {
            tt_cli_error("query: cannot write the output: %s", strerror(errno ? errno : EIO));
        }
    }
    if (tt_timings_enabled())
        fprintf(stderr, "tracetty: query: %zu loads of %zu traces\n",
                tt_sql_srcset_loads(set), n);
out:
    if (to_file) {
        if (rc != TT_EXIT_OK) {
            tt_atomic_abort(&out);
        } else if (tt_atomic_commit(&out, &err)) {
            tt_cli_error("query: %s", tt_text_safe(err.what, msg, sizeof msg));
            rc = TT_EXIT_ERROR;
        }
    }
    tt_sql_db_close(db);
    tt_sql_srcset_free(set);
    for (size_t i = 0; stores && i < n; i++)
        tt_markstore_fini(&stores[i]);
    free(stores);
    free(sets);
    free(between);
    return rc;
}

/* Is s the name of an existing file or directory (a trace operand)? */
static bool is_path(const char *s)
{
    struct stat st;
    return stat(s, &st) == 0;
}

static int query_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"window", required_argument, NULL, OPT_WINDOW},
        {"lanes", required_argument, NULL, OPT_LANES},
        {"markers", required_argument, NULL, OPT_MARKERS},
        {"between", required_argument, NULL, OPT_BETWEEN},
        {"tables", no_argument, NULL, OPT_TABLES},
        {"file", required_argument, NULL, 'f'},
        {"format", required_argument, NULL, 'F'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    query_args qa;
    load_ctx lc;
    tt_window_spec window;
    tt_error err;
    tt_cli_opts op;
    const char *sql_file = NULL;
    char *sql_text = NULL, **files = NULL;
    size_t n_files = 0, n_traces;
    int opt, rc;

    memset(&qa, 0, sizeof qa);
    memset(&lc, 0, sizeof lc);
    qa.format = TT_OUT_CSV;
    tt_error_clear(&err);
    tt_cli_opts_init(&op, &tt_cmd_query, argc, argv, "f:o:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lc.lo))
            continue;
        switch (opt) {
        case OPT_WINDOW:
            if (tt_window_parse(optarg, &window, &err))
                return usage_error(err.what);
            qa.window = &window;
            break;
        case OPT_LANES:
            if (tt_lane_patterns_check(optarg, &err))
                return usage_error(err.what);
            qa.lanes = optarg;
            break;
        case OPT_MARKERS: qa.mark_set = optarg; break;
        case OPT_BETWEEN: qa.between = optarg; break;
        case OPT_TABLES:
            print_tables();
            return tt_cli_flush_stdout("query") ? TT_EXIT_ERROR : TT_EXIT_OK;
        case 'f': sql_file = optarg; break;
        case 'F':
            if (tt_report_format_parse(optarg, &qa.format, &err))
                return usage_error(err.what);
            break;
        case 'o': qa.out_path = optarg; break;
        case 'h':
            printf("usage: tracetty %s\n\ntables (`--tables` lists their columns):\n",
                   tt_cmd_query.usage);
            {
                size_t n;
                const tt_sql_table *const *t = tt_sql_tables(&n);
                for (size_t i = 0; i < n; i++)
                    printf("  %-14s %s\n", t[i]->name, t[i]->help);
            }
            return TT_EXIT_OK;
        default:
            return TT_EXIT_ERROR;   /* tt_cli_opts_next said why */
        }
    }
    if ((qa.mark_set != NULL) != (qa.between != NULL))
        return usage_error("--markers SET and --between A:B go together");
    if (qa.mark_set && qa.window)
        return usage_error("--window and --markers exclude each other");
    /* the SQL: -f FILE, else the last operand unless it names a file or
     * directory, else stdin when it is not a terminal */
    n_traces = op.n_operands;
    if (sql_file) {
        FILE *f = strcmp(sql_file, "-") == 0 ? stdin : fopen(sql_file, "r");
        if (!f || !(sql_text = read_all(f))) {
            char safe[600];
            tt_cli_error("query: cannot read %s: %s", tt_text_safe(sql_file, safe, sizeof safe),
                         strerror(errno));
            if (f && f != stdin)
                fclose(f);
            return TT_EXIT_ERROR;
        }
        if (f != stdin)
            fclose(f);
        qa.sql = sql_text;
    } else if (n_traces >= 2 && !is_path(op.operands[n_traces - 1])) {
        qa.sql = op.operands[--n_traces];
    } else if (!isatty(STDIN_FILENO)) {
        if (!(sql_text = read_all(stdin))) {
            tt_cli_error("query: cannot read the SQL from stdin: %s", strerror(errno));
            return TT_EXIT_ERROR;
        }
        qa.sql = sql_text;
    } else {
        return usage_error(n_traces ? "no SQL given (an operand after the traces, -f FILE or "
                                      "stdin)"
                                    : "no trace given");
    }
    if (n_traces == 0) {
        free(sql_text);
        return usage_error("no trace given");
    }
    if (!(files = tt_cli_expand(op.operands, n_traces, &n_files))) {
        free(sql_text);
        return QUERY_SQL_ERROR;
    }
    /* a trace loads only when a statement reads a table: one that
     * cannot be opened is said before the query runs */
    for (size_t i = 0; i < n_files; i++)
        if (!source_readable(files[i])) {
            tt_rankset_free_files(files, n_files);
            free(sql_text);
            return QUERY_SQL_ERROR;
        }
    rc = query_run(files, n_files, &qa, &lc);
    tt_rankset_free_files(files, n_files);
    free(sql_text);
    return rc;
}

const tt_command tt_cmd_query = {
    .name = "query",
    .usage = "query [--format csv|json|text] [-o FILE] [--window FROM:TO | --markers SET "
             "--between A:B] [--lanes PATTERN] [--tables] TRACE|DIR... ['SQL' | -f FILE.sql]",
    .help = "SQL over the traces (Perfetto-shaped tables: process, ...; --tables lists them)",
    .exec = query_exec,
};
