/* cli.c - command dispatch, shared loading and error printing (see cli.h). */
#include "config.h"

#include "cli/cli.h"

#include "cli/metrics.h"
#include "cli/progress.h"
#include "io/atomic.h"
#include "multi/rankset.h"
#include "rules/rules.h"
#include "snapshot/cache.h"
#include "util/parallel.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/timings.h"

#include <errno.h>
#include <langinfo.h>
#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Adding a command is adding a file and a line here. */
static const tt_command *const commands[] = {
    &tt_cmd_summary,
    &tt_cmd_view,
    &tt_cmd_render,
    &tt_cmd_convert,
    &tt_cmd_report,
    &tt_cmd_query,
    &tt_cmd_diff,
    &tt_cmd_check,
    &tt_cmd_markers,
    &tt_cmd_merge_reports,
    NULL,
};

void tt_cli_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("tracetty: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void tt_cli_warn(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("tracetty: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int tt_cli_flush_stdout(const char *cmd)
{
    int e = errno;   /* of an earlier failed write, when there was one */
    if (fflush(stdout) != 0)
        e = errno;
    else if (!ferror(stdout))
        return 0;
    tt_cli_error("%s: cannot write the output: %s", cmd, strerror(e ? e : EIO));
    return -1;
}

void tt_cli_put_safe(FILE *f, const char *s)
{
    char buf[1024];
    size_t n = strlen(s);
    /* sanitize in slices so long strings are not cut */
    while (n > 0) {
        size_t take = n > 200 ? 200 : n;
        /* never split a UTF-8 sequence between slices */
        while (take < n && take > 0 && ((unsigned char)s[take] & 0xc0) == 0x80)
            take--;
        if (take == 0)
            take = n > 200 ? 200 : n;
        tt_text_sanitize(s, take, buf, sizeof buf);
        fputs(buf, f);
        s += take;
        n -= take;
    }
}

static void on_fatal_signal(int sig)
{
    tt_atomic_signal_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

void tt_cli_catch_fatal_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        /* a signal the shell told us to ignore (^C for a background job)
         * stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

int tt_cli_load_option(int opt, const char *arg, tt_cli_load *lo)
{
    switch (opt) {
    case TT_OPT_LENIENT: lo->lenient = true; return 1;
    case TT_OPT_QUIET: lo->quiet = true; return 1;
    case TT_OPT_FORMAT_IN: lo->format = arg; return 1;
    case TT_OPT_CSV_MAP: lo->csv_map = arg; return 1;
    case TT_OPT_CACHE: lo->cache = true; return 1;
    case TT_OPT_METRICS: lo->metrics = arg; return 1;
    /* process-wide: the load path marks its phases, tt_cli_main prints */
    case TT_OPT_TIMINGS: tt_timings_enable(); return 1;
    default: return 0;
    }
}

/* Warn about malformed rows --lenient skipped in a CSV table (without it
 * the first one is an error; every event a CSV decoder skips is one). */
static void warn_skipped_rows(const char *safe_path, const tt_trace *tr)
{
    const tt_problem *p = &tr->problems[TT_PROB_BAD_EVENT];
    char first[4 * sizeof p->example];
    if (!p->count || (strcmp(tr->format, tt_decoder_ascend_csv.name) != 0 &&
                      strcmp(tr->format, tt_decoder_nsys_csv.name) != 0 &&
                      strcmp(tr->format, tt_decoder_csv.name) != 0))
        return;
    tt_cli_warn("%s: --lenient: skipped %llu malformed row%s (first: %s)", safe_path,
                (unsigned long long)p->count, p->count == 1 ? "" : "s",
                tt_text_safe(p->example, first, sizeof first));
}

/* Say what --lenient dropped or skipped (info: NULL when the loader did not
 * count the bytes). Printed with --quiet too: --quiet is about the
 * progress line, and data left out must never go unsaid. */
