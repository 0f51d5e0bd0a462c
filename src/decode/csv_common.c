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

/* One field of the row being scanned: [a, b) in the buffer (for a quoted
 * field: between the quotes, "" still doubled when esc). */
typedef struct span {
    size_t a, b;
    bool   esc;
} span;

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
    span          *sp;            /* fields of the row being scanned */
    size_t         n_sp, cap_sp;
    const char   **ptr;           /* the delivered row's fields */
    size_t        *flen;
    size_t         cap_f;
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
} reader;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static inline bool add_span(reader *r, size_t a, size_t b, bool esc)
{
    if (tt_grow_one((void **)&r->sp, &r->cap_sp, r->n_sp, sizeof *r->sp))
        return false;
    r->sp[r->n_sp++] = (span){a, b, esc};
    return true;
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
            if (!add_span(r, i, i, false))
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
            if (!add_span(r, a, q, esc))
                return *term = -1, ROW_BAD;
            if (i == len) {
                if (!at_end)
                    return r->n_sp--, ROW_MORE;
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
            if (c != C_COMMA)
                return r->n_sp--, ROW_BAD;   /* text or a quote after the closing quote */
            i++;
        } else {
            /* to the first byte that ends the field, then back over
             * trailing blanks (u[a] is text, not a blank) */
            size_t a = i, b;
            for (i++; i < len && cls[u[i]] <= C_BLANK; i++)
                ;
            for (b = i; cls[u[b - 1]] == C_BLANK; b--)
                ;
            if (i < len)
                c = cls[u[i]];
            if (i == len) {
                if (!at_end)
                    return ROW_MORE;
                if (!add_span(r, a, b, false))
                    return *term = -1, ROW_BAD;
                *term = -1;
                *pos = len;
                return ROW_DONE;
            }
            if (c == C_QUOTE)
                return ROW_BAD;   /* a quote inside an unquoted field */
            if (!add_span(r, a, b, false))
                return *term = -1, ROW_BAD;
            if (c == C_EOL) {
                *term = u[i];
                *pos = i + 1;
                return ROW_DONE;
            }
            i++;
        }
        /* after a ',': blanks, then the next field */
        while (i < len && cls[u[i]] == C_BLANK)
            i++;
        if (i == len) {
            if (!at_end)
                return ROW_MORE;
            if (!add_span(r, len, len, false))
                return *term = -1, ROW_BAD;
            *term = -1;
            *pos = len;
            return ROW_DONE;
        }
    }
}

/* Hand the scanned row to the dialect: each field unquoted and trimmed of
 * spaces and tabs in place (Ascend writes a tab inside quoted start
 * times), NUL-terminated. c: the row's terminator, -1 at the end. */
static void deliver(reader *r, char *s, int c)
{
    tt_csv_row row;
    if (r->stop || r->discard)
        return;
    if (r->n_sp > r->cap_f) {
        size_t nc = r->cap_f ? r->cap_f : 64;
        const char **np;
        size_t *nl;
        while (nc < r->n_sp)
            nc *= 2;
        np = realloc(r->ptr, nc * sizeof *np);
        if (np)
            r->ptr = np;
        nl = np ? realloc(r->flen, nc * sizeof *nl) : NULL;
        if (!nl) {
            r->stop = true;
            oom(r->job);
            return;
        }
        r->flen = nl;
        r->cap_f = nc;
    }
    for (size_t k = 0; k < r->n_sp; k++) {
        char *p = s + r->sp[k].a;
        size_t n = r->sp[k].b - r->sp[k].a;
        if (r->sp[k].esc) {
            size_t w = 0;
            for (size_t i = 0; i < n; i++) {
                p[w++] = p[i];
                if (p[i] == '"')
                    i++;   /* the second of "" */
            }
            n = w;
        }
        while (n > 0 && is_blank(p[0])) {
            p++;
            n--;
        }
        while (n > 0 && is_blank(p[n - 1]))
            n--;
        p[n] = '\0';
        r->ptr[k] = p;
        r->flen[k] = n;
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
            deliver(r, buf, term);
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
        deliver(&r, buf, term);
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
    free(r.sp);
    free(r.ptr);
    free(r.flen);
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
    if (n > 4 || (n > 1 && (s[0] | 0x20) != 'n'))
        return n == 0;
    return n == 0 || (n == 1 && s[0] == '-') || (n == 3 && strcasecmp(s, "n/a") == 0) ||
           (n == 2 && strcasecmp(s, "na") == 0) || (n == 4 && strcasecmp(s, "null") == 0) ||
           (n == 4 && strcasecmp(s, "none") == 0);
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
    *handle = 0;
    if (!j->hdr_key && build_keys(j))
        return oom(j);
    for (size_t c = 0; c < j->n_hdr; c++) {
        tt_args_val *v = &j->val[c];
        v->kind = TT_ARGV_NONE;
        if (c >= n || !j->keep[c] || tt_csv_is_null(row->f[c], row->len[c]))
            continue;
        any = true;
        v->s = row->f[c];
        v->n = row->len[c];
        /* a number stays a number; the store quotes the rest when read */
        v->kind = js_is_number(v->s, v->n) ? TT_ARGV_SCALAR : TT_ARGV_STRING;
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
