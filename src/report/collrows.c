/* collrows.c - the collectives table (see collrows.h). */
#include "config.h"

#include "report/collrows.h"

#include "report/writer.h"
#include "util/sort.h"

#include <string.h>

static const tt_col colls_cols[] = {
    {"Rank", "rank", TT_COL_INT, 0, false},
    {"Collective", "collective", TT_COL_TEXT, 0, false},
    {"Sequence", "sequence", TT_COL_INT, 0, false},
    {"Start (ns)", "start_ns", TT_COL_INT, 0, false},
    {"Start Offset (ns)", "start_offset_ns", TT_COL_INT, 0, false},
    {"Duration (ns)", "duration_ns", TT_COL_INT, 0, false},
    {"Wait (ns)", "wait_ns", TT_COL_INT, 0, false},
    {"Ranks", "ranks", TT_COL_INT, 0, false},
    {"Trace", "trace", TT_COL_TEXT, 0, false},
};

static const tt_coll_definition colls_defs[] = {
    {"start_offset_ns", "Start Offset (ns)",
     "start time minus the earliest start among the ranks, on the aligned clock (only as good "
     "as the alignment)"},
    {"wait_ns", "Wait (ns)",
     "in-kernel wait: duration minus the shortest duration among the ranks (needs no aligned "
     "clocks)"},
    {"last_to_arrive", "last to arrive", "the rank with wait 0, the least in-kernel wait"},
};

const tt_coll_definition *tt_coll_definitions(size_t *n)
{
    *n = sizeof colls_defs / sizeof colls_defs[0];
    return colls_defs;
}

const tt_col *tt_coll_row_columns(size_t *n)
{
    *n = sizeof colls_cols / sizeof colls_cols[0];
    return colls_cols;
}

int tt_coll_row_write(tt_writer *w, const tt_coll_row *x)
{
    tt_cell c[9];
    c[0] = tt_cell_int(x->rank);
    c[1] = tt_cell_text(x->name);
    c[2] = tt_cell_int(x->seq);
    c[3] = tt_cell_int(x->start);
    c[4] = tt_cell_int(x->offset);
    c[5] = tt_cell_int(x->dur);
    c[6] = tt_cell_int(x->wait);
    c[7] = tt_cell_int(x->ranks);
    c[8] = tt_cell_text(x->trace);
    return tt_writer_row(w, c, 0) ? -1 : 0;
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const tt_coll_row *a = pa, *b = pb;
    int k;
    (void)ctx;
    if (a->start - a->offset != b->start - b->offset)
        return a->start - a->offset < b->start - b->offset ? -1 : 1;
    if ((k = strcmp(a->name, b->name)) != 0)
        return k;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

int tt_coll_rows_sort(tt_coll_row *rows, size_t n)
{
    return tt_sort(rows, n, sizeof *rows, cmp_rows, NULL) ? -1 : 0;
}

int tt_coll_rows_csv(FILE *f, const tt_coll_row *rows, size_t n)
{
    tt_writer_opts o;
    tt_writer *w;
    size_t ncols;
    const tt_col *cols = tt_coll_row_columns(&ncols);
    int rc;
    memset(&o, 0, sizeof o);
    o.format = TT_OUT_CSV;
    o.one_table = true;
    if (!(w = tt_writer_new(f, &o, cols, ncols, NULL)))
        return -1;
    rc = tt_writer_trace_begin(w, "job", NULL, NULL);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = tt_coll_row_write(w, &rows[i]);
    if (rc == 0)
        rc = tt_writer_trace_end(w, NULL, NULL);
    if (tt_writer_finish(w))
        rc = -1;
    tt_writer_free(w);
    return rc ? -1 : 0;
}
