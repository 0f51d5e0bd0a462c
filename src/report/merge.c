/* merge.c - merging per-rank CSV reports (see merge.h). */
#include "config.h"

#include "report/merge.h"

#include "report/writer.h"
#include "util/num.h"
#include "util/sort.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mrow {
    char  **cell;
    size_t  n;
    size_t  file, line;   /* origin, for stable order */
} mrow;

typedef struct mtable {
    char  **header;
    size_t  nh;
    mrow   *rows;
    size_t  nrows, cap;
} mtable;

/* libcsv callback state while reading one file */
typedef struct reader {
    mtable     *t;
    bool        in_header;   /* first record of the file */
    char      **rec;         /* the record being read */
    size_t      n, cap;
    size_t      file, line;
    const char *path;
    bool        first_file;
    tt_error   *err;
    bool        failed;
} reader;

static void free_cells(char **c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i]);
    free(c);
}

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    char *v;
    if (r->failed)
        return;
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 16;
        char **nr = realloc(r->rec, nc * sizeof *nr);
        if (!nr) {
            r->failed = true;
            tt_error_set(r->err, TT_ERR_NOMEM, "out of memory");
            return;
        }
        r->rec = nr;
        r->cap = nc;
    }
    v = malloc(len + 1);
    if (!v) {
        r->failed = true;
        tt_error_set(r->err, TT_ERR_NOMEM, "out of memory");
        return;
    }
    if (len)
        memcpy(v, s, len);
    v[len] = '\0';
    r->rec[r->n++] = v;
}

static void on_record(int c, void *data)
{
    reader *r = data;
    mtable *t = r->t;
    (void)c;
    if (r->failed)
        return;
    r->line++;
    if (r->in_header) {
        r->in_header = false;
        if (r->first_file) {
            t->header = r->rec;
            t->nh = r->n;
        } else {
            bool same = r->n == t->nh;
            for (size_t i = 0; same && i < r->n; i++)
                same = strcmp(r->rec[i], t->header[i]) == 0;
            free_cells(r->rec, r->n);
            if (!same) {
                r->failed = true;
                tt_error_set(r->err, TT_ERR_FORMAT,
                             "%s: its header differs from the first file's: reports of "
                             "different kinds cannot be merged", r->path);
            }
        }
        r->rec = NULL;
        r->n = r->cap = 0;
        return;
    }
    if (r->n != t->nh) {
        r->failed = true;
        tt_error_at_row(r->err, TT_ERR_FORMAT, (int64_t)r->line, 0,
                        "%zu fields where the header has %zu", r->n, t->nh);
        free_cells(r->rec, r->n);
        r->rec = NULL;
        r->n = r->cap = 0;
        return;
    }
    if (t->nrows == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        mrow *nr = realloc(t->rows, nc * sizeof *nr);
        if (!nr) {
            r->failed = true;
            tt_error_set(r->err, TT_ERR_NOMEM, "out of memory");
            return;
        }
        t->rows = nr;
        t->cap = nc;
    }
    t->rows[t->nrows].cell = r->rec;
    t->rows[t->nrows].n = r->n;
    t->rows[t->nrows].file = r->file;
    t->rows[t->nrows].line = r->line;
    t->nrows++;
    r->rec = NULL;
    r->n = r->cap = 0;
}

