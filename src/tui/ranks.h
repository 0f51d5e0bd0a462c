/* ranks.h - the ranks of a job as the view holds them.
 *
 * `tracetty view DIR` (or several files) shows every trace as one rank of
 * a job: its tab (the full timeline of that rank), the combined view (the
 * device lanes of every rank on one time axis, each rank a group that
 * folds to one summary lane) and the collectives view (collview.h). Each
 * rank keeps what drawing and searching its trace needs: its rows per
 * depth (levels.h), counter maxima (spark.h), colors and legend counts
 * (timeline.h), folded groups in its tab, and, for the combined view, its
 * device lanes and the union of their busy time (busy.h, built the first
 * time the combined view is drawn). None of it copies events: memory grows
 * with the loaded events only.
 *
 * Time: each rank has an offset that puts its clock on the job's axis
 * (multi/rankset.h: aligned = own time + offset). Views work on the clock
 * of one rank at a time (the app's focus) and draw the others shifted by
 * the difference of the offsets.
 *
 * A device lane is one that holds a kernel, copy, memset, accelerator
 * instruction or collective (analysis/classify.h); communication is what
 * the classifier calls a collective.
 *
 * Ownership: a tt_vrank borrows its trace (which must outlive it) and owns
 * everything else. Library code: no I/O.
 */
#ifndef TT_TUI_RANKS_H
#define TT_TUI_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "tui/busy.h"
#include "tui/hilite.h"
#include "tui/layout.h"
#include "tui/levels.h"
#include "tui/search.h"
#include "tui/spark.h"
#include "tui/timeline.h"

typedef struct tt_vrank {
    const tt_trace *tr;
    int64_t        rank;          /* the rank number */
    tt_ns          off;           /* aligned = own time + off */
    char          *path;          /* its file (owned copy), NULL for stdin */
    char           file[256];     /* the file's base name, sanitized */
    const char    *source;        /* how its rank was found: "metadata", ... */
    tt_levels     *lv;
    tt_sparks     *sp;
    tt_tl          tl;
    bool          *collapsed;     /* per group, in its tab */
    uint8_t       *match;         /* search scratch (lazily) */
    uint8_t       *used[2];       /* search: ids in use per field (lazily) */
    uint32_t      *dev;           /* device lanes, in lane order */
    size_t         n_dev;
    bool           dev_groups;    /* device lanes in more than one group */
    bool           no_device;     /* no device work: dev holds every lane */
    bool           has_busy;      /* busy and comm are built */
    tt_busy        busy, comm;    /* union of the device work, of communication */
    tt_viewport    vp;            /* scratch: the app's window on this clock */
    size_t         cur, top;      /* its tab's cursor and first row, when left */
    bool           visited;       /* its tab was shown (cur, top are valid) */
    /* a highlight over several ranks (a breakdown row of a box over
     * ranks): this rank's part while another rank has the focus, and the
     * hits by row for drawing them (built for highlight xhl_id) */
    tt_hits        xhits;
    tt_hilite      xhl;
    uint64_t       xhl_id;
} tt_vrank;

/* path: the trace file (NULL or "-": none); source: a static string;
 * devices: find the device lanes (a pass over the host lanes' events; the
 * view of one trace needs none). 0, or -1 when out of memory (r is then
 * empty and can be finalized). */
int tt_vrank_init(tt_vrank *r, const tt_trace *tr, int64_t rank, tt_ns off, const char *path,
                  const char *source, bool devices);
void tt_vrank_fini(tt_vrank *r);

/* Build the busy unions (once). 0 or -1 on OOM. */
int tt_vrank_busy(tt_vrank *r);

/* The rank's aligned span. */
static inline tt_ns tt_vrank_t0(const tt_vrank *r) { return r->tr->t0 + r->off; }
static inline tt_ns tt_vrank_t1(const tt_vrank *r) { return r->tr->t1 + r->off; }

/* Is lane one of the rank's device lanes? O(log n). */
bool tt_vrank_is_dev(const tt_vrank *r, uint32_t lane);

/* Label of a device lane in the combined view (sanitized): the lane's
 * name, with its group's when the rank's device lanes span groups. */
const char *tt_vrank_lane_label(const tt_vrank *r, uint32_t lane, char *buf, size_t n);

/* Bytes the view holds for the rank (levels, busy unions, scratch). */
size_t tt_vrank_memory(const tt_vrank *r);

/* The n ranks' trace files as shell words for a batch command, each
 * shell-quoted ("TRACE" for one read from stdin; " ..." ends a list too
 * long for buf). Raw: sanitize before showing. Returns buf. */
const char *tt_vrank_shell_files(const tt_vrank *rk, size_t n, char *buf, size_t cap);

/* Rows of the combined view: per rank a header (its summary lane), then,
 * unless folded[rank], each device lane's rows (depth 0 only when
 * depth0). base[i] is the job-wide number of rank i's first lane, n_glanes
 * the total. 0 or -1 on OOM. */
int tt_rows_build_job(tt_rows *rows, const tt_vrank *rk, size_t n, const uint32_t *base,
                      uint32_t n_glanes, const bool *folded, bool depth0);

#endif
