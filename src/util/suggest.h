/* suggest.h - "did you mean ...?": the closest of a set of names to a
 * mistyped word, by edit distance (insertions, deletions, substitutions
 * and swaps of neighbours each cost 1).
 *
 * Ownership: a tt_suggest borrows the word and the candidates it is
 * offered; they must outlive it.
 */
#ifndef TT_UTIL_SUGGEST_H
#define TT_UTIL_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (optimal string alignment), capped at
 * 255: longer names are never "close". */
size_t tt_edit_distance(const char *a, const char *b);

typedef struct tt_suggest {
    const char *word;
    const char *best;     /* closest candidate so far, or NULL */
    size_t      best_d;
} tt_suggest;

void tt_suggest_init(tt_suggest *s, const char *word);
/* Consider candidate; the first of equally close candidates wins. */
void tt_suggest_offer(tt_suggest *s, const char *candidate);
/* The closest candidate when it is close enough to be a typo (at most 1
 * edit for short words, about a third of the word's length for longer
 * ones), else NULL. */
const char *tt_suggest_best(const tt_suggest *s);

#endif
