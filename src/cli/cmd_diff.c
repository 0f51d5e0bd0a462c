/* cmd_diff.c - `tracetty diff A B`: what changed between two traces, two
 * ranks or two regions, as CSV, JSON or text.
 *
 * This file parses the options (in one table, diff_opts below), loads the
 * two inputs and decides where the output goes; the numbers come from
 * analysis/diff.h and the tables from report/diffout.h. With -o the output
 * is written atomically (io/atomic.h), as report does.
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "analysis/diff.h"
#include "analysis/normname.h"
#include "cli/diff_gate.h"
#include "cli/diff_scaling.h"
#include "io/atomic.h"
#include "report/diffout.h"
#include "report/kind.h"
#include "report/report.h"
#include "util/text.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_KIND = TT_OPT__NEXT,
    OPT_BY,
    OPT_NORMALIZE,   /* h-gate: --normalize, --fail-if, --scaling, --weak */
    OPT_FAIL_IF,
    OPT_SCALING,
    OPT_WEAK,
};

/* Everything the options say. */
typedef struct diff_opts {
    tt_diff_kind  kind;
    tt_key        key;
    bool          has_key;
    tt_out_format format;
    const char   *out_path;
    tt_cli_load   lo;
    bool          normalize, scaling, weak;
    tt_diff_gate  gate;        /* --fail-if conditions */
} diff_opts;

static int usage_error(const char *what)
{
    char safe[600];
    tt_cli_error("diff: %s (usage: tracetty %s)", tt_text_safe(what, safe, sizeof safe),
                 tt_cmd_diff.usage);
    return TT_EXIT_ERROR;
}

/* Parse the options into o and the operands into p. 0, -1 after printing
 * why, or 1 when --help was given (and printed). */
static int parse_options(int argc, char **argv, diff_opts *o, tt_cli_opts *p)
{
    static const struct option longopts[] = {
        {"kind", required_argument, NULL, OPT_KIND},
        {"by", required_argument, NULL, OPT_BY},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"normalize", no_argument, NULL, OPT_NORMALIZE},
        {"fail-if", required_argument, NULL, OPT_FAIL_IF},
        {"scaling", no_argument, NULL, OPT_SCALING},
        {"weak", no_argument, NULL, OPT_WEAK},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_error err;
    int opt;
    memset(o, 0, sizeof *o);
    o->kind = TT_DIFF_OPS;
    o->format = TT_OUT_CSV;
    tt_error_clear(&err);
    tt_cli_opts_init(p, &tt_cmd_diff, argc, argv, "f:o:h", longopts);
    while ((opt = tt_cli_opts_next(p)) != -1) {
        if (tt_cli_load_option(opt, optarg, &o->lo))
            continue;
        switch (opt) {
        case OPT_KIND:
            if (tt_diff_kind_parse(optarg, &o->kind)) {
                char msg[300];
                snprintf(msg, sizeof msg, "unknown --kind '%.100s' (ops, kernels or operators)",
                         optarg);
                usage_error(msg);
                return -1;
            }
            break;
        case OPT_BY:
            if (o->has_key) {
                usage_error("--by takes one key");
                return -1;
            }
            if (tt_key_parse(optarg, &o->key, &err)) {
                usage_error(err.what);
                return -1;
            }
            o->has_key = true;
            break;
        case 'f':
            if (tt_report_format_parse(optarg, &o->format, &err)) {
                usage_error(err.what);
                return -1;
            }
            break;
        case 'o':
            o->out_path = optarg;
            break;
        case OPT_NORMALIZE:
            o->normalize = true;
            break;
        case OPT_FAIL_IF:
            if (tt_diff_gate_add(&o->gate, optarg))
                return -1;
            break;
        case OPT_SCALING:
            o->scaling = true;
            break;
        case OPT_WEAK:
            o->weak = true;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_diff.usage);
            return 1;
        default:
            return -1;   /* tt_cli_opts_next said why */
        }
    }
    if (o->has_key && o->kind != TT_DIFF_OPS) {
        usage_error("--by applies to --kind ops only");
        return -1;
    }
    return 0;
}

/* The parts of a trace the kind never reads, as the report kind of the
 * same name says (report/kind.h). */
static unsigned diff_skips(const diff_opts *o)
{
    const tt_report_kind *k = tt_report_kind_find(tt_diff_kind_name(o->kind));
    if (!k)
        return 0;
    if (o->kind == TT_DIFF_OPS && o->has_key && o->key.kind == TT_KEY_ARG)
        return k->skip_arg;
    /* diff reads no arguments for kernels and operators: only names,
     * durations and launch links */
    return o->kind == TT_DIFF_OPS ? k->skip : k->skip | TT_TRACE_NO_ARGS;
}

/* Say why the output could not be written, right after it failed (errno
 * still holds the reason); a file's temporary copy goes. */
static void write_failed(tt_atomic *out, tt_error *err)
{
    char safe[600];
    if (err->code == TT_ERR_IO) {
        if (out)
            tt_atomic_fail(out, err);
        else
            tt_cli_flush_stdout("diff");
    } else if (out) {
        tt_atomic_abort(out);
    }
    if (out || err->code != TT_ERR_IO)
        tt_cli_error("diff: %s", tt_text_safe(err->what, safe, sizeof safe));
}

/* Why a side's table says less than it seems (no launch links), once per
 * input; -1 out of memory. */
static int say_side_note(const char *what, const tt_trace *tr, const diff_opts *o)
{
    const tt_report_kind *k = tt_report_kind_find(tt_diff_kind_name(o->kind));
    char note[600], safe[600], sw[400];
    int r;
    if (!k || !k->trace_note || o->lo.quiet)
        return 0;
    if ((r = k->trace_note(tr, note, sizeof note)) <= 0)
        return r;
    tt_cli_warn("%s: %s", tt_text_safe(what, sw, sizeof sw), tt_text_safe(note, safe, sizeof safe));
    return 0;
}

