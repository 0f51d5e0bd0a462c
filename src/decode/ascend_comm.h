/* ascend_comm.h - the communication side files of an Ascend profiler
 * output: communication.json (per step and op: the time info, Elapse,
 * Transit, Wait, Synchronization, Idle) and communication_matrix.json (per
 * step and op: one link per source and destination rank with its transport
 * type, size, time and bandwidth), which sit beside the rank's
 * trace_view.json in ASCEND_PROFILER_OUTPUT/.
 *
 * Units stay the files': ms, MB, GB/s (MB/ms), start timestamps in us.
 * Totals follow msprof-analyze's cluster analysis (tt_comm_counts_in_total):
 * the aggregates the profiler writes for many ops of one kind ("-top1",
 * "-middle", "-bottom2") are left out, every other op (and a "-total"
 * aggregate) is summed, and a total's bandwidth is its size over its time.
 *
 * Who owns what: a tt_comm owns every string and array in it; free it with
 * tt_comm_free (NULL is a no-op). These functions read files (like the
 * decoders) and never print.
 */
#ifndef TT_DECODE_ASCEND_COMM_H
#define TT_DECODE_ASCEND_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct tt_comm_op {
    char  *step;        /* "step50" */
    char  *type;        /* "collective" or "p2p" */
    char  *op;          /* the op's name before '@' */
    char  *group;       /* after '@' (the group's hash), "" when none */
    bool   has_start;
    double start_us;    /* Start Timestamp(us) */
    double elapse_ms, transit_ms, wait_ms, sync_ms, idle_ms;
    bool   has_elapse;  /* Elapse, Synchronization and Idle are known */
} tt_comm_op;

typedef struct tt_comm_link {
    char   *step, *type, *op, *group;
    int64_t src, dst;          /* "SRC-DST" of the file (ranks in the group) */
    char   *transport;         /* HCCS, PCIE, RDMA, SDMA, SIO, LOCAL, ... */
    char   *op_name;           /* "Op Name": the op an aggregate row comes from */
    double  size_mb, time_ms, bw_gbs;
} tt_comm_link;

typedef struct tt_comm {
    tt_comm_op   *ops;
    size_t        n_ops, cap_ops;
    tt_comm_link *links;
    size_t        n_links, cap_links;
    bool          has_time;    /* communication.json was read */
    bool          has_matrix;  /* communication_matrix.json was read */
} tt_comm;

/* What tt_comm_load_dir found. */
enum { TT_COMM_NONE = 0, TT_COMM_FOUND = 1 };

/* Which files it reads. */
enum { TT_COMM_TIME = 1, TT_COMM_MATRIX = 2 };

/* Read communication.json (with TT_COMM_TIME in which) and
 * communication_matrix.json (TT_COMM_MATRIX) from directory dir (either
 * may be missing) into a new *out. Returns TT_COMM_FOUND with
 * *out set when at least one was there, TT_COMM_NONE (*out NULL) when
 * neither is, -1 with err set when one cannot be read or is malformed:
 * the message names the file and where (line and column, or the JSON
 * path of the member that is missing or of the wrong type). */
int tt_comm_load_dir(const char *dir, unsigned which, tt_comm **out, tt_error *err);

/* The directory part of path into buf ("." when it has none); buf. */
const char *tt_comm_dirname(const char *path, char *buf, size_t cap);

/* Read one file of either JSON kind (by its top-level content: a link
 * object "SRC-DST" makes it a matrix) into c. 0, or -1 with err set. */
int tt_comm_load_json(tt_comm *c, const char *path, bool matrix, tt_error *err);

/* Whether msprof-analyze adds op into a step's "Total Op Info": not a
 * top/middle/bottom aggregate (a "total" aggregate is added). */
bool tt_comm_counts_in_total(const char *op);

/* a / b, 0 when b is 0 (msprof-analyze's compute_ratio, which rounds to
 * 4 decimals: the reports print 4): bandwidth (MB/ms = GB/s) and the
 * wait and synchronization ratios. */
double tt_comm_ratio(double a, double b);

/* A link's total over the ops of one step, type and group. */
typedef struct tt_comm_total {
    const tt_comm_link *group;      /* the group's first link (step, type, group) */
    int64_t             src, dst;
    const char         *transport;  /* the last op's (msprof-analyze's choice) */
    double              size_mb, time_ms, bw_gbs;
} tt_comm_total;

/* The totals of every link of c, grouped by step, type and group in the
 * order of their first link, the links of a group in the order they first
 * appear: *out (malloc'd, borrowing from c), *n_out. 0, or -1 (OOM). */
int tt_comm_link_totals(const tt_comm *c, tt_comm_total **out, size_t *n_out);

/* "SRC-DST" as two ranks (non-negative decimals); false when it is not. */
bool tt_comm_link_ranks(const char *key, int64_t *src, int64_t *dst);

/* Append *o (*l) to c, which then owns its strings. 0, or -1 out of
 * memory (the caller still owns them). For the readers of other files
 * that map onto these (decode/mindspore_hccl.h). */
int tt_comm_push_op(tt_comm *c, const tt_comm_op *o);
int tt_comm_push_link(tt_comm *c, const tt_comm_link *l);

/* Set l's six strings to copies; 0, or -1 out of memory (those copied
 * are then freed by tt_comm_link_fini, which frees all six). */
int tt_comm_link_names(tt_comm_link *l, const char *step, const char *type, const char *op,
                       const char *group, const char *transport, const char *op_name);
void tt_comm_link_fini(tt_comm_link *l);

void tt_comm_free(tt_comm *c);

#endif
