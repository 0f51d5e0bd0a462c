/* ncu_join.h - Nsight Compute metrics (`ncu --csv`, decode/ncu.c) joined
 * to the kernels of a timeline (Kineto, nsys), for `--metrics FILE`.
 *
 * ncu replays each kernel on its own and records no timestamps, so a
 * profiled launch is matched to a timeline kernel never by time, but by:
 *
 *   1. name key (tt_ncu_name_key): the tools print one kernel differently
 *      (ncu "void at::native::vectorized_elementwise_kernel<(int)4, ...>
 *      (int, T2, T3)", cut short, or "<unnamed>::" where Kineto writes
 *      "(anonymous namespace)::" and the template arguments in full), so
 *      both sides are reduced to the function's own name: the return type
 *      and "void " before it, template arguments (a '<...>' group, nested
 *      and with parentheses inside, or an unclosed '<' and all after it),
 *      namespaces and classes ("a::b::" before it, "(anonymous
 *      namespace)::" included) and the parameter list (the first '(...)'
 *      not followed by "::") are dropped; what stays is the last
 *      identifier (letters, digits, '_') before the parameter list:
 *      "vectorized_elementwise_kernel", "ampere_sgemm_128x64_nn". The
 *      name normalisation of diff (normname.h) is not used: it keeps the
 *      parameter lists, which the tools print differently, and it strips
 *      digits that here tell kernels apart (..._sm80). Mangled names
 *      (_Z...) match only as they are.
 *   2. launch ordinal within the key: the k-th profiled launch of a key
 *      (ncu's "ID" order, the order ncu met the launches) is the k-th
 *      launch of it on the timeline, in launch order: by correlation id
 *      when every kernel of the timeline has one (the host's launch
 *      order, which device start times across streams need not keep),
 *      else by start time (then lane).
 *   3. launch shape: when both have grid and block sizes (ncu's "Grid
 *      Size"/"Block Size" columns, "(x, y, z)"; Kineto's "grid"/"block"
 *      arguments, [x, y, z]; nsys' gridX..blockZ), they must be equal,
 *      else the pair is not matched (counted as a shape mismatch): the
 *      ordinals of that key then disagree, and metrics are better absent
 *      than wrong.
 *
 * Timeline kernels are those of kernels.h (device lanes, kernel or
 * collective category). A profiled launch beyond the timeline's count
 * of its key, or whose key the timeline lacks, stays unmatched.
 *
 * Who owns what: tt_ncu_join_attach() takes the ncu trace and keeps it
 * (with a side table: matched event -> profiled kernel, sorted by event)
 * in tr->aux_ncu; tt_trace_free(tr) frees both. Everything returned
 * points into it and lives as long as tr. Library code: no I/O.
 */
#ifndef TT_ANALYSIS_NCU_JOIN_H
#define TT_ANALYSIS_NCU_JOIN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "util/error.h"

struct cJSON;

/* How a join went. */
typedef struct tt_ncu_join_stats {
    size_t profiled;        /* launches in the ncu file (M) */
    size_t matched;         /* of them attached to a timeline kernel (N) */
    size_t names;           /* distinct name keys in the ncu file */
    size_t names_unmatched; /* of them with no timeline kernel at all (K) */
    size_t beyond;          /* launches past the timeline's count of their key */
    size_t shape_mismatch;  /* pairs whose grid/block sizes differ */
    size_t timeline;        /* kernels on the timeline */
} tt_ncu_join_stats;

/* The name key of a kernel name (rules above) into out (cap bytes, NUL
 * terminated, cut when longer); returns its length. An empty key when the
 * name holds no identifier. */
size_t tt_ncu_name_key(const char *name, char *out, size_t cap);

/* Join ncu (a trace decoded from ncu's CSV, tt_ncu_present()) to the
 * kernels of tr (finalized, with its arguments, not partial) and attach
 * the result to tr, replacing an earlier one. Takes ncu in every case
 * (freed on failure). 0, or -1 with err set: TT_ERR_FORMAT when ncu is
 * not an ncu table, TT_ERR_NOMEM. */
int tt_ncu_join_attach(tt_trace *tr, tt_trace *ncu, tt_error *err);

/* Whether tr has joined metrics, and how the join went (NULL: none). */
const tt_ncu_join_stats *tt_ncu_join_stats_of(const tt_trace *tr);

/* The profiled kernel matched to event ev of tr ({"id", "name", "block",
 * "grid", "metrics", "units"} as decode/ncu.c writes it), or NULL. */
const struct cJSON *tt_ncu_join_kernel(const tt_trace *tr, tt_evref ev);

/* The details of ev's profiled kernel as an object of text lines for the
 * view's details panel: the key values first (Duration, SM and memory
 * throughput, achieved occupancy, registers, DRAM bytes, block, grid),
 * then every metric of the file with its unit. NULL when ev has none or
 * out of memory; the caller frees it (cJSON_Delete). */
struct cJSON *tt_ncu_join_details(const tt_trace *tr, tt_evref ev);

#endif
