/* sqltab.h - the SQL tables of `tracetty query` as a table of definitions.
 *
 * Each table (slice, thread_track, counter, ...) is one constant
 * tt_sql_table, defined in its own file (sql/tab_slice.c, ...), plus one
 * row of the registry in sql/tables.c. A table knows nothing of SQLite: it
 * walks the rows of ONE loaded trace with a cursor of its own and hands
 * each column as a tt_sql_val. The virtual-table adapter (sql/vtab.c) is
 * the only code that speaks SQLite's vtab API: it turns every table into
 * an eponymous read-only virtual table, walks the query's sources (one per
 * rank of a job, loaded in batches), appends the `rank` column, passes the
 * integer constraints a table says it can use (TT_SQLCOL_KEY) and converts
 * the values. tt_sqltab_dump (sql/dump.c) walks a table the same way
 * without SQLite, for the unit tests of each table.
 *
 * Ids. Perfetto's ids (slice.id, track_id, utid, upid, arg_set_id) are
 * unique in the whole trace processor; in a job of several ranks each
 * rank's ids are made unique the same way: a column marked TT_SQLCOL_ID
 * holds tt_sql_id(src, local), the local id plus the source's ordinal
 * times 2^40 (a lone trace: the local id itself). Constraints on such a
 * column reach the table already turned back into local ids (a value of
 * another source: that source yields nothing).
 *
 * Times are integer ns on the trace's own clock (tt_event.start), as
 * Perfetto's are, not relative to the trace's start.
 *
 * Who owns what: definitions are static constants. A cursor is a block of
 * cur_size bytes owned by the caller, zeroed before first(); the table
 * owns what it allocates in it until close(). Values borrow: text points
 * into the trace (its string table) or into the cursor, valid until the
 * next call on the cursor. Library code: never prints, never exits.
 */
#ifndef TT_SQL_SQLTAB_H
#define TT_SQL_SQLTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/trace.h"
#include "util/error.h"

struct tt_markset;
struct tt_sql_src;
struct tt_sql_srcset;
struct tt_sql_table;

/* ---------------------------------------------------------------- values */

typedef enum tt_sql_type {
    TT_SQL_NULL = 0,
    TT_SQL_INT,
    TT_SQL_REAL,
    TT_SQL_TEXT
} tt_sql_type;

typedef struct tt_sql_val {
    tt_sql_type type;
    int64_t     i;      /* TT_SQL_INT */
    double      d;      /* TT_SQL_REAL */
    const char *s;      /* TT_SQL_TEXT: s[0..n), borrowed (see above) */
    size_t      n;
} tt_sql_val;

static inline void tt_sql_set_null(tt_sql_val *v) { v->type = TT_SQL_NULL; }
static inline void tt_sql_set_int(tt_sql_val *v, int64_t i) { v->type = TT_SQL_INT; v->i = i; }
static inline void tt_sql_set_real(tt_sql_val *v, double d) { v->type = TT_SQL_REAL; v->d = d; }
void tt_sql_set_text(tt_sql_val *v, const char *s);           /* NULL: SQL NULL */
void tt_sql_set_textn(tt_sql_val *v, const char *s, size_t n);
/* A string id of tr: NULL for id 0 when null0, else its text. */
void tt_sql_set_str(tt_sql_val *v, const tt_trace *tr, uint32_t id, bool null0);
/* A source key (a pid, a tid) as an integer when the whole of it is one
 * ("1234"), else NULL. */
void tt_sql_set_intkey(tt_sql_val *v, const char *s);

/* ------------------------------------------------------------------- ids */

#define TT_SQL_ID_SHIFT 40
#define TT_SQL_ID_LOCAL_MAX ((INT64_C(1) << TT_SQL_ID_SHIFT) - 1)

/* --------------------------------------------------------------- sources */

/* One loaded trace a query reads: a lone trace, or one rank of a job. The
 * adapter fills it; tables only read it. */
