/* tab_launch.c - SQL table `launch` (tracetty's own): one row per device
 * event (kernel, copy, memset, collective) with the host call that
 * launched it and the operator chain above that call, from the
 * attribution (analysis/attrib.h: flows, else correlation ids), the same
 * links `report --kind launch` and `--kind operators` use.
 *
 *   slice_id      the device event's id in `slice`
 *   ts, dur       its start and duration (ns, the trace's clock)
 *   track_id      its lane (a stream, a queue)
 *   name          its name
 *   launcher_id   the launching host call's slice id (cudaLaunchKernel,
 *                 aclrtLaunchKernel, ...); NULL when the trace links none
 *   launch_delay  ts minus the launcher's start; NULL without a launcher
 *   op_id         the launch op: the innermost event around the call that
 *                 is neither a runtime call nor a Python frame (the call
 *                 itself when there is none); NULL without a launcher
 *   op_name       its name
 *   op_chain      the names of the launch op and every event around it on
 *                 its thread, outermost first, joined by " > "
 *                 ("ProfilerStep#3 > aten::linear > aten::addmm")
 *
 * Constraints on slice_id, ts, dur and track_id narrow the walk
 * (sql/evwalk.h); the walk skips the lanes that hold no device event.
 * op_chain is built in the cursor, valid until the next row.
 */
#include "config.h"

#include "analysis/attrib.h"
#include "sql/evwalk.h"
#include "sql/sqltab.h"

#include <stdlib.h>
#include <string.h>

typedef struct launch_cur {
    tt_sql_evwalk    w;   /* first member: see evwalk.h */
    const tt_attrib *a;
    char            *chain;   /* op_chain of the current row */
    size_t           chain_cap;
    tt_evref        *stack;   /* scratch of chain_of(), kept across rows */
    size_t           stack_cap;
} launch_cur;

enum { C_SLICE, C_TS, C_DUR, C_TRACK, C_NAME, C_LAUNCHER, C_DELAY, C_OP, C_OP_NAME, C_CHAIN };

static const tt_sql_col cols[] = {
    [C_SLICE] = {"slice_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_TS] = {"ts", "INTEGER", TT_SQLCOL_KEY},
    [C_DUR] = {"dur", "INTEGER", TT_SQLCOL_KEY},
    [C_TRACK] = {"track_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    [C_NAME] = {"name", "TEXT", 0},
    [C_LAUNCHER] = {"launcher_id", "INTEGER", TT_SQLCOL_ID},
    [C_DELAY] = {"launch_delay", "INTEGER", 0},
    [C_OP] = {"op_id", "INTEGER", TT_SQLCOL_ID},
    [C_OP_NAME] = {"op_name", "TEXT", 0},
    [C_CHAIN] = {"op_chain", "TEXT", 0},
};

static const tt_sql_evkeys keys = {.id = C_SLICE, .ts = C_TS, .dur = C_DUR, .track = C_TRACK};

/* Move to the first device event at or after the walk's position. */
static void skip_host(launch_cur *c)
{
    while (!tt_sql_evwalk_eof(&c->w)) {
        tt_evref r = {c->w.lane, c->w.idx};
        if (tt_attrib_lane_is_device(c->a, r.lane) && tt_attrib_is_device(c->a, r))
            return;
        tt_sql_evwalk_next(&c->w);
    }
}

static int launch_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                        tt_error *err)
{
    launch_cur *c = vc;
    if (!(c->a = tt_attrib_get(s->tr, err)))
        return -1;
    tt_sql_evwalk_first(&c->w, s, &keys, cons, n, TT_SQL_EVKINDS_ALL);
    skip_host(c);
    return 0;
}

static int launch_next(void *vc, tt_error *err)
{
    (void)err;
    launch_cur *c = vc;
    tt_sql_evwalk_next(&c->w);
    skip_host(c);
    return 0;
}

/* Append s (n bytes) to the chain at *len; false when out of memory. */
static bool chain_put(launch_cur *c, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > c->chain_cap) {
        size_t cap = c->chain_cap ? c->chain_cap : 256;
        char *p;
        while (*len + n + 1 > cap)
            cap *= 2;
        if (!(p = realloc(c->chain, cap)))
            return false;
        c->chain = p;
        c->chain_cap = cap;
    }
    memcpy(c->chain + *len, s, n);
    *len += n;
    c->chain[*len] = '\0';
    return true;
}

