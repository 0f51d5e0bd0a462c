/* csv_common.c - shared machinery of the CSV decoders (see csv_common.h).
 *
 * Rows are split by a scanner of its own (below), fields left in the read
 * buffer, and each finished row handed to the dialect.
 */
#include "config.h"

#include "decode/csv_common.h"

#include "decode/json_scan.h"
#include "model/args.h"
#include "util/grow.h"
#include "util/num.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CHUNK ((size_t)1 << 20)
#define PROGRESS_EVERY ((int64_t)4 << 20)

/* ----------------------------------------------------------------- job */

void tt_csv_job_init(tt_csv_job *j, tt_input *in, const tt_load_opts *opts, tt_trace *tr,
                     tt_load_info *info, tt_error *err)
{
    memset(j, 0, sizeof *j);
    j->in = in;
    j->opts = opts;
    j->tr = tr;
    j->info = info;
    j->err = err;
    tt_u64map_init(&j->lanes);
}

void tt_csv_job_fini(tt_csv_job *j)
{
    for (size_t i = 0; i < j->n_hdr; i++) {
        free(j->hdr[i]);
        if (j->hdr_key)
            free(j->hdr_key[i]);
    }
    free(j->hdr);
    free(j->hdr_key);
    free(j->hdr_key_len);
    free(j->val);
    free(j->hdr_len);
    free(j->keep);
    tt_u64map_fini(&j->lanes);
    memset(j, 0, sizeof *j);
}

static int oom(tt_csv_job *j)
{
    return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* ------------------------------------------------------------- reading */

/* The row scanner reads RFC 4180 exactly as libcsv 3.0 in strict mode
 * (CSV_STRICT | CSV_STRICT_FINI), which the decoders used before; the
 * tests compare both on every dialect's inputs. Its rules:
 *   - ',' separates fields; CR or LF ends a row (CRLF: the LF starts an
 *     empty row, and empty or blank-only rows are skipped);
 *   - spaces and tabs before a field are skipped, after an unquoted field
 *     or after a closing quote trimmed;
 *   - a quoted field holds anything, "" being one quote; a quote inside an
 *     unquoted field, or anything but blanks, ',' or a line end after a
 *     closing quote, is an error;
 *   - at the end of the data an open row ends (c = -1), except inside an
 *     open quoted field, which is an error.
 * libcsv copied every byte into its own buffer and called back per field;
 * this keeps each field where it was read and NUL-terminates it there,
 * which made the Ascend decoder half again as fast. */

/* A quoted field of the row being scanned (field k): its text is between
 * the quotes, "" still doubled when esc, blanks at its ends not yet
 * trimmed. Unquoted fields are complete as scanned. */
typedef struct quoted {
    size_t k;
    bool   esc;
} quoted;

/* Byte classes of buf[base, base + 64) (window_at); none are known
 * while stop is 0 (a window holds the end of the field it was loaded
 * for). */
typedef struct window {
    size_t   base;
    uint64_t stop;    /* , " CR LF */
    uint64_t blank;   /* space, tab */
    uint64_t other;   /* neither a digit nor '.' */
    uint64_t dot;
    uint64_t zero;    /* '0' */
} window;

typedef enum scan_result {
    ROW_DONE,    /* a row ended (its terminator in *term, -1 at the end) */
    ROW_NONE,    /* only blanks and line ends up to the end */
    ROW_MORE,    /* the row goes on past the data read so far */
    ROW_QUOTE,   /* the data ends inside a quoted field (at the end only) */
    ROW_BAD      /* malformed quoting */
} scan_result;

/* C_TEXT and C_BLANK first: `cls <= C_BLANK` is "inside an unquoted field" */
enum { C_TEXT = 0, C_BLANK, C_COMMA, C_EOL, C_QUOTE };

static const unsigned char cls[256] = {
    [','] = C_COMMA, ['\r'] = C_EOL, ['\n'] = C_EOL, ['"'] = C_QUOTE,
    [' '] = C_BLANK, ['\t'] = C_BLANK,
};

typedef struct reader {
    tt_csv_job    *job;
    tt_csv_row_fn  fn;
    void          *ctx;
    /* the fields of the row being scanned (n_sp of them; cap_f room),
     * delivered as they are but for the quoted ones and each one's NUL:
     * the scan does not write to the buffer, as a row that goes on past
     * the data read is scanned again once it has moved */
    const char   **ptr;
    size_t        *flen;
    unsigned char *num;           /* tt_csv_row.num */
    size_t         n_sp, cap_f;
    quoted        *q;             /* its quoted fields */
    size_t         n_q, cap_q;
    size_t         n;             /* fields of the current row */
    int64_t        row;           /* rows delivered so far */
    bool           stop;          /* the dialect failed, or OOM */
    bool           discard;       /* drop the partial last row of a cut-off input */
    /* a last row cut off mid-write: it stops short of the header's columns
     * without a line end (fields it has), or inside a quoted field */
    size_t         short_tail;
    bool           short_rows;   /* a complete row had fewer fields than the header */
    bool           quoted_tail;
    /* --lenient: bytes read and where the current row began (after the
     * last line end outside quotes), to measure a cut-off tail */
    int64_t        fed, row_start;
    bool           in_quotes;
    bool           past_text;     /* job->text_until: its line was reached */
    window         win;           /* of the buffer's bytes, until they move */
} reader;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool grow_fields(reader *r)
{
    size_t nc = r->cap_f ? r->cap_f * 2 : 64;
    const char **np = realloc(r->ptr, nc * sizeof *np);
    size_t *nl;
    unsigned char *nn;
    if (np)
        r->ptr = np;
    nl = np ? realloc(r->flen, nc * sizeof *nl) : NULL;
    if (nl)
        r->flen = nl;
    nn = nl ? realloc(r->num, nc) : NULL;
    if (!nn)
        return false;
    r->num = nn;
    r->cap_f = nc;
    return true;
}

/* Field s[a, b) of the row being scanned; false on OOM. */
static inline bool add_field(reader *r, const char *s, size_t a, size_t b, bool num)
{
    if (r->n_sp == r->cap_f && !grow_fields(r))
        return false;
    r->ptr[r->n_sp] = s + a;
    r->flen[r->n_sp] = b - a;
    r->num[r->n_sp] = num;
    r->n_sp++;
    return true;
}

static inline bool add_quoted(reader *r, const char *s, size_t a, size_t b, bool esc)
{
    if (tt_grow_one((void **)&r->q, &r->cap_q, r->n_q, sizeof *r->q))
        return false;
    r->q[r->n_q++] = (quoted){r->n_sp, esc};
    return add_field(r, s, a, b, false);
}

/* How fast_fields() stopped (FF_FIELD: it did not run). */
enum { FF_FIELD, FF_COMMA, FF_EOL, FF_OOM };

#ifdef __SSE2__
/* Byte classes of 64 bytes of the buffer, one bit each, found sixteen at
 * a time and shared by the fields in them: most cells are short numbers,
 * and a byte-by-byte walk of the classes, then another of each cell to
 * tell numbers from text when storing it, were most of a CSV load. */
static inline uint64_t mask16(__m128i m, int k)
{
    return (uint64_t)(uint32_t)_mm_movemask_epi8(m) << (16 * k);
}

/* Bytes u[at + 16k, + 16) into w's masks. */
static inline void window16(window *w, uint64_t *num, const unsigned char *u, size_t at, int k)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(u + at + 16 * (size_t)k));
    __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    __m128i dot = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
    __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    /* d <= 9 as an unsigned byte: a digit */
    __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    w->stop |= mask16(stop, k);
    w->blank |= mask16(blank, k);
    *num |= mask16(_mm_or_si128(digit, dot), k);
    w->dot |= mask16(dot, k);
    w->zero |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('0')), k);
}

