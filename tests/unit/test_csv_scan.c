/* test_csv_scan.c - the CSV decoders' row scanner (decode/csv_common.c)
 * reads what libcsv's strict mode, which it replaced, reads: the same
 * rows and fields (blanks trimmed as the decoders trimmed them), the same
 * malformed-quoting errors at the same row and column, the same end of
 * data (a last row without a line end, a quoted field left open). Random
 * inputs over the bytes that matter (, " space tab CR LF), short ones and
 * ones of megabytes that cross the scanner's 1 MiB reads. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "decode/csv_common.h"
#include "decode/json_scan.h"
#include "io/input.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x243f6a8885a308d3ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

/* What a reader saw: each row's fields as "<field>|", a row as a line,
 * then how it ended. */
typedef struct seen {
    char   *text;
    size_t  len, cap;
    struct seen *row;  /* libcsv side: the fields of the row being read,
                        * kept until it ends (the decoders saw whole rows) */
    size_t  fields;
    int64_t rows;
} seen;

static void add(seen *s, const char *p, size_t n)
{
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->text = realloc(s->text, s->cap);
        if (!s->text)
            abort();
    }
    memcpy(s->text + s->len, p, n);
    s->len += n;
    s->text[s->len] = '\0';
}

static void add_field(seen *s, const char *p, size_t n)
{
    while (n > 0 && (*p == ' ' || *p == '\t')) {
        p++;
        n--;
    }
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    add(s, p, n);
    add(s, "|", 1);
}

static void ref_field(void *f, size_t n, void *data)
{
    seen *s = data;
    add_field(s->row, f ? f : "", n);
    s->fields++;
}

static void ref_row(int c, void *data)
{
    seen *s = data;
    (void)c;   /* a row ended by the end of the data (-1) reads the same */
    add(s, s->row->text, s->row->len);
    add(s, "\n", 1);
    s->row->len = 0;
    s->fields = 0;
    s->rows++;
}

/* libcsv, as csv_common.c used it (strict, strict fini). */
static void with_libcsv(const char *in, size_t n, seen *s)
{
    struct csv_parser p;
    seen row = {0};
    char end[96];
    add(&row, "", 0);
    s->row = &row;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI);
    if (csv_parse(&p, in, n, ref_field, ref_row, s) != n) {
        snprintf(end, sizeof end, "bad quoting at row %lld column %zu", (long long)s->rows + 1,
                 s->fields + 1);
        add(s, end, strlen(end));
    } else if (csv_fini(&p, ref_field, ref_row, s) != 0) {
        snprintf(end, sizeof end, "open quote at row %lld column %zu", (long long)s->rows + 1,
                 s->fields + 1);
        add(s, end, strlen(end));
    }
    csv_free(&p);
    free(row.text);
}

/* Fields the scanner called JSON numbers that are not (tt_csv_row.num
 * must agree with js_is_number and never mark a null cell), and those it
 * called numbers at all. */
static int64_t wrong_num, told_num;

static int scan_row_fn(void *ctx, const tt_csv_row *row)
{
    seen *s = ctx;
    for (size_t i = 0; i < row->n; i++) {
        add_field(s, row->f[i], row->len[i]);
        if (row->num[i]) {
            told_num++;
            wrong_num += !js_is_number(row->f[i], row->len[i]) ||
                         tt_csv_is_null(row->f[i], row->len[i]);
        }
    }
    add(s, "\n", 1);
    return 0;
}

/* The scanner, through tt_csv_read() as the decoders call it (no header:
 * every row is delivered as it is). */
static void with_scanner(const char *in, size_t n, seen *s)
{
    tt_trace *tr = tt_trace_new();
    tt_load_opts opts;
    tt_load_info info;
    tt_error err;
    tt_input *inp;
    tt_csv_job j;
    char end[96];
    memset(&opts, 0, sizeof opts);
    memset(&info, 0, sizeof info);
    tt_error_clear(&err);
    if (!tr || tt_input_open_mem(in, n, &inp, &err))
        abort();
    tt_csv_job_init(&j, inp, &opts, tr, &info, &err);
    if (tt_csv_read(&j, scan_row_fn, s) == 0) {
        /* read to the end */
    } else if (strstr(err.what, "malformed quoting")) {
        snprintf(end, sizeof end, "bad quoting at row %lld column %lld", (long long)err.line,
                 (long long)err.column);
        add(s, end, strlen(end));
    } else if (strstr(err.what, "inside a quoted field")) {
        snprintf(end, sizeof end, "open quote at row %lld column %lld", (long long)err.line,
                 (long long)err.column);
        add(s, end, strlen(end));
    } else {
        add(s, err.what, strlen(err.what));
    }
    tt_csv_job_fini(&j);
    tt_input_close(inp);
    tt_trace_free(tr);
}

