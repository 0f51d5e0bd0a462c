/* infopanel.h - panels that show one thing whole: the trace's metadata,
 * and the full name of an event.
 *
 * A summary-only neuron-profile file has no events, only its metrics; a
 * Chrome trace carries deviceProperties, distributedInfo and the like at
 * its top level; an Ascend kernel name can be hundreds of characters. The
 * timeline has room for none of it, so these panels list it in full,
 * wrapped to the panel width, as `tracetty summary` reads it: the
 * decoders keep the top-level metadata in trace->meta (cJSON, parsed once
 * at load) and this file only walks it.
 *
 * Ownership: the builders append to a caller-owned tt_plist. Library code:
 * no I/O.
 */
#ifndef TT_TUI_INFOPANEL_H
#define TT_TUI_INFOPANEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "tui/plist.h"

/* Whether the trace has metadata or a decoder note to show. */
bool tt_infopanel_has_meta(const tt_trace *tr);

/* Lines of the metadata panel for a panel `width` columns wide: the
 * decoder's note, then every metadata member as "key  value", objects and
 * arrays nested below their key, indented. 0, or -1 when out of memory. */
int tt_infopanel_meta(tt_plist *pl, const tt_trace *tr, int width);

/* Lines of the full-name panel: the n bytes of a raw event name, made
 * visible and wrapped to `width` columns. 0, or -1 when out of memory. */
int tt_infopanel_name(tt_plist *pl, const char *name, size_t n, int width);

#endif
