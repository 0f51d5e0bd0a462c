/* ncu_kernels.h - the Nsight Compute kernel table of a trace decoded from
 * `ncu --csv` (decode/ncu.c keeps it in tr->meta under "ncu"), per kernel
 * name: calls and the means (duration also min/max) of the metrics people
 * read first, and the roofline position.
 *
 * Per profiled kernel (one launch ncu replayed), each value is read from
 * the first metric that gives it, in ncu's section names or metric ids:
 *   duration     "Duration" (GPU Speed Of Light) or gpu__time_duration.sum, in ns
 *   sm %         "Compute (SM) Throughput" or sm__throughput.avg.pct_of_peak_sustained_elapsed
 *   memory %     "Memory Throughput" in % or
 *                gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
 *   dram bytes   dram__bytes.sum, else dram__bytes_read.sum + dram__bytes_write.sum
 *                (or the _op_read/_op_write pair), in bytes
 *   dram GB/s    dram bytes / duration
 *   occupancy    "Achieved Occupancy" or sm__warps_active.avg.pct_of_peak_sustained_active
 *   registers    "Registers Per Thread" or launch__registers_per_thread
 *   block, grid  "Block Size"/"Grid Size" (Launch Statistics) or launch__block_size /
 *                launch__grid_size, else the product of the "(x, y, z)" columns
 *   flop         ncu's roofline count: 2 x FMA + ADD + MUL thread instructions
 *                (sm__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on.sum)
 *   flop time    duration, else sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second
 *                (what ncu's roofline divides by)
 * Names are decode/ncu.c's keys: the metric's name, or "Section: Name"
 * for a later metric of the same name. A metric asked by name (--metric)
 * is read as it is, times in ns and
 * sizes in bytes (ncu scales units per value: "Mbyte" here, "byte" there).
 * A name's value is the mean over its kernels that have it (absent: none).
 * Arithmetic intensity is mean flop / mean dram bytes, FLOP/s mean flop /
 * mean flop time; a name is "compute" bound when its mean SM throughput is
 * at least its mean memory throughput, else "memory" (ncu's Speed Of Light
 * reading).
 *
 * Library code: nothing printed. The table owns its rows; names point into
 * the trace's metadata (valid while the trace lives).
 */
#ifndef TT_ANALYSIS_NCU_KERNELS_H
#define TT_ANALYSIS_NCU_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "util/error.h"

/* Mean of the values seen (n of them; none when n == 0). */
typedef struct tt_ncu_stat {
    size_t n;
    double sum, min, max;
} tt_ncu_stat;

enum {
    TT_NCU_DURATION = 0,
    TT_NCU_SM_PCT,
    TT_NCU_MEM_PCT,
    TT_NCU_DRAM_BYTES,
    TT_NCU_DRAM_BW,      /* bytes per ns = GB/s */
    TT_NCU_OCCUPANCY,
    TT_NCU_REGISTERS,
    TT_NCU_BLOCK,
    TT_NCU_GRID,
    TT_NCU_FLOP,
    TT_NCU_FLOP_TIME,    /* ns */
    TT_NCU__N
};

typedef struct tt_ncu_row {
    const char *name;            /* kernel name (in the trace's metadata) */
    size_t      calls;
    tt_ncu_stat v[TT_NCU__N];
    tt_ncu_stat *extra;          /* per asked metric (tt_ncu_table_build) */
} tt_ncu_row;

typedef struct tt_ncu_table {
    tt_ncu_row *rows;            /* by total duration, longest first; then name */
    size_t      n_rows;
    size_t      n_kernels;       /* profiled kernels */
    size_t      n_metrics;       /* metric values */
    size_t      n_extra;
    const char *page;            /* "details" or "raw" */
} tt_ncu_table;

/* Whether tr was decoded from ncu's CSV (holds the table). */
bool tt_ncu_present(const tt_trace *tr);

/* Build the table of tr, with the means of the metrics named in
 * extra[0..n_extra) (ncu metric names, as in its "Metric Name" column or
 * raw-page header; numbers only). 0, or -1 with err set. */
int tt_ncu_table_build(const tt_trace *tr, const char *const *extra, size_t n_extra,
                       tt_ncu_table *t, tt_error *err);

void tt_ncu_table_fini(tt_ncu_table *t);

struct cJSON;

/* Add every value of one profiled kernel k (an element of the "kernels"
 * array decode/ncu.c writes) to the stats of r, and the metrics named in
 * extra[0..n_extra) to r->extra (which must hold n_extra stats); calls is
 * left to the caller. What a timeline joined to ncu's metrics
 * (analysis/ncu_join.h) sums per kernel name too. */
void tt_ncu_kernel_values(const struct cJSON *k, tt_ncu_row *r, const char *const *extra,
                          size_t n_extra);

static inline bool tt_ncu_has(const tt_ncu_stat *s) { return s->n > 0; }
static inline double tt_ncu_mean(const tt_ncu_stat *s) { return s->sum / (double)s->n; }

#endif