static inline window window_at(const unsigned char *u, size_t at)
{
    window w = {at, 0, 0, 0, 0, 0};
    uint64_t num = 0;
    /* four calls, not a loop: one the compiler kept as a loop cost a
     * tenth more */
    window16(&w, &num, u, at, 0);
    window16(&w, &num, u, at, 1);
    window16(&w, &num, u, at, 2);
    window16(&w, &num, u, at, 3);
    w.other = ~num;
    return w;
}

/* Unquoted fields from u[*ip], a text byte, added to the row by the
 * windows, each to its ',' or line end (in *ip then), while text starts
 * the next one. Each is told a JSON number as js_is_number() tells
 * (digits with one '.' at most, not at either end, no leading zero but
 * alone or before the dot) for the argument store. Stops with
 *   FF_FIELD at a field the windows cannot tell (one of 64 bytes or
 *            more, the last 64 of the data, a quote in it): the caller's
 *            byte-by-byte scan reads it;
 *   FF_COMMA past a ',' that no text follows;
 *   FF_EOL   at the row's line end;
 *   FF_OOM. */
static int fast_fields(reader *r, const unsigned char *u, size_t *ip, size_t len)
{
    size_t i = *ip, k = r->n_sp, cap = r->cap_f;
    const char **ptr = r->ptr;
    size_t *flen = r->flen;
    unsigned char *num = r->num;
    window w = r->win;
    int st;
    for (;;) {
        size_t off = i - w.base, e, b;
        uint64_t m, bit, low, dots;
        bool isnum;
        if (off >= 64 || !(m = w.stop >> off)) {   /* off wraps when i < base */
            if (len - i < 64) {
                st = FF_FIELD;
                break;
            }
            w = window_at(u, i);
            off = 0;
            if (!(m = w.stop)) {
                st = FF_FIELD;
                break;
            }
        }
        /* bits of the field from bit 0 (u[i] is text: one at least) */
        bit = m & -m;   /* its end */
        low = bit - 1;
        e = i + (size_t)__builtin_ctzll(m);
        if (u[e] == '"') {
            st = FF_FIELD;
            break;
        }
        if (k == cap) {
            r->n_sp = k;
            if (!grow_fields(r)) {
                st = FF_OOM;
                break;
            }
            cap = r->cap_f;
            ptr = r->ptr;
            flen = r->flen;
            num = r->num;
        }
        b = e;
        if (w.blank >> off & bit >> 1) {
            while (cls[u[b - 1]] == C_BLANK)
                b--;
            isnum = false;
        } else {
            dots = w.dot >> off & low;
            isnum = !((w.other >> off & low) | (dots & (dots - 1)) | (dots & (1 | bit >> 1)) |
                      (w.zero >> off & ~(dots >> 1) & low >> 1 & 1));
        }
        ptr[k] = (const char *)u + i;
        flen[k] = b - i;
        num[k] = isnum;
        k++;
        if (u[e] != ',') {
            i = e;
            st = FF_EOL;
            break;
        }
        i = e + 1;
        if (i == len || cls[u[i]] != C_TEXT) {
            st = FF_COMMA;
            break;
        }
    }
    r->n_sp = k;
    r->win = w;
    *ip = i;
    return st;
}
#endif

