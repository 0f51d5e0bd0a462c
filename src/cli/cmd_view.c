/* cmd_view.c - `tracetty view`: browse a trace's timeline in the terminal.
 *
 * Loads the trace (progress on stderr), then hands it to the terminal owner
 * (src/tui/term.c), which restores the terminal whatever happens. A session
 * ended by SIGINT, SIGTERM or SIGHUP dies of that signal once everything
 * is cleaned up, so shells and job schedulers see why it ended.
 *
 * Several traces (files, or a directory standing for every trace in it)
 * are the ranks of one job: loaded in parallel with one progress line,
 * ranked from their metadata, file names or order, their clocks aligned
 * as --align says (multi/rankset.h), and shown as rank tabs, a combined
 * view and a collectives view. cli/show.c opens them for `view` and
 * `render` alike.
 *
 * The warning rules run when the view opens, configured as for `check`
 * (--rules FILE, --set, --enable, --disable; options apply in order);
 * --markers SET loads a saved marker set. With --compare, two traces A and
 * B are the compare view instead (cli/compare.h, tui/cmpview.h).
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/opts.h"
#include "cli/show.h"

#include "tui/term.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { OPT_COMPARE = TT_OPT__NEXT };

static int view_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"compare", no_argument, NULL, OPT_COMPARE},
        TT_SHOW_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_show show;
    const char *demo;
    char *const *paths;
    size_t n_paths;
    tt_error err;
    int opt, sig = 0, taken, status = TT_EXIT_OK;
    bool compare = false;
    tt_cli_opts op;
    tt_compare cmp;

    tt_show_init(&show);
    tt_compare_init(&cmp);
    tt_cli_opts_init(&op, &tt_cmd_view, argc, argv, "h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if ((taken = tt_show_option(&show, "view", opt, optarg)) != 0) {
            if (taken < 0)
                return TT_EXIT_ERROR;
            continue;
        }
        if (opt == OPT_COMPARE) {
            compare = true;
            continue;
        }
        if (opt == 'h') {
            printf("usage: tracetty %s\n", tt_cmd_view.usage);
            return TT_EXIT_OK;
        }
        /* tt_cli_opts_next said why */
        return TT_EXIT_ERROR;
    }
    if (op.n_operands >= 1) {
        paths = op.operands;
        n_paths = op.n_operands;
    } else if ((demo = tt_cli_demo_path())) {
        static char *demo_arg[1];
        demo_arg[0] = (char *)demo;
        paths = demo_arg;
        n_paths = 1;
    } else {
        tt_cli_error("the demo trace is not installed; give a trace file");
        return TT_EXIT_ERROR;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        tt_cli_error("view needs a terminal on stdin and stdout; 'tracetty render' prints "
                     "the screen as text");
        return TT_EXIT_ERROR;
    }
    for (size_t i = 0; i < n_paths; i++)
        if (strcmp(paths[i], "-") == 0) {
            tt_cli_error("view reads keys from stdin, so the trace cannot come from stdin");
            return TT_EXIT_ERROR;
        }
    if (compare) {
        if (tt_compare_open(&cmp, "view", &show, paths, n_paths)) {
            status = TT_EXIT_ERROR;
        } else {
            tt_error_clear(&err);
            if (tt_compare_view_run(&cmp.side[0], &cmp.side[1], &cmp.opts, &sig, &err)) {
                tt_cli_error("%s", err.what);
                status = TT_EXIT_ERROR;
            }
        }
    } else if (tt_show_open(&show, "view", paths, n_paths)) {
        status = TT_EXIT_ERROR;
    } else {
        tt_error_clear(&err);
        if (tt_term_run(show.first, &show.opts, &sig, &err)) {
            tt_cli_error("%s", err.what);
            status = TT_EXIT_ERROR;
        }
    }
    tt_compare_fini(&cmp);
    tt_show_fini(&show);
    if (status == TT_EXIT_OK && sig) {
        /* die of the signal that ended the session, now that the terminal
         * is back to normal */
        fflush(stdout);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return status;
}

const tt_command tt_cmd_view = {
    "view",
    "view [--rules FILE] [--set RULE.PARAM=VALUE]... [--enable RULE] [--disable RULE] "
    "[--markers SET] [--align MODE] [LOAD-OPTIONS] [TRACE... | DIR | --compare A B]",
    "browse the timeline in the terminal, one trace or the ranks of a job (keys: ? in the view)",
    view_exec,
};
