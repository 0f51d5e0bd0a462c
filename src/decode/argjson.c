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
 * \r \t, other bytes below 0x20 as \u00XX, everything else as is. */
static void put_string(tt_argjson *j, const char *s)
{
    size_t n = strlen(s), start = 0;
    put(j, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(j, s + start, i - start);
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            snprintf(esc + 1, sizeof esc - 1, "u%04x", c);
            break;
        }
        put(j, esc, esc[1] == 'u' ? 6 : 2);
        start = i + 1;
    }
    put(j, s + start, n - start);
    put(j, "\"", 1);
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

void tt_argjson_number(tt_argjson *j, const char *key, int64_t v)
{
    double d = (double)v, back;
    /* cJSON_CreateNumber's valueint, and print_number's choice */
    int vi = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    char num[32];
    int n;
    put_key(j, key);
    if (d == (double)vi) {
        /* the common case, without printf: vi's decimal digits */
        char *p = num + sizeof num;
        unsigned u = vi < 0 ? 0u - (unsigned)vi : (unsigned)vi;
        do
            *--p = (char)('0' + u % 10);
        while (u /= 10);
        if (vi < 0)
            *--p = '-';
        put(j, p, (size_t)(num + sizeof num - p));
        return;
    }
    n = snprintf(num, sizeof num, "%1.15g", d);
    if (sscanf(num, "%lg", &back) != 1 ||
        !(fabs(back - d) <= (fabs(back) > fabs(d) ? fabs(back) : fabs(d)) * DBL_EPSILON))
        n = snprintf(num, sizeof num, "%1.17g", d);
    put(j, num, (size_t)n);
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