static int read_file(mtable *t, const char *path, size_t file, tt_error *err)
{
    FILE *f = fopen(path, "rb");
    struct csv_parser p;
    reader r;
    char buf[65536];
    size_t got;
    if (!f)
        return tt_error_set(err, TT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    memset(&r, 0, sizeof r);
    r.t = t;
    r.in_header = true;
    r.file = file;
    r.path = path;
    r.first_file = file == 0;
    r.err = err;
    if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI) != 0) {
        fclose(f);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    while (!r.failed && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (csv_parse(&p, buf, got, on_field, on_record, &r) != got && !r.failed) {
            r.failed = true;
            tt_error_at_row(err, TT_ERR_FORMAT, (int64_t)r.line + 1, 0, "%s",
                            csv_error(&p) == CSV_EPARSE
                                ? "malformed quoting: a quote inside an unquoted field or "
                                  "text after a closing quote"
                                : csv_strerror(csv_error(&p)));
        }
    }
    if (!r.failed && ferror(f)) {
        r.failed = true;
        tt_error_set(err, TT_ERR_IO, "read error");
    }
    if (!r.failed && csv_fini(&p, on_field, on_record, &r) != 0) {
        r.failed = true;
        /* strict fini fails only on a quote left open */
        tt_error_at_row(err, TT_ERR_FORMAT, (int64_t)r.line + 1, 0, "%s",
                        csv_error(&p) == CSV_EPARSE
                            ? "the file ends inside a quoted field: the report is cut off"
                            : csv_strerror(csv_error(&p)));
    }
    csv_free(&p);
    fclose(f);
    free_cells(r.rec, r.n);
    if (!r.failed && r.in_header)
        tt_error_set(err, TT_ERR_FORMAT, "%s: empty file, not a report", path), r.failed = true;
    if (r.failed && err->pos == TT_POS_ROW) {
        /* the file first, then the row, as the CSV decoders say it:
         * "part.csv: row 3: ..." */
        char what[sizeof err->what];
        snprintf(what, sizeof what, "%s", err->what);
        tt_error_set(err, err->code, "%s: row %lld: %s", path, (long long)err->line, what);
    }
    return r.failed ? -1 : 0;
}

static int col(const mtable *t, const char *title)
{
    for (size_t i = 0; i < t->nh; i++)
        if (strcmp(t->header[i], title) == 0)
            return (int)i;
    return -1;
}

static bool is_number(const char *s)
{
    const char *p = s;
    bool digit = false;
    if (*p == '-')
        p++;
    for (; *p >= '0' && *p <= '9'; p++)
        digit = true;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digit = true;
    return digit && *p == '\0';
}

static int64_t cell_i64(const mrow *r, int c)
{
    int64_t v = 0;
    if (c >= 0 && tt_parse_int64(r->cell[c], strlen(r->cell[c]), &v) != TT_NUM_OK)
        v = 0;
    return v;
}

static int set_cell(mrow *r, int c, const char *fmt_or_value, ...)
    __attribute__((format(printf, 3, 4)));
static int set_cell(mrow *r, int c, const char *fmt_or_value, ...)
{
    char buf[64];
    char *v;
    va_list ap;
    va_start(ap, fmt_or_value);
    vsnprintf(buf, sizeof buf, fmt_or_value, ap);
    va_end(ap);
    if (!(v = strdup(buf)))
        return -1;
    free(r->cell[c]);
    r->cell[c] = v;
    return 0;
}

static int cmp_i64(const void *pa, const void *pb, void *ctx)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    (void)ctx;
    return a < b ? -1 : a > b;
}

