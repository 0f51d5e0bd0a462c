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
#include "cli/diffinput.h"
#include "cli/opts.h"

#include "analysis/diff.h"
#include "analysis/normname.h"
#include "cli/diff_gate.h"
#include "cli/diff_scaling.h"
#include "cli/diffview.h"
#include "analysis/gpu.h"
#include "analysis/steps.h"
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
    OPT_RANK,
    OPT_STEP,
    OPT_NORMALIZE,   /* --normalize, --fail-if, --scaling, --weak (h-gate) */
    OPT_FAIL_IF,
    OPT_SCALING,
    OPT_WEAK,
};

/* What --kind asks: a name table (analysis/diff.h) or a side-by-side one. */
typedef enum diff_table { TABLE_NAMES = 0, TABLE_GPU, TABLE_STEPS } diff_table;

/* Everything the options say. */
typedef struct diff_opts {
    diff_table    table;
    const char   *kind_name;   /* as report names the kind */
    tt_diff_kind  kind;        /* TABLE_NAMES */
    tt_key        key;
    bool          has_key;
    tt_out_format format;
    bool          format_given;
    const char   *out_path;
    tt_cli_load   lo;
    char         *ranks[3], *steps[3];   /* --rank, --step as given (2 at most) */
    size_t        n_ranks, n_steps;
    bool          normalize, scaling, weak;
    bool          kind_given;  /* --kind: a table, not the compare view */
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
        {"rank", required_argument, NULL, OPT_RANK},
        {"step", required_argument, NULL, OPT_STEP},
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
    o->kind_name = "ops";
    o->format = TT_OUT_CSV;
    tt_error_clear(&err);
    tt_cli_opts_init(p, &tt_cmd_diff, argc, argv, "f:o:h", longopts);
    while ((opt = tt_cli_opts_next(p)) != -1) {
        if (tt_cli_load_option(opt, optarg, &o->lo))
            continue;
        switch (opt) {
        case OPT_KIND:
            if (!tt_diff_kind_parse(optarg, &o->kind)) {
                o->table = TABLE_NAMES;
            } else if (!strcmp(optarg, "gpu")) {
                o->table = TABLE_GPU;
            } else if (!strcmp(optarg, "steps")) {
                o->table = TABLE_STEPS;
            } else {
                char msg[300];
                snprintf(msg, sizeof msg,
                         "unknown --kind '%.100s' (ops, kernels, operators, gpu or steps)", optarg);
                usage_error(msg);
                return -1;
            }
            o->kind_name = optarg;
            o->kind_given = true;
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
        case OPT_RANK:
        case OPT_STEP: {
            char **v = opt == OPT_RANK ? o->ranks : o->steps;
            size_t *n = opt == OPT_RANK ? &o->n_ranks : &o->n_steps;
            if (*n == 2) {
                usage_error(opt == OPT_RANK ? "--rank given more than twice"
                                            : "--step given more than twice");
                return -1;
            }
            v[(*n)++] = optarg;
            break;
        }
        case 'f':
            if (tt_report_format_parse(optarg, &o->format, &err)) {
                usage_error(err.what);
                return -1;
            }
            o->format_given = true;
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
            printf("usage: tracetty %s\n\n%s", tt_cmd_diff.usage,
                   "kinds (one row per name, status by count as HTA's ops_diff):\n"
                   "  ops        events by name or --by KEY (default)\n"
                   "  kernels    device kernels by name\n"
                   "  operators  operators (device total when the trace links launches)\n"
                   "  gpu        the GPU time breakdown of both, side by side\n"
                   "  steps      step times of both, matched by position\n\n"
                   "--fail-if COND: exit 1 when COND holds, e.g. 'total>+5%',\n"
                   "  'kernel:gemm*>+10%', 'added>0' (see man tracetty)\n"
                   "--normalize: match names that differ only in template arguments,\n"
                   "  addresses or numeric suffixes\n"
                   "On a terminal with none of --kind, --by, --format, -o, --fail-if,\n"
                   "--normalize: the compare view of A and B (keys: ? in the view).\n");
            return 1;
        default:
            return -1;   /* tt_cli_opts_next said why */
        }
    }
    if (o->has_key && (o->table != TABLE_NAMES || o->kind != TT_DIFF_OPS)) {
        usage_error("--by applies to --kind ops only");
        return -1;
    }
    if (o->lo.metrics) {
        /* no diff table or view shows joined ncu metrics: refused rather
         * than read and ignored */
        usage_error("--metrics does not apply: diff compares timelines; join ncu metrics to "
                    "each side with `tracetty report --kind kernels --metrics NCU.csv TRACE`");
        return -1;
    }
    return 0;
}

