/* cmd_merge_reports.c - `tracetty merge-reports`: combine the CSV reports
 * of ranks processed separately (under Slurm, mpiexec or GNU parallel)
 * into the report one run over all of them would print (report/merge.h).
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "io/atomic.h"
#include "report/merge.h"
#include "util/text.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

static int merge_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL;
    tt_error err;
    int opt;
    tt_cli_opts op;
    tt_cli_opts_init(&op, &tt_cmd_merge_reports, argc, argv, "o:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        switch (opt) {
        case 'o':
            out_path = optarg;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_merge_reports.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands == 0) {
        tt_cli_error("merge-reports: no CSV given (usage: tracetty %s)",
                     tt_cmd_merge_reports.usage);
        return TT_EXIT_ERROR;
    }
    tt_error_clear(&err);
    if (out_path && strcmp(out_path, "-") != 0) {
        tt_atomic a = {0};
        if (tt_atomic_open(&a, out_path, &err) ||
            tt_merge_reports((const char *const *)op.operands, op.n_operands,
                             tt_atomic_file(&a), false, &err) ||
            tt_atomic_commit(&a, &err)) {
            char msg[800], safe[600];
            tt_atomic_abort(&a);
            tt_cli_error("merge-reports: %s",
                         tt_error_format(&err, NULL, msg, sizeof msg) ? tt_text_safe(msg, safe, sizeof safe) : "");
            return TT_EXIT_ERROR;
        }
        return TT_EXIT_OK;
    }
    /* as report: real bytes to files and pipes, escapes to a terminal */
    if (tt_merge_reports((const char *const *)op.operands, op.n_operands, stdout,
                         isatty(STDOUT_FILENO), &err)) {
        char msg[800], safe[900];
        tt_error_format(&err, NULL, msg, sizeof msg);
        tt_cli_error("merge-reports: %s", tt_text_safe(msg, safe, sizeof safe));
        return TT_EXIT_ERROR;
    }
    return tt_cli_flush_stdout("merge-reports") ? TT_EXIT_ERROR : TT_EXIT_OK;
}

const tt_command tt_cmd_merge_reports = {
    .name = "merge-reports",
    .usage = "merge-reports [-o FILE] CSV...",
    .help = "combine per-rank report CSVs (gpu, ranks, collectives) into one",
    .exec = merge_exec,
};
