/* test_argjson.c - decode/argjson.h writes argument objects byte for byte
 * as cJSON_PrintUnformatted() prints the same object built with cJSON:
 * numbers across every magnitude and the int / %1.15g / %1.17g borders,
 * strings with every byte value, escapes in keys, empty objects. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "decode/argjson.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x6a09e667f3bcc909ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

/* One object of n numbers through both; true when the texts agree. */
static bool same_numbers(tt_argjson *j, const int64_t *v, size_t n)
{
    cJSON *o = cJSON_CreateObject();
    char *want;
    const char *got;
    size_t len;
    bool same;
    tt_argjson_begin(j);
    for (size_t i = 0; i < n; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%zu", i);
        cJSON_AddNumberToObject(o, key, (double)v[i]);
        tt_argjson_number(j, key, v[i]);
    }
    want = cJSON_PrintUnformatted(o);
    got = tt_argjson_end(j, &len);
    same = want && got && len == strlen(want) && memcmp(got, want, len) == 0;
    if (!same)
        diag("got %.*s, want %s", got ? (int)len : 6, got ? got : "(null)", want ? want : "?");
    free(want);
    cJSON_Delete(o);
    return same;
}

/* text parsed and printed by cJSON, and by tt_argjson_print_number(). */
static bool same_text_number(const char *text)
{
    cJSON *v = cJSON_Parse(text);
    char *want = v ? cJSON_PrintUnformatted(v) : NULL;
    char got[40];
    size_t n = tt_argjson_print_number(got, text, strlen(text));
    bool same = want && n == strlen(want) && memcmp(got, want, n) == 0;
    if (!same)
        diag("%s: got %.*s, want %s", text, (int)n, got, want ? want : "(cJSON failed)");
    free(want);
    cJSON_Delete(v);
    return same;
}

/* A random number in the JSON grammar: sign, up to 20 integer digits (no
 * leading zero but a lone one), a fraction, an exponent, zeros often. */
static void random_number_text(char *t)
{
    static const char zeroish[] = "0000000001234567899";
    size_t k = 0;
    int ni = (int)(rnd() % 21), nf = (int)(rnd() % 22);
    if (rnd() & 1)
        t[k++] = '-';
    if (ni == 0 || rnd() % 4 == 0) {
        t[k++] = '0';
    } else {
        t[k++] = (char)('1' + rnd() % 9);
        for (int i = 1; i < ni; i++)
            t[k++] = zeroish[rnd() % (sizeof zeroish - 1)];
    }
    if (nf && rnd() % 3) {
        t[k++] = '.';
        for (int i = 0; i < nf; i++)
            t[k++] = zeroish[rnd() % (sizeof zeroish - 1)];
    }
    if (rnd() % 4 == 0)
        k += (size_t)sprintf(t + k, "%s%d", rnd() & 1 ? "e" : "E-", (int)(rnd() % 30));
    t[k] = '\0';
}

int main(void)
{
    static const int64_t edges[] = {
        0, 1, -1, 9, 10, -10, 123456, INT_MAX, INT_MIN, (int64_t)INT_MAX + 1,
        (int64_t)INT_MIN - 1, (int64_t)INT_MAX * 2, 4294967295LL, 4294967296LL,
        999999999999999LL, 1000000000000000LL, 9007199254740992LL, 9007199254740993LL,
        12345678901234567LL, 123456789012345678LL, 1700000000123456789LL, INT64_MAX,
        INT64_MIN, -9007199254740993LL,
    };
    tt_argjson j;
    int bad = 0;
    tt_argjson_init(&j);

    ok(same_numbers(&j, edges, sizeof edges / sizeof edges[0]),
       "numbers at the int, 2^53 and 15/17-digit borders");
    for (int r = 0; r < 2000; r++) {
        int64_t v[8];
        for (int k = 0; k < 8; k++) {
            int bits = (int)(rnd() % 64);
            v[k] = (int64_t)(rnd() >> (63 - bits)) * ((rnd() & 1) ? 1 : -1);
        }
        bad += !same_numbers(&j, v, 8);
    }
    is_i64(bad, 0, "16000 random numbers of every magnitude");

    /* number texts re-printed as cJSON parses and prints them */
    {
        static const char *const texts[] = {
            "0", "-0", "0.0", "-0.0e5", "1", "-1", "2147483647", "2147483648", "-2147483648",
            "-2147483649", "0.1", "0.0001", "0.00001", "0.000123456789012345", "1e14", "1e15",
            "99999999999999.9", "999999999999999", "9999999999999999", "123456789012345.6",
            "1.5E+3", "1.50e-3", "12.340", "100", "1e400", "-1e400", "1e-400", "0.19982",
            "0.137675", "3.14159265358979", "3.141592653589793", "1000000000000000000000",
            "7.00000000000000000001", "4294967295", "0.30000000000000004",
        };
        int bad_text = 0;
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
            bad_text += !same_text_number(texts[i]);
        is_i64(bad_text, 0, "number texts at the plain/exponent and 15/17-digit borders");
        bad_text = 0;
        for (int r = 0; r < 50000; r++) {
            char t[80];
            random_number_text(t);
            bad_text += !same_text_number(t);
        }
        is_i64(bad_text, 0, "50000 random number texts print as cJSON prints them");
    }

    /* strings: every byte value, in keys and values */
    {
        char s[256], key[8];
        cJSON *o = cJSON_CreateObject();
        char *want;
        const char *got;
        size_t len;
        for (int c = 1; c < 256; c++)
            s[c - 1] = (char)c;
        s[255] = '\0';
        memcpy(key, "a\"\\\n\x01\xc3\xa9", 8);
        tt_argjson_begin(&j);
        tt_argjson_string(&j, "s", s);
        tt_argjson_string(&j, key, "plain");
        tt_argjson_string(&j, "empty", "");
        tt_argjson_number(&j, "n", 7);
        cJSON_AddStringToObject(o, "s", s);
        cJSON_AddStringToObject(o, key, "plain");
        cJSON_AddStringToObject(o, "empty", "");
        cJSON_AddNumberToObject(o, "n", 7);
        want = cJSON_PrintUnformatted(o);
        got = tt_argjson_end(&j, &len);
        ok(got && want && len == strlen(want) && memcmp(got, want, len) == 0,
           "strings with every byte, escaped keys, an empty string");
        free(want);
        cJSON_Delete(o);
    }
    {
        const char *got;
        size_t len;
        tt_argjson_begin(&j);
        got = tt_argjson_end(&j, &len);
        ok(got && len == 2 && memcmp(got, "{}", 2) == 0, "an empty object is {}");
    }
    tt_argjson_fini(&j);
    return tap_done();
}
