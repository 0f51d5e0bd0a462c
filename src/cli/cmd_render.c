/* cmd_render.c - `tracetty render`: the screen the timeline would show,
 * without a terminal.
 *
 * The same application code as `tracetty view` (src/tui/app.h) replays the
 * --keys events on a virtual screen of --size and the resulting cell grid is
 * printed as text, or with ANSI colors. For tests, CI logs and pasting a
 * view into an issue. The warning rules and --markers are those of `view`;
 * keys that save marker sets or write a box's tables do so, as in the view.
 * Several traces (or a directory) are the ranks of a job, loaded and
 * aligned (--align) as `view` does it.
 */
#include "config.h"

#include "cli/cli.h"

#include "multi/rankset.h"
#include "rules/rules.h"
#include "tui/app.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/text.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_SIZE = TT_OPT__NEXT,
    OPT_KEYS,
    OPT_ANSI,
    OPT_RULES,
    OPT_SET,
    OPT_ENABLE,
    OPT_DISABLE,
    OPT_MARKERS,
    OPT_ALIGN
};

/* "COLSxROWS" */
static int parse_size(const char *s, int *cols, int *rows)
{
    char *end;
    long c, r;
    c = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return -1;
    s = end + 1;
    r = strtol(s, &end, 10);
    if (end == s || *end)
        return -1;
    if (c < 1 || r < 1 || c > 10000 || r > 10000)
        return -1;
    *cols = (int)c;
    *rows = (int)r;
    return 0;
}

/* The file name without its directories, for the header (never a path). */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    if (strcmp(path, "-") == 0)
        return "(stdin)";
    return s && s[1] ? s + 1 : path;
}

static int render_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, OPT_SIZE},
        {"keys", required_argument, NULL, OPT_KEYS},
        {"ansi", no_argument, NULL, OPT_ANSI},
        {"rules", required_argument, NULL, OPT_RULES},
        {"set", required_argument, NULL, OPT_SET},
        {"enable", required_argument, NULL, OPT_ENABLE},
        {"disable", required_argument, NULL, OPT_DISABLE},
        {"markers", required_argument, NULL, OPT_MARKERS},
        {"align", required_argument, NULL, OPT_ALIGN},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo;
    int cols = 80, rows = 24, opt, status = TT_EXIT_OK, li;
    bool ansi = false;
    const char *keys = NULL, *markers = NULL;
    tt_rules_config cfg;
    tt_input *in = NULL;
    size_t n_in = 0;
    tt_trace *tr = NULL;
    tt_app *app = NULL;
    tt_grid *g = NULL;
    tt_error err;
    tt_app_opts ao;
    tt_align_spec align;
    bool align_given = false;
    char **files = NULL;
    size_t n_files = 0;
    tt_rankset rs;
    tt_app_rank *ranks = NULL;
    tt_app_job job;
    char title[300], desc[300], opt_s[300];

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
            if (tt_cli_rules_option("render", longopts[li].name, optarg, &cfg) < 0)
                return TT_EXIT_ERROR;
            continue;
        }
        switch (opt) {
        case OPT_MARKERS:
            markers = optarg;
            break;
        case OPT_ALIGN: {
            char safe[600];
            tt_error_clear(&err);
            if (tt_align_parse(optarg, &align, &err)) {
                tt_cli_error("render: --align: %s", tt_text_safe(err.what, safe, sizeof safe));
                return TT_EXIT_ERROR;
            }
            align_given = true;
            break;
        }
        case OPT_SIZE:
            if (parse_size(optarg, &cols, &rows)) {
                tt_cli_error("--size: expected COLSxROWS (1 to 10000 each), e.g. 80x24; got '%s'",
                             optarg);
                return TT_EXIT_ERROR;
            }
            break;
        case OPT_KEYS:
            keys = optarg;
            break;
        case OPT_ANSI:
            ansi = true;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_render.usage);
            return TT_EXIT_OK;
        default:
            tt_cli_error("render: unknown or incomplete option '%s' (see 'tracetty help render')",
                         argv[optind - 1]);
            return TT_EXIT_ERROR;
        }
    }
    if (argc - optind < 1) {
        tt_cli_error("render: give a TRACE, several, or a DIR (usage: tracetty %s)",
                     tt_cmd_render.usage);
        return TT_EXIT_ERROR;
    }
    tt_error_clear(&err);
    if (keys && tt_keys_parse(keys, &in, &n_in, &err)) {
        tt_cli_error("--keys: %s (see KEYS in tracetty(1))", err.what);
        return TT_EXIT_ERROR;
    }
    if (tt_cli_view_inputs(argv + optind, (size_t)(argc - optind), &files, &n_files)) {
        free(in);
        return TT_EXIT_ERROR;
    }
    if (align_given && n_files < 2) {
        tt_cli_error("render: --align lines up several traces (a directory or several files)");
        status = TT_EXIT_ERROR;
        goto out;
    }
    memset(&ao, 0, sizeof ao);
    ao.utf8 = tt_text_utf8();
    ao.rules = &cfg;
    ao.markers = markers;
    if (n_files == 1) {
        const char *path = files ? files[0] : argv[optind];
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
        if (!(ranks = calloc(rs.n, sizeof *ranks))) {
            tt_cli_error("out of memory");
            status = TT_EXIT_ERROR;
            goto out;
        }
        tt_cli_view_ranks(&rs, ranks);
        job.r = ranks;
        job.n = rs.n;
        job.align = desc;
        job.align_opt = opt_s;
        tt_cli_view_title(argv + optind, (size_t)(argc - optind), n_files, title, sizeof title);
        ao.title = title;
        ao.job = &job;
    }
    app = tt_app_new(rs.n ? rs.r[0].trace : tr, cols, rows, &ao, &err);
    g = tt_grid_new(cols, rows);
    if (!app || !g) {
        tt_cli_error("%s", app ? "out of memory" : err.what);
        status = TT_EXIT_ERROR;
        goto out;
    }
    for (size_t i = 0; i < n_in; i++)
        if (tt_app_input(app, &in[i]) & TT_REACT_QUIT)
            break;
    if (tt_app_draw(app, g)) {
        tt_cli_error("out of memory drawing the timeline");
        status = TT_EXIT_ERROR;
        goto out;
    }
    {
        const char *nc = getenv("NO_COLOR");
        tt_color_depth depth = (nc && *nc) ? TT_COLORS_NONE : TT_COLORS_256;
        if (tt_grid_print(g, stdout, ansi, depth) || fflush(stdout)) {
            tt_cli_error("cannot write the output");
            status = TT_EXIT_ERROR;
        }
    }
out:
    tt_grid_free(g);
    tt_app_free(app);
    tt_trace_free(tr);
    tt_rankset_fini(&rs);
    free(ranks);
    tt_rankset_free_files(files, files ? n_files : 0);
    free(in);
    return status;
}

const tt_command tt_cmd_render = {
    "render",
    "render [--size COLSxROWS] [--keys KEYS] [--ansi] [--rules FILE] [--set RULE.PARAM=VALUE]... "
    "[--enable RULE] [--disable RULE] [--markers SET] [--align MODE] [LOAD-OPTIONS] "
    "TRACE... | DIR",
    "print the timeline screen after replaying keys, without a terminal",
    render_exec,
};
