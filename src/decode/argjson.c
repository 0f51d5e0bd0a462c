/* argjson.c - argument objects as cJSON prints them (see argjson.h). */
#include "config.h"

#include "decode/argjson.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_argjson_init(tt_argjson *j)
{
    memset(j, 0, sizeof *j);
}

void tt_argjson_fini(tt_argjson *j)
{
    free(j->buf);
    memset(j, 0, sizeof *j);
}

/* Room for n more bytes; false (and oom set) when there is none. */
static bool reserve(tt_argjson *j, size_t n)
{
    size_t nc;
    char *nb;
    if (j->oom)
        return false;
    if (j->len + n <= j->cap)
        return true;
    nc = j->cap ? j->cap * 2 : 256;
    while (nc < j->len + n)
        nc *= 2;
    if (!(nb = realloc(j->buf, nc))) {
        j->oom = true;
        return false;
    }
    j->buf = nb;
    j->cap = nc;
    return true;
}

static void put(tt_argjson *j, const char *s, size_t n)
{
    if (!reserve(j, n))
        return;
    memcpy(j->buf + j->len, s, n);
    j->len += n;
}

/* A quoted string with cJSON's escapes (print_string_ptr): \" \\ \b \f \n
 * \r \t, other bytes below 0x20 as \u00XX, everything else as is. Room
 * for the longest form (every byte as \u00XX) is taken at once and the
 * bytes written straight into it: this runs for every key and string of
 * every event, and a put() per piece was 4% of an nsys SQLite summary. */
char *tt_argjson_quote(char *d, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *d++ = (char)c;
            continue;
        }
        *d++ = '\\';
        switch (c) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '\b': *d++ = 'b'; break;
        case '\f': *d++ = 'f'; break;
        case '\n': *d++ = 'n'; break;
        case '\r': *d++ = 'r'; break;
        case '\t': *d++ = 't'; break;
        default:
            memcpy(d, "u00", 3);
            d[3] = hex[c >> 4];
            d[4] = hex[c & 15];
            d += 5;
            break;
        }
    }
    *d++ = '"';
    return d;
}

static void put_string(tt_argjson *j, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(j, 6 * n + 2))
        return;
    j->len = (size_t)(tt_argjson_quote(j->buf + j->len, s, n) - j->buf);
}

static void put_key(tt_argjson *j, const char *key)
{
    if (j->members)
        put(j, ",", 1);
    j->members = true;
    put_string(j, key);
    put(j, ":", 1);
}

void tt_argjson_begin(tt_argjson *j)
{
    j->len = 0;
    j->oom = false;
    j->members = false;
    put(j, "{", 1);
}

/* d as cJSON's print_number() prints it, into num (32 bytes): "null" for
 * NaN and infinities, an integer that fits an int as %d, else %1.15g
 * unless that does not read back as d, then %1.17g. Returns the length. */
static size_t print_double(char *num, double d)
{
    /* cJSON_CreateNumber's valueint, and print_number's choice */
    int vi = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    double back;
    int n;
    if (isnan(d) || isinf(d)) {
        memcpy(num, "null", 4);
        return 4;
    }
    if (d == 0 && signbit(d)) {
        memcpy(num, "-0", 2);   /* as cJSON prints it, not as valueint's 0 */
        return 2;
    }
    if (d == (double)vi) {
        /* the common case, without printf: vi's decimal digits */
        char tmp[16], *p = tmp + sizeof tmp;
        unsigned u = vi < 0 ? 0u - (unsigned)vi : (unsigned)vi;
        do
            *--p = (char)('0' + u % 10);
        while (u /= 10);
        if (vi < 0)
            *--p = '-';
        memcpy(num, p, (size_t)(tmp + sizeof tmp - p));
        return (size_t)(tmp + sizeof tmp - p);
    }
    n = snprintf(num, 32, "%1.15g", d);
    if (sscanf(num, "%lg", &back) != 1 ||
        !(fabs(back - d) <= (fabs(back) > fabs(d) ? fabs(back) : fabs(d)) * DBL_EPSILON))
        n = snprintf(num, 32, "%1.17g", d);
    return (size_t)n;
}

void tt_argjson_number(tt_argjson *j, const char *key, int64_t v)
{
    char num[32];
    put_key(j, key);
    put(j, num, print_double(num, (double)v));
}

/* The fast case of tt_argjson_print_number(): a number of at most 15
 * significant digits whose first digit stands between 10^-4 and 10^14.
 * strtod() reads it as the double nearest to it, and 15 digits of that
 * double are the same digits again (DBL_DIG), so cJSON's %1.15g prints the
 * number's own digits in plain notation, trailing zeros dropped, and they
 * read back as the same double; an integer prints the same through %d.
 * That is the number written canonically, with no printf. Returns the
 * length, or 0 when the number is not such a case. */
static size_t canonical_number(char *out, const char *t, size_t n)
{
    char dig[16];
    size_t nd = 0, i = 0, o = 0;
    bool neg = false;
    long intdigits = 0, lz = 0, exp = 0, x;
    if (i < n && t[i] == '-') {
        neg = true;
        i++;
    }
    /* the digits before the point, then after it: F; lz leading zeros of
     * F are not significant, the rest go to dig */
    for (int part = 0; part < 2; part++) {
        for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
            intdigits += part == 0;
            if (nd == 0 && t[i] == '0') {
                lz++;
                continue;
            }
            if (nd == sizeof dig)
                return 0;
            dig[nd++] = t[i];
        }
        if (part == 0 && i < n && t[i] == '.')
            i++;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        bool eneg = false;
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            eneg = t[i++] == '-';
        for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
            if (exp > 100000)
                return 0;
            exp = exp * 10 + (t[i] - '0');
        }
        if (eneg)
            exp = -exp;
    }
    if (i != n)
        return 0;
    if (nd == 0) {
        /* zero; cJSON prints a negative zero as "-0" */
        if (neg)
            out[o++] = '-';
        out[o++] = '0';
        return o;
    }
    while (dig[nd - 1] == '0')
        nd--;
    if (nd > 15)
        return 0;
    /* the decimal exponent of the first significant digit */
    x = intdigits - 1 - lz + exp;
    if (x < -4 || x > 14)
        return 0;
    if (neg)
        out[o++] = '-';
    if (x < 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (long z = 0; z < -x - 1; z++)
            out[o++] = '0';
        memcpy(out + o, dig, nd);
        return o + nd;
    }
    for (long k = 0; k <= x; k++)
        out[o++] = (size_t)k < nd ? dig[k] : '0';
    if (nd > (size_t)x + 1) {
        out[o++] = '.';
        memcpy(out + o, dig + x + 1, nd - (size_t)x - 1);
        o += nd - (size_t)x - 1;
    }
    return o;
}

size_t tt_argjson_print_number(char *out, const char *text, size_t n)
{
    char buf[64];
    size_t k = canonical_number(out, text, n);
    if (k)
        return k;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return print_double(out, strtod(buf, NULL));
}

void tt_argjson_string(tt_argjson *j, const char *key, const char *s)
{
    put_key(j, key);
    put_string(j, s);
}

const char *tt_argjson_end(tt_argjson *j, size_t *n)
{
    put(j, "}", 1);
    if (j->oom)
        return NULL;
    *n = j->len;
    return j->buf;
}
