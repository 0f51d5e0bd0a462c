/* test_num.c - exact decimal conversion and duration parsing/formatting. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "util/num.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dec(const char *s, int scale, int want_rc, int64_t want)
{
    int64_t v = -777;
    int rc = tt_parse_decimal_scaled(s, strlen(s), scale, &v);
    if (want_rc != TT_NUM_OK) {
        is_i64(rc, want_rc, "\"%s\" scale %d is rejected (%d)", s, scale, want_rc);
        return;
    }
    if (is_i64(rc, TT_NUM_OK, "\"%s\" scale %d parses", s, scale))
        is_i64(v, want, "\"%s\" scale %d = %lld", s, scale, (long long)want);
}

static uint64_t rng_state = 0x243f6a8885a308d3ULL;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rng_state);
}

static size_t put_digits(char *b, size_t o, int n)
{
    /* runs of zeros and nines make carries and exact halves likely */
    int style = (int)(rnd() % 4);
    for (int i = 0; i < n; i++)
        b[o++] = style == 0 ? '0' : style == 1 ? '9' : style == 2 && i > 0 ? '0'
                                                                         : (char)('0' + rnd() % 10);
    return o;
}

/* A number-like string: usually well formed (sign, digits, fraction,
 * exponent of random lengths), sometimes with a stray character. */
static size_t random_number(char *b)
{
    size_t o = 0;
    static const char junk[] = "0123456789.-+eE x";
    if (rnd() % 16 == 0) {
        int n = (int)(rnd() % 12);
        for (int i = 0; i < n; i++)
            b[o++] = junk[rnd() % (sizeof junk - 1)];
        return o;
    }
    if (rnd() % 3 == 0)
        b[o++] = rnd() % 8 ? '-' : '+';
    o = put_digits(b, o, (int)(rnd() % 23));
    if (rnd() % 4) {
        b[o++] = '.';
        o = put_digits(b, o, (int)(rnd() % 23));
    }
    if (rnd() % 8 == 0) {
        b[o++] = rnd() % 2 ? 'e' : 'E';
        if (rnd() % 2)
            b[o++] = rnd() % 2 ? '-' : '+';
        o = put_digits(b, o, (int)(rnd() % 4));
    }
    if (rnd() % 32 == 0)
        b[rnd() % (o + 1)] = junk[rnd() % (sizeof junk - 1)];
    return o;
}

/* 1 when the fast path and the general parser disagree on s (the first
 * few are described). */
static int differs_from_general(const char *s, size_t n, int scale, size_t bad_so_far)
{
    int64_t got = -777, want = -777;
    int rg = tt_parse_decimal_scaled(s, n, scale, &got);
    int rw = tt_parse_decimal_general(s, n, scale, &want);
    if (rg == rw && (rg != TT_NUM_OK || got == want))
        return 0;
    if (bad_so_far < 5)
        diag("\"%.*s\" scale %d: rc %d value %lld, general rc %d value %lld", (int)n, s, scale,
             rg, (long long)got, rw, (long long)want);
    return 1;
}

/* Edge cases of number text, for both parsers' fast paths. */
static const char *const edge[] = {
    "", "-", "+", ".", "-.", "0", "-0", "+0", "0.", ".0", "-0.000", "00", "01", "1.",
    ".5", "5.", "-.5", "1..2", "1.2.3", "--1", "+-1", "1e", "1e+", "1e5", "1E-3",
    "3712845164726.318", "-3712845164726.318", "3712845164726.3185", "3712845164726.3175",
    "999999999999999.9995", "999999999999999999", "9999999999999999999",
    "999999999999999.999", "9223372036854775.807", "9223372036854775.808",
    "-9223372036854775.808", "-9223372036854775.809", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "0.0005", "0.0004999", "0.00050",
    "123456789012345678", "1234567890123456789", "12345678901234567.8",
    "000000000000000000001", "00000000000000000.1", "3000000000000000.000",
    "1704161511420306.491", "1704161511420306.4915", " 1", "1 ", "0x10", "inf", "nan",
    /* tt_parse_double's fast path: at and past 2^53, 10^22, 10^-22 */
    "9007199254740992", "9007199254740993", "900719925474099.3", "-9007199254740991e-22",
    "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308", "1e309",
    "0e999", "-0.0e-30", "123456.789e-3", "0.1", "0.3", "2.675", "1e+0022", "1e-0",
};

/* The fast path for the common timestamp shape against the general
 * parser (the whole of tt_parse_decimal_scaled before the fast path). */
static void test_against_general(void)
{
    static const int scales[] = {0, 3, 6, 9, 1, 2, -1, -3, -10, 12, 18, 19, 20, -19, -20};
    size_t bad = 0, cases = 0;
    char b[96];
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++, cases++)
            bad += differs_from_general(edge[i], strlen(edge[i]), scales[k], bad);
    for (int i = 0; i < 400000; i++, cases++) {
        size_t n = random_number(b);
        int scale = i % 2 ? 3 : scales[rnd() % (sizeof scales / sizeof scales[0])];
        bad += differs_from_general(b, n, scale, bad);
    }
    ok(bad == 0, "%zu edge and random inputs: the fast path converts as the general parser does (%zu differ)",
       cases, bad);
}