typedef struct tt_sql_src {
    const tt_trace *tr;
    uint32_t        ordinal;     /* position among the query's sources, 0.. */
    int64_t         rank;        /* the rank column; -1: NULL (no rank known) */
    const char     *path;        /* as the user named it */
    /* What --window/--lanes/--markers --between keep (analysis/select.h's
     * resolution): events meeting [from, to) on lanes with lane_on[l] != 0.
     * Tables of events (slice, instant, flow) show only those; counters
     * only samples in [from, to). */
    tt_ns           from, to;    /* INT64_MIN / INT64_MAX: no window */
    const unsigned char *lane_on; /* NULL: every lane */
    /* The saved marker set the command named (--markers SET), or NULL. */
    const struct tt_markset *markers;
    /* The query's sources this one belongs to (sql/srcset.h): for a table
     * whose rows need every source (the rules across a job's ranks). */
    struct tt_sql_srcset *set;
    /* Per-source state a table builds once and keeps while this source
     * is loaded (e.g. a lane's first slice id, the rules' findings): see
     * tt_sql_src_cache. Owned by the adapter. */
    void          **cache;       /* one slot per registry row */
    void         (**cache_free)(void *);
    /* Built by tt_sql_src_init: lane_first[l] is the slice id of lane l's
     * first event (the sum of n over the lanes before it; n_lanes + 1
     * entries), counter_first[c] the row id of counter c's first sample
     * (n_counters + 1 entries). */
    int64_t        *lane_first;
    int64_t        *counter_first;
} tt_sql_src;

/* The model's ids (local; see the top of this file). Every table agrees:
 *   upid       group index
 *   track id   lane index for lanes (utid: the same), n_lanes + counter
 *              index for counter tracks
 *   slice id   lane_first[lane] + idx: every event of every lane (slices,
 *              async slices, instants with dur 0, as Perfetto stores them)
 *   arg_set_id the event's args handle (NULL when 0)
 *   counter id counter_first[counter] + sample index
 *   flow id    index in tr->flows */
static inline int64_t tt_sql_slice_id(const tt_sql_src *s, uint32_t lane, uint32_t idx)
{
    return s->lane_first[lane] + idx;
}
/* The event of local slice id v; false when there is none. */
bool tt_sql_slice_ref(const tt_sql_src *s, int64_t v, tt_evref *out);
static inline int64_t tt_sql_counter_track_id(const tt_sql_src *s, uint32_t counter)
{
    return (int64_t)s->tr->n_lanes + counter;
}

static inline int64_t tt_sql_id(const tt_sql_src *s, int64_t local)
{
    return ((int64_t)s->ordinal << TT_SQL_ID_SHIFT) + local;
}

/* Does event e of lane l pass the source's window and lanes? */
bool tt_sql_src_keeps(const tt_sql_src *s, uint32_t lane, const tt_event *e);

/* The state of table t for source s, built by build(s, err) on first use
 * and freed with free_fn when the source is unloaded. NULL with err set
 * when build fails. */
void *tt_sql_src_cache(const tt_sql_src *s, const struct tt_sql_table *t,
                       void *(*build)(const tt_sql_src *s, tt_error *err),
                       void (*free_fn)(void *state), tt_error *err);

/* ------------------------------------------------------------ constraints */

typedef enum tt_sql_op {
    TT_SQLOP_EQ = 0,
    TT_SQLOP_LT,
    TT_SQLOP_LE,
    TT_SQLOP_GT,
    TT_SQLOP_GE
} tt_sql_op;

/* An integer constraint on a TT_SQLCOL_KEY column, handed to first(): the
 * table may use it to skip rows (SQLite checks every row again, so a table
 * may also ignore it). TT_SQLCOL_ID columns: v is already the local id. */
typedef struct tt_sql_cons {
    int       col;   /* index into the table's cols */
    tt_sql_op op;
    int64_t   v;
} tt_sql_cons;

/* For tables whose rows are positions [*pos, *end) of an array (row id =
 * base + position): narrow them to the one row an `col = v` constraint
 * names, or to none when v is outside them. Other constraints are left
 * to SQLite. */
void tt_sql_cons_narrow_eq(const tt_sql_cons *cons, size_t n, int col, int64_t base,
                           size_t *pos, size_t *end);

/* ---------------------------------------------------------------- tables */

enum {
    TT_SQLCOL_KEY = 1u << 0,    /* first() can narrow rows by an integer
                                   constraint on it (ts, dur, track_id, id) */
    TT_SQLCOL_ID = 1u << 1,     /* holds tt_sql_id() values */
    TT_SQLCOL_HIDDEN = 1u << 2, /* not in SELECT * */
    TT_SQLCOL_GROUP = 1u << 3   /* first_grouped() can group rows by it */
};

