/* suggest.c - closest name by edit distance (see suggest.h). */
#include "config.h"

#include "util/suggest.h"

#include <string.h>

#define MAX_LEN 64   /* names are short; longer words are never "close" */

size_t tt_edit_distance(const char *a, const char *b)
{
    /* three rows of the Damerau (optimal string alignment) table */
    size_t rows[3][MAX_LEN + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX_LEN || lb > MAX_LEN)
        return 255;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *t;
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (prev[j - 1] + cost < d)
                d = prev[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb] > 255 ? 255 : prev[lb];
}

void tt_suggest_init(tt_suggest *s, const char *word)
{
    s->word = word;
    s->best = NULL;
    s->best_d = (size_t)-1;
}

void tt_suggest_offer(tt_suggest *s, const char *candidate)
{
    size_t d = tt_edit_distance(s->word, candidate);
    if (d < s->best_d) {
        s->best = candidate;
        s->best_d = d;
    }
}

const char *tt_suggest_best(const tt_suggest *s)
{
    size_t len = strlen(s->word);
    size_t limit = len < 6 ? 1 : len / 3;   /* "sumary" -> 2, "kidn" -> 1 (a swap) */
    if (!s->best || s->best_d == 0 || s->best_d > limit)
        return NULL;
    return s->best;
}
