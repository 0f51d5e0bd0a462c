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
 * A box over the lanes of several ranks (the combined view) writes the
 * same tables with every rank in each: a leading Trace column (the rank's
 * file) and one group of rows per rank, as `tracetty report --kind K
 * FILE...` writes several traces (the gpu table adds the Rank column).
 * Each rank's rows are those of its own part of the box: its window on
 * its own clock and its lanes in the box, i.e. what `tracetty report
 * --window A:B --lanes ... FILE` prints for that rank alone.
 *
 * A box in the collectives view writes one table, the rows of `tracetty
 * report --kind collectives` (same columns, same order, same alignment)
 * of the collectives in the box.
 *
 * Kept apart from the drawing code: the report writer's cell type and the
 * grid's share a name. Library code: writes only the file it is given.
 */
#ifndef TT_TUI_BOXEXPORT_H
#define TT_TUI_BOXEXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "report/collrows.h"
#include "util/error.h"

/* Write the tables of selection sel grouped by key to path. 0, or non-zero
 * with err set (nothing is left at path then). */
int tt_box_export(const char *path, const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                  bool transfers, bool gpu, tt_error *err);

/* One rank's part of a box over several ranks (all borrowed). */
typedef struct tt_box_part {
    const tt_trace *tr;
    const char     *name;       /* its Trace cell: the file as found */
    size_t          position;   /* its place in the job (the rank of last resort) */
    const tt_sel   *sel;        /* its window (own clock) and lanes */
} tt_box_part;

/* Write the tables of a box over parts[0..n) (see above); transfers and
 * gpu: whether those tables are written. 0, or non-zero with err set. */
int tt_box_export_ranks(const char *path, const tt_box_part *parts, size_t n, const tt_key *key,
                        bool transfers, bool gpu, tt_error *err);

/* One row of `tracetty report --kind collectives` (strings borrowed). */
typedef tt_coll_row tt_box_coll;   /* report/collrows.h */

/* Write rows[0..n), in the order given, as that report's table. */
int tt_box_export_colls(const char *path, const tt_box_coll *rows, size_t n, tt_error *err);

/* The default file name for a box of the trace at trace_path:
 * TRACE.box-FROM-TO.csv beside the trace, or in the current directory when
 * the trace's directory is not writable (or the trace came from stdin).
 * from/to are relative to the trace start. Returns buf. */
const char *tt_box_export_default(const char *trace_path, int64_t from, int64_t to, char *buf,
                                  size_t n);

/* The same with another word than "box" (TRACE.WHAT-FROM-TO.csv), e.g.
 * "ranks-box" for a box over several ranks beside the first one's file. */
const char *tt_box_export_default_as(const char *trace_path, const char *what, int64_t from,
                                     int64_t to, char *buf, size_t n);

#endif
