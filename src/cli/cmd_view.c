/* cmd_view.c - `tracetty view`: browse a trace's timeline in the terminal.
 *
 * Loads the trace (progress on stderr), then hands it to the terminal owner
 * (src/tui/term.c), which restores the terminal whatever happens. A session
 * ended by SIGINT, SIGTERM or SIGHUP dies of that signal once everything
 * is cleaned up, so shells and job schedulers see why it ended.
 *
 * The warning rules run when the view opens, configured as for `check`
 * (--rules FILE, --set, --enable, --disable; options apply in order);
 * --markers SET loads a saved marker set.
 */
#include "config.h"

#include "cli/cli.h"

#include "rules/rules.h"
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

enum {
    OPT_RULES = TT_OPT__NEXT,
    OPT_SET,
    OPT_ENABLE,
    OPT_DISABLE,
    OPT_MARKERS
};


static int view_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"rules", required_argument, NULL, OPT_RULES},
        {"set", required_argument, NULL, OPT_SET},
        {"enable", required_argument, NULL, OPT_ENABLE},
        {"disable", required_argument, NULL, OPT_DISABLE},
        {"markers", required_argument, NULL, OPT_MARKERS},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo;
    const char *path, *markers = NULL;
    tt_trace *tr;
    tt_app_opts ao;
    tt_rules_config cfg;
    tt_error err;
    int opt, sig = 0, rc, li;

    memset(&lo, 0, sizeof lo);
    tt_rules_config_defaults(&cfg);
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", longopts, &li)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        if (opt >= OPT_RULES && opt <= OPT_DISABLE) {
            if (tt_cli_rules_option("view", longopts[li].name, optarg, &cfg) < 0)
                return TT_EXIT_ERROR;
            continue;
        }
        if (opt == OPT_MARKERS) {
            markers = optarg;
            continue;
        }
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
    ao.path = path;
    ao.rules = &cfg;
    ao.markers = markers;
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
    "view [--rules FILE] [--set RULE.PARAM=VALUE]... [--enable RULE] [--disable RULE] "
    "[--markers SET] [LOAD-OPTIONS] [TRACE]",
    "browse the timeline in the terminal (keys: ? in the view)",
    view_exec,
};
