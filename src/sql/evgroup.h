/* evgroup.h - the events of one source with equal names adjacent, for
 * the event tables' grouped walk (tt_sql_table.first_grouped): SQLite
 * asks a virtual table for rows grouped by a column on a GROUP BY (or
 * for a DISTINCT) on it, and a table that hands them grouped spares it
 * sorting every row (vtab.c). A name is a string id of the trace, and the
 * string table interns (one id per text), so grouping by id groups by
 * text.
 *
 * Cost: O(events + strings + k log k for k names in use) once per
 * source (a counting sort by name id, the names ordered by their bytes as
 * SQLite's BINARY collation orders them, so that the groups come in the
 * order SQLite's sort gave them), 8 bytes per kept event, kept in the
 * source's cache
 * (tt_sql_src_cache) while the source is loaded.
 *
 * Ownership: a group list is owned by the source's cache and freed with
 * tt_sql_evgroup_free. Library code: no I/O.
 */
#ifndef TT_SQL_EVGROUP_H
#define TT_SQL_EVGROUP_H

#include <stddef.h>

#include "sql/sqltab.h"

typedef struct tt_sql_evgroup {
    tt_evref *v;   /* the events, by name id, then lane, then position */
    size_t    n;
} tt_sql_evgroup;

/* The events of s of the kinds (bit 1u << tt_event_kind each) that the
 * source keeps (its window and lanes: tt_sql_src_keeps), grouped by name.
 * NULL with err set when out of memory. */
tt_sql_evgroup *tt_sql_evgroup_build(const tt_sql_src *s, unsigned kinds, tt_error *err);
void tt_sql_evgroup_free(void *g);   /* NULL is a no-op */

#endif
