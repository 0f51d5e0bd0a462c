/* test_argjson.c - decode/argjson.h writes argument objects byte for byte
 * as cJSON_PrintUnformatted() prints the same object built with cJSON:
 * numbers across every magnitude and the int / %1.15g / %1.17g borders,
 * strings with every byte value, escapes in keys, empty objects. */
#include "config.h"

#include "../tap.h"
#include "decode/argjson.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x6a09e667f3bcc909ULL;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
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