/* The parts of a trace the kind never reads, as the report kind of the
 * same name says (report/kind.h). */
static unsigned diff_skips_kind(const diff_opts *o)
{
    const tt_report_kind *k = tt_report_kind_find(o->kind_name);
    if (!k)
        return 0;
    if (o->has_key && o->key.kind == TT_KEY_ARG)
        return k->skip_arg;
    /* diff reads no arguments for kernels and operators: only names,
     * durations and launch links */
    if (o->table == TABLE_NAMES && o->kind != TT_DIFF_OPS)
        return k->skip | TT_TRACE_NO_ARGS;
    return k->skip;
}

static unsigned diff_skips(const diff_opts *o, const tt_din_spec *spec)
{
    /* steps of a trace without ProfilerStep come from an argument */
    if (tt_din_spec_reads_args(spec))
        return diff_skips_kind(o) & ~(unsigned)TT_TRACE_NO_ARGS;
    return diff_skips_kind(o);
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

/* Why a side's GPU table says less than it seems (no GPU events at all),
 * as report says it, once per input; -1 out of memory. (The launch-link
 * note of kernels and operators is about report's device columns: diff
 * says instead which Total the operators compare.) */
static int say_side_note(const char *what, const tt_trace *tr, const diff_opts *o)
{
    const tt_report_kind *k = tt_report_kind_find(o->kind_name);
    char note[600], safe[600], sw[400];
    int r;
    if (o->table != TABLE_GPU || !k || !k->trace_note || o->lo.quiet)
        return 0;
    if ((r = k->trace_note(tr, note, sizeof note)) <= 0)
        return r;
    tt_cli_warn("%s: %s", tt_text_safe(what, sw, sizeof sw), tt_text_safe(note, safe, sizeof safe));
    return 0;
}

/* What was computed, for the writer. */
typedef struct diff_result {
    tt_diff_side *side[2];
    tt_diff      *d;          /* TABLE_NAMES */
    tt_gpu_time   gpu[2];     /* TABLE_GPU */
    tt_steps     *steps[2];   /* TABLE_STEPS */
} diff_result;

static void result_fini(diff_result *r)
{
    tt_diff_free(r->d);
    for (int i = 0; i < 2; i++) {
        tt_diff_side_free(r->side[i]);
        tt_steps_free(r->steps[i]);
    }
}

/* Compute the table of o over the two inputs, with the notes on stderr
 * (before any output). 0, or -1 after printing why. */
static int diff_compute(const diff_opts *o, const tt_din_spec *spec, const tt_din_inputs *in,
                        diff_result *r)
{
    tt_error err;
    tt_error_clear(&err);
    for (int i = 0; i < 2; i++) {
        int fail = 0;
        switch (o->table) {
        case TABLE_NAMES:
            fail = tt_diff_side_compute(in->tr[i], &in->sel[i], o->kind,
                                        o->has_key ? &o->key : NULL, &r->side[i], &err);
            break;
        case TABLE_GPU: fail = tt_gpu_time_compute(in->tr[i], &in->sel[i], &r->gpu[i], &err); break;
        case TABLE_STEPS:
            fail = tt_steps_compute(in->tr[i], &in->sel[i], NULL, &r->steps[i], &err);
            break;
        }
        if (fail) {
            tt_cli_work_error("diff", &in->tr[i], 1, &err);
            return -1;
        }
        if ((i == 0 || in->tr[1] != in->tr[0]) && say_side_note(spec->side[i].label, in->tr[i], o)) {
            tt_cli_error("diff: out of memory");
            return -1;
        }
    }
    if (o->table == TABLE_STEPS && !o->lo.quiet) {
        char sa[400], sb[400];
        for (int i = 0; i < 2; i++)
            if (r->steps[i]->n == 0)
                tt_cli_warn("%s: no steps (no ProfilerStep#N events, no Step Id)",
                            tt_text_safe(spec->side[i].label, sa, sizeof sa));
        fprintf(stderr, "tracetty: diff: steps matched by position: %s has %zu, %s has %zu\n",
                tt_text_safe(spec->side[0].label, sa, sizeof sa), r->steps[0]->n,
                tt_text_safe(spec->side[1].label, sb, sizeof sb), r->steps[1]->n);
    }
    if (o->table != TABLE_NAMES)
        return 0;
    if (tt_diff_compute(r->side[0], r->side[1], o->normalize ? tt_name_normalize : NULL, &r->d,
                        &err)) {
        tt_cli_error("diff: %s", err.what);
        return -1;
    }
    /* without launch links there is no device time to compare */
    if (o->kind == TT_DIFF_OPERATORS && !o->lo.quiet)
        fprintf(stderr, "tracetty: diff: operators: Total is %s Total for A, %s Total for B\n",
                tt_diff_side_device(r->side[0]) ? "Device" : "Host",
                tt_diff_side_device(r->side[1]) ? "Device" : "Host");
    if (r->d->n > 0 && tt_diff_common(r->d) == 0)
        tt_cli_warn("diff: A and B have no %s name in common", o->kind_name);
    return 0;
}

static int diff_write(FILE *f, const tt_diffout_opts *wo, const diff_opts *o,
                      const diff_result *r, tt_error *err)
{
    switch (o->table) {
    case TABLE_GPU: return tt_diffout_gpu(f, wo, &r->gpu[0], &r->gpu[1], err);
    case TABLE_STEPS: return tt_diffout_steps(f, wo, r->steps[0], r->steps[1], err);
    default: return tt_diffout_names(f, wo, r->d, err);
    }
}

/* `tracetty diff A B` with a person at a terminal and nothing asked of
 * the table (no --kind, --by, --format, -o, --fail-if, --normalize):
 * the compare view, as `tracetty TRACE` opens the timeline. */
static bool diff_wants_view(const diff_opts *o)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !o->kind_given && !o->has_key &&
           !o->format_given && !o->out_path && !o->gate.n && !o->normalize;
}

