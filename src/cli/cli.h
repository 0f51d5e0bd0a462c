/* cli.h - the command-line front end.
 *
 * Table-driven like tmux: each command is one file exporting one
 * tt_command (name, usage, exec). The CLI is the only place (with the TUI)
 * that prints and chooses exit codes:
 *   0  success
 *   1  `check` found problems at the chosen severity
 *   2  usage error, unreadable or malformed input, failure to write output
 */
#ifndef TT_CLI_CLI_H
#define TT_CLI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "decode/decode.h"
#include "model/trace.h"

#define TT_EXIT_OK 0
#define TT_EXIT_FINDINGS 1
#define TT_EXIT_ERROR 2

typedef struct tt_command {
    const char *name;
    const char *usage;     /* "summary [--format text|json] TRACE..." */
    const char *help;      /* one line for `tracetty --help` */
    int (*exec)(int argc, char **argv);   /* argv[0] is the command name */
} tt_command;

/* Entry point called by main(). */
int tt_cli_main(int argc, char **argv);

/* Options every command that loads traces accepts. */
typedef struct tt_cli_load {
    bool        lenient;
    bool        quiet;
    const char *format;
    const char *csv_map;
    bool        cache;      /* reuse/write a snapshot under $XDG_CACHE_HOME/tracetty */
    unsigned    skip;       /* tt_load_opts.skip: parts the command never reads */
    const tt_load_part *part;   /* tt_load_opts.part: the events it reads, or NULL */
    const char *metrics;    /* --metrics: an ncu --csv file joined to each trace
                               (cli/metrics.h); then skip and part are ignored */
} tt_cli_load;

/* Load one trace, with a progress line on a terminal stderr, and print
 * "tracetty: FILE: line L, column C: what" on failure. Returns the trace or
 * NULL. A lenient load that dropped data says so on stderr. */
tt_trace *tt_cli_load_trace(const char *path, const tt_cli_load *lo);

/* Load several traces, in parallel on the available cores (sequentially
 * with --cache, which handles one file at a time), with one progress line.
 * Returns 0 with out[0..n) set, or -1 after printing why; out is then all
 * NULL. */
int tt_cli_load_many(char *const *paths, size_t n, const tt_cli_load *lo, tt_trace **out);

/* Each of n traces in turn, for reports that keep only a little of each:
 * loaded in parallel a few ahead (one per core, while fn works on the
 * one before; with --cache a batch at a time), with one progress line
 * for all, handed to fn in order as trace i, then freed (fn must not
 * keep it). Stops at the first load failure (printed) or when fn returns
 * non-zero, freeing the traces loaded beyond. Returns 0, or -1. */
typedef int (*tt_cli_trace_fn)(void *ctx, size_t i, const tt_trace *tr);
int tt_cli_each_trace(char *const *paths, size_t n, const tt_cli_load *lo, tt_cli_trace_fn fn,
                      void *ctx);

/* Expand directories into their trace files (multi/rankset.h). Returns a
 * malloc'd list (free with tt_rankset_free_files) or NULL after printing
 * why. */
char **tt_cli_expand(char *const *paths, size_t n, size_t *n_files);

struct tt_rules_config;

/* The warning-rule options of check, view and render, by long option name:
 * "rules" FILE, "set" RULE.PARAM=VALUE, "enable"/"disable" RULE. Applied
 * to cfg in the order given. Returns 1 when name was one of them, -1 after
 * printing an error (prefixed with cmd), 0 for any other option. */
int tt_cli_rules_option(const char *cmd, const char *name, const char *arg,
                        struct tt_rules_config *cfg);

/* Flush stdout; when that or an earlier write to it failed, print
 * "CMD: cannot write the output: REASON" once and return -1, else 0.
 * Call it right after the last write, while errno holds the reason. */
int tt_cli_flush_stdout(const char *cmd);

/* Print err, the error of a command's work over traces[0..n) (the rules),
 * as "CMD: WHAT"; when a trace's file gave it only when read (a
 * snapshot's arguments are rebuilt on first read: model/args.h), as
 * "CMD: FILE: WHAT". */
void tt_cli_work_error(const char *cmd, const tt_trace *const *traces, size_t n,
                       const tt_error *err);

/* "tracetty: " + message on stderr. */
void tt_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tt_cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Path of the bundled demo trace (build tree or installed data dir), or
 * NULL when none is found. */
const char *tt_cli_demo_path(void);

/* getopt_long option parsing shared by commands for the load options;
 * returns 1 when `opt` was one of them (and consumed it). */
int tt_cli_load_option(int opt, const char *arg, tt_cli_load *lo);

/* Option codes for the shared load options (use in long option tables). */
enum {
    TT_OPT_LENIENT = 1000,
    TT_OPT_QUIET,
    TT_OPT_FORMAT_IN,
    TT_OPT_CSV_MAP,
    TT_OPT_CACHE,
    TT_OPT_TIMINGS,
    TT_OPT_METRICS,
    TT_OPT__NEXT = 1100
};
#define TT_CLI_LOAD_LONGOPTS \
    {"lenient", no_argument, NULL, TT_OPT_LENIENT}, \
    {"quiet", no_argument, NULL, TT_OPT_QUIET}, \
    {"input-format", required_argument, NULL, TT_OPT_FORMAT_IN}, \
    {"csv-map", required_argument, NULL, TT_OPT_CSV_MAP}, \
    {"cache", no_argument, NULL, TT_OPT_CACHE}, \
    {"timings", no_argument, NULL, TT_OPT_TIMINGS}, \
    {"metrics", required_argument, NULL, TT_OPT_METRICS}

/* For a command writing with -o (io/atomic.h): SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE and SIGQUIT remove the temporary file before the process dies
 * (signals the shell ignores stay ignored). */
void tt_cli_catch_fatal_signals(void);

/* Write a sanitized copy of a trace string to f. */
void tt_cli_put_safe(FILE *f, const char *s);

/* Commands. */
extern const tt_command tt_cmd_summary;
extern const tt_command tt_cmd_view;
extern const tt_command tt_cmd_render;
extern const tt_command tt_cmd_convert;
extern const tt_command tt_cmd_report;
extern const tt_command tt_cmd_query;
extern const tt_command tt_cmd_diff;
extern const tt_command tt_cmd_check;
extern const tt_command tt_cmd_markers;
extern const tt_command tt_cmd_merge_reports;

#endif
