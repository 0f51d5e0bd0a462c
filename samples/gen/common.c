/* common.c - PRNG, atomic buffered output, JSON writer and option parsing
 * shared by gen-trace's format writers (see common.h). */
#include "config.h"

#include "gen/common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ PRNG */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void gen_rng_seed(gen_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t gen_rng_next(gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t gen_rng_below(gen_rng *r, uint64_t n)
{
    uint64_t limit, x;
    if (n == 0)
        return 0;
    /* reject the top partial block so every residue is equally likely */
    limit = UINT64_MAX - UINT64_MAX % n;
    do
        x = gen_rng_next(r);
    while (x >= limit);
    return x % n;
}

int64_t gen_rng_range(gen_rng *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int64_t)gen_rng_below(r, (uint64_t)(hi - lo) + 1);
}

int64_t gen_rng_jitter(gen_rng *r, int64_t v, int permille)
{
    int64_t d = gen_rng_range(r, -permille, permille);
    return v + v * d / 1000;
}

bool gen_rng_chance(gen_rng *r, int permille)
{
    return (int64_t)gen_rng_below(r, 1000) < permille;
}

uint64_t gen_seed_mix(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ULL);
    return splitmix64(&x);
}

/* ---------------------------------------------------------------- output */

#define OUT_BUFSIZE ((size_t)1 << 20)

/* The temporary file being written, removed if a signal ends the program
 * (so an interrupted multi-GB generation leaves nothing behind). */
static char *volatile live_tmp;

static void on_fatal_signal(int sig)
{
    char *t = live_tmp;
    if (t)
        unlink(t);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static void out_release(gen_out *o)
{
    live_tmp = NULL;
    free(o->path);
    free(o->tmp);
    free(o->buf);
    memset(o, 0, sizeof *o);
}

int gen_out_open(gen_out *o, const char *path, char *msg, size_t msgn)
{
    int fd;
    mode_t um;
    size_t n;
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;   /* stdio's own buffering; not replaced after use */
        return 0;
    }
    o->buf = malloc(OUT_BUFSIZE);
    if (!o->buf) {
        snprintf(msg, msgn, "out of memory");
        return -1;
    }
    n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 16);
    if (!o->path || !o->tmp) {
        snprintf(msg, msgn, "out of memory");
        out_release(o);
        return -1;
    }
    /* same directory as the target, so rename() is atomic */
    snprintf(o->tmp, n + 16, "%s.tmp.XXXXXX", path);
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(msg, msgn, "%s: cannot create a temporary file: %s", path, strerror(errno));
        out_release(o);
        return -1;
    }
    live_tmp = o->tmp;
    watch_signals();
    /* mkstemp makes the file 0600; give it the usual umask-based mode */
    um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0 || !(o->f = fdopen(fd, "wb"))) {
        snprintf(msg, msgn, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        out_release(o);
        return -1;
    }
    setvbuf(o->f, o->buf, _IOFBF, OUT_BUFSIZE);
    return 0;
}

int gen_out_commit(gen_out *o, char *msg, size_t msgn)
{
    int rc = 0;
    const char *what = o->path ? o->path : "stdout";
    if (fflush(o->f) != 0 && !o->err)
        o->err = errno;
    if (o->tmp) {
        if (!o->err && fsync(fileno(o->f)) != 0)
            o->err = errno;
        if (fclose(o->f) != 0 && !o->err)
            o->err = errno;
        o->f = NULL;
        if (!o->err && rename(o->tmp, o->path) != 0)
            o->err = errno;
        if (o->err)
            unlink(o->tmp);
    } else if (ferror(o->f) && !o->err) {
        o->err = EIO;
    }
    if (o->err) {
        snprintf(msg, msgn, "%s: cannot write: %s", what, strerror(o->err));
        rc = -1;
    }
    out_release(o);
    return rc;
}

void gen_out_abort(gen_out *o)
{
    if (o->tmp) {
        if (o->f)
            fclose(o->f);
        unlink(o->tmp);
    } else if (o->f) {
        fflush(o->f);
    }
    out_release(o);
}

void gen_putn(gen_out *o, const char *s, size_t n)
{
    if (o->err)
        return;
    if (fwrite(s, 1, n, o->f) != n)
        o->err = errno ? errno : EIO;
    o->bytes += n;
}

void gen_puts(gen_out *o, const char *s)
{
    gen_putn(o, s, strlen(s));
}

void gen_putc(gen_out *o, char c)
{
    if (o->err)
        return;
    if (putc(c, o->f) == EOF)
        o->err = errno ? errno : EIO;
    o->bytes++;
}

void gen_printf(gen_out *o, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->err = EINVAL;
        return;
    }
    if ((size_t)n < sizeof small) {
        gen_putn(o, small, (size_t)n);
        return;
    }
    {
        char *big = malloc((size_t)n + 1);
        if (!big) {
            o->err = ENOMEM;
            return;
        }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        gen_putn(o, big, (size_t)n);
        free(big);
    }
}

void gen_json_str(gen_out *o, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const char *run = s;
    gen_putc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[7];
        size_t en = 2;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        gen_putn(o, run, (size_t)(s - run));
        run = s + 1;
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            en = 6;
        }
        gen_putn(o, esc, en);
    }
    gen_putn(o, run, (size_t)(s - run));
    gen_putc(o, '"');
}

static size_t fmt_u64(char *end, uint64_t v)
{
    char *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return (size_t)(end - p);
}

void gen_u64(gen_out *o, uint64_t v)
{
    char b[24];
    size_t n = fmt_u64(b + sizeof b, v);
    gen_putn(o, b + sizeof b - n, n);
}