/* The data, s[0, len), ends the row being scanned; s[a, b) is its last
 * field. */
static scan_result last_field(reader *r, const char *s, size_t a, size_t b, size_t len,
                              size_t *pos, int *term)
{
    if (!add_field(r, s, a, b, false))
        return *term = -1, ROW_BAD;
    *term = -1;
    *pos = len;
    return ROW_DONE;
}

/* Scan one row of s[*pos, len); at_end: no data follows. On ROW_DONE *pos
 * moves past the row; on ROW_NONE to len; otherwise it stays at the row's
 * start (r->n_sp fields were complete; -1 in *term on OOM). */
static scan_result scan_row(reader *r, const char *s, size_t *pos, size_t len, bool at_end,
                            int *term)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = *pos;
    r->n_sp = 0;
    r->n_q = 0;
    *term = 0;
    /* ROW_NOT_BEGUN: blanks and line ends are skipped */
    while (i < len && (cls[u[i]] == C_BLANK || cls[u[i]] == C_EOL))
        i++;
    if (i == len) {
        *pos = len;
        return ROW_NONE;
    }
    for (;;) {
        /* FIELD_NOT_BEGUN, at a field's first byte after blanks */
        unsigned char c = cls[u[i]];
        if (c == C_EOL || c == C_COMMA) {
            if (!add_field(r, s, i, i, false))
                return *term = -1, ROW_BAD;
            if (c == C_EOL) {
                *term = u[i];
                *pos = i + 1;
                return ROW_DONE;
            }
            i++;
        } else if (c == C_QUOTE) {
            size_t a = ++i, q;
            bool esc = false;
            for (;;) {
                const char *hit = memchr(s + i, '"', len - i);
                if (!hit)
                    return at_end ? ROW_QUOTE : ROW_MORE;
                q = (size_t)(hit - s);
                if (q + 1 < len && u[q + 1] == '"') {
                    esc = true;
                    i = q + 2;
                    continue;
                }
                break;
            }
            if (q + 1 == len && !at_end)
                return ROW_MORE;   /* "" may follow */
            i = q + 1;
            while (i < len && cls[u[i]] == C_BLANK)
                i++;
            if (!add_quoted(r, s, a, q, esc))
                return *term = -1, ROW_BAD;
            if (i == len) {
                if (!at_end)
                    return r->n_q--, r->n_sp--, ROW_MORE;
                *term = -1;
                *pos = len;
                return ROW_DONE;
            }
            c = cls[u[i]];
            if (c == C_EOL) {
                *term = u[i];
                *pos = i + 1;
                return ROW_DONE;
            }
            if (c != C_COMMA)   /* text or a quote after the closing quote */
                return r->n_q--, r->n_sp--, ROW_BAD;
            i++;
        } else {
            int ff = FF_FIELD;
#ifdef __SSE2__
            ff = fast_fields(r, u, &i, len);
            if (ff == FF_OOM)
                return *term = -1, ROW_BAD;
            if (ff == FF_EOL) {
                *term = u[i];
                *pos = i + 1;
                return ROW_DONE;
            }
#endif
            if (ff == FF_FIELD) {
                /* to the first byte that ends the field, then back over
                 * trailing blanks (u[a] is text, not a blank) */
                size_t a = i, b;
                for (i++; i < len && cls[u[i]] <= C_BLANK; i++)
                    ;
                for (b = i; cls[u[b - 1]] == C_BLANK; b--)
                    ;
                if (i == len)
                    return at_end ? last_field(r, s, a, b, len, pos, term) : ROW_MORE;
                c = cls[u[i]];
                if (c == C_QUOTE)
                    return ROW_BAD;   /* a quote inside an unquoted field */
                if (!add_field(r, s, a, b, false))
                    return *term = -1, ROW_BAD;
                if (c == C_EOL) {
                    *term = u[i];
                    *pos = i + 1;
                    return ROW_DONE;
                }
                i++;
            }
        }
        /* after a ',': blanks, then the next field */
        while (i < len && cls[u[i]] == C_BLANK)
            i++;
        if (i == len)
            return at_end ? last_field(r, s, len, len, len, pos, term) : ROW_MORE;
    }
}