/* --scaling RUN... (cli/diff_scaling.h): N runs instead of A and B. */
static int diff_scaling(const diff_opts *o, const tt_cli_opts *p)
{
    tt_diff_scaling_opts so = {o->weak, o->format, o->out_path, &o->lo};
    if (!o->scaling || o->gate.n || o->normalize || o->n_ranks || o->n_steps || o->has_key ||
        o->table != TABLE_NAMES || o->kind != TT_DIFF_OPS)
        return usage_error(o->scaling ? "--scaling takes runs only: no --fail-if, --normalize, "
                                        "--kind, --by, --rank or --step"
                                      : "--weak goes with --scaling");
    /* a terminal gets the text table unless a format is asked, as A B */
    if (!o->format_given && !(o->out_path && strcmp(o->out_path, "-") != 0) &&
        isatty(fileno(stdout)))
        so.format = TT_OUT_TEXT;
    return tt_diff_scaling(p->operands, p->n_operands, &so);
}

/* The --fail-if conditions over what was compared (cli/diff_gate.h):
 * TT_EXIT_OK, TT_EXIT_FINDINGS or TT_EXIT_ERROR. */
static int diff_gate(const diff_opts *o, const tt_din_inputs *in, const diff_result *r)
{
    tt_diff_gate_in gin;
    memset(&gin, 0, sizeof gin);
    for (int i = 0; i < 2; i++) {
        gin.tr[i] = in->tr[i];
        gin.sel[i] = in->sel[i];
    }
    gin.diff = r->d;
    gin.kind = o->kind;
    gin.by_name = !o->has_key;
    gin.map = o->normalize ? tt_name_normalize : NULL;
    return tt_diff_gate_check(&o->gate, &gin, o->lo.quiet);
}

