/* table.c - panel columns (see table.h). */
#include "config.h"

#include "tui/table.h"

#include "util/num.h"

#include "util/text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void tt_tab_col(char *out, size_t cap, size_t *o, const char *raw, int w, bool left, bool utf8)
{
    char safe[1024], cell[1200];
    int used = 0, tw;
    size_t fit;
    if (w <= 0)
        return;
    tt_text_sanitize(raw, strlen(raw), safe, sizeof safe);
    tw = tt_text_width(safe);
    if (tw > w) {
        fit = tt_text_fit(safe, w - 1, &used);
        memcpy(cell, safe, fit);
        snprintf(cell + fit, sizeof cell - fit, "%s", utf8 ? "\xe2\x80\xa6" : "~");
        used++;
    } else {
        snprintf(cell, sizeof cell, "%s", safe);
        used = tw;
    }
    if (!left)
        for (int i = used; i < w && *o + 1 < cap; i++)
            out[(*o)++] = ' ';
    for (size_t i = 0; cell[i] && *o + 1 < cap; i++)
        out[(*o)++] = cell[i];
    if (left)
        for (int i = used; i < w && *o + 1 < cap; i++)
            out[(*o)++] = ' ';
    out[*o] = '\0';
}

void tt_tab_bar(char *out, size_t cap, size_t *o, double frac, int w, bool utf8)
{
    static const char *const eighths[8] = {"",
                                           "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
                                           "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a",
                                           "\xe2\x96\x89"};
    int cells8, full, part;
    if (*o >= cap)
        return;
    if (!(frac >= 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    cells8 = (int)lround(frac * w * 8);
    full = cells8 / 8;
    part = cells8 % 8;
    for (int i = 0; i < full && *o + 4 < cap; i++) {
        const char *b = utf8 ? "\xe2\x96\x88" : "#";
        size_t bl = strlen(b);
        memcpy(out + *o, b, bl);
        *o += bl;
    }
    if (part && utf8 && *o + 4 < cap) {
        memcpy(out + *o, eighths[part], 3);
        *o += 3;
    }
    out[*o] = '\0';
}

tt_key_kind tt_tab_next_key(tt_key_kind k)
{
    switch (k) {
    case TT_KEY_OPCODE: return TT_KEY_NAME;
    case TT_KEY_NAME: return TT_KEY_CAT;
    case TT_KEY_CAT: return TT_KEY_LAYER;
    default: return TT_KEY_OPCODE;
    }
}

tt_brk_order tt_tab_next_order(tt_brk_order o)
{
    return o == TT_BRK_TOTAL ? TT_BRK_COUNT : o == TT_BRK_COUNT ? TT_BRK_AVG : TT_BRK_TOTAL;
}

const char *tt_tab_sep(bool utf8)
{
    return utf8 ? " \xc2\xb7 " : " | ";
}

const char *tt_tab_dur(char *buf, size_t n, double ns)
{
    return tt_fmt_dur(buf, n, (int64_t)llround(ns), 3);
}

const char *tt_tab_key_title(tt_key_kind k)
{
    switch (k) {
    case TT_KEY_OPCODE: return "opcode";
    case TT_KEY_CAT: return "category";
    case TT_KEY_LAYER: return "layer";
    default: return "name";
    }
}

const char *tt_tab_key_column(tt_key_kind k)
{
    switch (k) {
    case TT_KEY_OPCODE: return "Opcode";
    case TT_KEY_CAT: return "Category";
    case TT_KEY_LAYER: return "Layer";
    default: return "Name";
    }
}

const char *tt_tab_order_title(tt_brk_order o)
{
    switch (o) {
    case TT_BRK_COUNT: return "count";
    case TT_BRK_AVG: return "average";
    default: return "total";
    }
}

const char *tt_tab_dash(bool utf8)
{
    return utf8 ? " \xe2\x80\x93 " : " - ";
}

typedef enum brk_field {
    F_COUNT, F_TOTAL, F_SELF, F_DEVSELF, F_AVG, F_MED, F_MIN, F_MAX, F_STDDEV, F_SHARE
} brk_field;

typedef struct brk_col {
    const char *title;
    int         w;
    brk_field   f;
} brk_col;

static const brk_col brk_narrow[] = {
    {"Count", 9, F_COUNT}, {"Total", 12, F_TOTAL}, {"Avg", 12, F_AVG}, {"Share", 8, F_SHARE}};
static const brk_col brk_full[] = {
    {"Count", 9, F_COUNT}, {"Total", 12, F_TOTAL}, {"Avg", 12, F_AVG},
    {"Med", 12, F_MED},    {"Min", 12, F_MIN},     {"Max", 12, F_MAX},
    {"StdDev", 12, F_STDDEV}, {"Share", 8, F_SHARE}};
static const brk_col self_narrow[] = {
    {"Count", 9, F_COUNT}, {"Total", 12, F_TOTAL}, {"Self", 12, F_SELF},
    {"Dev self", 12, F_DEVSELF}, {"Share", 8, F_SHARE}};
static const brk_col self_full[] = {
    {"Count", 9, F_COUNT}, {"Total", 12, F_TOTAL}, {"Self", 12, F_SELF},
    {"Dev self", 12, F_DEVSELF}, {"Avg", 12, F_AVG}, {"Med", 12, F_MED},
    {"Min", 12, F_MIN}, {"Max", 12, F_MAX}, {"StdDev", 12, F_STDDEV}, {"Share", 8, F_SHARE}};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The columns at this width, and the width left for the key column. */
static const brk_col *brk_cols(int width, bool self, size_t *nc, int *key_w)
{
    const brk_col *c;
    if (self) {
        bool wide = width >= TT_TAB_WIDE_SELF;
        c = wide ? self_full : self_narrow;
        *nc = wide ? N_OF(self_full) : N_OF(self_narrow);
    } else {
        bool wide = width >= TT_TAB_WIDE;
        c = wide ? brk_full : brk_narrow;
        *nc = wide ? N_OF(brk_full) : N_OF(brk_narrow);
    }
    *key_w = width;
    for (size_t i = 0; i < *nc; i++)
        *key_w -= c[i].w;
    if (*key_w < 8)
        *key_w = 8;
    return c;
}

void tt_tab_brk_head(char *out, size_t cap, tt_key_kind k, int width, bool self, bool utf8)
{
    size_t nc, o = 0;
    int kw;
    const brk_col *c = brk_cols(width, self, &nc, &kw);
    tt_tab_col(out, cap, &o, tt_tab_key_column(k), kw, true, utf8);
    for (size_t i = 0; i < nc; i++)
        tt_tab_col(out, cap, &o, c[i].title, c[i].w, false, utf8);
}

const char *tt_tab_self_note(bool utf8)
{
    return utf8 ? " \xc2\xb7 share of self time" : " | share of self time";
}

void tt_tab_brk_row(char *out, size_t cap, tt_key_kind k, const char *label, bool none,
                    const tt_dist *d, double share, const tt_tab_self *self, int width,
                    bool utf8)
{
    size_t nc, o = 0;
    int kw;
    char v[64], none_label[64];
    const brk_col *c = brk_cols(width, self != NULL, &nc, &kw);
    if (none) {
        snprintf(none_label, sizeof none_label, "(no %s)", tt_tab_key_title(k));
        label = none_label;
    }
    tt_tab_col(out, cap, &o, label, kw, true, utf8);
    for (size_t i = 0; i < nc; i++) {
        switch (c[i].f) {
        case F_COUNT:
            tt_fmt_count(v, sizeof v, d->n);
            break;
        case F_TOTAL:
            tt_fmt_dur(v, sizeof v, d->total, 3);
            break;
        case F_SELF:
            tt_fmt_dur(v, sizeof v, self->host, 3);
            break;
        case F_DEVSELF:
            /* without launch links: unknown, not zero */
            if (self->has_dev)
                tt_fmt_dur(v, sizeof v, self->dev, 3);
            else
                v[0] = '\0';
            break;
        case F_AVG:
            tt_tab_dur(v, sizeof v, d->avg);
            break;
        case F_MED:
            tt_tab_dur(v, sizeof v, d->median);
            break;
        case F_MIN:
            tt_fmt_dur(v, sizeof v, d->min, 3);
            break;
        case F_MAX:
            tt_fmt_dur(v, sizeof v, d->max, 3);
            break;
        case F_STDDEV:
            tt_tab_dur(v, sizeof v, d->stddev);
            break;
        case F_SHARE:
            /* with self columns, the share of self time (table.h) */
            if (self && self->share < 0)
                v[0] = '\0';
            else
                snprintf(v, sizeof v, "%.1f%%", self ? self->share : share);
            break;
        }
        tt_tab_col(out, cap, &o, v, c[i].w, false, utf8);
    }
}
