/* common.h - what every gen-trace format writer shares.
 *
 * gen-trace writes synthetic but realistic profiler output (one file per
 * format under samples/gen/). This module holds the pieces they share:
 *   - a deterministic PRNG (xoshiro256**, seeded through splitmix64), so a
 *     seed always gives the same bytes;
 *   - an output file written through a large buffer to a temporary file in
 *     the target's directory, then fsync'ed and renamed (never half-written);
 *   - a tiny JSON writer: escaped strings, integers, microseconds with three
 *     decimals from integer nanoseconds, shortest round-trip doubles;
 *   - table-driven option parsing, so a format adds an option with one line.
 *
 * libc only. No transcendental floating point anywhere: every timing is
 * integer nanoseconds, and the few doubles printed come from one exactly
 * rounded division, so the output is byte-identical on every IEEE platform.
 *
 * Ownership: a gen_out owns its FILE and path copies until gen_out_commit()
 * or gen_out_abort(). Errors are reported by the caller (gen-trace is a
 * program: main.c and the format writers print and choose exit codes).
 */
#ifndef GEN_COMMON_H
#define GEN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, as tracetty: 0 success, 2 usage or I/O error. */
#define GEN_EXIT_OK 0
#define GEN_EXIT_ERROR 2

/* ------------------------------------------------------------------ PRNG */

typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

void gen_rng_seed(gen_rng *r, uint64_t seed);
uint64_t gen_rng_next(gen_rng *r);
/* Uniform in [0, n); n == 0 gives 0. Unbiased (rejection sampling). */
uint64_t gen_rng_below(gen_rng *r, uint64_t n);
/* Uniform in [lo, hi] (lo <= hi). */
int64_t gen_rng_range(gen_rng *r, int64_t lo, int64_t hi);
/* v changed by a uniform relative amount in [-permille, +permille]/1000. */
int64_t gen_rng_jitter(gen_rng *r, int64_t v, int permille);
/* true with probability permille/1000. */
bool gen_rng_chance(gen_rng *r, int permille);
/* Mix two values into a seed (for per-rank streams). */
uint64_t gen_seed_mix(uint64_t a, uint64_t b);

/* ---------------------------------------------------------------- output */

typedef struct gen_out {
    FILE    *f;
    char    *path;      /* final path; NULL for stdout */
    char    *tmp;       /* temporary file being written; NULL for stdout */
    char    *buf;       /* stdio buffer; NULL for stdout */
    uint64_t bytes;     /* bytes written so far */
    int      err;       /* errno of the first write failure, 0 if none */
} gen_out;

/* Open path for writing ("-" = stdout). Returns 0, or -1 with a message in
 * msg. The data goes to a temporary file next to path until commit. */
int gen_out_open(gen_out *o, const char *path, char *msg, size_t msgn);
/* Flush, fsync, close and rename into place. Returns 0 or -1 with msg;
 * on failure the temporary file is removed. Always releases o. */
int gen_out_commit(gen_out *o, char *msg, size_t msgn);
/* Close and remove the temporary file (error paths). Releases o. */
void gen_out_abort(gen_out *o);

void gen_putn(gen_out *o, const char *s, size_t n);
void gen_puts(gen_out *o, const char *s);
void gen_putc(gen_out *o, char c);
void gen_printf(gen_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal: quotes, backslash escapes, \u00XX for controls.
 * Bytes >= 0x80 are copied (the caller passes UTF-8). */
void gen_json_str(gen_out *o, const char *s);
void gen_u64(gen_out *o, uint64_t v);
void gen_i64(gen_out *o, int64_t v);
/* Integer nanoseconds as microseconds with exactly three decimals:
 * 1234567 -> "1234.567" (Kineto's ts/dur format). */
void gen_us(gen_out *o, int64_t ns);
/* Shortest decimal that reads back as the same double ("%.17g" at most),
 * like the {fmt} library Kineto uses: 0.1 -> "0.1", 1268.4387096774194. */
void gen_double(gen_out *o, double v);
/* Fixed six decimals ("%.6f"), as Kineto prints occupancy figures. */
void gen_fixed6(gen_out *o, double v);

/* ------------------------------------------------------------ options */

typedef enum gen_opt_type {
    GEN_OPT_U64,     /* unsigned decimal, checked against [min, max] */
    GEN_OPT_STR,     /* any string */
    GEN_OPT_FLAG     /* no argument: sets *(bool *)dst */
} gen_opt_type;

typedef struct gen_opt {
    const char  *name;       /* long name, without "--" */
    char         short_name; /* 0 when none */
    gen_opt_type type;
    void        *dst;        /* uint64_t *, const char **, bool * */
    uint64_t     min, max;   /* GEN_OPT_U64 */
    const char  *arg;        /* argument name for usage ("N"), NULL for flags */
    const char  *help;
    bool         given;      /* set by gen_opts_parse */
} gen_opt;

/* Parse argv[1..] (argv[0] is the format name) against a table ending with
 * a {NULL} entry. Every argument must be an option. Prints a one-line error
 * and returns -1 on a bad option or value, returns 1 after printing the
 * usage for --help, 0 otherwise. */
int gen_opts_parse(gen_opt *opts, int argc, char **argv, const char *format,
                   const char *summary);
/* Print "  --name ARG   help" lines for a table. */
void gen_opts_usage(FILE *f, const gen_opt *opts);

/* "gen-trace: " + message on stderr. */
void gen_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
