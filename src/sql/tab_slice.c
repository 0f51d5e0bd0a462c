/* tab_slice.c - SQL table `slice`: every event of every lane the source
 * keeps (its window and lanes), shaped like Perfetto's slice table:
 * instants are slices of dur 0, async events slices of their async lane.
 *
 *   id          the slice id (sqltab.h: lane_first[lane] + position)
 *   ts, dur     start and duration, ns on the trace's own clock
 *   track_id    the lane index
 *   category    the event's category, NULL when none
 *   name        its name
 *   depth       its row on the lane (call-stack depth on thread lanes,
 *               the packing row on async lanes)
 *   parent_id   the enclosing event one row up on a thread lane
 *               (analysis/attrib.h), NULL at depth 0 and on async lanes
 *   arg_set_id  the event's argument set, NULL when it has none
 * then tracetty's:
 *   self_dur    dur minus the union of its direct children (attrib.h's
 *               host self time; 0 for instants)
 *   bytes       bytes moved by a transfer, NULL for other events
 *   corr        the correlation id, NULL when none
 *
 * Constraints on id, ts, dur and track_id narrow the walk (sql/evwalk.h):
 * `ts BETWEEN a AND b` costs binary searches per lane plus the rows.
 * parent_id and self_dur come from the trace's attribution, built on the
 * first read of either (O(n) once per trace), not for queries that do not
 * read them; likewise the arguments load only for a query that reads
 * arg_set_id (col_needs). A GROUP BY name over one source walks the rows
 * grouped by name (sql/evgroup.h, first_grouped): SQLite then sorts
 * nothing, which was most of the cost of such a query over 1M slices.
 */
#include "config.h"

#include "analysis/attrib.h"
#include "sql/evgroup.h"
#include "sql/evwalk.h"
#include "sql/sqltab.h"

extern const tt_sql_table tt_sqltab_slice;

typedef struct slice_cur {
    tt_sql_evwalk         w;   /* its s, lane and idx name the current row */
    const tt_attrib      *a;   /* on first use */
    const tt_sql_evgroup *g;   /* grouped by name: the rows in g's order */
    size_t                gi;  /* the current row's position in g */
} slice_cur;

enum { C_ID, C_TS, C_DUR, C_TRACK, C_CAT, C_NAME, C_DEPTH, C_PARENT, C_ARGS, C_SELF,
       C_BYTES, C_CORR };

static const tt_sql_col cols[] = {
    [C_ID] = {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_TS] = {"ts", "INTEGER", TT_SQLCOL_KEY},
    [C_DUR] = {"dur", "INTEGER", TT_SQLCOL_KEY},
    [C_TRACK] = {"track_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_CAT] = {"category", "TEXT", 0},
    [C_NAME] = {"name", "TEXT", TT_SQLCOL_GROUP},
    [C_DEPTH] = {"depth", "INTEGER", 0},
    [C_PARENT] = {"parent_id", "INTEGER", TT_SQLCOL_ID},
    [C_ARGS] = {"arg_set_id", "INTEGER", TT_SQLCOL_ID},
    [C_SELF] = {"self_dur", "INTEGER", 0},
    [C_BYTES] = {"bytes", "INTEGER", 0},
    [C_CORR] = {"corr", "INTEGER", 0},
};

/* only arg_set_id reads the arguments: other queries load without them */
static const unsigned col_needs[sizeof cols / sizeof cols[0]] = {[C_ARGS] = TT_SQLNEED_ARGS};

static const tt_sql_evkeys keys = {.id = C_ID, .ts = C_TS, .dur = C_DUR, .track = C_TRACK};

static int slice_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                       tt_error *err)
{
    (void)err;
    slice_cur *c = vc;
    tt_sql_evwalk_first(&c->w, s, &keys, cons, n, TT_SQL_EVKINDS_ALL);
    return 0;
}

/* GROUP BY name: every row the source keeps, by name (sql/evgroup.h) */
static void *group_build(const tt_sql_src *s, tt_error *err)
{
    return tt_sql_evgroup_build(s, TT_SQL_EVKINDS_ALL, err);
}

static void group_at(slice_cur *c)
{
    if (c->gi < c->g->n) {
        c->w.lane = c->g->v[c->gi].lane;
        c->w.idx = c->g->v[c->gi].idx;
    }
}

static int slice_first_grouped(void *vc, const tt_sql_src *s, int col, tt_error *err)
{
    slice_cur *c = vc;
    (void)col;   /* name: the one TT_SQLCOL_GROUP column */
    c->w.s = s;
    if (!(c->g = tt_sql_src_cache(s, &tt_sqltab_slice, group_build, tt_sql_evgroup_free, err)))
        return -1;
    c->gi = 0;
    group_at(c);
    return 0;
}

static int slice_next(void *vc, tt_error *err)
{
    slice_cur *c = vc;
    if (!c->g)
        return tt_sql_evcur_next(&c->w, err);
    c->gi++;
    group_at(c);
    return 0;
}

static bool slice_eof(const void *vc)
{
    const slice_cur *c = vc;
    return c->g ? c->gi >= c->g->n : tt_sql_evwalk_eof(&c->w);
}

static int slice_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    slice_cur *c = vc;
    const tt_sql_src *s = c->w.s;
    const tt_trace *tr = s->tr;
    const tt_event *e = tt_sql_evwalk_event(&c->w);
    tt_evref ref = {c->w.lane, c->w.idx};
    if ((col == C_PARENT || col == C_SELF) && !c->a && !(c->a = tt_attrib_get(tr, err)))
        return -1;
    switch (col) {
    case C_ID: tt_sql_set_int(v, tt_sql_id(s, tt_sql_evwalk_id(&c->w))); break;
    case C_TS: tt_sql_set_int(v, e->start); break;
    case C_DUR: tt_sql_set_int(v, e->dur); break;
    case C_TRACK: tt_sql_set_int(v, tt_sql_id(s, c->w.lane)); break;
    case C_CAT: tt_sql_set_str(v, tr, e->cat, true); break;
    case C_NAME: tt_sql_set_str(v, tr, e->name, false); break;
    case C_DEPTH: tt_sql_set_int(v, e->depth); break;
    case C_PARENT: {
        tt_evref p = tt_attrib_parent(c->a, ref);
        if (tt_evref_ok(p))
            tt_sql_set_int(v, tt_sql_id(s, tt_sql_slice_id(s, p.lane, p.idx)));
        else
            tt_sql_set_null(v);
        break;
    }
    case C_ARGS: tt_sql_set_args(v, s, e); break;
    case C_SELF: tt_sql_set_int(v, tt_attrib_self(c->a, ref)); break;
    case C_BYTES:
        if (e->bytes >= 0)
            tt_sql_set_int(v, e->bytes);
        else
            tt_sql_set_null(v);
        break;
    case C_CORR:
        if (e->corr)
            tt_sql_set_int(v, e->corr);
        else
            tt_sql_set_null(v);
        break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

static double slice_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    return tt_sql_evwalk_estimate(s, &keys, cons, n);
}

const tt_sql_table tt_sqltab_slice = {
    .name = "slice",
    .help = "every event of every lane (instants as dur 0): id, ts, dur, track_id, category, "
            "name, depth, parent_id, arg_set_id, self_dur, bytes, corr",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = 0,
    .col_needs = col_needs,
    .cur_size = sizeof(slice_cur),
    .first = slice_first,
    .next = slice_next,
    .eof = slice_eof,
    .column = slice_column,
    .estimate = slice_estimate,
    .first_grouped = slice_first_grouped,
};
