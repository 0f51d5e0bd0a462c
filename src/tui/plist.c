/* plist.c - panel line lists (see plist.h). */
#include "config.h"

#include "tui/plist.h"

#include "tui/details.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_plist_init(tt_plist *p)
{
    memset(p, 0, sizeof *p);
}

void tt_plist_clear(tt_plist *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].text);
    p->n = 0;
}

void tt_plist_fini(tt_plist *p)
{
    tt_plist_clear(p);
    free(p->v);
    tt_plist_init(p);
}

tt_pline *tt_plist_add(tt_plist *p, uint8_t role, const char *text)
{
    /* sanitizing grows a byte to at most 4 bytes (an escape like \x07)
     * and a two-byte C1 control to 6 (\u009b) */
    size_t len = strlen(text), cap = len * 4 + 1;
    tt_pline *l;
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 32;
        tt_pline *nv = realloc(p->v, nc * sizeof *nv);
        if (!nv)
            return NULL;
        p->v = nv;
        p->cap = nc;
    }
    l = &p->v[p->n];
    memset(l, 0, sizeof *l);
    if (!(l->text = malloc(cap)))
        return NULL;
    tt_text_sanitize(text, len, l->text, cap);
    l->role = role;
    p->n++;
    return l;
}

tt_pline *tt_plist_addf(tt_plist *p, uint8_t role, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tt_plist_add(p, role, buf);
}

tt_pline *tt_plist_item(tt_plist *p, uint8_t role, int kind, int64_t tag, const char *text)
{
    tt_pline *l = tt_plist_add(p, role, text);
    if (l) {
        l->pick = true;
        l->kind = kind;
        l->tag = tag;
    }
    return l;
}

void tt_plist_clamp(tt_plist *p)
{
    if (p->n == 0) {
        p->cur = p->top = 0;
        return;
    }
    if (p->cur >= p->n)
        p->cur = p->n - 1;
    if (p->top >= p->n)
        p->top = p->n - 1;
}

void tt_plist_move(tt_plist *p, int64_t delta)
{
    int64_t c = (int64_t)p->cur + delta;
    if (p->n == 0)
        return;
    if (c < 0)
        c = 0;
    if (c >= (int64_t)p->n)
        c = (int64_t)p->n - 1;
    /* wrapped lines are one: forward to the next head, else back to this
     * one's */
    if (delta > 0)
        while (c < (int64_t)p->n && p->v[c].cont)
            c++;
    if (c >= (int64_t)p->n)
        c = (int64_t)p->n - 1;
    while (c > 0 && p->v[c].cont)
        c--;
    p->cur = (size_t)c;
}

/* One past the last line of the cursor's block (its cont lines). */
static size_t block_end(const tt_plist *p, size_t i)
{
    size_t e = i + 1;
    while (e < p->n && p->v[e].cont)
        e++;
    return e;
}

bool tt_plist_goto_kind(tt_plist *p, int kind)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].pick && p->v[i].kind == kind) {
            p->cur = i;
            return true;
        }
    return false;
}

bool tt_plist_goto_item(tt_plist *p, int kind, int64_t tag)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].pick && p->v[i].kind == kind && p->v[i].tag == tag) {
            p->cur = i;
            return true;
        }
    return false;
}

void tt_plist_scroll(tt_plist *p, int inner_h)
{
    size_t h = inner_h > 0 ? (size_t)inner_h : 1;
    tt_plist_clamp(p);
    if (p->cur < p->top)
        p->top = p->cur;
    if (p->cur >= p->top + h)
        p->top = p->cur - h + 1;
    if (p->cur < p->n) {
        /* the cursor's wrapped lines too, when they fit */
        size_t e = block_end(p, p->cur);
        if (e - p->cur <= h && e > p->top + h)
            p->top = e - h;
    }
    /* no empty space below the last line when the list fills the panel */
    if (p->n >= h && p->top + h > p->n)
        p->top = p->n - h;
    if (p->n < h)
        p->top = 0;
}

const tt_pline *tt_plist_picked(const tt_plist *p)
{
    if (p->cur < p->n && p->v[p->cur].pick)
        return &p->v[p->cur];
    return NULL;
}

