/* num.c - exact decimal parsing and time formatting (see num.h). */
#include "config.h"

#include "util/num.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t pow10_u64[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
    10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
    100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

/* Round mant * 10^e10 half away from zero and apply the sign, as
 * tt_parse_decimal_general() does for a mantissa that dropped no digits.
 * The one place both paths compute the result. */
static int scale_mantissa(uint64_t mant, int64_t e10, int neg, int64_t *out)
{
    uint64_t r;
    if (mant == 0) {
        *out = 0;
        return TT_NUM_OK;
    }
    if (e10 >= 0) {
        if (e10 > 19 || __builtin_mul_overflow(mant, pow10_u64[e10], &r))
            return TT_NUM_RANGE;
    } else if (-e10 <= 19) {
        uint64_t div = pow10_u64[-e10], rem;
        r = mant / div;
        rem = mant % div;
        if (rem >= div - rem)
            r++;
    } else {
        r = 0;   /* |value| < 0.1: rounds to 0 */
    }
    if (neg ? r > (uint64_t)INT64_MAX + 1 : r > (uint64_t)INT64_MAX)
        return TT_NUM_RANGE;
    *out = neg ? (int64_t)(0 - r) : (int64_t)r;
    return TT_NUM_OK;
}

/* Every timestamp of a trace passes here, so the common shape, an
 * optional sign, at most 18 digits with an optional '.' and no exponent
 * ("3712845164726.318"), is read in one pass without the bookkeeping for
 * dropped digits; anything else (and every error) goes to the general
 * parser, so both give the same result for every input. */
int tt_parse_decimal_scaled(const char *s, size_t n, int scale, int64_t *out)
{
    const char *p = s, *end = s + n;
    uint64_t mant = 0;
    int neg = 0, digits = 0, frac = 0, seen_dot = 0;
    if (n > 20)
        return tt_parse_decimal_general(s, n, scale, out);
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    for (; p < end; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d < 10) {
            mant = mant * 10 + d;
            digits++;
            frac += seen_dot;
        } else if (*p == '.' && !seen_dot) {
            seen_dot = 1;
        } else {
            return tt_parse_decimal_general(s, n, scale, out);
        }
    }
    if (digits == 0 || digits > 18 || scale < -19 || scale > 19)
        return tt_parse_decimal_general(s, n, scale, out);
    return scale_mantissa(mant, (int64_t)scale - frac, neg, out);
}

int tt_parse_decimal_general(const char *s, size_t n, int scale, int64_t *out)
{
    const char *p = s, *end = s + n;
    int neg = 0, any = 0, ndig = 0;
    uint64_t mant = 0;
    int64_t e10 = scale;     /* decimal exponent applied to mant */
    int round_digit = -1;    /* first digit dropped from mant, -1 none */

    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    /* integer part */
    while (p < end && *p >= '0' && *p <= '9') {
        int d = *p++ - '0';
        any = 1;
        if (ndig < 19) {
            if (mant || d) {
                mant = mant * 10 + (uint64_t)d;
                ndig++;
            }
        } else {
            if (round_digit < 0)
                round_digit = d;
            e10++;
        }
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            int d = *p++ - '0';
            any = 1;
            if (ndig < 19) {
                if (mant || d) {
                    mant = mant * 10 + (uint64_t)d;
                    ndig++;
                }
                e10--;
            } else {
                if (round_digit < 0)
                    round_digit = d;
            }
        }
    }
    if (!any)
        return TT_NUM_SYNTAX;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, edig = 0;
        int64_t ev = 0;
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        while (p < end && *p >= '0' && *p <= '9') {
            if (ev < 100000)
                ev = ev * 10 + (*p - '0');
            p++;
            edig = 1;
        }
        if (!edig)
            return TT_NUM_SYNTAX;
        e10 += eneg ? -ev : ev;
    }
    if (p != end)
        return TT_NUM_SYNTAX;

    if (mant == 0) {
        *out = 0;
        return TT_NUM_OK;
    }
    if (e10 >= 0) {
        if (e10 > 19)
            return TT_NUM_RANGE;
        if (round_digit >= 0 && e10 > 0) {
            /* 19 kept digits (mant >= 1e18) scaled up: too big for int64 */
            return TT_NUM_RANGE;
        }
        {
            uint64_t r;
            if (__builtin_mul_overflow(mant, pow10_u64[e10], &r))
                return TT_NUM_RANGE;
            /* e10 == 0 with digits dropped: they are the fraction of the
             * result (1682725897226748.0004 us in ns), round half away
             * from zero on the first of them */
            if (round_digit >= 5 && __builtin_add_overflow(r, 1, &r))
                return TT_NUM_RANGE;
            if (neg ? r > (uint64_t)INT64_MAX + 1 : r > (uint64_t)INT64_MAX)
                return TT_NUM_RANGE;
            *out = neg ? (int64_t)(0 - r) : (int64_t)r;
            return TT_NUM_OK;
        }
    } else {
        /* Scale down with rounding half away from zero. Digits dropped
         * beyond the 19th significant one cannot change the result: div
         * is even, so r < div/2 implies r + (dropped fraction) < div/2. */
        uint64_t q = 0;
        int64_t k = -e10;
        if (k <= 19) {
            uint64_t div = pow10_u64[k], r;
            q = mant / div;
            r = mant % div;
            if (r >= div - r)
                q++;
        } /* else |value| < 0.1: rounds to 0 */
        if (neg ? q > (uint64_t)INT64_MAX + 1 : q > (uint64_t)INT64_MAX)
            return TT_NUM_RANGE;
        *out = neg ? (int64_t)(0 - q) : (int64_t)q;
        return TT_NUM_OK;
    }
}

