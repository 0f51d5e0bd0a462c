/* diffview.h - `tracetty diff A B` at a terminal: the compare view of the
 * two loaded inputs (cli/compare.c, tui/cmpview.h). Apart from compare.h
 * so that cmd_diff.c, which writes tables with report/writer.h, need not
 * see the terminal's headers (both name a tt_cell).
 */
#ifndef TT_CLI_DIFFVIEW_H
#define TT_CLI_DIFFVIEW_H

#include "cli/diffinput.h"

/* Run the compare view of in (A above B, named as spec says them) with the
 * default warning rules on both halves, start-aligned. When a signal ended
 * it, raise that signal again once the terminal is restored (as `view`
 * does). 0, or -1 after printing why. */
int tt_diff_view_run(const tt_din_spec *spec, const tt_din_inputs *in);

#endif
