/* table.h - columns of the panels' text lines (statistics, collectives,
 * ranks): a cell cut or padded to its width, bars of eighth blocks, the
 * breakdown table. Counts with thousands separators are tt_fmt_count
 * (util/num.h).
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_TABLE_H
#define TT_TUI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/stats.h"

/* Append to out + *o (capacity cap) the text raw (sanitized here), cut
 * with an ellipsis or padded to exactly w columns, left or right
 * aligned. */
void tt_tab_col(char *out, size_t cap, size_t *o, const char *raw, int w, bool left, bool utf8);

/* Append a bar of w columns filled to frac (eighth blocks in UTF-8, '#'
 * otherwise). */
void tt_tab_bar(char *out, size_t cap, size_t *o, double frac, int w, bool utf8);

/* The separator between items of a line: a middle dot in UTF-8, " | "
 * otherwise. */
const char *tt_tab_sep(bool utf8);

/* The dash of a range ("a – b"): an en dash in UTF-8, "-" otherwise. */
const char *tt_tab_dash(bool utf8);

/* A duration given as a real number of ns (an average), rounded. */
const char *tt_tab_dur(char *buf, size_t n, double ns);

/* Words for a breakdown key ("opcode") and its column title ("Opcode"),
 * and for a breakdown order ("total"). */
const char *tt_tab_key_title(tt_key_kind k);
const char *tt_tab_key_column(tt_key_kind k);
const char *tt_tab_order_title(tt_brk_order o);

/* Breakdown tables (the statistics panels, one trace or several ranks):
 * a key column, then Count, Total, Avg, Share; panels at least
 * TT_TAB_WIDE columns wide add Med, Min, Max, StdDev before Share.
 * width is the panel's. The none group's label is "(no <key>)". */
#define TT_TAB_WIDE 110
/* A row's self times (tui/selfcols.h, from analysis/calltree.h's
 * tt_calltree_self_by): with them the table has Self and Dev self
 * columns after Total (Avg is dropped under TT_TAB_WIDE_SELF columns,
 * the distribution columns come from TT_TAB_WIDE_SELF on); dev is left
 * empty when the trace has no launch links (has_dev false), and Share is
 * `share`, of self time (an empty cell when negative: the row's time is
 * the profiler's own span, left out of the shares), not the share of
 * totals given to the function. NULL: no self columns. */
#define TT_TAB_WIDE_SELF 134
typedef struct tt_tab_self {
    tt_ns  host, dev;
    tt_ns  counted;   /* the part of host the shares count (selfcols.h) */
    double share;     /* percent of all rows' counted self time, or < 0 */
    bool   has_dev;
} tt_tab_self;
void tt_tab_brk_head(char *out, size_t cap, tt_key_kind k, int width, bool self, bool utf8);
/* What the title line of a table with self columns adds: " · share of
 * self time" (a static string). */
const char *tt_tab_self_note(bool utf8);
void tt_tab_brk_row(char *out, size_t cap, tt_key_kind k, const char *label, bool none,
                    const tt_dist *d, double share, const tt_tab_self *self, int width,
                    bool utf8);

/* What a panel's `b` and `o` keys step to: the breakdown key cycles
 * opcode, name, category, layer; the order total, count, average. */
tt_key_kind tt_tab_next_key(tt_key_kind k);
tt_brk_order tt_tab_next_order(tt_brk_order o);

#endif
