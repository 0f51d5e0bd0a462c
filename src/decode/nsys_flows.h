/* nsys_flows.h - correlation flows of an Nsight Systems SQLite export,
 * resolved by the decoder (nsys_sqlite.c) instead of through flow points.
 *
 * While reading, the decoder marks each API call and each kernel, copy or
 * memset that has a correlation id with tt_nsys_flow_mark(). Once its
 * lanes are sorted, tt_nsys_flows_resolve() links them: the result is
 * exactly what tt_trace_finalize() would make of the flow points the
 * decoder used to record (a start at every call, an exact-bound end at
 * every piece of GPU work, keyed by process and correlation id), only
 * without 48-byte points, their sorts by id and by time, and the binding
 * searches. Ids whose points finalize resolves in a less simple way (no
 * call, several calls, work stamped before its call) are handed to
 * finalize as points, as before.
 */
#ifndef TT_DECODE_NSYS_FLOWS_H
#define TT_DECODE_NSYS_FLOWS_H

#include "model/trace.h"

#include <stdbool.h>

/* The flow key of (pid, correlation id), as the points were keyed. */
uint64_t tt_nsys_flow_key(uint64_t pid, int64_t corr);

/* Mark event e as a flow endpoint (start: an API call; else GPU work) of
 * process pid (24 bits) and correlation id corr (1 to UINT32_MAX), the
 * seq-th endpoint read. Until tt_nsys_flows_resolve() the mark lives in
 * e's index fields (max_end, busy_upto), which nothing reads before
 * finalize builds the index and overwrites them. */
void tt_nsys_flow_mark(tt_event *e, uint64_t pid, int64_t corr, uint64_t seq, bool start);

/* Link the n marked events of tr into flows named after their GPU work, of
 * category cat, and clear the marks. placed: every lane is already in
 * finalize's order (else every endpoint goes to finalize as a point).
 * 0, or -1 out of memory. */
int tt_nsys_flows_resolve(tt_trace *tr, size_t n, bool placed, uint32_t cat);

#endif
