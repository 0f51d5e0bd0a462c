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
 * view and a collectives view. tt_cli_load_job does that part for `view`
 * and `render` alike.
 *
 * The warning rules run when the view opens, configured as for `check`
 * (--rules FILE, --set, --enable, --disable; options apply in order);
 * --markers SET loads a saved marker set.
 */
#include "config.h"

#include "cli/cli.h"

#include "multi/rankset.h"
#include "rules/rules.h"
#include "tui/term.h"
#include "util/text.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    OPT_MARKERS,
    OPT_ALIGN
};

/* ------------------------------------------------------ several ranks */

static const char *source_name(tt_rank_source s)
{
    switch (s) {
    case TT_RANK_FROM_METADATA: return "metadata";
    case TT_RANK_FROM_NAME: return "file name";
    default: return "order";
    }
}

/* The --align value that gives the alignment applied. */
static void align_option(const tt_align_spec *a, tt_align_mode applied, char *buf, size_t n)
{
    switch (applied) {
    case TT_ALIGN_START:
        snprintf(buf, n, "start");
        break;
    case TT_ALIGN_EVENT:
        if (strcmp(a->event, "collective") == 0)
            snprintf(buf, n, "collective#%u", a->nth);
        else
            snprintf(buf, n, "event:%s#%u", a->event, a->nth);
        break;
    default:
        snprintf(buf, n, "absolute");
        break;
    }
}

int tt_cli_load_job(char *const *files, size_t n, const tt_cli_load *lo,
                    const tt_align_spec *align, tt_rankset *rs, char *desc, size_t desc_n,
                    char *opt, size_t opt_n)
{
    tt_trace **traces = calloc(n ? n : 1, sizeof *traces);
    tt_align_spec none;
    tt_error err;
    char safe[700];
    tt_rankset_init(rs);
    if (!traces) {
        tt_cli_error("out of memory");
        return -1;
    }
    if (tt_cli_load_many(files, n, lo, traces)) {
        free(traces);
        return -1;
    }
    tt_error_clear(&err);
    if (tt_rankset_adopt(rs, files, traces, n, &err)) {
        free(traces);
        tt_cli_error("%s", tt_text_safe(err.what, safe, sizeof safe));
        return -1;
    }
    free(traces);
    if (!align) {
        memset(&none, 0, sizeof none);
        none.mode = TT_ALIGN_AUTO;
        align = &none;
    }
    if (tt_rankset_align(rs, align, &err)) {
        tt_cli_error("--align: %s", tt_text_safe(err.what, safe, sizeof safe));
        tt_rankset_fini(rs);
        return -1;
    }
    tt_align_describe(align, rs->aligned, desc, desc_n);
    align_option(align, rs->aligned, opt, opt_n);
    return 0;
}

int tt_cli_view_ranks(const tt_rankset *rs, tt_app_rank *out)
{
    for (size_t i = 0; i < rs->n; i++) {
        out[i].tr = rs->r[i].trace;
        out[i].path = rs->r[i].path;
        out[i].rank = rs->r[i].rank;
        out[i].offset = rs->r[i].offset;
        out[i].source = source_name(rs->r[i].source);
    }
    return 0;
}

int tt_cli_view_inputs(char *const *paths, size_t n, char ***files, size_t *n_files)
{
    struct stat st;
    /* one file is loaded as it always was; anything else is a job */
    if (n == 1 && !(strcmp(paths[0], "-") != 0 && stat(paths[0], &st) == 0 &&
                    S_ISDIR(st.st_mode))) {
        *files = NULL;
        *n_files = 1;
        return 0;
    }
    if (!(*files = tt_cli_expand(paths, n, n_files)))
        return -1;
    return 0;
}

void tt_cli_view_title(char *const *paths, size_t n, size_t n_files, char *buf, size_t cap)
{
    if (n == 1) {
        /* a directory: its name, without the trailing slashes */
        char p[4096];
        size_t len;
        snprintf(p, sizeof p, "%s", paths[0]);
        len = strlen(p);
        while (len > 1 && p[len - 1] == '/')
            p[--len] = '\0';
        snprintf(buf, cap, "%s", base_name(p));
    } else {
        snprintf(buf, cap, "%zu files", n_files);
    }
}