static void warn_lenient(const char *safe_path, const tt_trace *tr, const tt_load_info *info,
                         const tt_cli_load *lo)
{
    const tt_problem *tail = &tr->problems[TT_PROB_DROPPED_TAIL];
    if (tail->count) {
        char what[4 * sizeof tail->example];
        unsigned long long n = (unsigned long long)tr->n_events;
        if (info && info->dropped_bytes > 0)
            tt_cli_warn("%s: incomplete trace: dropped %lld bytes (about %llu event%s) after the "
                        "last complete event; loaded %llu event%s",
                        safe_path, (long long)info->dropped_bytes,
                        (unsigned long long)info->dropped_events,
                        info->dropped_events == 1 ? "" : "s", n, n == 1 ? "" : "s");
        else
            tt_cli_warn("%s: incomplete trace (%s); loaded %llu event%s", safe_path,
                        tt_text_safe(tail->example, what, sizeof what), n, n == 1 ? "" : "s");
    }
    if (lo && lo->lenient)
        warn_skipped_rows(safe_path, tr);
}

tt_trace *tt_cli_load_trace(const char *path, const tt_cli_load *lo)
{
    tt_load_opts opts;
    tt_load_info info;
    tt_progress prog;
    tt_error err;
    tt_trace *tr = NULL;
    tt_cache_entry *ce = NULL;
    char msg[700], safe_path[512];

    tt_text_sanitize(path, strlen(path), safe_path, sizeof safe_path);
    memset(&opts, 0, sizeof opts);
    memset(&info, 0, sizeof info);
    opts.lenient = lo && lo->lenient;
    opts.format = lo ? lo->format : NULL;
    opts.csv_map = lo ? lo->csv_map : NULL;
    /* the join reads every kernel and its arguments */
    opts.skip = lo && !lo->metrics ? lo->skip : 0;
    opts.part = lo && !lo->metrics ? lo->part : NULL;
    if (lo && lo->cache) {
        /* --cache: a valid snapshot of this very file and these options
         * replaces the decode; anything stale or corrupt is rebuilt */
        int pr;
        ce = malloc(sizeof *ce);
        tt_error_clear(&err);
        pr = ce ? tt_cache_prepare(path, &opts, ce, &err) : -1;
        if (pr == 0) {
            tt_error why;
            if (tt_cache_load_part(ce, opts.skip, opts.part, &tr, &why)) {
                free(tr->source);
                tr->source = strdup(path);
                free(ce);
                if (!tr->source) {
                    tt_trace_free(tr);
                    tt_cli_error("out of memory");
                    return NULL;
                }
                goto loaded;
            }
        } else {
            if (pr < 0 && !lo->quiet) {
                tt_error_format(&err, NULL, msg, sizeof msg);
                tt_cli_warn("%s: --cache: %s; loading without the cache", safe_path,
                            ce ? msg : "out of memory");
            }
            free(ce);
            ce = NULL;
        }
    }
    tt_progress_init(&prog, safe_path, lo && lo->quiet);
    opts.progress = tt_progress_update;
    opts.progress_ctx = &prog;
    tt_error_clear(&err);
    if (tt_load(path, &opts, &tr, &info, &err)) {
        tt_progress_done(&prog);
        tt_error_format(&err, safe_path, msg, sizeof msg);
        tt_cli_error("%s", msg);
        free(ce);
        return NULL;
    }
    tt_progress_done(&prog);
    /* a trace that lacks parts (a .ttz opened for a command that skips
     * them) is a snapshot already: nothing to cache */
    if (ce && !tr->lacks) {
        tt_error_clear(&err);
        if (tt_cache_store(ce, tr, &err) && !lo->quiet) {
            tt_error_format(&err, NULL, msg, sizeof msg);
            tt_cli_warn("%s: --cache: %s", safe_path, msg);
        }
    }
    free(ce);
loaded:
    warn_lenient(safe_path, tr, &info, lo);
    if (tt_cli_metrics_attach(tr, safe_path, lo)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* One progress line over loads in several batches: "loading 12 of 64
 * traces done, ...". Each batch erases the line when it has loaded
 * (before any message), so there is nothing to close. */
typedef struct job_progress {
    tt_progress prog;
    size_t      done, total;           /* traces loaded by earlier batches; in all */
    int64_t     bytes, batch_bytes;    /* of earlier batches; of this one */
    uint64_t    events, batch_events;
} job_progress;

static void job_progress_init(job_progress *j, size_t total, const tt_cli_load *lo)
{
    char label[64];
    memset(j, 0, sizeof *j);
    j->total = total;
    snprintf(label, sizeof label, "%zu traces", total);
    tt_progress_init(&j->prog, label, lo && lo->quiet);
}

/* tt_rankset_progress_fn of one batch: counts on the job's line */
static void job_files(void *ctx, size_t done, size_t total, int64_t bytes, uint64_t events)
{
    job_progress *j = ctx;
    (void)total;
    j->batch_bytes = bytes;
    j->batch_events = events;
    tt_progress_files(&j->prog, j->done + done, j->total, j->bytes + bytes, j->events + events);
}

static int load_batch(char *const *paths, size_t n, const tt_cli_load *lo, tt_trace **out,
                      job_progress *job);

int tt_cli_load_many(char *const *paths, size_t n, const tt_cli_load *lo, tt_trace **out)
{
    return load_batch(paths, n, lo, out, NULL);
}

/* The load options of every trace of a batch or stream. */
static void batch_load_opts(tt_load_opts *opts, const tt_cli_load *lo)
{
    memset(opts, 0, sizeof *opts);
    opts->lenient = lo && lo->lenient;
    opts->format = lo ? lo->format : NULL;
    opts->csv_map = lo ? lo->csv_map : NULL;
    opts->skip = lo && !lo->metrics ? lo->skip : 0;
    opts->part = lo && !lo->metrics ? lo->part : NULL;
}

/* tt_cli_each_trace's hand-over (tt_load_each_fn): say a failed load or
 * the lenient note, then the caller's fn; the progress line is erased
 * first (the loading threads redraw it). */
typedef struct each_ctx {
    char *const       *paths;
    const tt_cli_load *lo;
    job_progress       jp;
    pthread_mutex_t    lock;   /* the progress line: loading threads and this one */
    tt_cli_trace_fn    fn;
    void              *ctx;
} each_ctx;

static void each_progress(void *ctx, size_t done, size_t total, int64_t bytes, uint64_t events)
{
    each_ctx *ec = ctx;
    pthread_mutex_lock(&ec->lock);
    job_files(&ec->jp, done, total, bytes, events);
    pthread_mutex_unlock(&ec->lock);
}

static int each_one(void *ctx, size_t i, tt_trace *tr, const tt_error *err)
{
    each_ctx *ec = ctx;
    char safe[512], msg[800];
    int rc;
    if (!tr || tr->problems[TT_PROB_DROPPED_TAIL].count || (ec->lo && ec->lo->lenient)) {
        pthread_mutex_lock(&ec->lock);
        tt_progress_done(&ec->jp.prog);
        tt_text_safe(ec->paths[i], safe, sizeof safe);
        if (!tr)
            tt_cli_error("%s", tt_error_format(err, safe, msg, sizeof msg));
        else
            warn_lenient(safe, tr, NULL, ec->lo);
        pthread_mutex_unlock(&ec->lock);
        if (!tr)
            return -1;
    }
    if (ec->lo && ec->lo->metrics) {
        pthread_mutex_lock(&ec->lock);
        tt_progress_done(&ec->jp.prog);
        tt_text_safe(ec->paths[i], safe, sizeof safe);
        rc = tt_cli_metrics_attach(tr, safe, ec->lo);
        pthread_mutex_unlock(&ec->lock);
        if (rc) {
            tt_trace_free(tr);
            return -1;
        }
    }
    rc = ec->fn(ec->ctx, i, tr);
    tt_trace_free(tr);
    return rc;
}

int tt_cli_each_trace(char *const *paths, size_t n, const tt_cli_load *lo, tt_cli_trace_fn fn,
                      void *ctx)
{
    unsigned cores = tt_parallel_cores();
    size_t per = cores > 64 ? 64 : (size_t)cores;
    tt_load_opts opts;
    tt_rankset_opts ro;
    each_ctx ec;
    job_progress jp;
    int rc = 0;
    if (n > 1 && !(lo && lo->cache)) {
        /* streamed: the cores go on loading the next ranks while fn
         * works on this one; a trace per core loading, and the one fn
         * has, in memory */
        batch_load_opts(&opts, lo);
        memset(&ec, 0, sizeof ec);
        ec.paths = paths;
        ec.lo = lo;
        ec.fn = fn;
        ec.ctx = ctx;
        job_progress_init(&ec.jp, n, lo);
        pthread_mutex_init(&ec.lock, NULL);
        memset(&ro, 0, sizeof ro);
        ro.load = &opts;
        ro.progress = each_progress;
        ro.progress_ctx = &ec;
        rc = tt_load_each(paths, n, &ro, per + 1, each_one, &ec) ? -1 : 0;
        tt_progress_done(&ec.jp.prog);
        pthread_mutex_destroy(&ec.lock);
        return rc;
    }
    job_progress_init(&jp, n, lo);
    for (size_t b = 0; b < n && rc == 0; b += per) {
        size_t nb = n - b < per ? n - b : per;
        tt_trace *batch[64];
        if (load_batch(paths + b, nb, lo, batch, &jp))
            return -1;
        for (size_t k = 0; k < nb; k++) {
            if (rc == 0 && fn(ctx, b + k, batch[k]))
                rc = -1;
            tt_trace_free(batch[k]);
        }
    }
    return rc;
}

static int load_batch(char *const *paths, size_t n, const tt_cli_load *lo, tt_trace **out,
                      job_progress *job)
{
    tt_load_opts opts;
    tt_rankset_opts ro;
    job_progress own;
    tt_error *errs;
    int rc = 0;

    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    if ((n == 1 && !job) || (lo && lo->cache)) {
        for (size_t i = 0; i < n; i++)
            if (!(out[i] = tt_cli_load_trace(paths[i], lo))) {
                for (size_t k = 0; k < i; k++) {
                    tt_trace_free(out[k]);
                    out[k] = NULL;
                }
                return -1;
            }
        return 0;
    }
    errs = calloc(n, sizeof *errs);
    if (!errs) {
        tt_cli_error("out of memory");
        return -1;
    }
    batch_load_opts(&opts, lo);
    if (!job) {
        job_progress_init(&own, n, lo);
        job = &own;
    }
    memset(&ro, 0, sizeof ro);
    ro.load = &opts;
    ro.progress = job_files;
    ro.progress_ctx = job;
    if (tt_load_parallel(paths, n, &ro, out, errs))
        rc = -1;
    /* erased before any message; the next batch redraws it */
    tt_progress_done(&job->prog);
    job->done += n;
    job->bytes += job->batch_bytes;
    job->events += job->batch_events;
    job->batch_bytes = 0;
    job->batch_events = 0;
    for (size_t i = 0; i < n; i++) {
        char safe[512], msg[800];
        tt_text_safe(paths[i], safe, sizeof safe);
        if (errs[i].code != TT_OK) {
            tt_cli_error("%s", tt_error_format(&errs[i], safe, msg, sizeof msg));
        } else if (out[i]) {
            warn_lenient(safe, out[i], NULL, lo);
            if (!rc && tt_cli_metrics_attach(out[i], safe, lo))
                rc = -1;
        }
    }
    free(errs);
    if (rc)
        for (size_t i = 0; i < n; i++) {
            tt_trace_free(out[i]);
            out[i] = NULL;
        }
    return rc;
}

char **tt_cli_expand(char *const *paths, size_t n, size_t *n_files)
{
    char **files = NULL;
    tt_error err;
    tt_error_clear(&err);
    if (tt_rankset_expand((const char *const *)paths, n, &files, n_files, &err)) {
        char safe[600];
        tt_cli_error("%s", tt_text_safe(err.what, safe, sizeof safe));
        return NULL;
    }
    return files;
}

void tt_cli_work_error(const char *cmd, const tt_trace *const *traces, size_t n,
                       const tt_error *err)
{
    char safe[300];
    for (size_t i = 0; i < n; i++) {
        tt_error why;
        if (traces[i] && tt_args_error(traces[i]->args, &why) && why.offset == err->offset &&
            strcmp(why.what, err->what) == 0) {
            tt_cli_error("%s: %s: %s", cmd,
                         tt_text_safe(traces[i]->source ? traces[i]->source : "-", safe,
                                      sizeof safe),
                         err->what);
            return;
        }
    }
    tt_cli_error("%s: %s", cmd, err->what);
}

int tt_cli_rules_option(const char *cmd, const char *name, const char *arg,
                             tt_rules_config *cfg)
{
    tt_error err;
    tt_error_clear(&err);
    if (strcmp(name, "rules") == 0) {
        if (tt_rules_config_load(cfg, arg, &err)) {
            char msg[600], safe[300];
            tt_text_safe(arg, safe, sizeof safe);
            tt_cli_error("%s: %s", cmd, tt_error_format(&err, safe, msg, sizeof msg));
            return -1;
        }
        return 1;
    }
    if (strcmp(name, "set") == 0) {
        if (tt_rules_config_set(cfg, arg, &err)) {
            tt_cli_error("%s: --set %s", cmd, err.what);
            return -1;
        }
        return 1;
    }
    if (strcmp(name, "enable") == 0 || strcmp(name, "disable") == 0) {
        if (tt_rules_config_enable(cfg, arg, name[0] == 'e', &err)) {
            tt_cli_error("%s: %s", cmd, err.what);
            return -1;
        }
        return 1;
    }
    return 0;
}

static int file_exists(const char *p)
{
    return access(p, R_OK) == 0;
}

const char *tt_cli_demo_path(void)
{
    static char path[PATH_MAX + 32];
    char exe[PATH_MAX];
    ssize_t n;
    const char *env = getenv("TRACETTY_DEMO");
    if (env && *env)
        return env;
    /* In a build tree the program sits next to samples/. */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/samples/demo.json", exe);
            if (file_exists(path))
                return path;
        }
    }
    snprintf(path, sizeof path, "%s/samples/demo.json", TT_SRCDIR);
    if (file_exists(path))
        return path;
    snprintf(path, sizeof path, "%s/demo.json", TT_PKGDATADIR);
    if (file_exists(path))
        return path;
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tracetty [TRACE|DIR...]\n"
               "       tracetty COMMAND [OPTIONS] ...\n"
               "       tracetty --help | -h | --version | -V\n"
               "\n"
               "Terminal trace analyzer for ML accelerator profiles.\n"
               "With a TRACE (default: the bundled demo) and a terminal, browse its timeline\n"
               "(several traces or a directory: the ranks of one job); when stdin or stdout\n"
               "is not a terminal, print the summary. A directory may be a profiler's output:\n"
               "Ascend *_ascend_pt/ or *_ascend_ms/ rank trees (trace_view.json, rank from\n"
               "profiler_info), tensorboard_trace_handler captures (a worker's captures are\n"
               "one rank) or nsys exports name_N.sqlite (rank N).\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; commands[i]; i++)
        fprintf(f, "  %-14s %s\n", commands[i]->name, commands[i]->help);
    fprintf(f, "\n"
               "Options for commands that read traces:\n"
               "  --lenient            load the complete events of a cut-off trace\n"
               "  --quiet              no progress line or notes on stderr\n"
               "  --input-format NAME  skip detection (chrome-json, neuron-json, ascend-csv,\n"
               "                       nsys-csv, csv, hugectr-json, nsys-sqlite, ttz,\n"
               "                       mindspore-step-trace)\n"
               "  --csv-map MAP        columns of a CSV: start=COL,dur=COL|end=COL,name=COL,...\n"
               "  --cache              reuse a snapshot under $XDG_CACHE_HOME/tracetty\n"
               "  --timings            after the command, wall and CPU time of each phase\n"
               "                       (decode, finalize, the command's work) on stderr\n"
               "  --metrics NCU.csv    join Nsight Compute (ncu --csv) metrics to the kernels:\n"
               "                       details panel, report --kind kernels, check (not\n"
               "                       convert or diff)\n"
               "\n"
               "Input may be plain, gzip or zstd compressed, or - for stdin.\n"
               "Run 'tracetty help COMMAND' for a command's usage; 'man tracetty' for all.\n"
               "Exit status: 0 success, 1 check findings, 2 error.\n");
}