/* tt_parse_double() (its fast path included) against strtod(): the same
 * result code and, when a number, the same double bit for bit. */
static int differs_from_strtod(const char *s, size_t n, size_t bad_so_far)
{
    char buf[64], *endp;
    double got = -777, want;
    int rg = tt_parse_double(s, n, &got), rw = TT_NUM_SYNTAX;
    if (n > 0 && n < sizeof buf && strspn(s, "0123456789+-.eE") >= n) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        want = strtod(buf, &endp);
        rw = endp != buf + n ? TT_NUM_SYNTAX : isfinite(want) ? TT_NUM_OK : TT_NUM_RANGE;
    }
    if (rg == rw && (rg != TT_NUM_OK || memcmp(&got, &want, sizeof got) == 0))
        return 0;
    if (bad_so_far < 5)
        diag("\"%.*s\": rc %d value %.17g, strtod rc %d value %.17g", (int)n, s, rg, got, rw,
             rw == TT_NUM_OK ? want : 0.0);
    return 1;
}

static void test_double_against_strtod(void)
{
    size_t bad = 0, cases = 0;
    char b[96];
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++, cases++)
        bad += differs_from_strtod(edge[i], strlen(edge[i]), bad);
    for (int i = 0; i < 400000; i++, cases++) {
        size_t n = random_number(b);
        bad += differs_from_strtod(b, n, bad);
    }
    ok(bad == 0, "%zu edge and random inputs: tt_parse_double reads what strtod reads, bit for bit (%zu differ)",
       cases, bad);
}