/* ---------------------------------------------------------------- view */

static int view_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"rules", required_argument, NULL, OPT_RULES},
        {"set", required_argument, NULL, OPT_SET},
        {"enable", required_argument, NULL, OPT_ENABLE},
        {"disable", required_argument, NULL, OPT_DISABLE},
        {"markers", required_argument, NULL, OPT_MARKERS},
        {"align", required_argument, NULL, OPT_ALIGN},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo;
    const char *markers = NULL, *demo;
    char *const *paths;
    size_t n_paths, n_files = 0;
    char **files = NULL;
    tt_trace *tr = NULL;
    tt_rankset rs;
    tt_app_rank *ranks = NULL;
    tt_app_job job;
    tt_app_opts ao;
    tt_rules_config cfg;
    tt_align_spec align;
    bool align_given = false;
    char title[300], desc[300], opt_s[300];
    tt_error err;
    int opt, sig = 0, rc, li, status = TT_EXIT_OK;

    memset(&lo, 0, sizeof lo);
    memset(&align, 0, sizeof align);
    tt_rankset_init(&rs);
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
        if (opt == OPT_ALIGN) {
            char safe[600];
            tt_error_clear(&err);
            if (tt_align_parse(optarg, &align, &err)) {
                tt_cli_error("view: --align: %s", tt_text_safe(err.what, safe, sizeof safe));
                return TT_EXIT_ERROR;
            }
            align_given = true;
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
    if (argc - optind >= 1) {
        paths = argv + optind;
        n_paths = (size_t)(argc - optind);
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
    if (tt_cli_view_inputs(paths, n_paths, &files, &n_files))
        return TT_EXIT_ERROR;
    if (align_given && n_files < 2) {
        tt_rankset_free_files(files, files ? n_files : 0);
        tt_cli_error("view: --align lines up several traces (a directory or several files)");
        return TT_EXIT_ERROR;
    }
    memset(&ao, 0, sizeof ao);
    ao.utf8 = tt_text_utf8();
    ao.rules = &cfg;
    ao.markers = markers;
    if (n_files == 1) {
        const char *path = files ? files[0] : paths[0];
        tr = tt_cli_load_trace(path, &lo);
        if (!tr) {
            status = TT_EXIT_ERROR;
            goto out;
        }
        ao.title = base_name(path);
        ao.path = path;
    } else {
        if (tt_cli_load_job(files, n_files, &lo, align_given ? &align : NULL, &rs, desc,
                            sizeof desc, opt_s, sizeof opt_s)) {
            status = TT_EXIT_ERROR;
            goto out;
        }
        ranks = calloc(rs.n, sizeof *ranks);
        if (!ranks) {
            tt_cli_error("out of memory");
            status = TT_EXIT_ERROR;
            goto out;
        }
        tt_cli_view_ranks(&rs, ranks);
        job.r = ranks;
        job.n = rs.n;
        job.align = desc;
        job.align_opt = opt_s;
        tt_cli_view_title(paths, n_paths, n_files, title, sizeof title);
        ao.title = title;
        ao.job = &job;
        tr = rs.r[0].trace;
    }
    tt_error_clear(&err);
    rc = tt_term_run(tr, &ao, &sig, &err);
    if (rc) {
        tt_cli_error("%s", err.what);
        status = TT_EXIT_ERROR;
    }
out:
    if (rs.n)
        tt_rankset_fini(&rs);
    else
        tt_trace_free(tr);
    free(ranks);
    tt_rankset_free_files(files, files ? n_files : 0);
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
    "[--markers SET] [--align MODE] [LOAD-OPTIONS] [TRACE... | DIR]",
    "browse the timeline in the terminal, one trace or the ranks of a job (keys: ? in the view)",
    view_exec,
};
