/* progress.h - a one-line load progress meter on stderr.
 *
 * Shown only when stderr is a terminal and not --quiet; redrawn in place
 * at most ten times a second and erased when done, so logs stay clean.
 */
#ifndef TT_CLI_PROGRESS_H
#define TT_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tt_progress {
    bool     active;
    bool     drawn;
    double   t_start, t_last;
    char     label[128];
} tt_progress;

void tt_progress_init(tt_progress *p, const char *label, bool quiet);

/* tt_progress_fn-compatible callback (ctx is the tt_progress). */
void tt_progress_update(void *ctx, int64_t file_pos, int64_t file_size, int64_t data_pos,
                        uint64_t events);

/* Progress of several files loading in parallel (tt_rankset_progress_fn). */
void tt_progress_files(void *ctx, size_t done, size_t total, int64_t bytes, uint64_t events);

/* Erase the line. */
void tt_progress_done(tt_progress *p);

/* Monotonic seconds. */
double tt_now(void);

#endif
