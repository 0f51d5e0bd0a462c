/* sidetab.c - profiler side tables read whole (see sidetab.h). */
#include "config.h"

#include "analysis/sidetab.h"

#include "decode/csv_common.h"
#include "io/input.h"
#include "util/num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

bool tt_sidetab_beside(const tt_trace *tr, const char *name, char *buf, size_t cap)
{
    const char *src = tr ? tr->source : NULL, *slash;
    int n;
    if (!src || !*src || strcmp(src, "-") == 0)
        return false;
    slash = strrchr(src, '/');
    if (slash)
        n = snprintf(buf, cap, "%.*s/%s", (int)(slash - src), src, name);
    else
        n = snprintf(buf, cap, "%s", name);
    return n > 0 && (size_t)n < cap;
}

bool tt_sidetab_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The rows as they come: the header first, then data rows. */
typedef struct reading {
    tt_csv_job *job;
    tt_sidetab *t;
    size_t      cap_rows;
} reading;

static int on_row(void *ctx, const tt_csv_row *row)
{
    reading *rd = ctx;
    tt_sidetab *t = rd->t;
    if (!t->hdr) {
        if (!(t->hdr = calloc(row->n ? row->n : 1, sizeof *t->hdr)))
            goto nomem;
        t->n_cols = row->n;
        for (size_t c = 0; c < row->n; c++)
            if (!(t->hdr[c] = strndup(row->f[c], row->len[c])))
                goto nomem;
        return 0;
    }
    if (row->n == 1 && row->len[0] == 0)
        return 0;   /* a blank line */
    if (row->n > t->n_cols)
        return tt_error_at_row(rd->job->err, TT_ERR_FORMAT, row->row, (int64_t)t->n_cols + 1,
                               "%zu cells where the header names %zu columns", row->n,
                               t->n_cols),
               -1;
    if (row->n < t->n_cols)
        return tt_error_at_row(rd->job->err, TT_ERR_FORMAT, row->row, (int64_t)row->n,
                               "the row ends after %zu of the header's %zu cells (cut off?)",
                               row->n, t->n_cols),
               -1;
    if (t->n_rows == rd->cap_rows) {
        size_t nc = rd->cap_rows ? rd->cap_rows * 2 : 16;
        char **v = realloc(t->cell, nc * t->n_cols * sizeof *v);
        if (!v)
            goto nomem;
        t->cell = v;
        rd->cap_rows = nc;
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        char **slot = &t->cell[t->n_rows * t->n_cols + c];
        if (!(*slot = strndup(row->f[c], row->len[c]))) {
            for (size_t k = 0; k < c; k++)
                free(t->cell[t->n_rows * t->n_cols + k]);
            goto nomem;
        }
    }
    t->n_rows++;
    return 0;
nomem:
    tt_error_set(rd->job->err, TT_ERR_NOMEM, "out of memory");
    return -1;
}

int tt_sidetab_read(const char *path, tt_sidetab **out, tt_error *err)
{
    static const tt_load_opts strict;   /* not lenient: every bad row is an error */
    tt_input *in = NULL;
    tt_load_info info;
    tt_csv_job job;
    reading rd = {0};
    tt_sidetab *t;
    int rc;

    *out = NULL;
    if (!(t = calloc(1, sizeof *t)) || !(t->path = strdup(path))) {
        free(t);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    if (tt_input_open(path, &in, err)) {
        tt_sidetab_free(t);
        return -1;
    }
    memset(&info, 0, sizeof info);
    /* the row reader touches the trace only for --lenient problems and
     * for lanes and arguments, none of which a side table makes */
    tt_csv_job_init(&job, in, &strict, NULL, &info, err);
    rd.job = &job;
    rd.t = t;
    rc = tt_csv_read(&job, on_row, &rd);
    tt_csv_job_fini(&job);
    tt_input_close(in);
    if (rc == 0 && !t->hdr)
        rc = tt_error_set(err, TT_ERR_FORMAT, "empty file: no header row");
    if (rc) {
        tt_sidetab_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void tt_sidetab_free(tt_sidetab *t)
{
    if (!t)
        return;
    for (size_t c = 0; t->hdr && c < t->n_cols; c++)
        free(t->hdr[c]);
    for (size_t i = 0; t->cell && i < t->n_rows * t->n_cols; i++)
        free(t->cell[i]);
    free(t->hdr);
    free(t->cell);
    free(t->path);
    free(t);
}

int tt_sidetab_col(const tt_sidetab *t, const char *name)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (strcasecmp(t->hdr[c], name) == 0)
            return (int)c;
    return -1;
}

int tt_sidetab_decimal(const tt_sidetab *t, size_t r, size_t c, int scale, int64_t *out,
                       tt_error *err)
{
    const char *s = tt_sidetab_cell(t, r, c);
    if (tt_parse_decimal_scaled(s, strlen(s), scale, out) == TT_NUM_OK)
        return 0;
    /* data row r is spreadsheet row r + 2 (the header is row 1) */
    return tt_error_at_row(err, TT_ERR_FORMAT, (int64_t)r + 2, (int64_t)c + 1,
                           "%s: expected a number, got \"%.40s\"", t->hdr[c], s),
           -1;
}

void tt_sidetab_error_in(tt_error *err, const char *path)
{
    char buf[sizeof err->what];
    if (err->code == TT_ERR_NOMEM)
        return;
    tt_error_format(err, path, buf, sizeof buf);
    snprintf(err->what, sizeof err->what, "%s", buf);
    err->pos = TT_POS_NONE;
    err->offset = -1;
}
