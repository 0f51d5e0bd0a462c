/* search.h - finding events by name, and stepping through them in time.
 *
 * A pattern is matched once against every distinct event name (there are
 * few), giving a set of name ids; then one pass over the events collects
 * the matching positions of each lane, which are already in time order.
 * Stepping to the next or previous match in the trace's time order, (start,
 * lane, position), is then one binary search per lane.
 *
 * Patterns: plain text matches as a case-insensitive substring; text that
 * starts with '~' is an extended regular expression (case-insensitive),
 * e.g. "~^nccl.*AllReduce", matched in linear time by util/relin.h (the ERE
 * subset it documents: no back-references); a leading backslash makes the rest plain text
 * ("\~x" finds "~x"). A leading "cat:" matches the category instead of the
 * name ("cat:kernel", "cat:~^gpu_mem").
 *
 * Ownership: tt_hits owns its arrays. Library code: no I/O.
 */
#ifndef TT_TUI_SEARCH_H
#define TT_TUI_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_hits {
    uint32_t   n_lanes;
    uint32_t **pos;      /* per lane: matching positions, ascending */
    size_t    *n;        /* per lane: count */
    uint64_t   total;
} tt_hits;

void tt_hits_init(tt_hits *h);
void tt_hits_fini(tt_hits *h);

/* What a pattern is matched against. */
typedef enum tt_search_field {
    TT_FIELD_NAME = 0,
    TT_FIELD_CAT
} tt_search_field;

/* The field a pattern names ("cat:..." or the name) and the pattern text
 * after that prefix. */
const char *tt_search_field_of(const char *pattern, tt_search_field *field);

/* Ids used in a field of some event: out[id] = 1. *out is malloc'd
 * (tt_strtab_count entries). */
int tt_search_used_ids(const tt_trace *tr, tt_search_field field, uint8_t **out);

/* Mark in match[] (tt_strtab_count entries) the strings among `used` that
 * the pattern (without its field prefix) matches; *n_ids receives how many.
 * Non-zero with err set for a bad regular expression or an empty pattern. */
int tt_search_match_names(const tt_trace *tr, const uint8_t *used, const char *pattern,
                          uint8_t *match, size_t *n_ids, tt_error *err);

/* Collect the events whose field id is marked in match[]. 0 or -1 (OOM). */
int tt_hits_build(tt_hits *h, const tt_trace *tr, const uint8_t *match, tt_search_field field);

/* Collect the events named `name`. */
int tt_hits_build_name(tt_hits *h, const tt_trace *tr, uint32_t name);

/* The next (dir > 0) or previous (dir < 0) hit after the event `from`, in
 * (start, lane, position) order; with from == NULL, the first hit starting
 * at or after t (dir > 0) or the last starting at or before t (dir < 0).
 * Returns false when there is none in that direction. */
bool tt_hits_step(const tt_hits *h, const tt_trace *tr, const tt_evref *from, int64_t t,
                  int dir, tt_evref *out);

/* 1-based rank of a hit in time order (0 when it is not a hit). */
uint64_t tt_hits_rank(const tt_hits *h, const tt_trace *tr, tt_evref ev);

#endif
