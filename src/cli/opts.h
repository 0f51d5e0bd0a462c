/* opts.h - the one option parser of every command.
 *
 * GNU-style: options may come before, between or after the operands
 * (`summary TRACE --format json`), `--` ends the options (what follows is
 * an operand even when it starts with a dash), and this holds whatever
 * POSIXLY_CORRECT says. A mistyped option gets one line naming it, the
 * closest valid option and `tracetty help COMMAND`.
 *
 * Use:
 *     tt_cli_opts p;
 *     tt_cli_opts_init(&p, &tt_cmd_x, argc, argv, "f:o:h", longopts);
 *     while ((opt = tt_cli_opts_next(&p)) != -1) {
 *         switch (opt) { ... case '?': return TT_EXIT_ERROR; }
 *     }
 *     ... p.operands[0 .. p.n_operands)
 *
 * Ownership: borrows cmd, argv and longopts; the operands are gathered in
 * place, at the front of argv (argv[1...]), which is reordered.
 */
#ifndef TT_CLI_OPTS_H
#define TT_CLI_OPTS_H

#include <getopt.h>
#include <stddef.h>

#include "cli/cli.h"

typedef struct tt_cli_opts {
    const tt_command     *cmd;
    int                   argc;
    char                **argv;
    const struct option  *longopts;
    char                  optstring[64];   /* "-:" + the command's short options */
    char                **operands;        /* set when tt_cli_opts_next returns -1 */
    size_t                n_operands;
} tt_cli_opts;

/* shortopts as for getopt ("f:o:h"); longopts ends with a zero entry. */
void tt_cli_opts_init(tt_cli_opts *p, const tt_command *cmd, int argc, char **argv,
                      const char *shortopts, const struct option *longopts);

/* The next option's code, with its argument in optarg (as getopt_long);
 * -1 when the options are done (p->operands is then set); '?' after
 * printing why the option is unknown, ambiguous or lacks its value. */
int tt_cli_opts_next(tt_cli_opts *p);

#endif
