/* diffinput.h - the two inputs of a comparison (`tracetty diff A B`, the
 * compare view): what the user wrote, parsed into a spec, then loaded and
 * resolved into one trace and one selection per side.
 *
 * An input is anything tracetty loads (a file of any format, a .ttz), with
 * optionally:
 *   DIR:N                  rank N of a directory of ranks (the rank its
 *                          file name gives, else its position, as report
 *                          numbers them); also DIR with --rank N
 *   TRACE@FROM:TO          a window, times as --window takes them
 *   TRACE@markers:SET:A:B  the interval between markers A and B of the
 *                          trace's marker set SET (A and B may be times)
 *   --step N               the step ProfilerStep#N (analysis/steps.h:
 *                          widened to the device work it launched)
 * Two inputs, or one with two --rank or two --step: the two sides are then
 * ranks or steps of that one input. One --rank or --step with two inputs
 * applies to both; two with two inputs go one to each. An operand that
 * exists as a file is always a file (a name may hold '@' or ':').
 * Two sides naming the same file and rank share one loaded trace.
 *
 * Who owns what: a spec owns copies of the strings it keeps; the inputs own
 * their traces (both sides may point at one) and labels. CLI code: loading
 * and resolving print what went wrong ("tracetty: ..."), as every loader of
 * cli.h does, and return -1; nothing is written to stdout.
 */
#ifndef TT_CLI_DIFFINPUT_H
#define TT_CLI_DIFFINPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "cli/cli.h"
#include "model/trace.h"
#include "util/error.h"

typedef enum tt_din_region {
    TT_DIN_WHOLE = 0,
    TT_DIN_WINDOW,
    TT_DIN_MARKERS,
    TT_DIN_STEP
} tt_din_region;

typedef struct tt_din_side {
    char          *path;      /* file or directory (owned) */
    int64_t        rank;      /* of a directory; -1 = path is the trace */
    tt_din_region  region;
    tt_window_spec window;    /* TT_DIN_WINDOW */
    char          *set, *ma, *mb;   /* TT_DIN_MARKERS (owned) */
    char          *step;      /* TT_DIN_STEP: N of ProfilerStep#N (owned) */
    char          *label;     /* what the user wrote, for headings (owned) */
} tt_din_side;

typedef struct tt_din_spec {
    tt_din_side side[2];
} tt_din_spec;

/* Parse the operands and the --rank and --step values (as given, in
 * order) into spec. 0, or -1 with err set (TT_ERR_USAGE: too many or too
 * few inputs, a region that does not parse; TT_ERR_NOMEM). */
int tt_din_spec_parse(char *const *operands, size_t n, char *const *ranks, size_t n_ranks,
                      char *const *steps, size_t n_steps, tt_din_spec *spec, tt_error *err);
void tt_din_spec_fini(tt_din_spec *spec);   /* a zeroed spec is fine */

/* Does a side need the trace's argument records (a --step: the steps of a
 * trace without ProfilerStep come from its "Step Id" argument)? */
bool tt_din_spec_reads_args(const tt_din_spec *spec);

typedef struct tt_din_inputs {
    tt_trace       *owned[2];   /* the loaded traces; owned[1] NULL when one serves both */
    const tt_trace *tr[2];      /* side i's trace */
    tt_sel          sel[2];     /* side i's window, every lane */
    char           *file[2];    /* side i's file (a directory's rank resolved; owned) */
} tt_din_inputs;

/* Load the traces of spec (with lo's options) and resolve each side's
 * region: a rank, set, marker or step that does not exist is an error
 * naming those that do. 0, or -1 after printing why, prefixed "CMD: "
 * (in is then empty). */
int tt_din_load(const char *cmd, const tt_din_spec *spec, const tt_cli_load *lo,
                tt_din_inputs *in);
void tt_din_inputs_fini(tt_din_inputs *in);   /* a zeroed one is fine */

#endif
