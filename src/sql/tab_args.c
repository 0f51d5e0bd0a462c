/* tab_args.c - SQL table `args`: one row per leaf of an event's argument
 * record, shaped like Perfetto's args table, keys named as Perfetto's
 * JSON importer names them ("args.NAME", "args.A.B", "args.L[0]": see
 * sql/argflat.h).
 *
 *   arg_set_id    the record's handle, what slice.arg_set_id holds
 *                 (TT_SQLCOL_ID)
 *   flat_key      the key without array indexes
 *   key           the key
 *   int_value     ints, and bools as 1/0
 *   string_value  strings
 *   real_value    reals
 *   value_type    'int', 'real', 'string' or 'bool'
 *   display_value the value as text, as Perfetto's args view writes it
 *                 for every type: ints in decimal, bools 'true'/'false',
 *                 strings as they are, reals as SQLite's CAST(real AS
 *                 TEXT) writes them (printf "%!.15g": 15 significant
 *                 digits, always with a '.': "1.0", "2.5e-07", "1.0e+20")
 *
 * Records are those of the events the source keeps (window, lanes),
 * each once, walked in storage order (handle order) so that every
 * compressed block is decompressed once: the sorted handles are built
 * once per source (tt_sql_src_cache). arg_set_id = v reads one record.
 *
 * The cursor owns its reader, the current record's rows and their text.
 */
#include "config.h"

#include "sql/sqltab.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sql/argfind.h"

/* The handles of the records of the kept events, ascending, distinct. */
typedef struct args_sets {
    uint32_t *h;
    size_t    n;
} args_sets;

typedef struct args_row {
    size_t     flat, key;   /* offsets into the cursor's text */
    size_t     flat_n, key_n;
    size_t     s, sn;       /* string value */
    tt_argtype type;
    int64_t    i;
    double     d;
} args_row;

typedef struct args_cur {
    const tt_sql_src *s;
    const args_sets  *sets;
    size_t            k, k_end;   /* records sets->h[k .. k_end) */
    tt_args_reader    rd;
    bool              rd_on;
    tt_argflat        flat;
    args_row         *rows;       /* the current record's rows */
    size_t            n_rows, cap_rows, row;
    char             *text;       /* their keys and strings */
    size_t            n_text, cap_text;
    char              disp[40];   /* the display_value of a number */
} args_cur;

static const tt_sql_col cols[] = {
    {"arg_set_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"flat_key", "TEXT", 0},
    {"key", "TEXT", 0},
    {"int_value", "INTEGER", 0},
    {"string_value", "TEXT", 0},
    {"real_value", "REAL", 0},
    {"value_type", "TEXT", 0},
    {"display_value", "TEXT", 0},
};

extern const tt_sql_table tt_sqltab_args;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sets_free(void *v)
{
    args_sets *s = v;
    if (s)
        free(s->h);
    free(s);
}

static void *sets_build(const tt_sql_src *src, tt_error *err)
{
    const tt_trace *tr = src->tr;
    args_sets *s = calloc(1, sizeof *s);
    size_t n = 0;
    if (!s)
        goto oom;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++)
            n += tr->lanes[l].ev[i].args != 0;
    s->h = malloc((n ? n : 1) * sizeof *s->h);
    if (!s->h)
        goto oom;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *e = &tr->lanes[l].ev[i];
            if (e->args && tt_sql_src_keeps(src, l, e))
                s->h[s->n++] = e->args;
        }
    if (s->n)
        qsort(s->h, s->n, sizeof *s->h, cmp_u32);
    /* events may share a record: each once */
    size_t w = 0;
    for (size_t i = 0; i < s->n; i++)
        if (w == 0 || s->h[w - 1] != s->h[i])
            s->h[w++] = s->h[i];
    s->n = w;
    return s;
oom:
    sets_free(s);
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return NULL;
}

static int text_put(args_cur *c, const char *s, size_t n, size_t *off)
{
    if (c->n_text + n + 1 > c->cap_text) {
        size_t nc = c->cap_text ? c->cap_text : 256;
        while (nc < c->n_text + n + 1)
            nc *= 2;
        char *p = realloc(c->text, nc);
        if (!p)
            return -1;
        c->text = p;
        c->cap_text = nc;
    }
    memcpy(c->text + c->n_text, s, n);
    c->text[c->n_text + n] = '\0';
    *off = c->n_text;
    c->n_text += n + 1;
    return 0;
}

static int add_row(void *vc, const tt_argleaf *l, tt_error *err)
{
    args_cur *c = vc;
    if (c->n_rows == c->cap_rows) {
        size_t nc = c->cap_rows ? c->cap_rows * 2 : 16;
        args_row *p = realloc(c->rows, nc * sizeof *p);
        if (!p)
            goto oom;
        c->rows = p;
        c->cap_rows = nc;
    }
    args_row *r = &c->rows[c->n_rows];
    memset(r, 0, sizeof *r);
    r->type = l->type;
    r->i = l->i;
    r->d = l->d;
    r->flat_n = l->flat_n;
    r->key_n = l->key_n;
    r->sn = l->n;
    if (text_put(c, l->flat_key, l->flat_n, &r->flat) || text_put(c, l->key, l->key_n, &r->key) ||
        (l->type == TT_ARGT_STRING && text_put(c, l->s, l->n, &r->s)))
        goto oom;
    c->n_rows++;
    return 0;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return -1;
}

