/* cmd_convert.c - `tracetty convert TRACE -o FILE.ttz`: save a loaded trace
 * as a snapshot, the fastest way to open it again.
 *
 * The output is written atomically (src/io/atomic.h): an interrupted or
 * failed run leaves no partial file. The snapshot format is described in
 * src/snapshot/snapshot.h.
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "model/args.h"
#include "snapshot/snapshot.h"
#include "util/memkeep.h"
#include "util/num.h"
#include "util/text.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int convert_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo = {0};
    const char *out = NULL;
    tt_trace *tr;
    tt_error err;
    struct stat st;
    char safe[512], msg[700];
    int opt;
    tt_cli_opts op;

    tt_cli_opts_init(&op, &tt_cmd_convert, argc, argv, "o:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        switch (opt) {
        case 'o':
            out = optarg;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_convert.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands == 0) {
        tt_cli_error("convert: no trace given (usage: tracetty %s)", tt_cmd_convert.usage);
        return TT_EXIT_ERROR;
    }
    if (op.n_operands > 1) {
        tt_cli_error("convert: one trace at a time (usage: tracetty %s)", tt_cmd_convert.usage);
        return TT_EXIT_ERROR;
    }
    if (lo.metrics) {
        /* a snapshot holds the trace, not what is joined to it */
        tt_cli_error("convert: --metrics does not apply (give it when opening the snapshot)");
        return TT_EXIT_ERROR;
    }
    if (!out || !*out) {
        tt_cli_error("convert: no output file given: use -o FILE.ttz");
        return TT_EXIT_ERROR;
    }
    tt_text_sanitize(out, strlen(out), safe, sizeof safe);
    if (strcmp(out, "-") == 0) {
        tt_cli_error("convert: a snapshot is binary and is not written to stdout; give -o FILE.ttz");
        return TT_EXIT_ERROR;
    }
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
        tt_cli_error("convert: %s is a directory", safe);
        return TT_EXIT_ERROR;
    }
    /* the source path must not be overwritten by its own snapshot */
    {
        struct stat si;
        if (stat(op.operands[0], &si) == 0 && stat(out, &st) == 0 && si.st_dev == st.st_dev &&
            si.st_ino == st.st_ino) {
            tt_cli_error("convert: %s is the input trace itself", safe);
            return TT_EXIT_ERROR;
        }
    }

    /* the encode needs about as much memory again as the load freed:
     * reuse those pages rather than fault fresh ones in (memkeep.h) */
    tt_mem_keep_freed();
    /* every argument record is read once, by the writer, right after the
     * load: blocks zstd-compressed while loading would only be
     * decompressed again for it (args.h) */
    tt_args_store_raw(true);
    tr = tt_cli_load_trace(op.operands[0], &lo);
    if (!tr)
        return TT_EXIT_ERROR;
    tt_error_clear(&err);
    if (tt_snapshot_write(tr, out, NULL, &err)) {
        tt_error_format(&err, NULL, msg, sizeof msg);
        tt_cli_error("convert: %s", msg);
        tt_trace_free(tr);
        return TT_EXIT_ERROR;
    }
    if (!lo.quiet && stat(out, &st) == 0) {
        char b1[64], b2[64];
        fprintf(stderr, "tracetty: wrote %s: %llu events, %s (%s decoded from the source)\n", safe,
                (unsigned long long)tr->n_events, tt_fmt_bytes(b1, sizeof b1, (int64_t)st.st_size),
                tt_fmt_bytes(b2, sizeof b2, tr->source_bytes));
    }
    tt_trace_free(tr);
    return TT_EXIT_OK;
}

const tt_command tt_cmd_convert = {
    .name = "convert",
    .usage = "convert [--lenient] [--quiet] [--input-format NAME] [--csv-map MAP] TRACE -o FILE.ttz",
    .help = "save a trace as a .ttz snapshot that reopens in a fraction of the time",
    .exec = convert_exec,
};