int main(void)
{
    /* microseconds to nanoseconds, exactly */
    dec("5.1", 3, 0, 5100);
    dec("0", 3, 0, 0);
    dec("-0", 3, 0, 0);
    dec("1.5", 0, 0, 2);             /* half away from zero */
    dec("-1.5", 0, 0, -2);
    dec("2.4999", 0, 0, 2);
    dec("0.0005", 3, 0, 1);
    dec("0.0004999", 3, 0, 0);
    dec("1704161511420306.491", 3, 0, 1704161511420306491LL);
    dec("1623142623460111", 3, 0, 1623142623460111000LL);
    dec("6042909.559994936", 3, 0, 6042909560LL);
    dec("3.011", 3, 0, 3011);
    dec("1e3", 3, 0, 1000000);
    dec("1.5E-3", 3, 0, 2);          /* 1.5 ns rounds to 2 */
    dec("12345678901234567890123", -10, 0, 1234567890123LL);
    dec("9223372036854775.807", 3, 0, INT64_MAX);
    dec("9223372036854775.808", 3, TT_NUM_RANGE, 0);
    dec("-9223372036854775.808", 3, 0, INT64_MIN);
    dec("1e30", 0, TT_NUM_RANGE, 0);
    dec("1e-30", 3, 0, 0);
    dec("", 3, TT_NUM_SYNTAX, 0);
    dec("-", 3, TT_NUM_SYNTAX, 0);
    dec(".", 3, TT_NUM_SYNTAX, 0);
    dec("1.2.3", 3, TT_NUM_SYNTAX, 0);
    dec("12abc", 3, TT_NUM_SYNTAX, 0);
    dec("1e", 3, TT_NUM_SYNTAX, 0);
    dec(" 1", 3, TT_NUM_SYNTAX, 0);
    /* more than 19 significant digits: the dropped ones are the fraction
     * of the result and round it, they do not make it out of range */
    dec("1682725897226748.0000", 3, 0, 1682725897226748000LL);
    dec("1682725897226748.0004", 3, 0, 1682725897226748000LL);
    dec("1682725897226748.0005", 3, 0, 1682725897226748001LL);
    dec("-1682725897226748.0005", 3, 0, -1682725897226748001LL);
    dec("1.6827258972267480004e15", 3, 0, 1682725897226748000LL);
    dec("16827258972267480004e-4", 3, 0, 1682725897226748000LL);
    dec("9223372036854775807.4", 0, 0, INT64_MAX);
    dec("9223372036854775807.5", 0, TT_NUM_RANGE, 0);
    dec("12345678901234567890", 0, TT_NUM_RANGE, 0);
    dec("1234567890123456789.05e1", 0, TT_NUM_RANGE, 0);
    dec(".5", 3, 0, 500);
    dec("5.", 3, 0, 5000);
    test_against_general();
    test_double_against_strtod();

    /* random round trips: integer ns printed as us with 3 decimals */
    srand(12345);
    for (int i = 0; i < 2000; i++) {
        int64_t ns = ((int64_t)rand() << 31 | rand()) % 4000000000000000000LL;
        char buf[64];
        int64_t back = -1;
        snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
        if (tt_parse_decimal_scaled(buf, strlen(buf), 3, &back) != 0 || back != ns) {
            ok(0, "round trip %s", buf);
            break;
        }
        if (i == 1999)
            ok(1, "2000 random us.fraction strings convert exactly to ns");
    }

    {
        int64_t v;
        ok(tt_parse_duration("1.5ms", &v) == 0 && v == 1500000, "1.5ms");
        ok(tt_parse_duration("300us", &v) == 0 && v == 300000, "300us");
        ok(tt_parse_duration("300\xc2\xb5s", &v) == 0 && v == 300000, "300 micro-sign s");
        ok(tt_parse_duration("1200ns", &v) == 0 && v == 1200, "1200ns");
        ok(tt_parse_duration("2s", &v) == 0 && v == 2000000000, "2s");
        ok(tt_parse_duration("42", &v) == 0 && v == 42, "bare number is ns");
        ok(tt_parse_duration("12.5ms", &v) == 0 && v == 12500000, "12.5ms");
        ok(tt_parse_duration("ms", &v) != 0, "unit alone is rejected");
        ok(tt_parse_duration("5m", &v) != 0, "minutes are not a unit");
        ok(tt_parse_duration("", &v) != 0, "empty is rejected");
    }
    {
        char b[64];
        is_str(tt_fmt_dur(b, sizeof b, 0, 3), "0 ns", "format 0");
        is_str(tt_fmt_dur(b, sizeof b, 850, 3), "850 ns", "format ns");
        is_str(tt_fmt_dur(b, sizeof b, 1250, 3), "1.25 us", "format us");
        is_str(tt_fmt_dur(b, sizeof b, 12500000, 3), "12.5 ms", "format ms");
        is_str(tt_fmt_dur(b, sizeof b, 3201000000LL, 3), "3.201 s", "format s");
        is_str(tt_fmt_dur(b, sizeof b, 1999999, 3), "2 ms", "format rounds up across a digit");
        is_str(tt_fmt_dur(b, sizeof b, -1500, 3), "-1.5 us", "format negative");
        is_str(tt_fmt_dur_unit(b, sizeof b, 1500000, 1000, 1), "1500 us", "fixed unit");
        is_str(tt_fmt_bytes(b, sizeof b, 3100000), "3.1 MB", "bytes MB");
        is_str(tt_fmt_bytes(b, sizeof b, 512), "512 B", "bytes B");
    }
    {
        char b[64], raw[32];
        int bad = 0;
        is_str(tt_fmt_count(b, sizeof b, 0), "0", "count 0");
        is_str(tt_fmt_count(b, sizeof b, 999), "999", "count below a thousand");
        is_str(tt_fmt_count(b, sizeof b, 13117), "13,117", "count grouped");
        is_str(tt_fmt_count(b, sizeof b, UINT64_MAX), "18,446,744,073,709,551,615",
               "count at the top of uint64");
        is_str(tt_fmt_grouped("-1234567.50", b, sizeof b), "-1,234,567.50",
               "grouped keeps the sign and the decimals");
        is_str(tt_fmt_real(b, sizeof b, 13117.5554, 3), "13,117.555", "real 3 decimals");
        is_str(tt_fmt_real(b, sizeof b, 0.9996, 3), "1.000", "real rounds up into the integer");
        is_str(tt_fmt_real(b, sizeof b, 2.5, 0), "3", "real without decimals rounds");
        is_str(tt_fmt_real(b, sizeof b, -4.0, 2), "0.00", "negative real prints as 0");
        is_str(tt_fmt_count(b, 4, 123456), "123", "count cut to the buffer");
        /* removing the separators gives back printf's digits, which are
         * grouped by threes from the right */
        for (uint64_t v = 1, i = 0; i < 64; i++, v = v * 3 + i) {
            char *p = b, *q = b;
            size_t len;
            tt_fmt_count(b, sizeof b, v);
            len = strlen(b);
            for (size_t k = 0; k < len; k++)
                if (b[k] == ',' && (len - k) % 4 != 0)
                    bad++;
            for (; *p; p++)
                if (*p != ',')
                    *q++ = *p;
            *q = '\0';
            snprintf(raw, sizeof raw, "%" PRIu64, v);
            if (strcmp(b, raw) != 0)
                bad++;
        }
        ok(bad == 0, "64 counts: separators every three digits from the right, digits unchanged");
    }
    /* tt_fmt_i64 against printf's %lld: edges and random values */
    {
        static const int64_t ends[] = {0, 9, 10, 99, 100, -1, -10, -99, 100000, INT64_MAX,
                                       INT64_MIN, INT64_MIN + 1};
        int same = 1;
        char got[24], want[24];
        for (size_t k = 0; k < sizeof ends / sizeof ends[0] + 100000; k++) {
            int64_t v = k < sizeof ends / sizeof ends[0] ? ends[k]
                                                         : (int64_t)(rnd() >> (rnd() % 64));
            size_t n;
            if (k % 2 && v != INT64_MIN)
                v = -v;
            n = tt_fmt_i64(got, v);
            got[n] = 0;
            snprintf(want, sizeof want, "%lld", (long long)v);
            if (strcmp(got, want) != 0) {
                same = 0;
                diag("tt_fmt_i64: %s, want %s", got, want);
                break;
            }
        }
        ok(same, "tt_fmt_i64 prints as %%lld does (edges, 100k random)");
    }
    return tap_done();
}
