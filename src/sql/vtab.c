/* vtab.c - the SQLite virtual-table adapter of the SQL tables
 * (sql/vtab.h): one module per registry row, scans over the sources.
 *
 * Ownership: a module's aux (table and source set) is freed by SQLite
 * through aux_free; a cursor owns its table cursor and its constraint
 * lists and holds (pins) the source it walks until it moves on.
 */
#include "config.h"

#include "sql/vtab.h"

#include <stdlib.h>
#include <string.h>

/* What a statement's plan passes to xFilter in idxStr: per argv value its
 * column and operator, "c,o;" each (text, as EXPLAIN may print it). */

#define AHEAD 16   /* sources a scan names ahead for a batch load */

typedef struct vt_aux {
    const tt_sql_table *t;
    tt_sql_srcset      *set;
} vt_aux;

typedef struct vt {
    sqlite3_vtab        base;
    const tt_sql_table *t;
    tt_sql_srcset      *set;
} vt;

typedef struct vcur {
    sqlite3_vtab_cursor base;
    vt                 *v;
    size_t              si;        /* the source being walked */
    tt_sql_src         *src;       /* acquired, or NULL */
    void               *tcur;      /* the table's cursor (cur_size bytes) */
    bool                topen;     /* first() ran on tcur: close before reuse */
    tt_sql_cons        *cons;      /* the plan's constraints, values global */
    size_t              n_cons;
    tt_sql_cons        *local;     /* the same for the current source */
    bool                by_rank;   /* rank = rank_eq */
    int64_t             rank_eq;
    bool                none;      /* a constraint no row can meet */
    int                 group_col; /* >= 0: rows grouped by it (first_grouped) */
    sqlite3_int64       rowid;
} vcur;

static int vt_set_error(sqlite3_vtab *base, const tt_error *err)
{
    sqlite3_free(base->zErrMsg);
    base->zErrMsg = sqlite3_mprintf("%s", err->what);
    return err->code == TT_ERR_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
}

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **errmsg)
{
    const vt_aux *a = aux;
    vt *v;
    sqlite3_str *ddl = sqlite3_str_new(db);
    char *sql;
    int rc;
    (void)argc;
    (void)argv;
    (void)errmsg;
    sqlite3_str_appendall(ddl, "CREATE TABLE x(");
    for (size_t c = 0; c < a->t->n_cols; c++)
        sqlite3_str_appendf(ddl, "\"%w\" %s%s, ", a->t->cols[c].name, a->t->cols[c].type,
                            (a->t->cols[c].flags & TT_SQLCOL_HIDDEN) ? " HIDDEN" : "");
    sqlite3_str_appendall(ddl, "\"rank\" INTEGER)");
    if (!(sql = sqlite3_str_finish(ddl)))
        return SQLITE_NOMEM;
    rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return rc;
    if (!(v = sqlite3_malloc(sizeof *v)))
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->t = a->t;
    v->set = a->set;
    *out = &v->base;
    return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *base)
{
    sqlite3_free(base);
    return SQLITE_OK;
}

static char op_char(unsigned char op)
{
    switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
    case SQLITE_INDEX_CONSTRAINT_LT: return '<';
    case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
    case SQLITE_INDEX_CONSTRAINT_GT: return '>';
    case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
    default: return 0;
    }
}

static tt_sql_op op_of(char c)
{
    switch (c) {
    case '<': return TT_SQLOP_LT;
    case 'l': return TT_SQLOP_LE;
    case '>': return TT_SQLOP_GT;
    case 'g': return TT_SQLOP_GE;
    default: return TT_SQLOP_EQ;
    }
}

/* The rows a plan visits, for the planner: the table's estimate over the
 * sources loaded now (with the constraints whose values the planner
 * knows), the same again for each source not loaded; a guess of 1e6 rows
 * a source when none is loaded, cut by a constraint it cannot price. */
static double plan_rows(const vt *v, const tt_sql_cons *known, size_t n_known, size_t n_unpriced,
                        bool by_rank)
{
    size_t n = tt_sql_srcset_count(v->set), seen = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        const tt_sql_src *s = tt_sql_srcset_peek(v->set, i);
        if (!s || !v->t->estimate)
            continue;
        sum += v->t->estimate(s, known, n_known);
        seen++;
    }
    double per = seen ? sum / (double)seen : 1e6;
    for (size_t k = 0; k < n_unpriced; k++)
        per *= 0.1;
    if (!seen)
        for (size_t k = 0; k < n_known; k++)
            per *= known[k].op == TT_SQLOP_EQ ? 0.01 : 0.25;
    return per * (by_rank ? 1.0 : (double)n) + 1;
}