int tt_parse_int64(const char *s, size_t n, int64_t *out)
{
    const char *p = s, *end = s + n;
    int neg = 0;
    uint64_t v = 0;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    if (p == end)
        return TT_NUM_SYNTAX;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return TT_NUM_SYNTAX;
        if (v > (UINT64_MAX - 9) / 10)
            return TT_NUM_RANGE;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return TT_NUM_RANGE;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return TT_NUM_OK;
}

/* The fast path of tt_parse_double() (Clinger's): a decimal of the shape
 * [+-]digits[.digits][(e|E)[+-]digits] whose digits, the point dropped,
 * make an integer m <= 2^53 and whose value is m * 10^e with |e| <= 22.
 * Then m and 10^|e| are both exact doubles, and one multiplication or
 * division of two exact values is rounded once, to nearest: the double
 * nearest to the decimal, which is what strtod() returns (glibc rounds
 * correctly). Needs arithmetic in double precision (FLT_EVAL_METHOD 0:
 * SSE2, not x87). True with *out set; false for any other text, which
 * strtod() then reads (or rejects). A profile's times, "0.123456" ms,
 * take this path; strtod() was a tenth of a HugeCTR summary. */
static bool exact_double(const char *s, size_t n, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double pow10_d[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s, *end = s + n;
    uint64_t m = 0;
    int64_t e = 0, x = 0;
    bool neg = false, xneg = false, any = false;
    double d;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    for (int part = 0; part < 2; part++) {
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            if (m > (UINT64_C(1) << 53) / 10)
                return false;   /* too many digits for an exact m */
            m = m * 10 + (uint64_t)(*p - '0');
            e -= part;          /* a fraction digit */
            any = true;
        }
        if (part == 0 && p < end && *p == '.')
            p++;
        else
            break;
    }
    if (!any || m > (UINT64_C(1) << 53))
        return false;
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *digits;
        if (++p < end && (*p == '-' || *p == '+'))
            xneg = *p++ == '-';
        for (digits = p; p < end && *p >= '0' && *p <= '9'; p++)
            if ((x = x * 10 + (*p - '0')) > 1000)
                return false;
        if (p == digits)
            return false;
        e += xneg ? -x : x;
    }
    if (p != end || e < -22 || e > 22)
        return false;
    d = (double)m;
    d = e < 0 ? d / pow10_d[-e] : d * pow10_d[e];
    *out = neg ? -d : d;
    return true;
#else
    (void)s;
    (void)n;
    (void)out;
    return false;
#endif
}

int tt_parse_double(const char *s, size_t n, double *out)
{
    char buf[64];
    char *endp;
    double v;
    if (n == 0 || n >= sizeof buf)
        return TT_NUM_SYNTAX;
    if (exact_double(s, n, out))
        return TT_NUM_OK;
    memcpy(buf, s, n);
    buf[n] = '\0';
    /* strtod accepts hex, inf and nan; the trace formats do not. */
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
              c == 'e' || c == 'E'))
            return TT_NUM_SYNTAX;
    }
    errno = 0;
    v = strtod(buf, &endp);
    if (endp != buf + n)
        return TT_NUM_SYNTAX;
    if (!isfinite(v))
        return TT_NUM_RANGE;
    *out = v;
    return TT_NUM_OK;
}

int tt_parse_duration(const char *s, int64_t *out_ns)
{
    size_t n = strlen(s), numlen = n;
    int scale = 0;
    static const struct { const char *suffix; int scale; } units[] = {
        {"ns", 0}, {"us", 3}, {"\xc2\xb5s", 3}, {"ms", 6}, {"s", 9},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t k = strlen(units[i].suffix);
        if (n > k && memcmp(s + n - k, units[i].suffix, k) == 0) {
            /* "ms" must not be read as "m" + "s": suffixes are tried longest
             * meaningful first and the number part must be numeric. */
            numlen = n - k;
            scale = units[i].scale;
            break;
        }
    }
    if (numlen == 0)
        return TT_NUM_SYNTAX;
    return tt_parse_decimal_scaled(s, numlen, scale, out_ns);
}

