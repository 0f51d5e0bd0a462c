/* result.c - a query's last rows kept in memory, and the event a row
 * stands for (sql/result.h).
 *
 * Ownership: the result owns its names, the cell offsets and values, and
 * one text buffer holding every cell's text (NUL-terminated).
 */
#include "config.h"

#include "sql/result.h"

#include "index/index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void tt_sql_result_init(tt_sql_result *r)
{
    memset(r, 0, sizeof *r);
}

void tt_sql_result_fini(tt_sql_result *r)
{
    for (int c = 0; r->names && c < r->n_cols; c++)
        free(r->names[c]);
    free(r->names);
    free(r->off);
    free(r->ival);
    free(r->isint);
    free(r->buf);
    tt_sql_result_init(r);
}

/* Append s[0..n) and a NUL to the text buffer: its offset, or SIZE_MAX
 * when out of memory. */
static size_t put_text(tt_sql_result *r, const char *s, size_t n)
{
    size_t at = r->buf_n;
    if (r->buf_n + n + 1 > r->buf_cap) {
        size_t cap = r->buf_cap ? r->buf_cap : 4096;
        char *b;
        while (cap < r->buf_n + n + 1)
            cap *= 2;
        if (!(b = realloc(r->buf, cap)))
            return SIZE_MAX;
        r->buf = b;
        r->buf_cap = cap;
    }
    memcpy(r->buf + at, s, n);
    r->buf[at + n] = '\0';
    r->buf_n += n + 1;
    return at;
}

static int grow_cells(tt_sql_result *r, size_t need)
{
    size_t cap = r->cap_cells ? r->cap_cells : 256;
    size_t *off;
    int64_t *iv;
    bool *ii;
    if (need <= r->cap_cells)
        return 0;
    while (cap < need)
        cap *= 2;
    if (!(off = realloc(r->off, cap * sizeof *off)))
        return -1;
    r->off = off;
    if (!(iv = realloc(r->ival, cap * sizeof *iv)))
        return -1;
    r->ival = iv;
    if (!(ii = realloc(r->isint, cap * sizeof *ii)))
        return -1;
    r->isint = ii;
    r->cap_cells = cap;
    return 0;
}

const char *tt_sql_cell_text(sqlite3_stmt *st, int c, char *num, size_t cap, char **owned)
{
    *owned = NULL;
    switch (sqlite3_column_type(st, c)) {
    case SQLITE_INTEGER:
        snprintf(num, cap, "%lld", (long long)sqlite3_column_int64(st, c));
        return num;
    case SQLITE_FLOAT:
        snprintf(num, cap, "%.17g", sqlite3_column_double(st, c));
        return num;
    case SQLITE_TEXT:
        return (const char *)sqlite3_column_text(st, c);
    case SQLITE_BLOB: {
        /* as SQL writes a blob: X'0A1B' */
        const unsigned char *p = sqlite3_column_blob(st, c);
        size_t len = (size_t)sqlite3_column_bytes(st, c);
        char *hex = malloc(2 * len + 4);
        if (!hex)
            return NULL;
        strcpy(hex, "X'");
        for (size_t i = 0; i < len; i++)
            snprintf(hex + 2 + 2 * i, 3, "%02X", p[i]);
        strcpy(hex + 2 + 2 * len, "'");
        return *owned = hex;
    }
    default:
        return NULL;
    }
}

/* One cell (tt_sql_cell_text's text). 0, or -1 when out of memory. */
static int put_cell(tt_sql_result *r, size_t k, sqlite3_stmt *st, int c)
{
    char num[TT_SQL_NUM_CAP], *owned;
    const char *text = tt_sql_cell_text(st, c, num, sizeof num, &owned);
    bool null = sqlite3_column_type(st, c) == SQLITE_NULL;
    r->isint[k] = sqlite3_column_type(st, c) == SQLITE_INTEGER;
    r->ival[k] = r->isint[k] ? sqlite3_column_int64(st, c) : 0;
    if (null) {
        r->off[k] = SIZE_MAX;
        return 0;
    }
    if (!text)
        return -1;
    /* a text cell's bytes: it may hold a NUL (SQLite counts them) */
    r->off[k] = put_text(r, text, owned || text == num ? strlen(text)
                                                       : (size_t)sqlite3_column_bytes(st, c));
    free(owned);
    return r->off[k] == SIZE_MAX ? -1 : 0;
}

typedef struct collect_ctx {
    tt_sql_result *r;
    size_t         max_rows;
    bool           oom;
} collect_ctx;

enum { STOP_FULL = 1, STOP_OOM = 2 };

static int on_row(void *vctx, sqlite3_stmt *st, long long row)
{
    collect_ctx *x = vctx;
    tt_sql_result *r = x->r;
    if (row < 0) {
        r->n_cols = sqlite3_column_count(st);
        if (!(r->names = calloc((size_t)r->n_cols + 1, sizeof *r->names)))
            return STOP_OOM;
        for (int c = 0; c < r->n_cols; c++) {
            const char *name = sqlite3_column_name(st, c);
            if (!(r->names[c] = strdup(name ? name : "")))
                return STOP_OOM;
        }
        return 0;
    }
    if (r->n_rows == x->max_rows) {
        r->truncated = true;
        return STOP_FULL;
    }
    if (grow_cells(r, (r->n_rows + 1) * (size_t)r->n_cols))
        return STOP_OOM;
    for (int c = 0; c < r->n_cols; c++)
        if (put_cell(r, r->n_rows * (size_t)r->n_cols + (size_t)c, st, c))
            return STOP_OOM;
    r->n_rows++;
    return 0;
}

