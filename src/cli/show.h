/* show.h - what `view` and `render` share: their timeline options
 * (--rules, --set, --enable, --disable, --markers, --align and the load
 * options) and opening what they show, one trace or several traces as the
 * ranks of a job.
 *
 * Several traces (files, or a directory standing for every trace in it)
 * are loaded in parallel with one progress line, ranked from their
 * metadata, file names or order, and their clocks aligned as --align says
 * (multi/rankset.h).
 *
 * Ownership: a tt_show owns the traces, rank table and file list it
 * opened until tt_show_fini; opts points into it.
 */
#ifndef TT_CLI_SHOW_H
#define TT_CLI_SHOW_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "multi/rankset.h"
#include "rules/rules.h"
#include "tui/app.h"

/* Option codes of the shared options (between the load options and
 * TT_OPT__NEXT, where each command's own codes start). */
enum {
    TT_OPT_RULES = 1050,
    TT_OPT_SET,
    TT_OPT_ENABLE,
    TT_OPT_DISABLE,
    TT_OPT_MARKERS,
    TT_OPT_ALIGN
};
#define TT_SHOW_LONGOPTS \
    {"rules", required_argument, NULL, TT_OPT_RULES}, \
    {"set", required_argument, NULL, TT_OPT_SET}, \
    {"enable", required_argument, NULL, TT_OPT_ENABLE}, \
    {"disable", required_argument, NULL, TT_OPT_DISABLE}, \
    {"markers", required_argument, NULL, TT_OPT_MARKERS}, \
    {"align", required_argument, NULL, TT_OPT_ALIGN}, \
    TT_CLI_LOAD_LONGOPTS

typedef struct tt_show {
    /* options */
    tt_cli_load     lo;
    tt_rules_config rules;
    const char     *markers;
    tt_align_spec   align;
    bool            align_given;
    /* opened */
    tt_app_opts     opts;       /* for tt_app_new / tt_term_run */
    const tt_trace *first;      /* the trace, or the first rank's */
    tt_trace       *tr;         /* one trace (owned) */
    tt_rankset      rs;         /* or the ranks (owned) */
    tt_app_rank    *ranks;
    tt_app_job      job;
    char          **files;      /* directories expanded (owned) */
    size_t          n_files;
    char            title[300], align_desc[300], align_opt[300];
} tt_show;

void tt_show_init(tt_show *s);

/* Take getopt_long's option opt (argument arg) when it is one of the
 * shared ones: 1 taken, 0 not one of them, -1 after printing an error
 * prefixed with cmd. */
int tt_show_option(tt_show *s, const char *cmd, int opt, const char *arg);

/* Load paths[0..n): one plain file as one trace, anything else (several
 * files, a directory) as a job. Fills s->opts and s->first. 0, or -1
 * after printing why. */
int tt_show_open(tt_show *s, const char *cmd, char *const *paths, size_t n);

void tt_show_fini(tt_show *s);

#endif