const char *tt_unit_name(int64_t unit_ns)
{
    switch (unit_ns) {
    case 1: return "ns";
    case 1000: return "us";
    case 1000000: return "ms";
    default: return "s";
    }
}

int64_t tt_unit_for(int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (a >= 1000000000ULL)
        return 1000000000;
    if (a >= 1000000ULL)
        return 1000000;
    if (a >= 1000ULL)
        return 1000;
    return 1;
}

char *tt_fmt_dur_unit(char *buf, size_t n, int64_t ns, int64_t unit_ns, int decimals)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    uint64_t unit = (uint64_t)unit_ns, ip, fp, scale;
    char frac[32];
    int d = decimals, k;
    if (unit == 0)
        unit = 1;
    if (d < 0)
        d = 0;
    if (d > 9)
        d = 9;
    while (d > 0 && pow10_u64[d] > unit)
        d--;   /* no more decimals than the unit has ns digits */
    scale = unit / pow10_u64[d];                /* ns per last decimal */
    {
        uint64_t units_total = a / scale, rem = a % scale;
        if (rem * 2 >= scale && scale > 1)
            units_total++;
        ip = units_total / pow10_u64[d];
        fp = units_total % pow10_u64[d];
    }
    k = d;
    while (k > 0 && fp % 10 == 0) {
        fp /= 10;
        k--;
    }
    if (k > 0)
        snprintf(frac, sizeof frac, ".%0*llu", k & 15, (unsigned long long)fp);
    else
        frac[0] = '\0';
    snprintf(buf, n, "%s%llu%s %s", ns < 0 ? "-" : "", (unsigned long long)ip,
             frac, tt_unit_name(unit_ns));
    return buf;
}

char *tt_fmt_dur(char *buf, size_t n, int64_t ns, int decimals)
{
    return tt_fmt_dur_unit(buf, n, ns, tt_unit_for(ns), decimals);
}

char *tt_fmt_bytes(char *buf, size_t n, int64_t bytes)
{
    double v = (double)bytes;
    double a = fabs(v);
    if (a >= 1e9)
        snprintf(buf, n, "%.2f GB", v / 1e9);
    else if (a >= 1e6)
        snprintf(buf, n, "%.1f MB", v / 1e6);
    else if (a >= 1e3)
        snprintf(buf, n, "%.1f KB", v / 1e3);
    else
        snprintf(buf, n, "%lld B", (long long)bytes);
    return buf;
}

char *tt_fmt_grouped(const char *digits, char *out, size_t cap)
{
    size_t n = strlen(digits), o = 0, lead = 0, intlen;
    const char *dot = strchr(digits, '.');
    if (cap == 0)
        return out;
    if (digits[0] == '-') {
        if (o + 1 < cap)
            out[o++] = '-';
        lead = 1;
    }
    intlen = (dot ? (size_t)(dot - digits) : n) - lead;
    for (size_t i = 0; i < intlen; i++) {
        if (i > 0 && (intlen - i) % 3 == 0 && o + 1 < cap)
            out[o++] = ',';
        if (o + 1 < cap)
            out[o++] = digits[lead + i];
    }
    for (const char *p = dot; p && *p && o + 1 < cap; p++)
        out[o++] = *p;
    out[o] = '\0';
    return out;
}

char *tt_fmt_count(char *buf, size_t n, uint64_t v)
{
    char raw[32];
    snprintf(raw, sizeof raw, "%" PRIu64, v);
    return tt_fmt_grouped(raw, buf, n);
}

char *tt_fmt_fixed(char *buf, size_t n, double v, int decimals)
{
    if (!isfinite(v))
        v = 0;
    snprintf(buf, n, "%.*f", decimals, v);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
    return buf;
}

char *tt_fmt_real(char *buf, size_t n, double v, int decimals)
{
    char c[48];
    uint64_t whole, scale = 1;
    long long frac;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    if (!(v >= 0) || v > 1e18)
        v = 0;   /* sizes and rates are never negative; NaN prints as 0 */
    whole = (uint64_t)v;
    frac = llround((v - (double)whole) * (double)scale);
    if (frac >= (long long)scale) {
        whole++;
        frac = 0;
    }
    tt_fmt_count(c, sizeof c, whole);
    if (decimals > 0)
        snprintf(buf, n, "%s.%0*lld", c, decimals, frac);
    else
        snprintf(buf, n, "%s", c);
    return buf;
}

size_t tt_fmt_i64(char *p, int64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    char tmp[20], *q = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    size_t n;
    while (u >= 100) {
        q -= 2;
        memcpy(q, pairs + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10) {
        q -= 2;
        memcpy(q, pairs + 2 * u, 2);
    } else {
        *--q = (char)('0' + u);
    }
    n = (size_t)(tmp + sizeof tmp - q);
    if (v < 0)
        *p++ = '-';
    memcpy(p, q, n);
    return n + (v < 0);
}