/* Hand the scanned row to the dialect: each quoted field unquoted and
 * trimmed of spaces and tabs in place (Ascend writes a tab inside quoted
 * start times), every field NUL-terminated. c: the row's terminator, -1
 * at the end. */
static void deliver(reader *r, int c)
{
    tt_csv_row row;
    if (r->stop || r->discard)
        return;
    for (size_t i = 0; i < r->n_q; i++) {
        size_t k = r->q[i].k;
        char *p = (char *)r->ptr[k];
        size_t n = r->flen[k];
        if (r->q[i].esc) {
            /* every quote in it is the first of "" (the scan saw to it):
             * the runs up to and with it move down, its second dropped
             * (Ascend's shapes are """1,2;3,4""": two quotes, a long run) */
            char *w = p, *rd = p, *end = p + n;
            for (;;) {
                char *q = memchr(rd, '"', (size_t)(end - rd));
                size_t run = q ? (size_t)(q + 1 - rd) : (size_t)(end - rd);
                if (w != rd)
                    memmove(w, rd, run);
                w += run;
                if (!q)
                    break;
                rd = q + 2;
            }
            n = (size_t)(w - p);
        }
        while (n > 0 && is_blank(p[0])) {
            p++;
            n--;
        }
        while (n > 0 && is_blank(p[n - 1]))
            n--;
        r->ptr[k] = p;
        r->flen[k] = n;
    }
    /* the fields' ends are separators, line ends, quotes or blanks, or
     * the buffer's spare byte (locals: a char store may alias r) */
    {
        const char **ptr = r->ptr;
        const size_t *flen = r->flen;
        for (size_t k = 0, n = r->n_sp; k < n; k++)
            ((char *)ptr[k])[flen[k]] = '\0';
    }
    r->n = r->n_sp;
    /* c is -1 for a last row without a line end: with fewer fields than
     * the header it was cut off mid-write, unless complete rows are short
     * too (a table whose rows leave empty cells out) */
    if (c != -1 && r->n < r->job->n_hdr)
        r->short_rows = true;
    if (c == -1 && r->n < r->job->n_hdr && !r->short_rows)
        r->short_tail = r->n;
    if (r->short_tail) {
        r->n = 0;
        return;
    }
    r->row++;
    row.f = r->ptr;
    row.len = r->flen;
    row.num = r->num;
    row.n = r->n;
    row.row = r->row;
    if (r->fn(r->ctx, &row))
        r->stop = true;
    r->n = 0;
}

/* --lenient: follow line ends outside quotes through the data read, so
 * that a cut-off last row can be measured. */
static void track_rows(reader *r, const unsigned char *p, size_t n)
{
    bool q = r->in_quotes;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            q = !q;
        else if (!q && (p[i] == '\n' || p[i] == '\r'))
            r->row_start = r->fed + (int64_t)i + 1;
    }
    r->in_quotes = q;
    r->fed += (int64_t)n;
}

/* The input ended inside a row (why: what was cut, at row/column): an
 * error, or with --lenient the complete rows are kept and the partial
 * last one is counted as the dropped tail. 0 or -1. */
static int cut_tail(tt_csv_job *j, const reader *r, const char *why, int64_t row, int64_t col)
{
    int64_t dropped = r->fed - r->row_start;
    if (!j->opts->lenient) {
        tt_error_at_row(j->err, TT_ERR_FORMAT, row, col,
                        "%s: it looks cut off (--lenient loads the complete rows)", why);
        return -1;
    }
    j->info->dropped_bytes = dropped;
    j->info->dropped_events = dropped > 0;
    if (dropped > 0)
        tt_trace_problem(j->tr, TT_PROB_DROPPED_TAIL,
                         "%s at row %lld, column %lld: dropped %lld bytes (1 partial row)", why,
                         (long long)row, (long long)col, (long long)dropped);
    else
        tt_trace_problem(j->tr, TT_PROB_DROPPED_TAIL,
                         "%s after row %lld: every row was complete, nothing dropped", why,
                         (long long)row - 1);
    return 0;
}

