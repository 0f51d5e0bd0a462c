/* test_suggest.c - util/suggest: the edit distance against a naive
 * recursive definition on random short words, and which mistypings get
 * a suggestion. */
#include "config.h"

#include "../tap.h"
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

/* optimal string alignment distance, straight from its recurrence */
static size_t naive(const char *a, size_t la, const char *b, size_t lb)
{
    size_t d;
    if (la == 0)
        return lb;
    if (lb == 0)
        return la;
    d = naive(a, la - 1, b, lb) + 1;
    if (naive(a, la, b, lb - 1) + 1 < d)
        d = naive(a, la, b, lb - 1) + 1;
    if (naive(a, la - 1, b, lb - 1) + (a[la - 1] != b[lb - 1]) < d)
        d = naive(a, la - 1, b, lb - 1) + (a[la - 1] != b[lb - 1]);
    if (la > 1 && lb > 1 && a[la - 1] == b[lb - 2] && a[la - 2] == b[lb - 1] &&
        naive(a, la - 2, b, lb - 2) + 1 < d)
        d = naive(a, la - 2, b, lb - 2) + 1;
    return d;
}

static const char *suggest(const char *word, const char *const *names)
{
    static tt_suggest s;
    tt_suggest_init(&s, word);
    for (size_t i = 0; names[i]; i++)
        tt_suggest_offer(&s, names[i]);
    return tt_suggest_best(&s);
}

int main(void)
{
    static const char *const commands[] = {"summary", "view",   "render",        "convert",
                                           "report",  "check",  "markers",       "merge-reports",
                                           "help",    NULL};
    static const char *const opts[] = {"kind", "by", "window", "format", "output", "help", NULL};
    unsigned seed = 12345;
    int mismatches = 0;
    char longword[100];

    for (int i = 0; i < 3000; i++) {
        char a[7], b[7];
        size_t la = (size_t)(rand_r(&seed) % 7), lb = (size_t)(rand_r(&seed) % 7);
        for (size_t k = 0; k < la; k++)
            a[k] = (char)('a' + rand_r(&seed) % 3);
        for (size_t k = 0; k < lb; k++)
            b[k] = (char)('a' + rand_r(&seed) % 3);
        a[la] = b[lb] = '\0';
        if (tt_edit_distance(a, b) != naive(a, la, b, lb) && mismatches++ < 5)
            diag("'%s' '%s': %zu, naive %zu", a, b, tt_edit_distance(a, b), naive(a, la, b, lb));
    }
    ok(mismatches == 0, "edit distance agrees with the recurrence on 3000 random pairs");
    is_i64((int64_t)tt_edit_distance("kidn", "kind"), 1, "a swap of neighbours is one edit");
    memset(longword, 'a', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    is_i64((int64_t)tt_edit_distance(longword, "a"), 255, "words over 64 bytes are never close");

    is_str(suggest("summry", commands), "summary", "summry -> summary");
    is_str(suggest("sumary", commands), "summary", "sumary -> summary");
    is_str(suggest("chek", commands), "check", "chek -> check");
    is_str(suggest("merge-report", commands), "merge-reports", "merge-report -> merge-reports");
    ok(suggest("trace", commands) == NULL, "trace is no command's typo");
    ok(suggest("x", commands) == NULL, "x is no command's typo");
    ok(suggest("summary", commands) == NULL, "an exact name gets no suggestion");
    is_str(suggest("kidn", opts), "kind", "--kidn -> --kind");
    is_str(suggest("fromat", opts), "format", "--fromat -> --format");
    is_str(suggest("windw", opts), "window", "--windw -> --window");
    ok(suggest("zzzzzz", opts) == NULL, "--zzzzzz gets no suggestion");
    return tap_done();
}