/* What a statement reading the columns in used (SQLite's colUsed: bit k
 * for column k < 63, bit 63 for every column from 63 on) of t needs. */
static unsigned needs_of(const tt_sql_table *t, sqlite3_uint64 used)
{
    unsigned needs = t->needs;
    for (size_t k = 0; t->col_needs && k < t->n_cols; k++)
        if (used & ((sqlite3_uint64)1 << (k < 63 ? k : 63)))
            needs |= t->col_needs[k];
    return needs;
}

/* The column a plan can hand SQLite its rows grouped by, or -1: a GROUP
 * BY on one TT_SQLCOL_GROUP column (sqlite3_vtab_distinct 1: the rows
 * need only be grouped) of a table that can group, over one source
 * (groups cannot span sources), with no constraint used (the grouped walk
 * is a full one; a ranged walk and a sort is cheaper). Ascending only:
 * SQLite may also take the groups' order for an ORDER BY on the same
 * column (GROUP BY 1 ORDER BY 1 DESC is planned as one descending
 * GROUP BY), and first_grouped's groups come in ascending BINARY order. */
static int group_col(const vt *v, sqlite3_index_info *info, int n_args)
{
    int col;
    if (!v->t->first_grouped || n_args || tt_sql_srcset_count(v->set) != 1 ||
        info->nOrderBy != 1 || info->aOrderBy[0].desc || sqlite3_vtab_distinct(info) != 1)
        return -1;
    col = info->aOrderBy[0].iColumn;
    if (col < 0 || col >= (int)v->t->n_cols || !(v->t->cols[col].flags & TT_SQLCOL_GROUP))
        return -1;
    return col;
}

static int vt_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
    vt *v = (vt *)base;
    int n_cols = (int)v->t->n_cols, argv_i = 0;
    sqlite3_str *idx = sqlite3_str_new(NULL);
    tt_sql_cons known[32];
    size_t n_known = 0, n_unpriced = 0;
    bool by_rank = false, unique = false;
    /* this statement reads the table: load what it and the columns the
     * statement reads need */
    tt_sql_srcset_need(v->set, needs_of(v->t, info->colUsed));
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        char op = op_char(c->op);
        bool key = c->iColumn >= 0 && c->iColumn < n_cols &&
                   (v->t->cols[c->iColumn].flags & TT_SQLCOL_KEY);
        bool rank = c->iColumn == n_cols && op == '=';
        sqlite3_value *rhs = NULL;
        if (!c->usable || !op || (!key && !rank))
            continue;
        info->aConstraintUsage[i].argvIndex = ++argv_i;
        info->aConstraintUsage[i].omit = 0;   /* SQLite checks again */
        sqlite3_str_appendf(idx, "%d,%c;", c->iColumn, op);
        by_rank |= rank;
        if (rank)
            continue;
        /* `id = x` on a table's own id (its first column, an ID): one row
         * at most, whatever x is; the planner must know it, or a join on
         * slice ids scans the slices once per row of the other side */
        if (c->iColumn == 0 && op == '=' && (v->t->cols[0].flags & TT_SQLCOL_ID))
            unique = true;
        /* ID columns' values are global: price them as unknown */
        if (!(v->t->cols[c->iColumn].flags & TT_SQLCOL_ID) && n_known < 32 &&
            sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs &&
            sqlite3_value_numeric_type(rhs) == SQLITE_INTEGER) {
            known[n_known].col = c->iColumn;
            known[n_known].op = op_of(op);
            known[n_known].v = sqlite3_value_int64(rhs);
            n_known++;
        } else {
            n_unpriced++;
        }
    }
    info->idxStr = sqlite3_str_finish(idx);
    if (!info->idxStr && argv_i)
        return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    /* idxNum: 1 + the column the rows come grouped by, 0: none */
    int gc = group_col(v, info, argv_i);
    if (gc >= 0) {
        info->orderByConsumed = 1;
        info->idxNum = 1 + gc;
    }
    double rows = plan_rows(v, known, n_known, n_unpriced, by_rank);
    if (unique) {
        rows = 1;
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
    info->estimatedRows = (sqlite3_int64)rows;
    info->estimatedCost = rows;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
    vt *v = (vt *)base;
    vcur *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->v = v;
    c->tcur = calloc(1, v->t->cur_size ? v->t->cur_size : 1);
    if (!c->tcur) {
        sqlite3_free(c);
        return SQLITE_NOMEM;
    }
    *out = &c->base;
    return SQLITE_OK;
}

