/* kind_operators.h - `report --kind operators`: per operator name, its
 * calls and host and device time (analysis/attrib.h), PyTorch's
 * key_averages() numbers:
 *
 *   Name, Calls, Host Self (ns), Host Total (ns), Device Self (ns),
 *   Device Total (ns), Host Self Avg (ns), Host Total Avg (ns),
 *   Device Self Avg (ns), Device Total Avg (ns), Host Self (%),
 *   Host Total (%), Device Self (%), Device Total (%) [, Input Shapes]
 *
 * Operators: every event of a host lane (a lane with no device event) that
 * is not an instant and not a Python frame (category python_function):
 * framework ops, user annotations, steps and runtime calls alike, as
 * key_averages() lists them. An instance counts when the selection holds it
 * (its lane selected, overlapping the window); its times are its own,
 * whole: host self and total, device self (device events it is the launch
 * op of) and total (launched anywhere under it). A name nested in itself
 * counts each instance's total. Host shares are of the sum of host self
 * times of the table, device shares of the sum of device self times (the
 * device time the table's ops launched), as PyTorch's table divides.
 *
 * Grouping: by name (default), by name and "Input Dims" (`--by shape`,
 * with an Input Shapes column), or by any key.h key (the Name cell then
 * holds its value). Sorted by device self time, or --sort host-self,
 * host-total, device-total, calls (descending; ties by name).
 *
 * --format text prints PyTorch's `key_averages().table()` layout (column
 * widths, separators, times in us/ms/s with 3 decimals, "Self CPU time
 * total" lines; "CUDA" becomes "NPU" or "Device" for other devices; all
 * rows). Without launch links the device cells are empty (text: no device
 * columns) and the caller says so (tt_kind_attrib_note()).
 *
 * Library code: rows go to the writer; nothing else is printed.
 */
#ifndef TT_REPORT_KIND_OPERATORS_H
#define TT_REPORT_KIND_OPERATORS_H

#include <stddef.h>

#include "model/trace.h"

/* The kind itself is the row tt_kind_operators of the kinds table
 * (kind.h): columns (Input Shapes only with --by shape), the --sort check
 * and the rows (format text: the whole table as the text after it). */

/* Why device cells are empty (the trace_note of operators and kernels):
 * "no launch links in this trace (N device events, none linked to a host
 * call)" into buf and 1, or 0 when the trace has links; -1 out of memory. */
int tt_kind_attrib_note(const tt_trace *tr, char *buf, size_t cap);

#endif
