/* json.h - small cJSON helpers the JSON outputs share.
 *
 * cJSON keeps numbers as doubles, which are exact only up to 2^53: an
 * epoch timestamp in ns (1.68e18) would print rounded by ~100 ns. Integers
 * go in as raw number text instead. Library code: no I/O.
 */
#ifndef TT_UTIL_JSON_H
#define TT_UTIL_JSON_H

#include <cjson/cJSON.h>
#include <stdint.h>

/* v as an exact JSON integer item; NULL when out of memory. */
cJSON *tt_json_int(int64_t v);

/* Add v to object o under key k as an exact JSON integer; NULL when out of
 * memory (o is then unchanged). */
cJSON *tt_json_add_int(cJSON *o, const char *k, int64_t v);

#endif
