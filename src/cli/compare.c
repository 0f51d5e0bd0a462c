/* compare.c - the two sides of the compare view (see compare.h). */
#include "config.h"

#include "cli/compare.h"

#include "util/text.h"

#include <stdio.h>
#include <string.h>

/* The file name without its directories, for a header (never a path). */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    if (strcmp(path, "-") == 0)
        return "(stdin)";
    return s && s[1] ? s + 1 : path;
}

void tt_compare_init(tt_compare *c)
{
    memset(c, 0, sizeof *c);
}

int tt_compare_open(tt_compare *c, const char *cmd, tt_show *show, char *const *paths,
                    size_t n)
{
    if (n != 2) {
        tt_cli_error("%s: --compare takes two traces, A and B (got %zu)", cmd, n);
        return -1;
    }
    if (strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0) {
        tt_cli_error("%s: --compare: standard input can be only one of A and B", cmd);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        if (!(c->tr[i] = tt_cli_load_trace(paths[i], &show->lo)))
            return -1;
        snprintf(c->name[i], sizeof c->name[i], "%s", base_name(paths[i]));
        c->side[i].tr = c->tr[i];
        c->side[i].name = c->name[i];
        c->side[i].path = strcmp(paths[i], "-") == 0 ? NULL : paths[i];
    }
    c->opts.utf8 = tt_text_utf8();
    c->opts.rules = &show->rules;
    c->opts.markers = show->markers;
    c->opts.align = show->align_given ? &show->align : NULL;
    return 0;
}

void tt_compare_fini(tt_compare *c)
{
    tt_trace_free(c->tr[0]);
    tt_trace_free(c->tr[1]);
    memset(c, 0, sizeof *c);
}
