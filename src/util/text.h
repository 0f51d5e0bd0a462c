/* text.h - make trace strings safe and measurable for a terminal.
 *
 * Trace strings come from other programs and may hold ESC, BEL, CR, C1
 * controls or invalid UTF-8; written raw they could drive the user's
 * terminal. Everything tracetty prints that came from a trace goes through
 * tt_text_sanitize(): controls become visible escapes (\e, \x07, \u009b),
 * invalid bytes become \xNN, and in a non-UTF-8 locale every non-ASCII byte
 * is escaped too (a lone 0x9b is CSI on 8-bit terminals).
 */
#ifndef TT_UTIL_TEXT_H
#define TT_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decide once, from the locale (after setlocale), whether the terminal
 * takes UTF-8. Library code reads the flag; the CLI sets it. */
void tt_text_set_utf8(bool utf8);
bool tt_text_utf8(void);

/* Copy [s, s+n) into out (capacity cap, always NUL-terminated) with every
 * unsafe character escaped. Returns the length written (truncated to fit
 * on a character boundary). */
size_t tt_text_sanitize(const char *s, size_t n, char *out, size_t cap);

/* Sanitize a NUL-terminated string into a static-per-call buffer owned by
 * the caller. Convenience: returns out. */
const char *tt_text_safe(const char *s, char *out, size_t cap);

/* Quote s for a POSIX shell: 'text', each ' written as '\''. out (capacity
 * cap) is always NUL-terminated and the quote always closed; *cut (when
 * not NULL) is set when s did not fit. Returns out. The result is still
 * raw: sanitize it before showing it. */
const char *tt_shell_quote(const char *s, char *out, size_t cap, bool *cut);

/* Terminal columns taken by a sanitized (valid, control-free) string. */
int tt_text_width(const char *s);

/* Byte length of the longest prefix of a sanitized string that fits in
 * `cols` columns; *used receives its width. */
size_t tt_text_fit(const char *s, int cols, int *used);

/* Byte length of the next line of a sanitized string wrapped at `cols`
 * columns: broken after a space when that leaves at least half a line,
 * else where it stops fitting; never 0 for a non-empty string (a
 * character wider than cols is a line of its own). */
size_t tt_text_wrap_len(const char *s, int cols);

/* Make a printed JSON document valid and terminal-safe: every byte that is
 * not part of a valid UTF-8 sequence becomes U+FFFD, and DEL, C1 controls
 * and bidi/zero-width format characters become \uXXXX escapes (lossless;
 * they can only occur inside strings, as JSON's structure is ASCII).
 * Returns a malloc'd copy, or NULL when out of memory. */
char *tt_json_repair(const char *json);

/* Decode one UTF-8 character at s (n bytes available). Returns its byte
 * length (>= 1) and the code point in *cp, or 0 for an invalid sequence. */
size_t tt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