static void report_progress(tt_csv_job *j, bool force)
{
    int64_t pos = tt_input_data_pos(j->in);
    if (!j->opts->progress || (!force && pos - j->last_progress < PROGRESS_EVERY))
        return;
    j->last_progress = pos;
    j->opts->progress(j->opts->progress_ctx, tt_input_file_pos(j->in), tt_input_file_size(j->in),
                      pos, j->events);
}

/* Scan and deliver the complete rows of buf[*pos, len). 0, or -1 with
 * the error set (malformed quoting, OOM, the dialect's). */
static int scan_rows(reader *r, char *buf, size_t *pos, size_t len)
{
    const char *until = r->job->text_until;
    while (until && !r->past_text) {
        /* whole lines of program output before the header */
        size_t k = strlen(until);
        const char *nl = memchr(buf + *pos, '\n', len - *pos);
        if (len - *pos >= k && memcmp(buf + *pos, until, k) == 0) {
            r->past_text = true;
            break;
        }
        if (!nl)
            return 0;   /* more to read */
        *pos = (size_t)(nl - buf) + 1;
        r->row++;
    }
    for (;;) {
        int term;
        switch (scan_row(r, buf, pos, len, false, &term)) {
        case ROW_DONE:
            deliver(r, term);
            if (r->stop)
                return -1;
            break;
        case ROW_NONE:
        case ROW_MORE:
            return 0;
        case ROW_QUOTE:
        case ROW_BAD:
            if (term < 0)
                return oom(r->job);
            tt_error_at_row(r->job->err, TT_ERR_FORMAT, r->row + 1, (int64_t)r->n_sp + 1,
                            "malformed quoting: a quote inside an unquoted field or text "
                            "after a closing quote");
            return -1;
        }
    }
}

int tt_csv_read(tt_csv_job *j, tt_csv_row_fn fn, void *ctx)
{
    reader r;
    char *buf;
    size_t cap = CHUNK, len = 0, pos = 0;
    bool first = true;
    int rc = -1, term;

    memset(&r, 0, sizeof r);
    r.job = j;
    r.fn = fn;
    r.ctx = ctx;
    /* one spare byte: a last field without a line end is NUL-terminated
     * past the data */
    buf = malloc(cap + 1);
    if (!buf)
        return oom(j);
    for (;;) {
        ssize_t got;
        /* keep the unfinished row, at the front */
        if (pos > 0) {
            memmove(buf, buf + pos, len - pos);
            len -= pos;
            pos = 0;
            r.win.stop = 0;   /* its bytes moved */
        }
        if (len == cap) {
            /* a row longer than the buffer */
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                oom(j);
                goto out;
            }
            buf = nb;
            cap *= 2;
        }
        got = tt_input_read(j->in, buf + len, cap - len, j->err);
        if (got < 0)
            goto out;
        if (got == 0)
            break;
        if (first && got >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
            pos = 3;   /* UTF-8 byte order mark (Excel writes one) */
        first = false;
        if (j->opts->lenient)
            track_rows(&r, (const unsigned char *)buf + len + pos, (size_t)got - pos);
        len += (size_t)got;
        if (scan_rows(&r, buf, &pos, len))
            goto out;
        report_progress(j, false);
    }
    if (tt_input_truncated(j->in)) {
        if (!j->opts->lenient) {
            tt_error_set(j->err, TT_ERR_FORMAT,
                         "compressed data ends early: the file is cut off (--lenient loads the "
                         "complete rows)");
            goto out;
        }
        /* the last row is most likely partial: drop it */
        r.discard = true;
    }
    /* what is left is one unfinished row at most */
    switch (scan_row(&r, buf, &pos, len, true, &term)) {
    case ROW_DONE:
        deliver(&r, term);
        r.n = r.discard ? 0 : r.n;
        break;
    case ROW_QUOTE:
        r.n = r.n_sp;
        r.quoted_tail = !r.discard;
        break;
    case ROW_BAD:
        if (term < 0) {
            oom(j);
            goto out;
        }
        break;   /* not at the end: scan_rows() found it */
    default:
        break;
    }
    if (r.stop)
        goto out;
    if (r.discard) {
        if (cut_tail(j, &r, "compressed data ends early", r.row + 1, (int64_t)r.n + 1))
            goto out;
    } else if (r.quoted_tail) {
        if (cut_tail(j, &r, "the file ends inside a quoted field", r.row + 1, (int64_t)r.n + 1))
            goto out;
    } else if (r.short_tail) {
        char why[120];
        snprintf(why, sizeof why, "the file ends in the middle of a row (%zu of %zu columns)",
                 r.short_tail, j->n_hdr);
        if (cut_tail(j, &r, why, r.row + 1, (int64_t)r.short_tail))
            goto out;
    }
    report_progress(j, true);
    rc = 0;
out:
    free(buf);
    free(r.q);
    free(r.ptr);
    free(r.flen);
    free(r.num);
    return rc;
}