/* The same median as report/job.c: midpoint of the two middle values. */
static int64_t median(int64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    tt_sort(v, n, sizeof *v, cmp_i64, NULL);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

typedef struct sort_ctx {
    const mtable *t;
    int           rank, coll, seq;
    int64_t      *first;   /* collectives: group's earliest start, per row */
} sort_ctx;

static int cmp_by_rank(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *c = ctx;
    const mrow *a = pa, *b = pb;
    int64_t ra = cell_i64(a, c->rank), rb = cell_i64(b, c->rank);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static int recompute_ranks(mtable *t)
{
    int avg = col(t, "Avg Step (ns)"), comp = col(t, "Computation (ns)");
    int sv = col(t, "Step vs Median (%)"), cv = col(t, "Computation vs Median (%)");
    int64_t *steps = malloc((t->nrows + 1) * sizeof *steps);
    int64_t *comps = malloc((t->nrows + 1) * sizeof *comps);
    size_t ns = 0;
    int64_t ms, mc;
    if (!steps || !comps) {
        free(steps);
        free(comps);
        return -1;
    }
    for (size_t i = 0; i < t->nrows; i++) {
        if (t->rows[i].cell[avg][0])
            steps[ns++] = cell_i64(&t->rows[i], avg);
        comps[i] = cell_i64(&t->rows[i], comp);
    }
    ms = median(steps, ns);
    mc = median(comps, t->nrows);
    for (size_t i = 0; i < t->nrows; i++) {
        mrow *r = &t->rows[i];
        int rc = 0;
        char num[64];
        /* as the report writes them: no "-0.0" */
        if (r->cell[avg][0] && ms > 0)
            rc |= set_cell(r, sv, "%s",
                           tt_fmt_fixed(num, sizeof num,
                                        100.0 * (double)(cell_i64(r, avg) - ms) / (double)ms, 1));
        else
            rc |= set_cell(r, sv, "%s", "");
        if (mc > 0)
            rc |= set_cell(r, cv, "%s",
                           tt_fmt_fixed(num, sizeof num,
                                        100.0 * (double)(cell_i64(r, comp) - mc) / (double)mc, 1));
        else
            rc |= set_cell(r, cv, "%s", "");
        if (rc) {
            free(steps);
            free(comps);
            return -1;
        }
    }
    free(steps);
    free(comps);
    return 0;
}

/* Rows of one collective next to each other: by name, sequence, rank. */
static int cmp_coll_key(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *c = ctx;
    const mrow *a = pa, *b = pb;
    int k = strcmp(a->cell[c->coll], b->cell[c->coll]);
    int64_t x, y;
    if (k)
        return k;
    x = cell_i64(a, c->seq);
    y = cell_i64(b, c->seq);
    if (x != y)
        return x < y ? -1 : 1;
    x = cell_i64(a, c->rank);
    y = cell_i64(b, c->rank);
    return x < y ? -1 : x > y;
}

typedef struct keyed_row {
    int64_t first;
    mrow    r;
} keyed_row;

static int cmp_coll_final(const void *pa, const void *pb, void *ctx)
{
    const keyed_row *a = pa, *b = pb;
    int k;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    k = cmp_coll_key(&a->r, &b->r, ctx);
    return k;
}

static int recompute_collectives(mtable *t)
{
    sort_ctx c = {t, col(t, "Rank"), col(t, "Collective"), col(t, "Sequence"), NULL};
    int start = col(t, "Start (ns)"), off = col(t, "Start Offset (ns)");
    int dur = col(t, "Duration (ns)"), wait = col(t, "Wait (ns)"), ranks = col(t, "Ranks");
    keyed_row *k = malloc((t->nrows + 1) * sizeof *k);
    if (!k)
        return -1;
    if (tt_sort(t->rows, t->nrows, sizeof *t->rows, cmp_coll_key, &c)) {
        free(k);
        return -1;
    }
    for (size_t i = 0; i < t->nrows;) {
        size_t j = i;
        int64_t first = cell_i64(&t->rows[i], start), shortest = cell_i64(&t->rows[i], dur);
        while (j < t->nrows && strcmp(t->rows[j].cell[c.coll], t->rows[i].cell[c.coll]) == 0 &&
               cell_i64(&t->rows[j], c.seq) == cell_i64(&t->rows[i], c.seq)) {
            int64_t s = cell_i64(&t->rows[j], start), d = cell_i64(&t->rows[j], dur);
            if (s < first)
                first = s;
            if (d < shortest)
                shortest = d;
            j++;
        }
        for (size_t q = i; q < j; q++) {
            mrow *r = &t->rows[q];
            if (set_cell(r, off, "%lld", (long long)(cell_i64(r, start) - first)) ||
                set_cell(r, wait, "%lld", (long long)(cell_i64(r, dur) - shortest)) ||
                set_cell(r, ranks, "%zu", j - i)) {
                free(k);
                return -1;
            }
            k[q].first = first;
            k[q].r = *r;
        }
        i = j;
    }
    if (tt_sort(k, t->nrows, sizeof *k, cmp_coll_final, &c)) {
        free(k);
        return -1;
    }
    for (size_t i = 0; i < t->nrows; i++)
        t->rows[i] = k[i].r;
    free(k);
    return 0;
}

/* Numbers and empty cells bare; text by the report writer's rules
 * (quoted, the formula guard, sanitized for a terminal), so a part
 * written by hand or by another tool gets them too. 0, or -1 (OOM). */
static int write_cell(FILE *f, const char *s, bool text, bool sanitize)
{
    if (!text) {
        fputs(s, f);
        return 0;
    }
    return tt_writer_csv_text(f, s, sanitize);
}

static int write_table(const mtable *t, FILE *f, bool sanitize)
{
    int rc = 0;
    for (size_t i = 0; i < t->nh; i++) {
        if (i)
            fputc(',', f);
        rc |= write_cell(f, t->header[i], true, sanitize);
    }
    fputs("\r\n", f);
    for (size_t r = 0; r < t->nrows && rc == 0; r++) {
        for (size_t i = 0; i < t->rows[r].n; i++) {
            const char *v = t->rows[r].cell[i];
            if (i)
                fputc(',', f);
            rc |= write_cell(f, v, *v && !is_number(v), sanitize);
        }
        fputs("\r\n", f);
    }
    return rc;
}

typedef struct rank_claim {
    int64_t rank;
    size_t  file;
} rank_claim;

static int cmp_claim(const void *pa, const void *pb, void *ctx)
{
    const rank_claim *a = pa, *b = pb;
    (void)ctx;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->file > b->file) - (a->file < b->file);
}

/* Each rank's rows come from one part: two files with rows of one rank are
 * the same rank reported twice (a copied file, a rank number reused), and
 * their merge would be wrong. 0, or -1 with err set. */
static int check_ranks(const mtable *t, int rank_col, const char *const *paths, tt_error *err)
{
    rank_claim *v = malloc((t->nrows + 1) * sizeof *v);
    size_t n = 0;
    int rc = 0;
    if (!v)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].cell[rank_col][0]) {   /* an empty Rank claims nothing */
            v[n].rank = cell_i64(&t->rows[i], rank_col);
            v[n++].file = t->rows[i].file;
        }
    if (tt_sort(v, n, sizeof *v, cmp_claim, NULL)) {
        free(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    for (size_t i = 1; i < n; i++)
        if (v[i].rank == v[i - 1].rank && v[i].file != v[i - 1].file) {
            tt_error_set(err, TT_ERR_FORMAT,
                         "%s and %s both hold rank %lld: give each rank's report once",
                         paths[v[i - 1].file], paths[v[i].file], (long long)v[i].rank);
            rc = -1;
            break;
        }
    free(v);
    return rc;
}

int tt_merge_reports(const char *const *paths, size_t n, FILE *out, bool sanitize,
                     tt_error *err)
{
    mtable t;
    int rc = -1;
    memset(&t, 0, sizeof t);
    if (n == 0)
        return tt_error_set(err, TT_ERR_USAGE, "no report to merge");
    for (size_t i = 0; i < n; i++)
        if (read_file(&t, paths[i], i, err))
            goto out;
    {
        sort_ctx c = {&t, col(&t, "Rank"), col(&t, "Collective"), col(&t, "Sequence"), NULL};
        bool is_colls = c.rank >= 0 && c.coll >= 0 && c.seq >= 0 && col(&t, "Start (ns)") >= 0 &&
                        col(&t, "Start Offset (ns)") >= 0 && col(&t, "Duration (ns)") >= 0 &&
                        col(&t, "Wait (ns)") >= 0 && col(&t, "Ranks") >= 0;
        bool is_ranks = c.rank >= 0 && col(&t, "Avg Step (ns)") >= 0 &&
                        col(&t, "Computation (ns)") >= 0 && col(&t, "Step vs Median (%)") >= 0 &&
                        col(&t, "Computation vs Median (%)") >= 0;
        bool is_gpu = c.rank >= 0 && col(&t, "Exposed Communication (ns)") >= 0 &&
                      col(&t, "Idle (%)") >= 0;
        if ((is_colls || is_ranks || is_gpu) && check_ranks(&t, c.rank, paths, err))
            goto out;
        if (is_colls) {
            if (recompute_collectives(&t))
                goto oom;
        } else if (is_ranks) {
            if (recompute_ranks(&t) ||
                tt_sort(t.rows, t.nrows, sizeof *t.rows, cmp_by_rank, &c))
                goto oom;
        } else if (is_gpu) {
            if (tt_sort(t.rows, t.nrows, sizeof *t.rows, cmp_by_rank, &c))
                goto oom;
        }
    }
    if (write_table(&t, out, sanitize))
        goto oom;
    rc = 0;
    goto out;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    free_cells(t.header, t.nh);
    for (size_t i = 0; i < t.nrows; i++)
        free_cells(t.rows[i].cell, t.rows[i].n);
    free(t.rows);
    return rc;
}