typedef struct tt_sql_col {
    const char *name;
    const char *type;     /* declared SQL type: "INTEGER", "TEXT", "REAL", "" */
    unsigned    flags;    /* TT_SQLCOL_* */
} tt_sql_col;

/* What a table reads, so that loading keeps it (tt_load_opts.skip). */
enum {
    TT_SQLNEED_ARGS = 1u << 0,
    TT_SQLNEED_FLOWS = 1u << 1,
    TT_SQLNEED_COUNTERS = 1u << 2
};

typedef struct tt_sql_table {
    const char       *name;     /* SQL name: "slice" */
    const char       *help;     /* one line for `query --tables` and the man page */
    const tt_sql_col *cols;     /* without `rank`: the adapter appends it */
    size_t            n_cols;
    unsigned          needs;    /* TT_SQLNEED_* any query of it reads */
    /* NULL, or n_cols entries: what reading column k needs beyond
     * `needs` (slice's arg_set_id: the arguments), so that a query that
     * does not read it loads without it (vtab.c: SQLite's colUsed). */
    const unsigned   *col_needs;
    size_t            cur_size; /* bytes of the table's cursor */

    /* Position cur (zeroed, cur_size bytes) on the first row of s that
     * may meet cons[0..n) (ANDed). 0, or -1 with err set (out of memory). */
    int (*first)(void *cur, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                 tt_error *err);
    /* Advance; 0, or -1 with err set. */
    int (*next)(void *cur, tt_error *err);
    bool (*eof)(const void *cur);
    /* The value of column col (< n_cols) of the current row. 0, or -1
     * with err set (e.g. arguments that cannot be decoded). */
    int (*column)(void *cur, int col, tt_sql_val *out, tt_error *err);
    /* Release what first() allocated; cur is then zeroed again or freed.
     * May be NULL when first allocates nothing. */
    void (*close)(void *cur);
    /* May be NULL: the rows first() would visit for cons, estimated, for
     * SQLite's planner (NULL: every row). */
    double (*estimate)(const tt_sql_src *s, const tt_sql_cons *cons, size_t n);
    /* May be NULL: position cur (zeroed) on the first of the same rows
     * as first() without constraints, in ascending order of column col
     * (a TT_SQLCOL_GROUP one; text: SQLite's BINARY collation); next()
     * and eof() then follow that order. The adapter uses it for a GROUP
     * BY col over one source, which SQLite then need not sort. 0, or -1
     * with err set. */
    int (*first_grouped)(void *cur, const tt_sql_src *s, int col, tt_error *err);
} tt_sql_table;

/* The registry, in the order of `query --tables`: n rows. */
const tt_sql_table *const *tt_sql_tables(size_t *n);

/* The table named name, or NULL. Its registry row in *row when row. */
const tt_sql_table *tt_sql_table_find(const char *name, size_t *row);

/* Write every row of table t for source s as CSV (a header line, then
 * rows; the rank column last, as the adapter appends it; text quoted when
 * it holds a comma, quote or line break; reals with %.17g), without
 * SQLite: the unit tests of the tables use it. 0, or -1 with err set. */
int tt_sqltab_dump(const tt_sql_table *t, const tt_sql_src *s, FILE *f, tt_error *err);
/* The same with the constraints cons[0..n_cons) handed to first() (on
 * TT_SQLCOL_KEY columns; TT_SQLCOL_ID values local), as the adapter hands
 * them: the rows first() narrows to, without SQLite's second check, so
 * that tests can compare them with the rows the constraints allow. */
int tt_sqltab_dump_where(const tt_sql_table *t, const tt_sql_src *s, const tt_sql_cons *cons,
                         size_t n_cons, FILE *f, tt_error *err);

/* A source over one trace with no window, no lane filter, no markers,
 * ordinal 0, for tt_sqltab_dump and the unit tests; its cache is freed by
 * tt_sql_src_fini. 0, or -1 (out of memory) with err set. */
int tt_sql_src_init(tt_sql_src *s, const tt_trace *tr, const char *path, tt_error *err);
void tt_sql_src_fini(tt_sql_src *s);

#endif
