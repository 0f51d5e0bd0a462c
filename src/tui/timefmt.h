/* timefmt.h - times and values as the timeline shows them.
 *
 * Times on screen are relative to the trace start; the unit follows the
 * magnitude and the number of decimals follows the resolution the user is
 * looking at (one column of the current zoom), so "12.5 ms" at a wide zoom
 * becomes "12.500318 ms" at a nanosecond zoom.
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_TIMEFMT_H
#define TT_TUI_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* rel_ns (relative to the trace start) with enough decimals to show a
 * difference of res_ns. Returns buf. */
char *tt_tfmt_time(char *buf, size_t n, int64_t rel_ns, int64_t res_ns);

/* A duration with up to `decimals` decimals in its own unit (exact when 9). */
char *tt_tfmt_dur(char *buf, size_t n, int64_t ns, int decimals);

/* A counter value with an SI suffix and 3-4 significant digits
 * ("1.25 G", "512", "0.031"). Returns buf. */
char *tt_tfmt_value(char *buf, size_t n, double v);

/* Decimals needed to show multiples of res_ns in unit_ns (0..9). */
int tt_tfmt_decimals(int64_t unit_ns, int64_t res_ns);

#endif
