/* boxexport.h - write the statistics panel's tables of a box to a CSV file.
 *
 * The file holds, one after the other and separated by an empty line, the
 * tables `tracetty report` writes for the box's window and lanes:
 *   --kind ops --by KEY   (the panel's current grouping)
 *   --kind lanes
 *   --kind transfers      (when something in the box carries bytes)
 *   --kind gpu            (when the lanes hold GPU work)
 * each byte for byte as the report writes it (report/report.h, RFC 4180
 * CSV), so a script can split the file at empty lines and read each table
 * like the report's. The file is written atomically (io/atomic.h): it
 * appears whole or not at all.
 *
 * Kept apart from the drawing code: the report writer's cell type and the
 * grid's share a name. Library code: writes only the file it is given.
 */
#ifndef TT_TUI_BOXEXPORT_H
#define TT_TUI_BOXEXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

/* Write the tables of selection sel grouped by key to path. 0, or non-zero
 * with err set (nothing is left at path then). */
int tt_box_export(const char *path, const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                  bool transfers, bool gpu, tt_error *err);

/* The default file name for a box of the trace at trace_path:
 * TRACE.box-FROM-TO.csv beside the trace, or in the current directory when
 * the trace's directory is not writable (or the trace came from stdin).
 * from/to are relative to the trace start. Returns buf. */
const char *tt_box_export_default(const char *trace_path, int64_t from, int64_t to, char *buf,
                                  size_t n);

#endif
