/* tap.h - minimal TAP producer for C unit tests run by automake's
 * tap-driver.sh. Header-only: each test program includes it once.
 *
 *   int main(void) { ok(1 + 1 == 2, "sum"); return tap_done(); }
 *
 * The plan is printed at the end ("1..N"), so tests need no count.
 */
#ifndef TT_TESTS_TAP_H
#define TT_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_n++;
    printf("%sok %d - ", cond ? "" : "not ", tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (!cond)
        tap_failed++;
    fflush(stdout);
    return cond;
}

__attribute__((format(printf, 3, 4), unused))
static int is_i64(int64_t got, int64_t want, const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!ok(got == want, "%s", msg))
        printf("#   got %" PRId64 ", want %" PRId64 "\n", got, want);
    return got == want;
}

__attribute__((format(printf, 3, 4), unused))
static int is_str(const char *got, const char *want, const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    int same = got && want && strcmp(got, want) == 0;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!ok(same, "%s", msg))
        printf("#   got \"%s\", want \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
    return same;
}

__attribute__((format(printf, 1, 2), unused))
static void diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Print the plan; the exit status reflects failures too. */
__attribute__((unused))
static int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

/* Skip the whole test (TAP "1..0 # SKIP"), exit status 0 for the driver. */
__attribute__((unused))
static int tap_skip_all(const char *why)
{
    printf("1..0 # SKIP %s\n", why);
    return 0;
}

#endif
