/* ctrname.h - the SQL name of a counter series (counter_track.name and
 * track.name), shared by sql/tab_counter_track.c and sql/tab_track.c.
 *
 * A Chrome counter event with an "id" is a series tracetty's decoder
 * names "NAME[ID]" (the timeline's label, decode/chrome.c); Perfetto's
 * JSON importer names it "NAME id: ID KEY". The SQL tables give
 * Perfetto's name for those, so that queries written against Perfetto
 * find them; the TUI keeps its label. Other series: "NAME KEY", or NAME
 * alone when the key is empty or, unless key_value, "value".
 *
 * Limitation: the model keeps no separate id, so a read (not derived)
 * series whose own name ends in "[...]" is taken for one with an id.
 *
 * Ownership: the composed text lives in *buf (grown with realloc, owned
 * by the caller's cursor, freed by it); *v borrows it until the next
 * call. Library code: never prints, never exits.
 */
#ifndef TT_SQL_CTRNAME_H
#define TT_SQL_CTRNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "sql/sqltab.h"

/* Set *v to the SQL name of counter series k of tr. 0, or -1 with err
 * set (out of memory). */
int tt_sql_counter_name(const tt_trace *tr, const tt_counter *k, bool key_value, char **buf,
                        size_t *cap, tt_sql_val *v, tt_error *err);

#endif