/* ------------------------------------------------------------- header */

int tt_csv_set_header(tt_csv_job *j, const tt_csv_row *hdr)
{
    j->hdr = calloc(hdr->n + 1, sizeof *j->hdr);
    j->hdr_len = calloc(hdr->n + 1, sizeof *j->hdr_len);
    j->keep = calloc(hdr->n + 1, sizeof *j->keep);
    if (!j->hdr || !j->hdr_len || !j->keep)
        return oom(j);
    for (size_t i = 0; i < hdr->n; i++) {
        /* a copy of all the bytes (a name may hold a NUL: hdr_len counts
         * them, and the JSON key is written from them) */
        j->hdr[i] = malloc(hdr->len[i] + 1);
        if (!j->hdr[i])
            return oom(j);
        memcpy(j->hdr[i], hdr->f[i], hdr->len[i]);
        j->hdr[i][hdr->len[i]] = '\0';
        j->hdr_len[i] = hdr->len[i];
        j->keep[i] = true;
        j->n_hdr = i + 1;
    }
    return 0;
}

int tt_csv_col(const tt_csv_job *j, const char *name)
{
    for (size_t i = 0; i < j->n_hdr; i++)
        if (strcasecmp(j->hdr[i], name) == 0)
            return (int)i;
    return -1;
}

int tt_csv_col_prefix(const tt_csv_job *j, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < j->n_hdr; i++)
        if (strncasecmp(j->hdr[i], prefix, n) == 0)
            return (int)i;
    return -1;
}

/* The text inside the last "(...)" or "[...]" of a header, lowercased;
 * false when there is none. */
static bool header_unit(const char *h, char *unit, size_t cap)
{
    const char *open = strrchr(h, '('), *square = strrchr(h, '['), *close;
    size_t n;
    if (square > open)
        open = square;
    if (!open)
        return false;
    close = strchr(open, *open == '(' ? ')' : ']');
    if (!close)
        return false;
    open++;
    while (open < close && is_blank(*open))
        open++;
    while (close > open && is_blank(close[-1]))
        close--;
    n = (size_t)(close - open);
    if (n == 0 || n >= cap)
        return false;
    for (size_t i = 0; i < n; i++)
        unit[i] = (char)((open[i] >= 'A' && open[i] <= 'Z') ? open[i] + 32 : open[i]);
    unit[n] = '\0';
    return true;
}

int tt_csv_time_scale(const char *header)
{
    char u[16];
    if (!header_unit(header, u, sizeof u))
        return -1;
    if (strcmp(u, "ns") == 0)
        return 0;
    if (strcmp(u, "us") == 0 || strcmp(u, "\xc2\xb5s") == 0 || strcmp(u, "\xce\xbcs") == 0)
        return 3;
    if (strcmp(u, "ms") == 0)
        return 6;
    if (strcmp(u, "s") == 0 || strcmp(u, "sec") == 0)
        return 9;
    return -1;
}

int tt_csv_bytes_scale(const char *header)
{
    char u[16];
    if (!header_unit(header, u, sizeof u))
        return 0;
    if (strcmp(u, "b") == 0)
        return 0;
    if (strcmp(u, "kb") == 0)
        return 3;
    if (strcmp(u, "mb") == 0)
        return 6;
    if (strcmp(u, "gb") == 0)
        return 9;
    if (strcmp(u, "kib") == 0)
        return -110;
    if (strcmp(u, "mib") == 0)
        return -120;
    if (strcmp(u, "gib") == 0)
        return -130;
    return 0;
}

bool tt_csv_is_null(const char *s, size_t n)
{
    /* every cell passes here: most are numbers or longer text, told apart
     * by their length and first byte before any string comparison */
    uint32_t w = 0;
    if (n > 4 || (n > 1 && (s[0] | 0x20) != 'n'))
        return n == 0;
    if (n <= 1)
        return n == 0 || s[0] == '-';
    if (n == 3)   /* "N/A" fills whole columns */
        return (s[1] == '/') & ((s[2] | 0x20) == 'a');
    /* the letters lowercased as one word: no strcasecmp() per cell */
    for (size_t i = 0; i < n; i++)
        w |= (uint32_t)((unsigned char)s[i] | 0x20) << (8 * i);
    if (n == 2)
        return w == ('n' | 'a' << 8);
    return w == ('n' | 'u' << 8 | (uint32_t)'l' << 16 | (uint32_t)'l' << 24) ||
           w == ('n' | 'o' << 8 | (uint32_t)'n' << 16 | (uint32_t)'e' << 24);
}