static int diff_exec(int argc, char **argv)
{
    diff_opts o;
    tt_cli_opts p;
    tt_din_spec spec;
    tt_din_inputs in;
    diff_result res;
    tt_diffout_opts wo;
    tt_error err;
    tt_atomic out;
    bool to_file, view;
    FILE *f = stdout;
    char by[TT_KEY_ARG_MAX + 8];
    int rc = TT_EXIT_ERROR, pr;

    if ((pr = parse_options(argc, argv, &o, &p)) || o.scaling || o.weak) {
        rc = pr ? (pr > 0 ? TT_EXIT_OK : TT_EXIT_ERROR) : diff_scaling(&o, &p);
        tt_diff_gate_fini(&o.gate);
        return rc;
    }
    tt_error_clear(&err);
    if (tt_din_spec_parse(p.operands, p.n_operands, o.ranks, o.n_ranks, o.steps, o.n_steps,
                          &spec, &err)) {
        tt_diff_gate_fini(&o.gate);
        return usage_error(err.what);
    }
    view = diff_wants_view(&o);
    /* the view shows every event's details and the rules read arguments */
    o.lo.skip = view || tt_diff_gate_needs_all(&o.gate) ? 0 : diff_skips(&o, &spec);
    if (tt_din_load("diff", &spec, &o.lo, &in)) {
        tt_diff_gate_fini(&o.gate);
        tt_din_spec_fini(&spec);
        return TT_EXIT_ERROR;
    }
    memset(&res, 0, sizeof res);
    if (view) {
        rc = tt_diff_view_run(&spec, &in) ? TT_EXIT_ERROR : TT_EXIT_OK;
        goto done;
    }
    if (diff_compute(&o, &spec, &in, &res))
        goto done;
    memset(&wo, 0, sizeof wo);
    wo.format = o.format;
    wo.utf8 = tt_text_utf8();
    wo.kind = o.kind_name;
    if (o.table == TABLE_NAMES && o.kind == TT_DIFF_OPS)
        wo.by = o.has_key ? tt_key_str(&o.key, by, sizeof by) : "name";
    wo.a = spec.side[0].label;
    wo.b = spec.side[1].label;
    if (o.table == TABLE_NAMES && o.kind == TT_DIFF_OPERATORS) {
        wo.total_a = tt_diff_side_device(res.side[0]) ? "device" : "host";
        wo.total_b = tt_diff_side_device(res.side[1]) ? "device" : "host";
    }
    to_file = o.out_path && strcmp(o.out_path, "-") != 0;
    if (to_file) {
        tt_cli_catch_fatal_signals();
        if (tt_atomic_open(&out, o.out_path, &err)) {
            char safe[600];
            tt_cli_error("diff: %s", tt_text_safe(err.what, safe, sizeof safe));
            goto done;
        }
        f = tt_atomic_file(&out);
    } else {
        /* real bytes go to files and pipes; a terminal gets escapes, and
         * the text table unless a format is asked */
        wo.sanitize = isatty(fileno(stdout));
        if (wo.sanitize && !o.format_given)
            wo.format = TT_OUT_TEXT;
    }
    if (diff_write(f, &wo, &o, &res, &err)) {
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
    rc = o.gate.n ? diff_gate(&o, &in, &res) : TT_EXIT_OK;
done:
    tt_diff_gate_fini(&o.gate);
    result_fini(&res);
    tt_din_inputs_fini(&in);
    tt_din_spec_fini(&spec);
    return rc;
}

const tt_command tt_cmd_diff = {
    .name = "diff",
    .usage = "diff [--kind ops|kernels|operators|gpu|steps] [--by KEY] [--rank N [--rank M]] "
             "[--step N [--step M]] [--normalize] [--fail-if COND]... [--format csv|json|text] "
             "[-o FILE] A[@FROM:TO|@markers:SET:A:B] [B[@...]] (A, B: a file, or DIR:N for rank "
             "N)\n"
             "       diff --scaling [--weak] [--format csv|json|text] [-o FILE] RUN RUN...",
    .help = "what changed between two traces: per name counts and totals, with deltas",
    .exec = diff_exec,
};
