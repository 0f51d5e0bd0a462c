/* kind_kernels.h - `report --kind kernels`: one row per device kernel name
 * (classify.h's kernel and collective categories; copies and memsets are
 * not kernels), TensorBoard's kernel view plus who launched it:
 *
 *   Calls, Total (ns), Mean (ns), Min (ns), Max (ns), Total (%),
 *   Launch Op, Launch Op Calls, Launch Ops, Mean Blocks per SM,
 *   Mean Est. Achieved Occupancy (%), Tensor Cores Used, Name
 *
 * A kernel counts when the selection holds it (its lane selected,
 * overlapping the window), with its whole duration. Launch Op: the name of
 * the launch op (analysis/attrib.h) that launched the most of the name's
 * kernels (ties: the first name in byte order), Launch Op Calls how many
 * it launched, Launch Ops the number of distinct launch op names (empty
 * cells without launch links). Blocks per SM: the kernel's own "blocks per
 * SM" argument, else its "grid" (x*y*z) over the SM count (numSms) of its
 * "device" in the trace's deviceProperties; occupancy: its "est. achieved
 * occupancy %". Both are means weighted by duration over the name's
 * kernels, a kernel without the value counting as 0 (TensorBoard's
 * fillna(0)); empty when no kernel of the name has it. Tensor Cores Used:
 * "Yes" when the name contains one of TensorBoard's patterns (h884, s1688,
 * hmma, 16816, xmma_gemm, ...), "No" otherwise, empty when the trace's
 * launches are not CUDA's. Sorted by total time, descending (ties by
 * name). Arguments are read in storage order (analysis/argvals.h).
 *
 * With Nsight Compute metrics joined to the trace (--metrics,
 * tt_report_opts.ncu_join, analysis/ncu_join.h), after Tensor Cores Used:
 * Profiled Calls (the name's kernels in the selection with a profiled
 * launch) and the metric columns of report/ncu_report.h (Mean Duration
 * ... Bound, one per --metric name), each the mean over those launches,
 * empty when none; Name stays last.
 *
 * Library code: rows go to the writer; nothing else is printed.
 */
#ifndef TT_REPORT_KIND_KERNELS_H
#define TT_REPORT_KIND_KERNELS_H

#include <stdbool.h>

/* The kind itself is the row tt_kind_kernels of the kinds table (kind.h):
 * no --by, no --sort (it groups by kernel name). */

/* Does a kernel name use tensor cores (TensorBoard's TC_Allowlist)? */
bool tt_kernel_uses_tensor_cores(const char *name);

#endif
