/* test_relin.c - the linear-time matcher agrees with glibc's regexec on the
 * ERE subset it supports (random patterns and texts), refuses what it does
 * not support with a positioned error, and stays fast on the patterns that
 * make a backtracking matcher take exponential time. */
#include "config.h"

#include "util/relin.h"

#include "../tap.h"
#include "../xorshift.h"

#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
    tt_xorshift64(&rng);
    return (unsigned)(rng % n);
}

typedef struct buf {
    char   s[512];
    size_t n;
} buf;

static void put(buf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->n + k < sizeof b->s) {
        memcpy(b->s + b->n, s, k + 1);
        b->n += k;
    }
}

/* A random well-formed pattern over a small alphabet, from the grammar the
 * matcher supports (each branch non-empty, as glibc wants). */
static void gen_alt(buf *b, int depth);

static void gen_atom(buf *b, int depth)
{
    static const char *const atoms[] = {"a", "b", "c", "A", ".", "[ab]", "[^a]", "[a-c]",
                                        "[[:upper:]]", "[[:digit:]x]", "\\.", "-", "1",
                                        "[]a]", "[^]b]", "\\w", "\\S"};
    unsigned k = rnd(depth > 2 ? 10 : 12);
    if (k >= 10) {
        put(b, "(");
        gen_alt(b, depth + 1);
        put(b, ")");
        return;
    }
    put(b, atoms[rnd(sizeof atoms / sizeof atoms[0])]);
}

static void gen_repeat(buf *b, int depth)
{
    static const char *const ops[] = {"*", "+", "?", "{2}", "{1,3}", "{0,}", "{2,}", "{0,1}"};
    gen_atom(b, depth);
    if (rnd(3) == 0)
        put(b, ops[rnd(sizeof ops / sizeof ops[0])]);
}

static void gen_concat(buf *b, int depth)
{
    unsigned n = 1 + rnd(3);
    /* anchors only outside groups: glibc lets "(^a){2}" match "aa" */
    if (depth == 0 && rnd(6) == 0)
        put(b, "^");
    for (unsigned i = 0; i < n; i++)
        gen_repeat(b, depth);
    if (depth == 0 && rnd(6) == 0)
        put(b, "$");
}

static void gen_alt(buf *b, int depth)
{
    gen_concat(b, depth);
    while (rnd(4) == 0) {
        put(b, "|");
        gen_concat(b, depth);
    }
}

static void gen_text(char *t, size_t cap)
{
    static const char alphabet[] = "abcABx1.-_ ";
    size_t n = rnd((unsigned)(cap - 1) < 12 ? (unsigned)(cap - 1) : 12);
    for (size_t i = 0; i < n; i++)
        t[i] = alphabet[rnd(sizeof alphabet - 1)];
    t[n] = '\0';
}

static void agreement(void)
{
    int disagree = 0, compared = 0;
    for (int p = 0; p < 3000; p++) {
        buf b = {"", 0};
        int icase = (int)rnd(2);
        regex_t re;
        tt_relin *lin;
        tt_error err;
        gen_alt(&b, 0);
        if (regcomp(&re, b.s, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0)) != 0)
            continue;   /* glibc refuses it: nothing to compare */
        tt_error_clear(&err);
        lin = tt_relin_compile(b.s, icase ? TT_RELIN_ICASE : 0, &err);
        if (!lin) {
            if (disagree++ < 5)
                printf("# refused /%s/: %s\n", b.s, err.what);
            regfree(&re);
            continue;
        }
        for (int t = 0; t < 40; t++) {
            char text[16];
            bool want, got;
            gen_text(text, sizeof text);
            want = regexec(&re, text, 0, NULL, 0) == 0;
            got = tt_relin_match(lin, text, strlen(text));
            compared++;
            if (want != got && disagree++ < 5)
                printf("# /%s/%s on \"%s\": glibc %d, relin %d\n", b.s, icase ? "i" : "", text,
                       want, got);
        }
        tt_relin_free(lin);
        regfree(&re);
    }
    ok(compared > 50000, "compared %d pattern/text pairs with regexec", compared);
    is_i64(disagree, 0, "relin agrees with glibc regexec on every pair");
}

static void refuses(const char *pattern, const char *want)
{
    tt_error err;
    tt_relin *re;
    tt_error_clear(&err);
    re = tt_relin_compile(pattern, 0, &err);
    ok(re == NULL && err.code == TT_ERR_USAGE, "/%s/ is refused", pattern);
    is_str(err.what, want, "/%s/: the message says where and why", pattern);
    tt_relin_free(re);
}

static void errors(void)
{
    refuses("(a*)*\\1b", "at character 6: back-references (\\1 ... \\9) are not supported");
    refuses("ab(c", "at character 3: unmatched (");
    refuses("ab)", "at character 3: unmatched )");
    refuses("x[ab", "at character 2: unmatched [");
    refuses("*a", "at character 1: nothing to repeat before this");
    refuses("a{3,1}", "at character 2: a count {m,n} with n below m");
    refuses("a{300}", "at character 2: a count above 255");
    refuses("[z-a]", "at character 2: invalid range (its end is before its start)");
    refuses("[[:nope:]]", "at character 2: unknown character class");
    refuses("\\bx", "at character 1: word boundaries and buffer anchors are not supported");
    refuses("ab\\", "at character 3: trailing backslash");
    refuses("é(", "at character 2: unmatched (");
    refuses("(((a{255}){255}){255})", "at character 1: the expression is too large (counted repeats?)");
}

static bool matches(const char *pattern, unsigned flags, const char *text)
{
    tt_error err;
    tt_relin *re = tt_relin_compile(pattern, flags, &err);
    bool m = re && tt_relin_match(re, text, strlen(text));
    tt_relin_free(re);
    return m;
}

static void utf8(void)
{
    ok(matches("^.$", 0, "\xc3\xa9"), "'.' is one UTF-8 character");
    ok(matches("^[é]$", 0, "\xc3\xa9"), "a bracket holds a UTF-8 character");
    ok(!matches("^..$", 0, "\xc3\xa9"), "two '.' need two characters");
    ok(matches("^.$", 0, "\xff"), "an invalid byte is a character of its own");
    ok(matches("ALLREDUCE", TT_RELIN_ICASE, "ncclAllReduce"), "case folding");
    ok(!matches("ALLREDUCE", 0, "ncclAllReduce"), "case matters without the flag");
}

static double seconds_of(const char *pattern, size_t n)
{
    char *text = malloc(n + 1);
    struct timespec t0, t1;
    tt_error err;
    tt_relin *re = tt_relin_compile(pattern, TT_RELIN_ICASE, &err);
    memset(text, 'a', n);
    text[n] = '\0';
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ok(re && !tt_relin_match(re, text, n), "/%s/ does not match %zu a's", pattern, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tt_relin_free(re);
    free(text);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static void pathological(void)
{
    /* backtracking takes 2^n steps on these; the NFA takes n x |pattern|.
     * The bound is loose (sanitizer builds are slow): exponential time
     * would be hours. */
    double s = seconds_of("(a*)*b", 100000) + seconds_of("(a|a)*b", 100000) +
               seconds_of("(a|aa)*c", 100000) + seconds_of("(.*)*x", 100000) +
               seconds_of("^(a?){40}a{40}b", 100000);
    ok(s < 20.0, "pathological patterns finish in linear time (%.3f s)", s);
}

int main(void)
{
    setlocale(LC_ALL, "C");
    agreement();
    errors();
    utf8();
    pathological();
    return tap_done();
}