/* Close the table cursor and let the source go. */
static void cur_leave(vcur *c)
{
    if (c->topen && c->v->t->close)
        c->v->t->close(c->tcur);
    c->topen = false;
    memset(c->tcur, 0, c->v->t->cur_size ? c->v->t->cur_size : 1);
    if (c->src)
        tt_sql_srcset_release(c->v->set, c->si);
    c->src = NULL;
}

static int vt_close(sqlite3_vtab_cursor *base)
{
    vcur *c = (vcur *)base;
    cur_leave(c);
    free(c->tcur);
    free(c->cons);
    free(c->local);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* The constraints as source ordinal ord sees them, in c->local: false
 * when no row of it can meet them. An ID column's value v is ordinal
 * v >> 40 and local id v - (ordinal << 40); every id of this source lies
 * between those of the sources before and after it. */
static bool localize(vcur *c, uint32_t ord, size_t *n_local)
{
    size_t k = 0, nothing;
    if (!n_local)   /* only the answer */
        n_local = &nothing;
    for (size_t i = 0; i < c->n_cons; i++) {
        tt_sql_cons x = c->cons[i];
        if (c->v->t->cols[x.col].flags & TT_SQLCOL_ID) {
            int64_t vo = x.v >> TT_SQL_ID_SHIFT;   /* arithmetic: negative ids stay below */
            int64_t local = x.v - (vo * ((int64_t)1 << TT_SQL_ID_SHIFT));
            if (vo != (int64_t)ord) {
                bool above = vo > (int64_t)ord;   /* the value is above every id here */
                switch (x.op) {
                case TT_SQLOP_EQ: return false;
                case TT_SQLOP_LT:
                case TT_SQLOP_LE:
                    if (!above)
                        return false;
                    continue;   /* every row meets it */
                case TT_SQLOP_GT:
                case TT_SQLOP_GE:
                    if (above)
                        return false;
                    continue;
                }
            }
            x.v = local;
        }
        if (n_local != &nothing)
            c->local[k] = x;
        k++;
    }
    *n_local = k;
    return true;
}

/* May source i have rows for the constraints? What rules a source out
 * without loading it: its rank, known from its name, and an id of
 * another source (a source's ordinal is its position). */
static bool cur_may_read(vcur *c, size_t i)
{
    int64_t rank;
    if (c->by_rank && tt_sql_srcset_rank(c->v->set, i, &rank) && rank != c->rank_eq)
        return false;
    return localize(c, (uint32_t)i, NULL);
}

/* From source c->si on, the first source with a row: c->src and the
 * table cursor on it, or c->si == n (EOF). */
static int cur_seek(vcur *c)
{
    const tt_sql_table *t = c->v->t;
    size_t n = tt_sql_srcset_count(c->v->set);
    size_t ahead[AHEAD];
    tt_error err;
    tt_error_clear(&err);
    for (; !c->none && c->si < n; c->si++) {
        size_t n_local = 0, n_ahead = 0;
        if (!cur_may_read(c, c->si))
            continue;
        localize(c, (uint32_t)c->si, &n_local);
        /* the sources this scan reads next load with this one */
        for (size_t k = c->si + 1; k < n && n_ahead < AHEAD; k++)
            if (cur_may_read(c, k))
                ahead[n_ahead++] = k;
        if (!(c->src = tt_sql_srcset_acquire_ahead(c->v->set, c->si, ahead, n_ahead, &err)))
            return vt_set_error(&c->v->base, &err);
        if (c->by_rank && c->src->rank != c->rank_eq) {
            cur_leave(c);
            continue;
        }
        c->topen = true;
        if (c->group_col >= 0 ? t->first_grouped(c->tcur, c->src, c->group_col, &err)
                              : t->first(c->tcur, c->src, c->local, n_local, &err))
            return vt_set_error(&c->v->base, &err);
        if (!t->eof(c->tcur))
            return SQLITE_OK;
        cur_leave(c);
    }
    return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc,
                     sqlite3_value **argv)
{
    vcur *c = (vcur *)base;
    const char *p = idx_str ? idx_str : "";
    cur_leave(c);
    c->group_col = idx_num - 1;
    free(c->cons);
    free(c->local);
    c->cons = calloc(argc ? (size_t)argc : 1, sizeof *c->cons);
    c->local = calloc(argc ? (size_t)argc : 1, sizeof *c->local);
    if (!c->cons || !c->local)
        return SQLITE_NOMEM;
    c->n_cons = 0;
    c->by_rank = c->none = false;
    c->si = 0;
    c->rowid = 0;
    for (int i = 0; i < argc && *p; i++) {
        int col = atoi(p);
        const char *comma = strchr(p, ',');
        char op = comma ? comma[1] : '=';
        p = strchr(p, ';');
        p = p ? p + 1 : "";
        /* only integers reach the tables; a text or real value is left
         * to SQLite's own check, a NULL one meets nothing */
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            c->none = true;
            continue;
        }
        if (sqlite3_value_numeric_type(argv[i]) != SQLITE_INTEGER)
            continue;
        if (col == (int)c->v->t->n_cols) {
            int64_t r = sqlite3_value_int64(argv[i]);
            c->none |= c->by_rank && r != c->rank_eq;
            c->by_rank = true;
            c->rank_eq = r;
            continue;
        }
        c->cons[c->n_cons].col = col;
        c->cons[c->n_cons].op = op_of(op);
        c->cons[c->n_cons].v = sqlite3_value_int64(argv[i]);
        c->n_cons++;
    }
    return cur_seek(c);
}

