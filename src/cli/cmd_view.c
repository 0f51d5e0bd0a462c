/* cmd_view.c - `tracetty view`: browse a trace's timeline in the terminal.
 *
 * Loads the trace (progress on stderr), then hands it to the terminal owner
 * (src/tui/term.c), which restores the terminal whatever happens. A session
 * ended by SIGINT, SIGTERM or SIGHUP dies of that signal once everything
 * is cleaned up, so shells and job schedulers see why it ended.
 */
#include "config.h"

#include "cli/cli.h"

#include "tui/term.h"
#include "util/text.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    if (strcmp(path, "-") == 0)
        return "(stdin)";
    return s && s[1] ? s + 1 : path;
}

static int view_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo;
    const char *path;
    tt_trace *tr;
    tt_app_opts ao;
    tt_error err;
    int opt, sig = 0, rc;

    memset(&lo, 0, sizeof lo);
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        if (opt == 'h') {
            printf("usage: tracetty %s\n", tt_cmd_view.usage);
            return TT_EXIT_OK;
        }
        tt_cli_error("view: unknown or incomplete option '%s' (see 'tracetty help view')",
                     argv[optind - 1]);
        return TT_EXIT_ERROR;
    }
    if (argc - optind > 1) {
        tt_cli_error("view: give one TRACE (usage: tracetty %s)", tt_cmd_view.usage);
        return TT_EXIT_ERROR;
    }
    if (argc - optind == 1) {
        path = argv[optind];
    } else if (!(path = tt_cli_demo_path())) {
        tt_cli_error("the demo trace is not installed; give a trace file");
        return TT_EXIT_ERROR;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        tt_cli_error("view needs a terminal on stdin and stdout; 'tracetty render' prints "
                     "the screen as text");
        return TT_EXIT_ERROR;
    }
    if (strcmp(path, "-") == 0) {
        tt_cli_error("view reads keys from stdin, so the trace cannot come from stdin");
        return TT_EXIT_ERROR;
    }
    tr = tt_cli_load_trace(path, &lo);
    if (!tr)
        return TT_EXIT_ERROR;
    memset(&ao, 0, sizeof ao);
    ao.title = base_name(path);
    ao.utf8 = tt_text_utf8();
    tt_error_clear(&err);
    rc = tt_term_run(tr, &ao, &sig, &err);
    tt_trace_free(tr);
    if (rc) {
        tt_cli_error("%s", err.what);
        return TT_EXIT_ERROR;
    }
    if (sig) {
        /* die of the signal that ended the session, now that the terminal
         * is back to normal */
        fflush(stdout);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return TT_EXIT_OK;
}

const tt_command tt_cmd_view = {
    "view",
    "view [LOAD-OPTIONS] [TRACE]",
    "browse the timeline in the terminal (keys: ? in the view)",
    view_exec,
};
