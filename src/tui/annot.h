/* annot.h - warning annotations in the timeline (issue "annotations").
 *
 * The rules (rules/rules.h) run once when the view opens, with the
 * configuration `view`/`render` were given (--rules FILE, --set, --enable,
 * --disable, as `check` takes them). Each annotation is a time span, the
 * lanes involved and a message. The view draws every annotation that
 * overlaps the window (a mark in the ruler, the span on its lanes, a
 * span narrower than a cell still takes its cell), says the message of the
 * one under the cursor, and lists them all in a panel ranked by the time
 * they cost (see below).
 *
 * Several ranks: the rules run over every rank's trace at once (the
 * straggler rule compares them) and each annotation says its rank; the
 * view keeps their times on the job's aligned axis (each trace's own time
 * plus its offset), lists the rank of each, and draws an annotation only
 * on rows of its own rank. The list's time column counts from the job's
 * start; the times a message quotes stay on its rank's clock (from that
 * trace's start, as `tracetty check` prints them), and the view says so.
 *
 * Annotations stay in the rules' order (severity, then time), which
 * decides which one a cell shows; an index by start time with running maxima of the ends finds those
 * overlapping a window in O(log n + k) for drawing and for the cursor.
 *
 * The panel lists the findings grouped per (rule, rank) in the ranking of
 * rules/rank.h, the one `tracetty check` prints: the straggler first, then
 * the costliest. Each group has a header line (severity, rule, rank, and
 * the impact as check's headline says it), then its findings costliest
 * first, each with its whole message (wrapped, one item per finding).
 * Enter on a header folds or unfolds its group; the cursor stops on
 * headers and findings alike. The list can keep only one rule's groups
 * (tt_annview_filter), or show the detail of one finding
 * (tt_annview_open; finding.h builds it) with the events involved.
 * Findings the ranking does not know (a rule outside the table, annotations
 * given by tt_annview_take) come last, without a header.
 *
 * Ownership: tt_annview owns its annotations and index, and borrows the
 * traces the rules ran over (they outlive the view). Library code: no
 * I/O (beyond what tt_rules_run reads: nothing but the trace).
 */
#ifndef TT_TUI_ANNOT_H
#define TT_TUI_ANNOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "rules/rank.h"
#include "rules/rules.h"
#include "tui/plist.h"
#include "util/error.h"

/* Item kinds of the panel's lines. */
enum {
    TT_AN_LINE = 1,   /* the list: a finding, tag = index in a.v */
    TT_AN_EVENT,      /* a finding's detail: an event, tag = index in its events */
    TT_AN_GROUP       /* the list: a group's header, tag = index in rank.groups */
};

typedef struct tt_annview {
    tt_annotations a;        /* severity order, as the rules return them */
    tt_ranking     rank;     /* the panel's groups and order (owned; measured
                                on each trace's own clock) */
    bool          *folded;   /* per group: only its header is listed (owned) */
    uint32_t      *by_time;  /* indexes in a.v sorted by start */
    tt_ns         *maxend;   /* maxend[i]: largest end among by_time[0..i] */
    bool           shown;    /* drawn and reported (A toggles) */
    bool           ran;      /* the rules ran */
    tt_ns          origin;   /* times in the list count from it */
    int64_t       *ranks;    /* several ranks: the rank number of each trace;
                                NULL for one trace */
    const tt_trace **traces; /* the traces the rules ran over (borrowed;
                                NULL after tt_annview_take) */
    tt_ns         *off;      /* their offsets on the view's axis (owned) */
    size_t         n_traces;
    const char    *filter;   /* list only this rule's findings; NULL: all */
    bool           detail;   /* the panel shows one finding ... */
    size_t         det_k;    /* ... this one (index in a.v) */
    size_t         list_cur, list_top;   /* the list's place, kept meanwhile */
    bool           back;     /* closed: the next list goes to det_k */
    int            width;
    bool           utf8, built;
    tt_plist       pl;       /* the panel's lines: the list or the detail */
} tt_annview;