static int diff_exec(int argc, char **argv)
{
    diff_opts o;
    tt_cli_opts p;
    tt_trace *tr[2] = {NULL, NULL};
    tt_diff_side *side[2] = {NULL, NULL};
    tt_diff *d = NULL;
    tt_diffout_opts wo;
    tt_error err;
    tt_atomic out;
    bool to_file;
    FILE *f = stdout;
    char by[TT_KEY_ARG_MAX + 8];
    int rc = TT_EXIT_ERROR, pr;
    tt_diff_gate_in gin;   /* what --fail-if reads */

    if ((pr = parse_options(argc, argv, &o, &p))) {
        tt_diff_gate_fini(&o.gate);
        return pr > 0 ? TT_EXIT_OK : TT_EXIT_ERROR;
    }
    if (o.scaling || o.weak) {
        tt_diff_scaling_opts so = {o.weak, o.format, o.out_path, &o.lo};
        if (!o.scaling || o.gate.n || o.normalize) {
            tt_diff_gate_fini(&o.gate);
            return usage_error(o.scaling ? "--scaling takes neither --fail-if nor --normalize"
                                         : "--weak goes with --scaling");
        }
        return tt_diff_scaling(p.operands, p.n_operands, &so);
    }
    if (p.n_operands != 2) {
        tt_diff_gate_fini(&o.gate);
        return usage_error(p.n_operands < 2 ? "two inputs needed (A and B)"
                                            : "more than two inputs");
    }
    o.lo.skip = tt_diff_gate_needs_all(&o.gate) ? 0 : diff_skips(&o);
    if (tt_cli_load_many(p.operands, 2, &o.lo, tr))
        goto done;
    tt_error_clear(&err);
    memset(&gin, 0, sizeof gin);
    for (int i = 0; i < 2; i++) {
        tt_sel sel;
        memset(&sel, 0, sizeof sel);
        tt_sel_window(tr[i], NULL, &sel);
        gin.sel[i] = sel;
        if (tt_diff_side_compute(tr[i], &sel, o.kind, o.has_key ? &o.key : NULL, &side[i],
                                 &err)) {
            tt_cli_work_error("diff", (const tt_trace *const *)&tr[i], 1, &err);
            goto done;
        }
        if (say_side_note(p.operands[i], tr[i], &o)) {
            tt_cli_error("diff: out of memory");
            goto done;
        }
    }
    if (tt_diff_compute(side[0], side[1], o.normalize ? tt_name_normalize : NULL, &d, &err)) {
        tt_cli_error("diff: %s", err.what);
        goto done;
    }
    memset(&wo, 0, sizeof wo);
    wo.format = o.format;
    wo.utf8 = tt_text_utf8();
    wo.kind = o.kind;
    wo.by = o.kind == TT_DIFF_OPS && o.has_key ? tt_key_str(&o.key, by, sizeof by) : "name";
    wo.a = p.operands[0];
    wo.b = p.operands[1];
    if (o.kind == TT_DIFF_OPERATORS) {
        wo.total_a = tt_diff_side_device(side[0]) ? "device" : "host";
        wo.total_b = tt_diff_side_device(side[1]) ? "device" : "host";
        /* without launch links there is no device time to compare */
        if (!o.lo.quiet)
            fprintf(stderr, "tracetty: diff: operators: Total is %s Total for A, %s Total for B\n",
                    tt_diff_side_device(side[0]) ? "Device" : "Host",
                    tt_diff_side_device(side[1]) ? "Device" : "Host");
    }
    if (d->n > 0 && tt_diff_common(d) == 0)
        tt_cli_warn("diff: A and B have no %s name in common", tt_diff_kind_name(o.kind));
    to_file = o.out_path && strcmp(o.out_path, "-") != 0;
    if (to_file) {
        if (tt_atomic_open(&out, o.out_path, &err)) {
            char safe[600];
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
            goto done;
        }
        f = tt_atomic_file(&out);
    } else {
        /* real bytes go to files and pipes; a terminal gets escapes */
        wo.sanitize = isatty(fileno(stdout));
    }
    if (tt_diffout_names(f, &wo, d, &err)) {
        write_failed(to_file ? &out : NULL, &err);
        goto done;
    }
    if (to_file ? tt_atomic_commit(&out, &err) : tt_cli_flush_stdout("diff")) {
        if (to_file) {
            char safe[600];
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
        }
        goto done;
    }
    rc = TT_EXIT_OK;
    if (o.gate.n) {
        gin.tr[0] = tr[0];
        gin.tr[1] = tr[1];
        gin.diff = d;
        gin.kind = o.kind;
        gin.by_name = !o.has_key;
        gin.map = o.normalize ? tt_name_normalize : NULL;
        rc = tt_diff_gate_check(&o.gate, &gin, o.lo.quiet);
    }
done:
    tt_diff_gate_fini(&o.gate);
    tt_diff_free(d);
    for (int i = 0; i < 2; i++) {
        tt_diff_side_free(side[i]);
        tt_trace_free(tr[i]);
    }
    return rc;
}

const tt_command tt_cmd_diff = {
    .name = "diff",
    .usage = "diff [--kind ops|kernels|operators] [--by KEY] [--normalize] [--fail-if COND]... "
             "[--format csv|json|text] [-o FILE] A B\n"
             "       diff --scaling [--weak] [--format csv|json|text] [-o FILE] RUN RUN...",
    .help = "what changed between two traces: per name counts and totals, with deltas",
    .exec = diff_exec,
};