static int vt_next(sqlite3_vtab_cursor *base)
{
    vcur *c = (vcur *)base;
    tt_error err;
    tt_error_clear(&err);
    if (c->v->t->next(c->tcur, &err))
        return vt_set_error(&c->v->base, &err);
    c->rowid++;
    if (!c->v->t->eof(c->tcur))
        return SQLITE_OK;
    cur_leave(c);
    c->si++;
    return cur_seek(c);
}

static int vt_eof(sqlite3_vtab_cursor *base)
{
    const vcur *c = (const vcur *)base;
    return c->src == NULL;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
    vcur *c = (vcur *)base;
    tt_sql_val v;
    tt_error err;
    if (col == (int)c->v->t->n_cols) {
        if (c->src->rank >= 0)
            sqlite3_result_int64(ctx, c->src->rank);
        else
            sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    memset(&v, 0, sizeof v);
    tt_error_clear(&err);
    if (c->v->t->column(c->tcur, col, &v, &err)) {
        sqlite3_result_error(ctx, err.what, -1);
        return SQLITE_ERROR;
    }
    switch (v.type) {
    case TT_SQL_NULL: sqlite3_result_null(ctx); break;
    case TT_SQL_INT: sqlite3_result_int64(ctx, v.i); break;
    case TT_SQL_REAL: sqlite3_result_double(ctx, v.d); break;
    case TT_SQL_TEXT:
        /* the text may live in the table's cursor: SQLite copies it */
        sqlite3_result_text64(ctx, v.s ? v.s : "", v.n, SQLITE_TRANSIENT, SQLITE_UTF8);
        break;
    }
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out)
{
    *out = ((vcur *)base)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module module = {
    .iVersion = 1,
    .xCreate = NULL,   /* eponymous-only: no CREATE VIRTUAL TABLE */
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};

int tt_sql_vtab_register(sqlite3 *db, tt_sql_srcset *set)
{
    size_t n;
    const tt_sql_table *const *tabs = tt_sql_tables(&n);
    for (size_t i = 0; i < n; i++) {
        vt_aux *a = sqlite3_malloc(sizeof *a);
        int rc;
        if (!a)
            return SQLITE_NOMEM;
        a->t = tabs[i];
        a->set = set;
        /* SQLite frees a with sqlite3_free, also when registering fails */
        rc = sqlite3_create_module_v2(db, tabs[i]->name, &module, a, sqlite3_free);
        if (rc != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}