int tt_csv_decimal(const tt_csv_row *row, int col, int scale, int64_t *out)
{
    if (col < 0 || (size_t)col >= row->n || tt_csv_is_null(row->f[col], row->len[col]))
        return 1;
    return tt_parse_decimal_scaled(row->f[col], row->len[col], scale, out) == TT_NUM_OK ? 0 : -1;
}

int tt_csv_time(const tt_csv_row *row, int col, int scale, tt_ns *out)
{
    int rc = tt_csv_decimal(row, col, scale, out);
    return rc == 0 && !tt_time_ok(*out) ? -1 : rc;
}

int tt_csv_bytes(const tt_csv_row *row, int col, int scale, int64_t *out)
{
    double d;
    if (scale >= 0)
        return tt_csv_decimal(row, col, scale, out);
    if ((size_t)col >= row->n || tt_csv_is_null(row->f[col], row->len[col]))
        return 1;
    if (tt_parse_double(row->f[col], row->len[col], &d) != TT_NUM_OK)
        return -1;
    d = ldexp(d, -scale - 100);
    if (!(d >= -9.2e18 && d <= 9.2e18))
        return -1;
    *out = llround(d);
    return 0;
}

int tt_csv_reject(tt_csv_job *j, const tt_csv_row *row, int col, const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (j->opts->lenient) {
        if (col >= 0)
            tt_trace_problem(j->tr, TT_PROB_BAD_EVENT, "row %lld, column %d: %s",
                             (long long)row->row, col + 1, what);
        else
            tt_trace_problem(j->tr, TT_PROB_BAD_EVENT, "row %lld: %s", (long long)row->row, what);
        return 0;
    }
    tt_error_at_row(j->err, TT_ERR_FORMAT, row->row, col >= 0 ? col + 1 : 0, "%s%s", what,
                    " (--lenient skips malformed rows)");
    return -1;
}

/* ------------------------------------------------------------- output */

uint32_t tt_csv_lane(tt_csv_job *j, const char *group_name, const char *lane_name)
{
    tt_trace *tr = j->tr;
    uint32_t gid = tt_trace_intern_cstr(tr, group_name);
    uint32_t lid = tt_trace_intern_cstr(tr, lane_name);
    uint64_t key;
    uint32_t *hit, g, lane;
    if (gid == TT_STR_ERROR || lid == TT_STR_ERROR)
        return TT_NO_LANE;
    key = (uint64_t)gid << 32 | lid;
    hit = tt_u64map_get(&j->lanes, key);
    if (hit)
        return *hit;
    g = tt_trace_group(tr, gid);
    if (g == TT_NO_LANE)
        return TT_NO_LANE;
    tr->groups[g].name = gid;
    lane = tt_trace_lane(tr, g, lid, TT_LANE_THREAD);
    if (lane == TT_NO_LANE)
        return TT_NO_LANE;
    tr->lanes[lane].name = lid;
    if (tt_u64map_put(&j->lanes, key, lane))
        return TT_NO_LANE;
    return lane;
}

/* Every column's "name": once, registered as the argument store's key
 * set, so that rows store only their values. */
static int build_keys(tt_csv_job *j)
{
    j->hdr_key = calloc(j->n_hdr + 1, sizeof *j->hdr_key);
    j->hdr_key_len = calloc(j->n_hdr + 1, sizeof *j->hdr_key_len);
    j->val = calloc(j->n_hdr + 1, sizeof *j->val);
    if (!j->hdr_key || !j->hdr_key_len || !j->val)
        return -1;
    for (size_t c = 0; c < j->n_hdr; c++) {
        char *k = malloc(TT_JSON_STRING_MAX(j->hdr_len[c]) + 1), *end;
        if (!k)
            return -1;
        end = tt_args_json_string(k, j->hdr[c], j->hdr_len[c]);
        *end++ = ':';
        j->hdr_key[c] = k;
        j->hdr_key_len[c] = (size_t)(end - k);
    }
    j->keyset = tt_args_keyset(j->tr->args, (const char *const *)j->hdr_key, j->hdr_key_len,
                               (uint32_t)j->n_hdr);
    return j->keyset ? 0 : -1;
}

