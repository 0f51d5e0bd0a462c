/* merge.h - combine CSV reports made rank by rank (`tracetty merge-reports`).
 *
 * When one machine is not enough, `tracetty report --kind gpu|ranks|
 * collectives` runs once per rank file under a scheduler, and the CSVs are
 * merged here into what one run over all the files would have printed:
 *   gpu          rows sorted by Rank
 *   ranks        rows sorted by Rank; "Step vs Median (%)" and
 *                "Computation vs Median (%)" recomputed over all ranks
 *   collectives  "Start Offset (ns)", "Wait (ns)" and "Ranks" recomputed per
 *                (Collective, Sequence) over all ranks, assuming the ranks'
 *                clocks share a base (as --align absolute); rows in the
 *                order of report --kind collectives
 * Any other report with identical headers is concatenated in file order.
 * Every input must have the same header, and in the gpu, ranks and
 * collectives kinds each rank's rows must come from one file. The output
 * is RFC 4180 CSV written by the report writer's rules (writer.h): text
 * cells quoted with the formula guard, made terminal-safe with sanitize.
 *
 * Library code: reads the named files, writes only to the FILE given.
 */
#ifndef TT_REPORT_MERGE_H
#define TT_REPORT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

/* Merge the CSV files paths[0..n) onto out; sanitize when out is a
 * terminal. Errors name the file and, for malformed CSV, the row. */
int tt_merge_reports(const char *const *paths, size_t n, FILE *out, bool sanitize,
                     tt_error *err);

#endif