void gen_i64(gen_out *o, int64_t v)
{
    if (v < 0) {
        gen_putc(o, '-');
        gen_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        gen_u64(o, (uint64_t)v);
    }
}

void gen_us(gen_out *o, int64_t ns)
{
    char b[32];
    char *end = b + sizeof b;
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    uint64_t frac = a % 1000;
    size_t n;
    end[-1] = (char)('0' + frac % 10);
    end[-2] = (char)('0' + frac / 10 % 10);
    end[-3] = (char)('0' + frac / 100);
    end[-4] = '.';
    n = fmt_u64(end - 4, a / 1000) + 4;
    if (ns < 0)
        gen_putc(o, '-');
    gen_putn(o, end - n, n);
}

void gen_double(gen_out *o, double v)
{
    char e[40], out[64], digits[24];
    int prec, exp10, nd = 0;
    size_t k = 0;
    const char *p;
    if (v != v || v - v != 0) {   /* NaN or infinity: JSON has no spelling */
        gen_puts(o, "0");
        return;
    }
    if (v == 0) {
        gen_puts(o, "0");
        return;
    }
    /* fewest significant digits that read back exactly */
    for (prec = 0; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, v);
        if (strtod(e, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(e, sizeof e, "%.16e", v);
    p = e;
    if (*p == '-')
        out[k++] = *p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    exp10 = atoi(p + 1);
    if (exp10 >= -4 && exp10 < 16) {
        /* positional notation, as {fmt} and Python print these */
        if (exp10 < 0) {
            out[k++] = '0';
            out[k++] = '.';
            for (int i = -1; i > exp10; i--)
                out[k++] = '0';
            for (int i = 0; i < nd; i++)
                out[k++] = digits[i];
        } else {
            for (int i = 0; i <= exp10; i++)
                out[k++] = i < nd ? digits[i] : '0';
            if (nd > exp10 + 1) {
                out[k++] = '.';
                for (int i = exp10 + 1; i < nd; i++)
                    out[k++] = digits[i];
            }
        }
        gen_putn(o, out, k);
    } else {
        out[k++] = digits[0];
        if (nd > 1) {
            out[k++] = '.';
            for (int i = 1; i < nd; i++)
                out[k++] = digits[i];
        }
        k += (size_t)snprintf(out + k, sizeof out - k, "e%c%02d", exp10 < 0 ? '-' : '+',
                              exp10 < 0 ? -exp10 : exp10);
        gen_putn(o, out, k);
    }
}

void gen_fixed6(gen_out *o, double v)
{
    gen_printf(o, "%.6f", v);
}

/* ------------------------------------------------------------ options */

void gen_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gen-trace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void gen_opts_usage(FILE *f, const gen_opt *opts)
{
    for (const gen_opt *op = opts; op->name; op++) {
        char left[64];
        if (op->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", op->short_name, op->name,
                     op->arg ? " " : "", op->arg ? op->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", op->name, op->arg ? " " : "",
                     op->arg ? op->arg : "");
        fprintf(f, "  %-24s %s\n", left, op->help);
    }
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    unsigned long long x;
    if (!*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = (uint64_t)x;
    return 0;
}

int gen_opts_parse(gen_opt *opts, int argc, char **argv, const char *format,
                   const char *summary)
{
    struct option lo[64];
    char shorts[130];
    size_t n = 0, ns = 0;
    int c;

    shorts[ns++] = '+';   /* stop at the first non-option: reported below */
    shorts[ns++] = ':';   /* report a missing argument as ':' */
    for (gen_opt *op = opts; op->name && n < 62; op++, n++) {
        lo[n].name = op->name;
        lo[n].has_arg = op->type == GEN_OPT_FLAG ? no_argument : required_argument;
        lo[n].flag = NULL;
        lo[n].val = 256 + (int)n;
        op->given = false;
        if (op->short_name) {
            shorts[ns++] = op->short_name;
            if (op->type != GEN_OPT_FLAG)
                shorts[ns++] = ':';
        }
    }
    lo[n].name = "help";
    lo[n].has_arg = no_argument;
    lo[n].flag = NULL;
    lo[n].val = 'h';
    memset(&lo[n + 1], 0, sizeof lo[n + 1]);
    shorts[ns++] = 'h';
    shorts[ns] = '\0';

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        gen_opt *op = NULL;
        if (c == 'h') {
            printf("usage: gen-trace %s [OPTIONS] -o FILE\n%s\n\n", format, summary);
            gen_opts_usage(stdout, opts);
            return 1;
        }
        if (c == '?' || c == ':') {
            gen_error("%s: %s option '%s' (see 'gen-trace %s --help')", format,
                      c == ':' ? "missing the value of" : "unknown", argv[optind - 1], format);
            return -1;
        }
        if (c >= 256)
            op = &opts[c - 256];
        else
            for (gen_opt *q = opts; q->name; q++)
                if (q->short_name == c)
                    op = q;
        if (!op)
            continue;
        op->given = true;
        switch (op->type) {
        case GEN_OPT_FLAG:
            *(bool *)op->dst = true;
            break;
        case GEN_OPT_STR:
            *(const char **)op->dst = optarg;
            break;
        case GEN_OPT_U64: {
            uint64_t v;
            if (parse_u64(optarg, &v) || v < op->min || v > op->max) {
                gen_error("%s: --%s wants a whole number from %" PRIu64 " to %" PRIu64
                          ", not '%s'", format, op->name, op->min, op->max, optarg);
                return -1;
            }
            *(uint64_t *)op->dst = v;
            break;
        }
        }
    }
    if (optind < argc) {
        gen_error("%s: unexpected argument '%s' (see 'gen-trace %s --help')", format,
                  argv[optind], format);
        return -1;
    }
    return 0;
}