static const tt_command *find_command(const char *name)
{
    for (size_t i = 0; commands[i]; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

/* The command a mistyped name is close to ("summry" -> "summary"), or
 * NULL. `help` counts as a command here. */
static const char *close_command(const char *name)
{
    tt_suggest s;
    tt_suggest_init(&s, name);
    for (size_t i = 0; commands[i]; i++)
        tt_suggest_offer(&s, commands[i]->name);
    tt_suggest_offer(&s, "help");
    return tt_suggest_best(&s);
}

/* "unknown command 'summry' (did you mean summary?)" when name is no
 * command but close to one; 0 when it is not close to any. */
static int unknown_command(const char *name)
{
    const char *close = close_command(name);
    char safe[300];
    if (!close)
        return 0;
    tt_cli_error("unknown command '%s' (did you mean %s?); see 'tracetty --help'",
                 tt_text_safe(name, safe, sizeof safe), close);
    return 1;
}

/* A command, and its phase times when it was given --timings (which only
 * its option parsing can tell: the mark is taken either way). */
static int run_command(const tt_command *cmd, int argc, char **argv)
{
    tt_phase_mark start;
    int rc;
    tt_timings_run_start(&start);
    rc = cmd->exec(argc, argv);
    if (tt_timings_enabled()) {
        fflush(stdout);
        tt_timings_print(stderr, &start);
    }
    return rc;
}

int tt_cli_main(int argc, char **argv)
{
    const tt_command *cmd;
    const char *cs;

    setlocale(LC_ALL, "");
    cs = nl_langinfo(CODESET);
    tt_text_set_utf8(cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0));
    /* Numbers in reports must not depend on the user's locale. */
    setlocale(LC_NUMERIC, "C");

    if (argc >= 2) {
        const char *a = argv[1];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return TT_EXIT_OK;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("tracetty %s\n", PACKAGE_VERSION);
            return TT_EXIT_OK;
        }
        if (strcmp(a, "help") == 0) {
            if (argc >= 3 && (cmd = find_command(argv[2]))) {
                /* the same page as `tracetty COMMAND --help`, which the
                 * usage errors point to as 'tracetty help COMMAND' */
                char *help_argv[] = {argv[2], (char *)"--help", NULL};
                return run_command(cmd, 2, help_argv);
            }
            if (argc >= 3 && unknown_command(argv[2]))
                return TT_EXIT_ERROR;
            usage(stdout);
            return argc >= 3 ? TT_EXIT_ERROR : TT_EXIT_OK;
        }
        if ((cmd = find_command(a)))
            return run_command(cmd, argc - 1, argv + 1);
        /* a typo of a command is not a file name to open; an existing
         * path always wins (a trace may be called "summry") */
        {
            struct stat st;
            if (a[0] != '-' && stat(a, &st) != 0 && unknown_command(a))
                return TT_EXIT_ERROR;
        }
        if (a[0] == '-' && a[1] != '\0') {
            tt_cli_error("unknown option '%s' (see 'tracetty --help')", a);
            return TT_EXIT_ERROR;
        }
    }
    /* tracetty [TRACE...]: browse on a terminal, else summarize */
    {
        const char *demo = NULL;
        char *args[3];
        if (argc < 2) {
            demo = tt_cli_demo_path();
            if (!demo) {
                tt_cli_error("the demo trace is not installed; give a trace file "
                             "(see 'tracetty --help')");
                return TT_EXIT_ERROR;
            }
        }
        /* a terminal on both ends: browse the trace (the demo), or the
         * traces as the ranks of one job */
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
            if (argc < 2) {
                args[0] = (char *)"view";
                args[1] = (char *)demo;
                args[2] = NULL;
                return tt_cmd_view.exec(2, args);
            }
            argv[0] = (char *)"view";
            return run_command(&tt_cmd_view, argc, argv);
        }
        if (argc < 2) {
            args[0] = (char *)"summary";
            args[1] = (char *)demo;
            args[2] = NULL;
            return tt_cmd_summary.exec(2, args);
        }
        argv[0] = (char *)"summary";
        return run_command(&tt_cmd_summary, argc, argv);
    }
}