int tt_sql_result_collect(tt_sql_db *d, size_t max_rows, tt_sql_result *r, tt_error *err)
{
    collect_ctx x = {r, max_rows, false};
    int rc;
    tt_sql_result_fini(r);
    rc = tt_sql_db_run(d, on_row, &x, err);
    if (rc == STOP_OOM) {
        tt_sql_result_fini(r);
        return tt_error_set(err, TT_ERR_NOMEM, "query: out of memory for its rows"), -1;
    }
    if (rc == -1) {
        tt_sql_result_fini(r);
        return -1;
    }
    return 0;
}

int tt_sql_result_col(const tt_sql_result *r, const char *name)
{
    for (int c = 0; c < r->n_cols; c++)
        if (strcasecmp(r->names[c], name) == 0)
            return c;
    return -1;
}

const char *tt_sql_result_text(const tt_sql_result *r, size_t row, int col)
{
    size_t off = r->off[row * (size_t)r->n_cols + (size_t)col];
    return off == SIZE_MAX ? NULL : r->buf + off;
}

bool tt_sql_result_int(const tt_sql_result *r, size_t row, int col, int64_t *v)
{
    size_t k = row * (size_t)r->n_cols + (size_t)col;
    if (col < 0 || !r->isint[k])
        return false;
    *v = r->ival[k];
    return true;
}

/* Split an id of the whole query into its source and local id; false
 * when the source is not among set's loaded ones. */
static const tt_sql_src *id_source(const tt_sql_srcset *set, int64_t id, int64_t *local,
                                   size_t *src)
{
    size_t ord;
    if (id < 0)
        return NULL;
    ord = (size_t)(id >> TT_SQL_ID_SHIFT);
    if (ord >= tt_sql_srcset_count(set))
        return NULL;
    *local = id & TT_SQL_ID_LOCAL_MAX;
    *src = ord;
    return tt_sql_srcset_peek(set, ord);
}

/* The event of lane `lane` starting at ts, of length dur when has_dur
 * and one starting there has it (else the first starting there). */
static bool lane_event(const tt_trace *tr, uint32_t lane, tt_ns ts, bool has_dur, tt_ns dur,
                       tt_evref *out)
{
    const tt_lane *ln = &tr->lanes[lane];
    size_t i = tt_index_lower_bound(ln->ev, ln->n, ts), first = i;
    if (i >= ln->n || ln->ev[i].start != ts)
        return false;
    for (; has_dur && i < ln->n && ln->ev[i].start == ts; i++)
        if (ln->ev[i].dur == dur) {
            first = i;
            break;
        }
    out->lane = lane;
    out->idx = (uint32_t)first;
    return true;
}

tt_sql_at tt_sql_result_event(const tt_sql_result *r, size_t row, const tt_sql_srcset *set,
                              size_t *src, tt_evref *ev, tt_ns *t)
{
    int c_id = tt_sql_result_col(r, "id"), c_ts = tt_sql_result_col(r, "ts");
    int c_dur = tt_sql_result_col(r, "dur"), c_track = tt_sql_result_col(r, "track_id");
    int64_t id, ts = 0, dur = 0, track, local;
    bool has_ts = c_ts >= 0 && tt_sql_result_int(r, row, c_ts, &ts);
    bool has_dur = c_dur >= 0 && tt_sql_result_int(r, row, c_dur, &dur);
    const tt_sql_src *s;
    *src = SIZE_MAX;
    /* a slice id names the event itself; with a ts, only when it is that
     * event's (another table's id is no slice's) */
    if (c_id >= 0 && tt_sql_result_int(r, row, c_id, &id) &&
        (s = id_source(set, id, &local, src)) && tt_sql_slice_ref(s, local, ev) &&
        (!has_ts || tt_trace_event(s->tr, *ev)->start == ts) &&
        (!has_dur || tt_trace_event(s->tr, *ev)->dur == dur)) {
        *t = tt_trace_event(s->tr, *ev)->start;
        return TT_SQL_AT_EVENT;
    }
    *src = SIZE_MAX;
    if (!has_ts)
        return TT_SQL_AT_NONE;
    *t = ts;
    if (c_track >= 0 && tt_sql_result_int(r, row, c_track, &track) &&
        (s = id_source(set, track, &local, src))) {
        /* a lane's track (counter tracks come after the lanes) */
        if (local < (int64_t)s->tr->n_lanes &&
            lane_event(s->tr, (uint32_t)local, ts, has_dur, dur, ev))
            return TT_SQL_AT_EVENT;
        return TT_SQL_AT_TIME;
    }
    *src = SIZE_MAX;
    return TT_SQL_AT_TIME;
}
