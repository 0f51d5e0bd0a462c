/* relin.h - regular expressions matched in linear time.
 *
 * The search of the view takes a POSIX extended regular expression from
 * the user and tries it against every event name. glibc's regexec
 * backtracks: "(a*)*\1b" against a long name runs for minutes, and some
 * patterns without back-references are exponential too. This matcher
 * compiles the pattern to a Thompson NFA and runs it as a Pike VM over the
 * text, so a match costs O(pattern size x text length) whatever the
 * pattern.
 *
 * Syntax (the ERE subset the search needs): literals; "." (any character);
 * bracket expressions with ranges, negation and the classes [:alpha:]
 * [:digit:] [:alnum:] [:upper:] [:lower:] [:space:] [:blank:] [:punct:]
 * [:print:] [:graph:] [:cntrl:] [:xdigit:]; "\w" "\W" "\s" "\S"; the
 * repetitions "*" "+" "?" "{m}" "{m,}" "{m,n}" (m, n <= 255); "|";
 * grouping "( )"; the anchors "^" and "$" (start and end of the text);
 * "\c" for a literal c. Back-references, word boundaries and collating
 * elements are refused with a positioned error. Only whether the text
 * matches is computed (no submatch positions), as with REG_NOSUB.
 *
 * Text is read as UTF-8 ("." and bracket expressions see one code point;
 * a byte that is not valid UTF-8 is one character of its own). Classes
 * and case folding cover ASCII, as in the C locale.
 *
 * Ownership: tt_relin_compile returns a heap object the caller frees with
 * tt_relin_free (NULL is a no-op). A compiled expression is read-only while
 * matching, but tt_relin_match uses scratch space inside it: one thread at
 * a time. Library code: no I/O.
 */
#ifndef TT_UTIL_RELIN_H
#define TT_UTIL_RELIN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef struct tt_relin tt_relin;

enum {
    TT_RELIN_ICASE = 1   /* ASCII letters match either case */
};

/* Compile `pattern`. NULL with err set (TT_ERR_USAGE, the 1-based
 * character position of the problem in the message, e.g. "at character 6:
 * back-references (\1) are not supported") on a syntax error, or
 * TT_ERR_NOMEM. */
tt_relin *tt_relin_compile(const char *pattern, unsigned flags, tt_error *err);

/* Whether the expression matches somewhere in the n bytes of text. */
bool tt_relin_match(tt_relin *re, const char *text, size_t n);

void tt_relin_free(tt_relin *re);

#endif
