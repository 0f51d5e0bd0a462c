/* finding.h - the detail of one warning annotation (a "finding") in the
 * annotations panel: what the list cannot show in a line.
 *
 * Enter on a finding in the annotations panel (annot.h) shows, in the
 * same panel, its rule (and what the rule looks for), severity, rank,
 * time span and duration, the lanes involved, the whole message wrapped,
 * then the events involved, one item line each (TT_AN_EVENT, tag = index
 * in the annotation's events) that Enter selects on the timeline. Times
 * count from the view's origin, as the list's time column does.
 *
 * Ownership: writes lines into a plist the caller owns; borrows the view.
 * Library code: no I/O. All trace text is sanitized (plist does it).
 */
#ifndef TT_TUI_FINDING_H
#define TT_TUI_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/plist.h"

struct tt_annview;

/* Append the detail of finding k of v to pl for an inner width. 0, or -1
 * on OOM. */
int tt_finding_build(tt_plist *pl, const struct tt_annview *v, size_t k, int width, bool utf8);

#endif
