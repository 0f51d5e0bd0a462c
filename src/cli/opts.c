/* opts.c - getopt_long for every command, operands anywhere (see opts.h). */
#include "config.h"

#include "cli/opts.h"

#include "util/suggest.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

void tt_cli_opts_init(tt_cli_opts *p, const tt_command *cmd, int argc, char **argv,
                      const char *shortopts, const struct option *longopts)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->longopts = longopts;
    /* '-': operands come back in order as code 1, so we gather them
     * ourselves and no environment variable turns permutation off;
     * ':': a missing value is told apart from an unknown option */
    snprintf(p->optstring, sizeof p->optstring, "-:%s", shortopts);
    optind = 0;   /* a full restart of getopt's state (glibc, musl) */
    opterr = 0;
}

/* "--name=value" -> "name" in buf */
static const char *long_name(const char *arg, char *buf, size_t n)
{
    size_t len = strcspn(arg + 2, "=");
    if (len >= n)
        len = n - 1;
    memcpy(buf, arg + 2, len);
    buf[len] = '\0';
    return buf;
}

/* One line about the option at argv[at] that getopt refused (code is '?'
 * or ':'). */
static void report_bad(const tt_cli_opts *p, int at, int code)
{
    const char *cmd = p->cmd->name;
    const char *arg = at < p->argc ? p->argv[at] : "";
    char name[128], safe[300], see[96];
    snprintf(see, sizeof see, "see 'tracetty help %s'", cmd);
    if (strncmp(arg, "--", 2) != 0) {
        /* a short option: getopt names its letter */
        char opt[3] = {'-', (char)optopt, '\0'};
        tt_text_safe(opt, safe, sizeof safe);
        if (code == ':')
            tt_cli_error("%s: option '%s' needs a value; %s", cmd, safe, see);
        else
            tt_cli_error("%s: unknown option '%s'; %s", cmd, safe, see);
        return;
    }
    long_name(arg, name, sizeof name);
    tt_text_safe(name, safe, sizeof safe);
    if (code == ':') {
        tt_cli_error("%s: option '--%s' needs a value; %s", cmd, safe, see);
        return;
    }
    {
        const struct option *exact = NULL, *first = NULL, *second = NULL;
        size_t n_prefixed = 0;
        size_t len = strlen(name);
        tt_suggest s;
        tt_suggest_init(&s, name);
        for (const struct option *o = p->longopts; o->name; o++) {
            if (strcmp(o->name, name) == 0)
                exact = o;
            else if (len > 0 && strncmp(o->name, name, len) == 0) {
                n_prefixed++;
                if (!first)
                    first = o;
                else if (!second)
                    second = o;
            }
            tt_suggest_offer(&s, o->name);
        }
        if (exact || (first && !second)) {
            /* known, so it was given a value it does not take */
            tt_cli_error("%s: option '--%s' takes no value; %s", cmd,
                         exact ? exact->name : first->name, see);
        } else if (first) {
            tt_cli_error("%s: option '--%s' is ambiguous (--%s, --%s%s); %s", cmd, safe,
                         first->name, second->name, n_prefixed > 2 ? ", ..." : "", see);
        } else if (tt_suggest_best(&s)) {
            tt_cli_error("%s: unknown option '--%s' (did you mean --%s?); %s", cmd, safe,
                         tt_suggest_best(&s), see);
        } else {
            tt_cli_error("%s: unknown option '--%s'; %s", cmd, safe, see);
        }
    }
}

int tt_cli_opts_next(tt_cli_opts *p)
{
    for (;;) {
        /* the element getopt is about to read: in the '-' mode nothing
         * is permuted, so a refused option is there */
        int at = optind == 0 ? 1 : optind;
        int opt = getopt_long(p->argc, p->argv, p->optstring, p->longopts, NULL);
        if (opt == 1) {
            /* slots before optind are never read again: gather the
             * operands there, in order */
            p->argv[1 + p->n_operands++] = optarg;
            continue;
        }
        if (opt == -1) {
            for (int i = optind; i < p->argc; i++)   /* after "--" */
                p->argv[1 + p->n_operands++] = p->argv[i];
            p->operands = p->argv + 1;
            return -1;
        }
        if (opt == '?' || opt == ':') {
            report_bad(p, at, opt);
            return '?';
        }
        return opt;
    }
}
