/* num.h - exact decimal parsing and human formatting of times.
 *
 * Trace timestamps are decimal text (microseconds in Chrome JSON). They are
 * converted with integer arithmetic so "5.1" us is exactly 5100 ns: never
 * through a double, which would turn 1704161511420306.491 us into a value
 * hundreds of ns away.
 */
#ifndef TT_UTIL_NUM_H
#define TT_UTIL_NUM_H

#include <stddef.h>
#include <stdint.h>

enum {
    TT_NUM_OK = 0,
    TT_NUM_SYNTAX = -1,   /* not a number */
    TT_NUM_RANGE = -2     /* does not fit in int64 after scaling */
};

/* Parse a JSON-style decimal number in [s, s+n) (optional '-', digits,
 * optional fraction, optional exponent; a leading '+' is also accepted),
 * multiply it by 10^scale and round half away from zero to an integer.
 * Examples: ("5.1", 3) -> 5100; ("1.5e3", 0) -> 1500; ("0.0005", 3) -> 1. */
int tt_parse_decimal_scaled(const char *s, size_t n, int scale, int64_t *out);

/* The same without the fast path for the common shape (at most 18 digits,
 * no exponent) that tt_parse_decimal_scaled() takes first: what that one
 * falls back to, and the reference the unit test holds the fast path to. */
int tt_parse_decimal_general(const char *s, size_t n, int scale, int64_t *out);

/* Parse a duration or time with an optional unit: "1.5ms", "300us", "300µs",
 * "1200ns", "2s", "1m" is rejected; a bare number is nanoseconds. Surrounding
 * spaces are not accepted. */
int tt_parse_duration(const char *s, int64_t *out_ns);

/* Plain signed 64-bit integer, whole string, no unit. */
int tt_parse_int64(const char *s, size_t n, int64_t *out);

/* Finite double from [s, s+n), whole span must be consumed. */
int tt_parse_double(const char *s, size_t n, double *out);

/* "850 ns", "1.25 us", "12.5 ms", "3.201 s": at most `decimals` (0..9)
 * decimals with trailing zeros removed, unit chosen by magnitude.
 * Returns buf. */
char *tt_fmt_dur(char *buf, size_t n, int64_t ns, int decimals);

/* Same value, fixed unit: unit_ns is 1, 1000, 1000000 or 1000000000. */
char *tt_fmt_dur_unit(char *buf, size_t n, int64_t ns, int64_t unit_ns, int decimals);

/* Unit suffix for 1, 1e3, 1e6, 1e9 ns: "ns", "us", "ms", "s". */
const char *tt_unit_name(int64_t unit_ns);

/* Largest of 1, 1e3, 1e6, 1e9 not above |ns| (1 for 0). */
int64_t tt_unit_for(int64_t ns);

/* Human byte size in decimal units, as nsys and neuron-profile print them:
 * "512 B", "12.3 KB", "3.1 MB", "1.25 GB". Returns buf. */
/* Decimal text of v into p (at least 20 bytes, no terminator): its
 * length. Two digits a step: decoders print an integer per row. */
size_t tt_fmt_i64(char *p, int64_t v);

char *tt_fmt_bytes(char *buf, size_t n, int64_t bytes);

/* Numbers in tables, with a ',' every three digits: digits is a
 * formatted number ("-1234567.50" -> "-1,234,567.50"); a count
 * ("13,117"); a non-negative real with `decimals` (0..9) decimals
 * ("13,117.555"; negative or NaN prints as 0). Each returns out/buf. */
char *tt_fmt_grouped(const char *digits, char *out, size_t cap);
char *tt_fmt_count(char *buf, size_t n, uint64_t v);
char *tt_fmt_real(char *buf, size_t n, double v, int decimals);

/* printf's "%.*f" (decimals digits, no grouping), except that a value
 * that rounds to zero never prints as "-0.0" (it reads as a sign error in
 * a table); not finite prints as 0. Returns buf. */
char *tt_fmt_fixed(char *buf, size_t n, double v, int decimals);

/* Saturating helpers for time arithmetic. */
static inline int64_t tt_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static inline int64_t tt_sat_sub(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? INT64_MAX : INT64_MIN;
    return r;
}

#endif
