/* kind.h - the report kinds as a table: each kind of `tracetty report` is
 * one constant tt_report_kind (its name, what it accepts, its columns and
 * its rows), defined in the file that holds its code (kind_ops.c,
 * kind_operators.c, job.c, ...), and one row of the table in kinds.c.
 * Adding a kind is a new file plus that row; report.c and the CLI never
 * ask which kind they run: they read its flags and call through it, as
 * tmux's core calls through a window mode's struct.
 *
 * Who owns what: the table and the kinds are static constants; a kind's
 * rows callback borrows everything in its tt_kind_ctx and hands what it
 * puts in tt_kind_out (JSON extras, text after the table) to the caller.
 */
#ifndef TT_REPORT_KIND_H
#define TT_REPORT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "analysis/stats.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "report/writer.h"
#include "util/error.h"

struct cJSON;
struct tt_report_opts;

/* Where a kind's rows come from, hence which runner of the CLI writes it. */
typedef enum tt_kind_scope {
    TT_KIND_PER_TRACE = 0,  /* one table per trace (tt_report_new/add) */
    TT_KIND_WHOLE,          /* every trace loaded together, then one table
                               (annotations: the rules compare the ranks) */
    TT_KIND_JOB             /* across ranks, streamed (report/job.h) */
} tt_kind_scope;

/* What a kind accepts and how it is written (tt_report_kind.flags). */
enum {
    TT_KIND_BY = 1u << 0,           /* takes --by keys */
    TT_KIND_BY_ONE = 1u << 1,       /* at most one key (else one column each) */
    TT_KIND_BY_NAME = 1u << 2,      /* rows group by a key, name by default:
                                       the JSON head says which ("by") */
    TT_KIND_KEY_COLUMNS = 1u << 3,  /* each key adds a column after the kind's */
    TT_KIND_SORT = 1u << 4,         /* takes --sort and --by shape */
    TT_KIND_MARKERS = 1u << 5,      /* takes --markers (--between, --per-interval) */
    TT_KIND_STEP_SPANS = 1u << 6,   /* --per-interval: the intervals are its
                                       steps, one table (else a row group each) */
    TT_KIND_RULES = 1u << 7,        /* takes --rules */
    TT_KIND_ALIGN = 1u << 8,        /* takes --align */
    TT_KIND_RANK_COLUMN = 1u << 9,  /* has a Rank column: say when two traces
                                       got one rank */
    TT_KIND_ONE_TABLE = 1u << 10,   /* text: one table for every trace, no
                                       title line per trace */
    TT_KIND_TEXT_WHOLE = 1u << 11,  /* text: the kind writes the whole table
                                       (tt_kind_out.text_after) */
    TT_KIND_WINDOW_ONLY = 1u << 12, /* reads only the events meeting its window
                                       on its lanes (a .ttz loads just those),
                                       when it reads no arguments or flows */
    TT_KIND_BY_MODULE = 1u << 13,   /* takes --by module (analysis/modules.h) */
    TT_KIND_TOTALS = 1u << 14,      /* takes --totals: only its total rows */
};

/* What a kind's rows see for one trace. */
typedef struct tt_kind_ctx {
    tt_writer                   *w;
    const struct tt_report_opts *o;        /* the report's options (keys defaulted) */
    const tt_trace              *tr;
    const tt_sel                *sel;
    const tt_summary            *summary;  /* of sel */
    const tt_step_spans         *spans;    /* steps the caller gives, or NULL */
    int64_t                      rank;     /* tt_report_rank() of the trace */
} tt_kind_ctx;

/* What they give back: each may stay NULL / empty. */
typedef struct tt_kind_out {
    struct cJSON *extra;       /* JSON fields after the rows (taken) */
    char         *text_after;  /* text under the table (malloc'd, taken) */
    char         *note;        /* note_cap bytes: why the table is empty or cut
                                  short (tt_report_note; trace strings raw) */
    size_t        note_cap;
} tt_kind_out;

typedef struct tt_report_kind {
    const char   *name;       /* --kind NAME */
    const char   *help;       /* one line: what a row is */
    tt_kind_scope scope;
    unsigned      flags;      /* TT_KIND_* */
    unsigned      skip;       /* tt_load_opts.skip: parts of a trace it never reads */
    unsigned      skip_arg;   /* the same when a key is an argument (arg:KEY) */
    const char   *bar_title;  /* text: title of the bar column, NULL = no bar */
    int           job;        /* TT_KIND_JOB: its tt_job_kind */

    /* TT_KIND_PER_TRACE only: */
    const tt_col *cols;       /* its columns (static) */
    size_t        n_cols;
    /* How many of them the options o use (NULL: all), e.g. a last column
     * only with --by shape. */
    size_t (*cols_used)(const struct tt_report_opts *o);
    /* Columns it adds for the options o before its last one (NULL:
     * none), written to out when not NULL; returns how many. The titles
     * may borrow o's strings. */
    size_t (*more_cols)(const struct tt_report_opts *o, tt_col *out);
    /* What the flags cannot say about its options (NULL: nothing), e.g.
     * an unknown --sort; TT_ERR_USAGE. */
    int (*check)(const struct tt_report_opts *o, tt_error *err);
    /* The rows of one trace. 0, or -1 with err set. */
    int (*rows)(const tt_kind_ctx *c, tt_kind_out *out, tt_error *err);

    /* Any scope, may be NULL: why this trace's table says less than it
     * seems (e.g. no GPU events at all, no launch links), for the caller
     * to show once per trace: 1 with the note in buf (trace strings raw),
     * 0 nothing to say, -1 out of memory. */
    int (*trace_note)(const tt_trace *tr, char *buf, size_t cap);
} tt_report_kind;

/* The table, in the order of `--kind` in the usage: n rows. */
const tt_report_kind *const *tt_report_kinds(size_t *n);

/* The kind named s, or NULL. */
const tt_report_kind *tt_report_kind_find(const char *s);

/* The names of the kinds with every flag of `need`, none of `lack` and,
 * unless scope < 0, that scope, in table order, as "a, b or c", into buf;
 * returns buf. For the messages that say which kinds take an option. */
const char *tt_report_kind_list(unsigned need, unsigned lack, int scope, char *buf, size_t cap);

/* Percent of part in whole, 0 for an empty whole. */
static inline double tt_kind_pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

#endif