/* Read records from k on until one has rows (or none is left). */
static int settle(args_cur *c, tt_error *err)
{
    while (c->row >= c->n_rows && c->k < c->k_end) {
        const char *text;
        size_t n;
        c->n_rows = c->row = c->n_text = 0;
        if (tt_sql_args_text(&c->rd, c->sets->h[c->k], &text, &n, err))
            return -1;
        if (tt_argflat_walk(&c->flat, text, n, add_row, c, err) < 0)
            return -1;
        if (c->n_rows == 0)
            c->k++;
    }
    return 0;
}

static void args_close(void *vc);

static int args_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                      tt_error *err)
{
    args_cur *c = vc;
    args_close(c);   /* a cursor filtered again keeps nothing of the last walk */
    c->s = s;
    c->sets = tt_sql_src_cache(s, &tt_sqltab_args, sets_build, sets_free, err);
    if (!c->sets)
        return -1;
    tt_args_reader_init(&c->rd, s->tr->args);
    c->rd_on = true;
    tt_argflat_init(&c->flat);
    c->k = 0;
    c->k_end = c->sets->n;
    for (size_t i = 0; i < n; i++) {   /* arg_set_id = v: one record */
        if (cons[i].col != 0 || cons[i].op != TT_SQLOP_EQ)
            continue;
        const uint32_t *h = NULL;
        if (cons[i].v > 0 && cons[i].v <= UINT32_MAX) {
            uint32_t key = (uint32_t)cons[i].v;
            h = bsearch(&key, c->sets->h, c->sets->n, sizeof *h, cmp_u32);
        }
        if (!h || (size_t)(h - c->sets->h) < c->k || (size_t)(h - c->sets->h) >= c->k_end) {
            c->k = c->k_end;
        } else {
            c->k = (size_t)(h - c->sets->h);
            c->k_end = c->k + 1;
        }
    }
    return settle(c, err);
}

static int args_next(void *vc, tt_error *err)
{
    args_cur *c = vc;
    if (++c->row >= c->n_rows)
        c->k++;
    return settle(c, err);
}

static bool args_eof(const void *vc)
{
    const args_cur *c = vc;
    return c->k >= c->k_end;
}

/* Perfetto's display_value of row r (see the top of this file) into the
 * cursor's own buffer: valid until the next call on the cursor. */
static void display_value(args_cur *c, const args_row *r, tt_sql_val *v)
{
    switch (r->type) {
    case TT_ARGT_STRING: tt_sql_set_textn(v, c->text + r->s, r->sn); return;
    case TT_ARGT_BOOL: tt_sql_set_text(v, r->i ? "true" : "false"); return;
    case TT_ARGT_INT:
        snprintf(c->disp, sizeof c->disp, "%" PRId64, r->i);
        break;
    case TT_ARGT_REAL: {
        /* SQLite's "%!.15g": C's "%.15g", then ".0" where it wrote no
         * point, before the exponent if any ("1e+20" -> "1.0e+20");
         * JSON has no inf or nan to except */
        int n = snprintf(c->disp, sizeof c->disp - 2, "%.15g", r->d);
        if (n > 0 && (size_t)n < sizeof c->disp - 2 && !strchr(c->disp, '.')) {
            char *e = strchr(c->disp, 'e');
            size_t at = e ? (size_t)(e - c->disp) : (size_t)n;
            memmove(c->disp + at + 2, c->disp + at, (size_t)n - at + 1);
            memcpy(c->disp + at, ".0", 2);
        }
        break;
    }
    }
    tt_sql_set_text(v, c->disp);
}

static int args_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    args_cur *c = vc;
    const args_row *r = &c->rows[c->row];
    tt_sql_set_null(v);
    switch (col) {
    case 0: tt_sql_set_int(v, tt_sql_id(c->s, c->sets->h[c->k])); break;
    case 1: tt_sql_set_textn(v, c->text + r->flat, r->flat_n); break;
    case 2: tt_sql_set_textn(v, c->text + r->key, r->key_n); break;
    case 3:
        if (r->type == TT_ARGT_INT || r->type == TT_ARGT_BOOL)
            tt_sql_set_int(v, r->i);
        break;
    case 4:
        if (r->type == TT_ARGT_STRING)
            tt_sql_set_textn(v, c->text + r->s, r->sn);
        break;
    case 5:
        if (r->type == TT_ARGT_REAL)
            tt_sql_set_real(v, r->d);
        break;
    case 6: tt_sql_set_text(v, tt_argtype_name(r->type)); break;
    case 7: display_value(c, r, v); break;
    default: break;
    }
    return 0;
}

static void args_close(void *vc)
{
    args_cur *c = vc;
    if (c->rd_on)
        tt_args_reader_fini(&c->rd);
    tt_argflat_fini(&c->flat);
    free(c->rows);
    free(c->text);
    memset(c, 0, sizeof *c);
}

static double args_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cons[i].col == 0 && cons[i].op == TT_SQLOP_EQ)
            return 8;   /* a record's keys */
    return s->tr->args ? 8.0 * (double)tt_args_count(s->tr->args) : 0;
}

const tt_sql_table tt_sqltab_args = {
    .name = "args",
    .help = "one row per argument of an event: arg_set_id, flat_key, key (\"args.NAME\"), "
            "int_value, string_value, real_value, value_type, display_value",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_ARGS,
    .cur_size = sizeof(args_cur),
    .first = args_first,
    .next = args_next,
    .eof = args_eof,
    .column = args_column,
    .close = args_close,
    .estimate = args_estimate,
};
