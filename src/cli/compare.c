/* compare.c - the two sides of the compare view (see compare.h). */
#include "config.h"

#include "cli/compare.h"
#include "cli/diffview.h"

#include "rules/rules.h"
#include "tui/term.h"

#include "util/text.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

void tt_compare_sides(const tt_din_spec *spec, const tt_din_inputs *in, tt_cmp_side out[2])
{
    for (int i = 0; i < 2; i++) {
        out[i].tr = in->tr[i];
        /* the selection `diff` compares, so the panel says its numbers */
        out[i].sel = &in->sel[i];
        out[i].name = spec->side[i].label;
        out[i].path = in->file[i] && strcmp(in->file[i], "-") ? in->file[i] : NULL;
    }
}

void tt_compare_init(tt_compare *c)
{
    memset(c, 0, sizeof *c);
}

int tt_compare_open(tt_compare *c, const char *cmd, tt_show *show, char *const *paths,
                    size_t n)
{
    tt_error err;
    char safe[600];
    if (n != 2) {
        tt_cli_error("%s: --compare takes two traces, A and B (got %zu)", cmd, n);
        return -1;
    }
    if (strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0) {
        tt_cli_error("%s: --compare: standard input can be only one of A and B", cmd);
        return -1;
    }
    tt_error_clear(&err);
    if (tt_din_spec_parse(paths, n, NULL, 0, NULL, 0, &c->spec, &err)) {
        tt_cli_error("%s: %s", cmd, tt_text_safe(err.what, safe, sizeof safe));
        return -1;
    }
    if (tt_din_load(cmd, &c->spec, &show->lo, &c->in))
        return -1;
    tt_compare_sides(&c->spec, &c->in, c->side);
    c->opts.utf8 = tt_text_utf8();
    c->opts.rules = &show->rules;
    c->opts.markers = show->markers;
    c->opts.align = show->align_given ? &show->align : NULL;
    return 0;
}

void tt_compare_fini(tt_compare *c)
{
    tt_din_inputs_fini(&c->in);
    tt_din_spec_fini(&c->spec);
    memset(c, 0, sizeof *c);
}

int tt_diff_view_run(const tt_din_spec *spec, const tt_din_inputs *in)
{
    tt_cmp_side side[2];
    tt_cmp_opts co;
    tt_rules_config rules;
    tt_error err;
    int sig = 0;
    tt_compare_sides(spec, in, side);
    tt_rules_config_defaults(&rules);
    memset(&co, 0, sizeof co);
    co.utf8 = tt_text_utf8();
    co.rules = &rules;
    tt_error_clear(&err);
    if (tt_compare_view_run(&side[0], &side[1], &co, &sig, &err)) {
        char safe[600];
        tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
        return -1;
    }
    if (sig) {
        fflush(stdout);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return 0;
}