static bool same_reading(const char *in, size_t n)
{
    seen a = {0}, b = {0};
    bool same;
    add(&a, "", 0);
    add(&b, "", 0);
    with_libcsv(in, n, &a);
    with_scanner(in, n, &b);
    same = a.len == b.len && memcmp(a.text, b.text, a.len) == 0;
    if (!same)
        diag("input %.*s\n# libcsv: %s\n# scanner: %s", (int)(n < 200 ? n : 200), in, a.text,
             b.text);
    free(a.text);
    free(b.text);
    return same;
}

/* n random bytes, mostly text when plain, else the bytes that matter. */
static void random_csv(char *p, size_t n, bool plain)
{
    static const char hot[] = ",\" \t\r\nab";
    static const char text[] = "abcdefgh0123456789,,,\n\"  \t";
    for (size_t i = 0; i < n; i++)
        p[i] = plain ? text[rnd() % (sizeof text - 1)] : hot[rnd() % (sizeof hot - 1)];
}

/* n random bytes of number-like cells: digits, dots, leading zeros,
 * signs, exponents, blanks and the separators. */
static void random_numbers(char *p, size_t n)
{
    static const char num[] = "0123456789000....,,,,,\n-eE+ \t\"\rNA/";
    for (size_t i = 0; i < n; i++)
        p[i] = num[rnd() % (sizeof num - 1)];
}

int main(void)
{
    static const char *const cases[] = {
        "", "a", "a,b\n", "a,b\r\nc,d\r\n", "\r\n\r\n  \n", " a , b ,\n", "\"a\"\"b\",c\n",
        "\"a\" ,b", "\"a\" \"b\"\n", "a\"b\n", "\"ab\"c\n", "\"open", "x,\"open\n", "a,", "a, ",
        "\"\"", "\"\"\"\"", "\"x\ny\",z\r", "\t\"t\t\"\t,", ",,,\n,\n",
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bad += !same_reading(cases[i], strlen(cases[i]));
    is_i64(bad, 0, "hand-picked rows, blanks, quotes and ends read as libcsv reads them");

    bad = 0;
    for (int r = 0; r < 20000; r++) {
        char buf[64];
        size_t n = rnd() % sizeof buf;
        random_csv(buf, n, false);
        bad += !same_reading(buf, n);
    }
    is_i64(bad, 0, "20000 random short inputs read as libcsv reads them");

    bad = 0;
    for (int r = 0; r < 20000; r++) {
        /* past 64 bytes the scanner reads unquoted fields 64 bytes at a
         * time and tells numbers apart */
        char buf[400];
        size_t n = 64 + rnd() % (sizeof buf - 64);
        if (r % 2)
            random_numbers(buf, n);
        else
            random_csv(buf, n, r % 4 == 0);
        bad += !same_reading(buf, n);
    }
    is_i64(bad, 0, "20000 random inputs of 64 to 400 bytes read as libcsv reads them");
    is_i64(wrong_num, 0, "cells told JSON numbers by the scan are numbers, not null");
    ok(told_num > 5000, "the scan told numbers apart (%lld cells)", (long long)told_num);

    bad = 0;
    for (int r = 0; r < 4; r++) {
        /* megabytes of well-quoted text: rows and quoted fields cross the
         * scanner's 1 MiB reads; the last one ends in an error */
        size_t n = ((size_t)5 << 19) + rnd() % 4096;
        char *big = malloc(n);
        if (!big)
            abort();
        random_csv(big, n, true);
        for (size_t i = 0; i + 1 < n; i++)
            if (big[i] == '"') {
                /* quote a field: its opening quote after a separator */
                size_t k = i + 1;
                while (k < n - 1 && big[k] != '"')
                    k++;
                if (r < 3 && (i == 0 || big[i - 1] == ',' || big[i - 1] == '\n') &&
                    (k + 1 == n || big[k + 1] == ',' || big[k + 1] == '\n'))
                    i = k;
                else
                    big[i] = 'q';
            }
        if (r == 3)
            big[n / 2 + 7] = '"';
        bad += !same_reading(big, n);
        free(big);
    }
    is_i64(bad, 0, "inputs of megabytes read as libcsv reads them");
    return tap_done();
}