void tt_annview_init(tt_annview *v);
void tt_annview_fini(tt_annview *v);

/* Run the rules over tr (one trace). 0, or non-zero with err set; the
 * view then has no annotations. */
int tt_annview_run(tt_annview *v, const tt_trace *tr, const tt_rules_config *cfg,
                   tt_error *err);

/* Run the rules over the n ranks (their traces together), times moved to
 * the aligned axis by off[i]; origin is where the list counts from; ranks
 * (copied) the rank numbers, or NULL for one trace. */
int tt_annview_run_job(tt_annview *v, const tt_trace *const *traces, const tt_ns *off,
                       const int64_t *ranks, size_t n, tt_ns origin,
                       const tt_rules_config *cfg, tt_error *err);

/* Show annotations made elsewhere (a test, several ranks): takes them
 * (*a is left empty) in the order given, which the panel lists them in
 * and which ranks them on the same cell (first wins). */
int tt_annview_take(tt_annview *v, tt_annotations *a, tt_error *err);

/* First position in by_time whose annotation may overlap [a, ...): every
 * annotation overlapping [a, b) is at or after it, before the first whose
 * start is >= b (or == b when it is empty and starts at b). */
size_t tt_annview_first(const tt_annview *v, tt_ns a);

static inline const tt_annotation *tt_annview_get(const tt_annview *v, size_t time_pos)
{
    return &v->a.v[v->by_time[time_pos]];
}

/* Does the annotation involve the lane (an annotation with no lanes
 * involves every lane)? */
bool tt_annview_has_lane(const tt_annotation *an, uint32_t lane);

/* The annotation on the cell [a, b) of lane (TT_NO_LANE: any lane),
 * highest severity first, then earliest: its index in a.v, or -1. */
int64_t tt_annview_at(const tt_annview *v, uint32_t lane, tt_ns a, tt_ns b);

/* The same among the annotations of one trace (rank index; -1: any). */
int64_t tt_annview_at_trace(const tt_annview *v, int trace, uint32_t lane, tt_ns a, tt_ns b);

/* The message of an annotation as the view shows it. With several ranks
 * the times in a message count from its own rank's trace start (the
 * rules see one trace at a time) while the view counts from the job's
 * start on the aligned axis: the message then starts with "[rank N
 * clock]".
 * Returns buf. */
const char *tt_annview_msg(const tt_annview *v, const tt_annotation *an, char *buf, size_t n);

/* Lines of the panel for an inner width (rebuilt when it changes, or
 * after v->built is cleared): the list, or the detail of one finding;
 * times are shown from v->origin (with several ranks a first line says
 * which clock the column and the messages use). */
int tt_annview_build(tt_annview *v, int width, bool utf8);

/* Show the detail of finding k in the panel (the list's place is kept
 * for tt_annview_close). */
void tt_annview_open(tt_annview *v, size_t k);

/* Back from a detail to the list, on the finding it showed. */
void tt_annview_close(tt_annview *v);

/* List only the findings of rule (a static rule id), or all (NULL). */
void tt_annview_filter(tt_annview *v, const char *rule);

/* How many findings the list shows (those of the filter's rule). */
size_t tt_annview_listed(const tt_annview *v);

/* Fold or unfold group g (index in v->rank.groups). */
void tt_annview_fold(tt_annview *v, size_t g);

/* The place of finding k among the findings listed (from 1, folded ones
 * counted), *of their number; 0 when it is not listed. */
size_t tt_annview_list_pos(const tt_annview *v, size_t k, size_t *of);

/* The trace finding an is about, or NULL when the view does not have it
 * (annotations given by tt_annview_take); *off gets its offset. */
const tt_trace *tt_annview_trace(const tt_annview *v, const tt_annotation *an, tt_ns *off);

#endif