/* op_chain of launch op op: outermost first. */
static int chain_of(launch_cur *c, tt_evref op, tt_sql_val *v, tt_error *err)
{
    const tt_trace *tr = c->w.s->tr;
    size_t depth = 0, len = 0;
    for (tt_evref x = op; tt_evref_ok(x); x = tt_attrib_parent(c->a, x))
        depth++;
    if (depth > c->stack_cap) {
        tt_evref *p = realloc(c->stack, depth * sizeof *p);
        if (!p)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        c->stack = p;
        c->stack_cap = depth;
    }
    depth = 0;
    for (tt_evref x = op; tt_evref_ok(x); x = tt_attrib_parent(c->a, x))
        c->stack[depth++] = x;
    for (size_t i = depth; i-- > 0;) {
        const char *name = tt_str(tr, tt_trace_event(tr, c->stack[i])->name);
        if ((i + 1 < depth && !chain_put(c, &len, " > ", 3)) ||
            !chain_put(c, &len, name, strlen(name)))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    tt_sql_set_textn(v, c->chain, len);
    return 0;
}

static int launch_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    launch_cur *c = vc;
    const tt_sql_src *s = c->w.s;
    const tt_event *e = tt_sql_evwalk_event(&c->w);
    tt_evref dev = {c->w.lane, c->w.idx}, host, op;
    switch (col) {
    case C_SLICE: tt_sql_set_int(v, tt_sql_id(s, tt_sql_evwalk_id(&c->w))); return 0;
    case C_TS: tt_sql_set_int(v, e->start); return 0;
    case C_DUR: tt_sql_set_int(v, e->dur); return 0;
    case C_TRACK: tt_sql_set_int(v, tt_sql_id(s, c->w.lane)); return 0;
    case C_NAME: tt_sql_set_str(v, s->tr, e->name, false); return 0;
    default: break;
    }
    host = tt_attrib_launcher(c->a, dev);
    if (!tt_evref_ok(host)) {
        tt_sql_set_null(v);
        return 0;
    }
    switch (col) {
    case C_LAUNCHER:
        tt_sql_set_int(v, tt_sql_id(s, tt_sql_slice_id(s, host.lane, host.idx)));
        return 0;
    case C_DELAY: tt_sql_set_int(v, e->start - tt_trace_event(s->tr, host)->start); return 0;
    default: break;
    }
    op = tt_attrib_launch_op(c->a, dev);
    if (!tt_evref_ok(op)) {
        tt_sql_set_null(v);
        return 0;
    }
    switch (col) {
    case C_OP: tt_sql_set_int(v, tt_sql_id(s, tt_sql_slice_id(s, op.lane, op.idx))); return 0;
    case C_OP_NAME: tt_sql_set_str(v, s->tr, tt_trace_event(s->tr, op)->name, false); return 0;
    case C_CHAIN: return chain_of(c, op, v, err);
    default: tt_sql_set_null(v); return 0;
    }
}

static void launch_close(void *vc)
{
    launch_cur *c = vc;
    free(c->chain);
    free(c->stack);
    c->chain = NULL;
    c->stack = NULL;
    c->chain_cap = c->stack_cap = 0;
}

static double launch_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    return tt_sql_evwalk_estimate(s, &keys, cons, n);
}

const tt_sql_table tt_sqltab_launch = {
    .name = "launch",
    .help = "tracetty's: one row per device event with its launching call and operator "
            "chain: slice_id, ts, dur, track_id, name, launcher_id, launch_delay, op_id, "
            "op_name, op_chain",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_FLOWS,
    .cur_size = sizeof(launch_cur),
    .first = launch_first,
    .next = launch_next,
    .eof = tt_sql_evcur_eof,
    .column = launch_column,
    .close = launch_close,
    .estimate = launch_estimate,
};
