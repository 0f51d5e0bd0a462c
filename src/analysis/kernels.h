/* kernels.h - the device kernels of a selection and their per-name sums:
 * the rows `report --kind kernels` (report/kind_kernels.c) writes and
 * `diff --kind kernels` (analysis/diff.h) compares, one computation for
 * both.
 *
 * A kernel: an event of a device lane (attrib.h) of classify.h's kernel or
 * collective category (copies and memsets are not kernels). It counts when
 * the selection holds it (its lane selected, overlapping the window), with
 * its whole duration.
 *
 * Library code: no I/O. Ownership: the caller owns what it is given
 * (free() / tt_kernel_sums_fini()).
 */
#ifndef TT_ANALYSIS_KERNELS_H
#define TT_ANALYSIS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

/* The kernels of the selection, lane by lane in start order: *out is
 * malloc'ed (NULL when none). 0, or -1 with err set (out of memory). */
int tt_kernels_collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel, tt_evref **out,
                       size_t *n, tt_error *err);

typedef struct tt_kernel_sum {
    uint64_t calls;
    tt_ns    total, min, max;   /* of the whole durations */
} tt_kernel_sum;

typedef struct tt_kernel_sums {
    tt_evref      *ev;       /* the kernels (tt_kernels_collect) */
    size_t         n_ev;
    tt_kernel_sum *by_name;  /* indexed by the name's string id */
    uint32_t      *names;    /* the names with calls, first-seen order */
    size_t         n;
    tt_ns          sum;      /* of every kernel's duration */
} tt_kernel_sums;

/* The kernels of the selection and their sums by name. 0, or -1 with err
 * set; s is then empty (fini still allowed). */
int tt_kernel_sums_compute(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel,
                           tt_kernel_sums *s, tt_error *err);
void tt_kernel_sums_fini(tt_kernel_sums *s);

/* Order s->names by total descending, ties by name in byte order (the
 * order of the kernels report). 0, or -1 with err set (out of memory). */
int tt_kernel_sums_sort(const tt_trace *tr, tt_kernel_sums *s, tt_error *err);

#endif
