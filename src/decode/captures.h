/* captures.h - the captures of one worker in a PyTorch
 * tensorboard_trace_handler directory, loaded as one trace.
 *
 * torch.profiler.tensorboard_trace_handler writes one file per capture:
 * "{worker}.{timestamp}.pt.trace.json", ".gz" added when compressed; the
 * worker is "{host}_{pid}" unless the user named it, the timestamp is
 * milliseconds since the epoch. A schedule with several active windows
 * (repeat > 1) writes several captures of one worker: consecutive windows
 * of that rank, not ranks of their own.
 *
 * A job directory (multi/jobdir.h) names such a group by a pattern,
 * "DIR/{worker}.*.pt.trace.json", which every command passes around as it
 * passes a file name; tt_load() (decode.h) recognises the pattern and
 * loads every capture of the worker in timestamp order into one trace
 * (model/merge.h): lanes of the same process and thread join, the first
 * capture's metadata and rank are kept (the next ones' rank when the first
 * has none), and the metadata gets "captures", the number of windows.
 *
 * Library code: no printing. Ownership: lists are malloc'd, the caller's.
 */
#ifndef TT_DECODE_CAPTURES_H
#define TT_DECODE_CAPTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

/* The pattern's fixed tail: "{worker}" CAPTURES_GLOB. */
#define TT_CAPTURES_GLOB ".*.pt.trace.json"

/* Whether a file name (no directory) is a capture: the worker name's
 * length in *worker_len and the timestamp in *ts. */
bool tt_captures_parse(const char *name, size_t *worker_len, uint64_t *ts);

/* Whether path is a group pattern ("DIR/{worker}.*.pt.trace.json") and
 * not an existing file. */
bool tt_captures_is_group(const char *path);

/* The captures a pattern stands for, full paths in timestamp order
 * (ties by name). An error when there are none. */
int tt_captures_list(const char *pattern, char ***files, size_t *n, tt_error *err);

/* Load the captures of a pattern as one finalized trace, its source the
 * pattern. An error names the capture that failed. */
int tt_captures_load(const char *pattern, const tt_load_opts *opts, tt_trace **out,
                     tt_load_info *info, tt_error *err);

#endif