int tt_csv_args(tt_csv_job *j, const tt_csv_row *row, uint32_t *handle)
{
    size_t n = row->n < j->n_hdr ? row->n : j->n_hdr;
    bool any = false;
    const char **f = row->f;
    const size_t *flen = row->len;
    const unsigned char *num = row->num;
    const bool *keep;
    tt_args_val *val;
    *handle = 0;
    if (!j->hdr_key && build_keys(j))
        return oom(j);
    keep = j->keep;
    val = j->val;
    for (size_t c = 0, nh = j->n_hdr; c < nh; c++) {
        tt_args_val *v = &val[c];
        const char *s;
        size_t len;
        v->kind = TT_ARGV_NONE;
        if (c >= n || !keep[c])
            continue;
        s = f[c];
        len = flen[c];
        /* a number stays a number; the store quotes the rest when read.
         * Most cells are numbers the scan told apart already; a text that
         * cannot be a number or a null word (longer than "none", not
         * starting with a digit or '-') is a string without a look */
        if (num && num[c])
            v->kind = TT_ARGV_SCALAR;
        else if (len > 4 && s[0] != '-' && (unsigned)(s[0] - '0') >= 10)
            v->kind = TT_ARGV_STRING;
        else if (tt_csv_is_null(s, len))
            continue;
        else
            v->kind = js_is_number(s, len) ? TT_ARGV_SCALAR : TT_ARGV_STRING;
        any = true;
        v->s = s;
        v->n = len;
    }
    if (!any)
        return 0;   /* no argument */
    *handle = tt_args_add_row(j->tr->args, j->keyset, j->val);
    return *handle ? 0 : oom(j);
}

int64_t tt_csv_push(tt_csv_job *j, uint32_t lane, tt_ns start, tt_ns dur, const char *name,
                    const char *cat, uint32_t args)
{
    uint32_t nid = tt_trace_intern_cstr(j->tr, name);
    uint32_t cid = cat && *cat ? tt_trace_intern_cstr(j->tr, cat) : 0;
    int64_t idx;
    tt_event *e;
    if (nid == TT_STR_ERROR || cid == TT_STR_ERROR)
        return oom(j);
    idx = tt_trace_push_event(j->tr, lane);
    if (idx < 0)
        return oom(j);
    e = &j->tr->lanes[lane].ev[idx];
    e->start = start;
    e->dur = dur;
    e->name = nid;
    e->cat = cid;
    e->args = args;
    e->kind = TT_EV_SLICE;
    j->events++;
    return idx;
}

/* ---------------------------------------------------------- nsys names */

void tt_nsys_memcpy_name(char *buf, size_t n, const char *kind, const char *src, const char *dst)
{
    static const char *const map[][2] = {
        {"Host-to-Device", "HtoD"}, {"Device-to-Host", "DtoH"}, {"Device-to-Device", "DtoD"},
        {"Host-to-Host", "HtoH"},   {"Peer-to-Peer", "PtoP"},   {"Host-to-Array", "HtoA"},
        {"Array-to-Host", "AtoH"},  {"Array-to-Array", "AtoA"}, {"Array-to-Device", "AtoD"},
        {"Device-to-Array", "DtoA"},
    };
    const char *k = kind && *kind ? kind : "?";
    if (strncmp(k, "Unified ", 8) == 0)
        k += 8;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcasecmp(k, map[i][0]) == 0) {
            k = map[i][1];
            break;
        }
    if (src && *src && dst && *dst)
        snprintf(buf, n, "Memcpy %s (%s -> %s)", k, src, dst);
    else
        snprintf(buf, n, "Memcpy %s", k);
}

void tt_nsys_memset_name(char *buf, size_t n, const char *mem)
{
    if (mem && *mem)
        snprintf(buf, n, "Memset (%s)", mem);
    else
        snprintf(buf, n, "Memset");
}

/* --------------------------------------------------------------- probes */

bool tt_csv_first_line(const unsigned char *head, size_t n, char *buf, size_t cap)
{
    size_t i = 0, k = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (; i < n; i++) {
        unsigned char c = head[i];
        if (c == '\n' || c == '\r')
            break;
        if (c == 0 || (c < 0x20 && c != '\t'))
            return false;
        if (k + 1 >= cap)
            return false;
        buf[k++] = (char)c;
    }
    if (i == n)
        return false;
    buf[k] = '\0';
    return true;
}

const char *tt_csv_line_starting(const unsigned char *head, size_t n, int max_lines,
                                 const char *const *prefixes, size_t *len)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (int line = 0; line < max_lines && i < n; line++) {
        const unsigned char *nl = memchr(head + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - head) : n;
        for (int k = 0; prefixes[k]; k++) {
            size_t m = strlen(prefixes[k]);
            if (end - i > m && memcmp(head + i, prefixes[k], m) == 0) {
                *len = end - i;
                return (const char *)head + i;
            }
        }
        if (!nl)
            break;
        i = end + 1;
    }
    return NULL;
}

bool tt_csv_head_has(const unsigned char *head, size_t n, int max_lines,
                     const char *const *needles)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (int line = 0; line < max_lines && i < n; line++) {
        const unsigned char *nl = memchr(head + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - head) : n, len = end - i;
        bool all = true;
        for (int k = 0; needles[k] && all; k++) {
            size_t m = strlen(needles[k]);
            bool found = false;
            for (size_t p = 0; p + m <= len && !found; p++)
                found = memcmp(head + i + p, needles[k], m) == 0;
            all = found;
        }
        if (all)
            return true;
        if (!nl)
            break;
        i = end + 1;
    }
    return false;
}