void tt_plist_draw(tt_plist *p, tt_grid *g, int x, int y, int w, int h, const tt_glyphs *gl,
                   const char *title, const char *hint)
{
    int inner_h = h - 2, inner_w = w - 4;
    size_t cur_end;
    tt_panel_box(g, x, y, w, h, gl, title, hint);
    if (inner_h <= 0 || inner_w <= 0)
        return;
    tt_plist_scroll(p, inner_h);
    cur_end = p->cur < p->n ? block_end(p, p->cur) : p->cur;
    for (int r = 0; r < inner_h && p->top + (size_t)r < p->n; r++) {
        const tt_pline *l = &p->v[p->top + (size_t)r];
        int yy = y + 1 + r, xx = x + 2;
        bool cur = p->top + (size_t)r >= p->cur && p->top + (size_t)r < cur_end;
        if (cur)
            tt_grid_fill(g, x + 1, yy, w - 2, ' ', TT_R_PANEL_CUR, 0);
        if (l->lead_w > 0 && l->lead_w < inner_w) {
            /* the lead is the first lead_w columns of the text */
            size_t cut = tt_text_fit(l->text, l->lead_w, NULL);
            char lead[256];
            if (cut >= sizeof lead)
                cut = sizeof lead - 1;
            memcpy(lead, l->text, cut);
            lead[cut] = '\0';
            tt_grid_text(g, xx, yy, l->lead_w, lead, cur ? TT_R_PANEL_CUR : l->lead_role, 0);
            tt_grid_text_fit(g, xx + l->lead_w, yy, inner_w - l->lead_w, l->text + cut,
                             cur ? TT_R_PANEL_CUR : l->role, 0, gl->ellipsis);
        } else {
            tt_grid_text_fit(g, xx, yy, inner_w, l->text, cur ? TT_R_PANEL_CUR : l->role, 0,
                             gl->ellipsis);
        }
    }
    if (p->n > (size_t)inner_h && w > 12) {
        char pos[32];
        size_t at = 0, of = 0;
        /* wrapped lines count once */
        for (size_t i = 0; i < p->n; i++)
            if (!p->v[i].cont) {
                of++;
                at += i <= p->cur;
            }
        snprintf(pos, sizeof pos, " %zu/%zu ", at, of);
        tt_grid_text(g, x + w - 2 - (int)strlen(pos), y + h - 1, (int)strlen(pos), pos,
                     TT_R_PANEL_BORDER, 0);
    }
}

/* Append text over lines of width columns, broken at spaces where
 * possible; every line gets pick, kind and tag; the lines after the first
 * get indent blanks and, when mark_cont, the cont flag. Returns the first
 * line, or NULL on OOM. */
static tt_pline *wrap_lines(tt_plist *pl, uint8_t role, const char *text, int width, int indent,
                            bool mark_cont, bool pick, int kind, int64_t tag)
{
    size_t len = strlen(text), first_i = pl->n;
    char *safe = malloc(len * 4 + 1), *part;
    const char *p;
    bool oom = false;
    if (width < 10)
        width = 10;
    if (indent < 0 || indent > width / 2)
        indent = 0;
    part = malloc(len * 4 + 1 + (size_t)indent);
    if (!safe || !part) {
        free(safe);
        free(part);
        return NULL;
    }
    tt_text_sanitize(text, len, safe, len * 4 + 1);
    p = safe;
    do {
        int ind = pl->n > first_i ? indent : 0;
        size_t cut = tt_text_wrap_len(p, width - ind);
        tt_pline *l;
        memset(part, ' ', (size_t)ind);
        memcpy(part + ind, p, cut);
        part[(size_t)ind + cut] = '\0';
        /* already sanitized; sanitizing it again changes nothing */
        if (!(l = tt_plist_add(pl, role, part))) {
            oom = true;
            break;
        }
        l->pick = pick;
        l->kind = kind;
        l->tag = tag;
        l->cont = mark_cont && pl->n - 1 > first_i;
        p += cut;
    } while (*p);
    free(safe);
    free(part);
    return oom ? NULL : &pl->v[first_i];
}

int tt_plist_wrap(tt_plist *pl, uint8_t role, const char *text, int width)
{
    if (!*text)
        return 0;
    return wrap_lines(pl, role, text, width, 0, false, false, 0, 0) ? 0 : -1;
}

tt_pline *tt_plist_wrap_item(tt_plist *p, uint8_t role, bool pick, int kind, int64_t tag,
                             const char *text, int width, int indent)
{
    return wrap_lines(p, role, text, width, indent, true, pick, kind, tag);
}
