/* cmd_render.c - `tracetty render`: the screen the timeline would show,
 * without a terminal.
 *
 * The same application code as `tracetty view` (src/tui/app.h) replays the
 * --keys events on a virtual screen of --size and the resulting cell grid is
 * printed as text, or with ANSI colors. For tests, CI logs and pasting a
 * view into an issue. The warning rules and --markers are those of `view`;
 * keys that save marker sets or write a box's tables do so, as in the view.
 * Several traces (or a directory) are the ranks of a job, loaded and
 * aligned (--align) as `view` does it. With --compare, two traces A and B
 * are the compare view (tui/cmpview.h) instead, as `diff A B` shows them on
 * a terminal.
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/opts.h"
#include "cli/show.h"

#include "tui/app.h"
#include "tui/grid.h"
#include "tui/input.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_SIZE = TT_OPT__NEXT,
    OPT_KEYS,
    OPT_ANSI,
    OPT_COMPARE
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
static int render_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, OPT_SIZE},
        {"keys", required_argument, NULL, OPT_KEYS},
        {"ansi", no_argument, NULL, OPT_ANSI},
        {"compare", no_argument, NULL, OPT_COMPARE},
        {"help", no_argument, NULL, 'h'},
        TT_SHOW_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_show show;
    tt_cli_opts op;
    int cols = 80, rows = 24, opt, taken, status = TT_EXIT_OK;
    bool ansi = false, compare = false;
    const char *keys = NULL;
    tt_input *in = NULL;
    size_t n_in = 0;
    tt_app *app = NULL;
    tt_cmp *cmp = NULL;
    tt_compare cmpin;
    tt_grid *g = NULL;
    tt_error err;

    tt_show_init(&show);
    tt_compare_init(&cmpin);
    tt_cli_opts_init(&op, &tt_cmd_render, argc, argv, "h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if ((taken = tt_show_option(&show, "render", opt, optarg)) != 0) {
            if (taken < 0)
                return TT_EXIT_ERROR;
            continue;
        }
        switch (opt) {
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
        case OPT_COMPARE:
            compare = true;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_render.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands == 0) {
        tt_cli_error("render: give a TRACE, several, or a DIR (usage: tracetty %s)",
                     tt_cmd_render.usage);
        return TT_EXIT_ERROR;
    }
    tt_error_clear(&err);
    if (keys && tt_keys_parse(keys, &in, &n_in, &err)) {
        tt_cli_error("--keys: %s (see KEYS in tracetty(1))", err.what);
        return TT_EXIT_ERROR;
    }
    if (compare) {
        /* the compare view of A and B (cli/compare.h) */
        if (tt_compare_open(&cmpin, "render", &show, op.operands, op.n_operands)) {
            status = TT_EXIT_ERROR;
            goto out;
        }
        cmp = tt_cmp_new(&cmpin.side[0], &cmpin.side[1], cols, rows, &cmpin.opts, &err);
    } else {
        if (tt_show_open(&show, "render", op.operands, op.n_operands)) {
            status = TT_EXIT_ERROR;
            goto out;
        }
        app = tt_app_new(show.first, cols, rows, &show.opts, &err);
    }
    g = tt_grid_new(cols, rows);
    if (!(app || cmp) || !g) {
        tt_cli_error("%s", app || cmp ? "out of memory" : err.what);
        status = TT_EXIT_ERROR;
        goto out;
    }
    for (size_t i = 0; i < n_in; i++)
        if ((cmp ? tt_cmp_input(cmp, &in[i]) : tt_app_input(app, &in[i])) & TT_REACT_QUIT)
            break;
    if (cmp ? tt_cmp_draw(cmp, g) : tt_app_draw(app, g)) {
        tt_cli_error("out of memory drawing the timeline");
        status = TT_EXIT_ERROR;
        goto out;
    }
    {
        const char *nc = getenv("NO_COLOR");
        tt_color_depth depth = (nc && *nc) ? TT_COLORS_NONE : TT_COLORS_256;
        /* a failed write leaves stdout's error flag set: the flush
         * reports it once, with the reason */
        (void)tt_grid_print(g, stdout, ansi, depth);
        if (tt_cli_flush_stdout("render"))
            status = TT_EXIT_ERROR;
    }
out:
    tt_grid_free(g);
    tt_app_free(app);
    tt_cmp_free(cmp);
    tt_compare_fini(&cmpin);
    tt_show_fini(&show);
    free(in);
    return status;
}

const tt_command tt_cmd_render = {
    "render",
    "render [--size COLSxROWS] [--keys KEYS] [--ansi] [--compare] [--rules FILE] [--set RULE.PARAM=VALUE]... "
    "[--enable RULE] [--disable RULE] [--markers SET] [--align MODE] [LOAD-OPTIONS] "
    "TRACE... | DIR | --compare A B",
    "print the timeline screen after replaying keys, without a terminal",
    render_exec,
};
