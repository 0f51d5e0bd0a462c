/* bars.c - the header, the status line, the legend and the row labels
 * (see app_impl.h). Every trace string shown here is sanitized first.
 */
#include "config.h"

#include "tui/table.h"
#include "tui/app_impl.h"

#include "tui/timefmt.h"
#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

static void sanitize(const char *raw, size_t n, char *out, size_t cap)
{
    tt_text_sanitize(raw, n, out, cap);
}

static void str_safe(const tt_app *a, uint32_t id, char *out, size_t cap)
{
    sanitize(tt_str(a->tr, id), tt_strtab_len(a->tr->strings, id), out, cap);
}

/* Cut a sanitized string to maxw columns (ellipsis when cut). */
static void cut(const tt_app *a, char *s, size_t cap, int maxw)
{
    size_t fit;
    if (maxw < 1) {
        s[0] = '\0';
        return;
    }
    if (tt_grid_text_width(s) <= maxw)
        return;
    fit = tt_text_fit(s, maxw - 1, NULL);
    s[fit] = '\0';
    if (fit + 4 < cap)
        strcat(s, a->utf8 ? "\xe2\x80\xa6" : "~");
}

static void counter_label(const tt_app *a, uint32_t ci, char *out, size_t cap)
{
    const tt_counter *c = &a->tr->counters[ci];
    char name[200], key[100];
    const char *k = tt_str(a->tr, c->key);
    str_safe(a, c->name, name, sizeof name);
    if (*k && strcmp(k, "value") != 0) {
        str_safe(a, c->key, key, sizeof key);
        snprintf(out, cap, "%s %s", name, key);
    } else {
        snprintf(out, cap, "%s", name);
    }
}

static void lane_label(const tt_app *a, uint32_t lane, char *out, size_t cap)
{
    char raw[256];
    tt_lane_label(a->tr, &a->tr->lanes[lane], raw, sizeof raw);
    sanitize(raw, strlen(raw), out, cap);
}

/* A lane row's label: the mode's (in the combined view the lane of the
 * row's rank), else the focused trace's lane. */
static void row_lane_label(const tt_app *a, const tt_row *row, char *out, size_t cap)
{
    const tt_view_def *m = tt_app_mode(a);
    if (!m->lane_label || !m->lane_label(a, row, out, cap))
        lane_label(a, row->lane, out, cap);
}

static void group_label(const tt_app *a, uint32_t g, char *out, size_t cap)
{
    char raw[256];
    tt_group_label(a->tr, &a->tr->groups[g], raw, sizeof raw);
    sanitize(raw, strlen(raw), out, cap);
}

int tt_bars_label_want(const tt_app *a)
{
    char buf[512];
    int w = 0;
    for (uint32_t g = 0; g < a->tr->n_groups; g++) {
        int x;
        group_label(a, g, buf, sizeof buf);
        x = 4 + tt_grid_text_width(buf);
        if (x > w)
            w = x;
    }
    for (uint32_t l = 0; l < a->tr->n_lanes; l++) {
        int x;
        lane_label(a, l, buf, sizeof buf);
        x = 3 + tt_grid_text_width(buf);
        if (x > w)
            w = x;
    }
    for (uint32_t c = 0; c < a->tr->n_counters; c++) {
        int x;
        counter_label(a, c, buf, sizeof buf);
        x = 3 + tt_grid_text_width(buf) + 9;
        if (x > w)
            w = x;
    }
    return w > 40 ? 40 : w;
}

void tt_bars_label(tt_app *a, tt_grid *g, const tt_row *row, int y, bool cur)
{
    int w = a->scr.label_w;
    char buf[512];
    uint8_t role;
    if (w <= 0)
        return;
    role = row->kind == TT_ROW_GROUP || row->kind == TT_ROW_RANK
               ? (cur ? TT_R_GROUP_CUR : TT_R_GROUP)
           : row->kind == TT_ROW_COUNTER ? (cur ? TT_R_LABEL_CUR : TT_R_COUNTER_LABEL)
           : (cur ? TT_R_LABEL_CUR : TT_R_LABEL);
    tt_grid_fill(g, 0, y, w, ' ', role, 0);
    if (cur)
        tt_grid_set(g, 0, y, a->gl->row_mark, role, 0);
    switch ((tt_row_kind)row->kind) {
    case TT_ROW_GROUP:
        tt_grid_set(g, 1, y, a->collapsed[row->group] ? a->gl->fold_closed : a->gl->fold_open,
                    role, 0);
        group_label(a, row->group, buf, sizeof buf);
        tt_grid_text_fit(g, 3, y, w - 3, buf, role, 0, a->gl->ellipsis);
        break;
    case TT_ROW_LANE:
        /* nested rows stay unlabeled, except the first one on screen so a
         * scrolled view still says whose rows these are */
        if (row->depth == 0 || (size_t)(y - a->scr.area_y) == 0) {
            row_lane_label(a, row, buf, sizeof buf);
            tt_grid_text_fit(g, 2, y, w - 2, buf, role, 0, a->gl->ellipsis);
        }
        break;
    case TT_ROW_RANK:
        tt_grid_set(g, 1, y, a->rfold[row->rank] ? a->gl->fold_closed : a->gl->fold_open, role,
                    0);
        snprintf(buf, sizeof buf, "rank %lld", (long long)a->rk[row->rank].rank);
        tt_grid_text_fit(g, 3, y, w - 3, buf, role, 0, a->gl->ellipsis);
        break;
    case TT_ROW_COLL: {
        int64_t k = row->lane < a->cv.n && a->an.shown ? a->cv.g[row->lane].ann : -1;
        tt_collview_label(&a->cv, &a->cv.g[row->lane], buf, sizeof buf);
        tt_grid_text_fit(g, 2, y, w - 2, buf, role, 0, a->gl->ellipsis);
        /* a collective an annotation is about (straggler) */
        if (k >= 0 && w > 2) {
            tt_severity sev = a->an.a.v[k].sev;
            tt_grid_set(g, 1, y, a->gl->ann_mark,
                        sev == TT_SEV_ERROR ? TT_R_ANN_ERR
                        : sev == TT_SEV_WARNING ? TT_R_ANN_WARN : TT_R_ANN_INFO, 0);
        }
        break;
    }
    case TT_ROW_COUNTER: {
        const tt_counter *c = &a->tr->counters[row->counter];
        char scale[48], v[32];
        double lo, hi;
        int sw = 0;
        tt_spark_scale(c, &lo, &hi);
        tt_tfmt_value(v, sizeof v, c->vmax);
        snprintf(scale, sizeof scale, " %s", v);
        if (w >= 16) {
            sw = tt_grid_text_width(scale);
            tt_grid_text(g, w - sw, y, sw, scale, role, 0);
        }
        counter_label(a, row->counter, buf, sizeof buf);
        tt_grid_text_fit(g, 2, y, w - 2 - sw, buf, role, 0, a->gl->ellipsis);
        break;
    }
    }
}

/* ---------------------------------------------------------------- header */

/* Cut a sanitized string to maxw columns in its middle: its start and its
 * end stay (a file name keeps its extension), joined by the ellipsis. A
 * title of several parts ("rank 1 · rank-1.json") keeps all but its last
 * whole when it can. */
static void cut_middle(const tt_app *a, char *s, size_t cap, int maxw)
{
    const char *ell = a->utf8 ? "\xe2\x80\xa6" : "~", *sep = tt_tab_sep(a->utf8), *p, *last;
    char tail[256];
    size_t head, i = 0, n = strlen(s);
    int w = tt_grid_text_width(s), keep_head, keep_tail;
    if (w <= maxw)
        return;
    for (last = NULL, p = strstr(s, sep); p; p = strstr(p + 1, sep))
        last = p + strlen(sep);
    if (last) {
        char lead[256];
        int lw;
        snprintf(lead, sizeof lead, "%.*s", (int)(last - s), s);
        lw = tt_grid_text_width(lead);
        if (maxw - lw >= 6) {
            cut_middle(a, (char *)last, cap - (size_t)(last - s), maxw - lw);
            return;
        }
    }
    if (maxw < 3) {
        cut(a, s, cap, maxw);
        return;
    }
    keep_tail = (maxw - 1) / 2;
    keep_head = maxw - 1 - keep_tail;
    /* the shortest suffix that starts on a character and fits keep_tail */
    while (i < n && tt_grid_text_width(s + i) > keep_tail) {
        uint32_t cp;
        size_t k = tt_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        i += k ? k : 1;
    }
    snprintf(tail, sizeof tail, "%s", s + i);
    head = tt_text_fit(s, keep_head, NULL);
    if (head + strlen(ell) + strlen(tail) + 1 > cap)
        return;
    memcpy(s + head, ell, strlen(ell));
    memcpy(s + head + strlen(ell), tail, strlen(tail) + 1);
}

enum { HF_FILE, HF_FMT, HF_WIN, HF_ZOOM, HF__N };

/* The header's width: the brand, then each shown field (width > 0) with a
 * blank either side, but none after the last. */
static int header_width(bool brand, int brand_w, const int *fw, int skip)
{
    int w = brand ? brand_w : 0, shown = 0;
    for (int i = 0; i < HF__N; i++)
        if (i != skip && fw[i] > 0) {
            w += fw[i] + 2;
            shown++;
        }
    return shown ? w - 1 : w;
}

/* Narrowest the file name is cut to before something else gives way. */
#define HEADER_FILE_MIN 14
#define HEADER_FILE_MIN_NARROW 6

void tt_bars_header(tt_app *a, tt_grid *g)
{
    static const char brand_txt[] = " tracetty ";
    int y = a->scr.header_y, x, cols = a->cols, fw[HF__N], brand_w, tw, file_min;
    char win[160], win_short[110], s0[48], s1[48], w[48], zoom[56], zoom_short[48], fmt[80],
        t[256];
    const char *txt[HF__N];
    tt_ns res = a->vp.span / (a->vp.cols > 0 ? a->vp.cols : 1);
    bool brand = true;
    if (y < 0)
        return;
    tt_grid_fill(g, 0, y, cols, ' ', TT_R_HEADER, 0);
    {
        /* one unit for both ends: that of the larger */
        tt_ns r0 = a->vp.start - a->origin, r1 = a->vp.start + a->vp.span - a->origin;
        tt_ns mag = r1 > -r0 ? r1 : -r0;
        int64_t unit = tt_unit_for(mag > res ? mag : res);
        int dec = tt_tfmt_decimals(unit, res);
        tt_fmt_dur_unit(s0, sizeof s0, r0, unit, dec);
        tt_fmt_dur_unit(s1, sizeof s1, r1, unit, dec);
    }
    tt_fmt_dur(w, sizeof w, a->vp.span, 3);
    snprintf(win_short, sizeof win_short, "%s%s%s", s0, tt_tab_dash(a->utf8), s1);
    snprintf(win, sizeof win, "%s (%s)", win_short, w);
    {
        double z = tt_vp_zoom_factor(&a->vp);
        snprintf(zoom_short, sizeof zoom_short, z < 10 ? "%s%.1f" : "%s%.0f",
                 a->utf8 ? "\xc3\x97" : "x", z);
        snprintf(zoom, sizeof zoom, "zoom %s", zoom_short);
    }
    snprintf(fmt, sizeof fmt, "%s", a->tr->format ? a->tr->format : "");
    tt_app_mode(a)->title(a, t, sizeof t);
    txt[HF_FILE] = t;
    txt[HF_FMT] = fmt;
    txt[HF_WIN] = win;
    txt[HF_ZOOM] = zoom;
    for (int i = 0; i < HF__N; i++)
        fw[i] = tt_grid_text_width(txt[i]);
    tw = fw[HF_FILE];
    brand_w = tt_grid_text_width(brand_txt);
    file_min = HEADER_FILE_MIN;
    /* Every field fits, else the program's name goes, then the word
     * "zoom", then the file name is cut in its middle to what is left.
     * When even that leaves too little, these give way in turn: more of
     * the file name, the format, the file name, the window's width, the
     * zoom. The window itself is clipped last. */
    if (header_width(brand, brand_w, fw, -1) > cols)
        brand = false;
    if (header_width(brand, brand_w, fw, -1) > cols) {
        txt[HF_ZOOM] = zoom_short;
        fw[HF_ZOOM] = tt_grid_text_width(zoom_short);
    }
    for (int step = 0;; step++) {
        int others = header_width(brand, brand_w, fw, HF_FILE);
        if (fw[HF_FILE] > 0) {
            int left = cols - others - 2;
            if (left >= (tw < file_min ? tw : file_min)) {
                cut_middle(a, t, sizeof t, left);
                fw[HF_FILE] = tt_grid_text_width(t);
                break;
            }
        } else if (others <= cols) {
            break;
        }
        if (step == 0) {
            file_min = HEADER_FILE_MIN_NARROW;
        } else if (step == 1) {
            fw[HF_FMT] = 0;
        } else if (step == 2) {
            fw[HF_FILE] = 0;
        } else if (step == 3) {
            txt[HF_WIN] = win_short;
            fw[HF_WIN] = tt_grid_text_width(win_short);
        } else if (step == 4) {
            fw[HF_ZOOM] = 0;
        } else {
            break;
        }
    }
    x = brand ? tt_grid_text(g, 0, y, cols, brand_txt, TT_R_HEADER_KEY, 0) : 0;
    for (int i = 0; i < HF__N; i++)
        if (fw[i] > 0 && x + 1 < cols)
            x += 1 + tt_grid_text(g, x + 1, y, cols - x - 1, txt[i],
                                  i == HF_WIN ? TT_R_HEADER_KEY : TT_R_HEADER, 0) + 1;
}

/* ---------------------------------------------------------------- status */

typedef tt_hint hint;

static int hints_width(const hint *h, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        w += tt_grid_text_width(h[i].key) + 1 + tt_grid_text_width(h[i].what) + 2;
    return w;
}

/* Draw as many hints as fit right of column min_x, right-aligned; the
 * last `keep` ones (the marker set's state, "? help", the mark tests wait
 * for) are kept whenever they fit at all. Returns the first column used. */
static int draw_hints_keep(tt_grid *g, int y, int cols, int min_x, const hint *h, size_t n,
                           size_t keep)
{
    size_t first = 0;
    int x;
    if (min_x > cols - hints_width(h + n - keep, keep))
        min_x = cols - hints_width(h + n - keep, keep);
    while (first < n - keep && cols - hints_width(h + first, n - first) < min_x)
        first++;
    x = cols - hints_width(h + first, n - first);
    if (x < 0)
        return cols;
    for (size_t i = first; i < n; i++) {
        x += tt_grid_text(g, x, y, cols - x, h[i].key, TT_R_STATUS_KEY, 0);
        x += 1;
        x += tt_grid_text(g, x, y, cols - x, h[i].what, TT_R_STATUS, 0);
        x += 2;
    }
    return cols - hints_width(h + first, n - first);
}

static int draw_hints(tt_grid *g, int y, int cols, int min_x, const hint *h, size_t n)
{
    return draw_hints_keep(g, y, cols, min_x, h, n, 1);
}

static void sel_info(tt_app *a, char *out, size_t cap)
{
    const tt_row *row = tt_app_row(a);
    char name[512], lane[300], t[48], d[48], b[48];
    tt_ns res = a->vp.span / (a->vp.cols > 0 ? a->vp.cols : 1);
    out[0] = '\0';
    if (a->has_sel) {
        const tt_event *e = tt_trace_event(a->tr, a->sel);
        str_safe(a, e->name, name, sizeof name);
        cut(a, name, sizeof name, 60);
        lane_label(a, a->sel.lane, lane, sizeof lane);
        if (a->multi) {
            /* which rank's lane */
            char l2[sizeof lane];
            snprintf(l2, sizeof l2, "%s", lane);
            snprintf(lane, sizeof lane, "rank %lld / %.250s", (long long)a->rk[a->focus].rank, l2);
        }
        tt_tfmt_time(t, sizeof t, e->start - a->origin, res < 1000 ? res : 1000);
        tt_fmt_dur(d, sizeof d, e->dur, 3);
        /* the lane goes last: it is on screen already and the first to
         * be cut on a narrow terminal */
        if (e->bytes >= 0)
            snprintf(out, cap, "%s%sdur %s%sstart %s%s%s%s%s", name, tt_tab_sep(a->utf8), d, tt_tab_sep(a->utf8), t,
                     tt_tab_sep(a->utf8), tt_fmt_bytes(b, sizeof b, e->bytes), tt_tab_sep(a->utf8), lane);
        else
            snprintf(out, cap, "%s%sdur %s%sstart %s%s%s", name, tt_tab_sep(a->utf8), d, tt_tab_sep(a->utf8), t, tt_tab_sep(a->utf8),
                     lane);
        return;
    }
    if (!row)
        return;
    tt_tfmt_time(t, sizeof t, a->t_cur - a->origin, res);
    switch ((tt_row_kind)row->kind) {
    case TT_ROW_RANK:
    case TT_ROW_COLL:
        if (tt_app_mode(a)->row_info)
            tt_app_mode(a)->row_info(a, row, out, cap);
        break;
    case TT_ROW_GROUP: {
        const tt_group *gr = &a->tr->groups[row->group];
        uint64_t n = 0;
        for (uint32_t l = gr->first_lane; l < gr->first_lane + gr->n_lanes; l++)
            n += a->tr->lanes[l].n;
        group_label(a, row->group, name, sizeof name);
        cut(a, name, sizeof name, 50);
        snprintf(out, cap, "%s%s%u lane%s, %llu event%s%s%s", name, tt_tab_sep(a->utf8),
                 gr->n_lanes, gr->n_lanes == 1 ? "" : "s", (unsigned long long)n, n == 1 ? "" : "s",
                 tt_tab_sep(a->utf8),
                 a->collapsed[row->group] ? "folded (Space unfolds)" : "Space folds");
        break;
    }
    case TT_ROW_LANE:
        row_lane_label(a, row, lane, sizeof lane);
        if (a->multi) {
            char l2[sizeof lane];
            snprintf(l2, sizeof l2, "%s", lane);
            snprintf(lane, sizeof lane, "rank %lld / %.250s", (long long)a->rk[a->focus].rank, l2);
        }
        snprintf(out, cap, "%s%sat %s%snothing here", lane, tt_tab_sep(a->utf8), t, tt_tab_sep(a->utf8));
        break;
    case TT_ROW_COUNTER: {
        const tt_counter *c = &a->tr->counters[row->counter];
        double v;
        char vs[32], mx[32];
        counter_label(a, row->counter, name, sizeof name);
        cut(a, name, sizeof name, 50);
        tt_tfmt_value(mx, sizeof mx, c->vmax);
        if (tt_spark_value_at(c, a->t_cur, &v))
            snprintf(out, cap, "%s = %s at %s%srange %s..%s", name, tt_tfmt_value(vs, sizeof vs, v),
                     t, tt_tab_sep(a->utf8), tt_tfmt_value(b, sizeof b, c->vmin), mx);
        else
            snprintf(out, cap, "%s%sno sample before %s", name, tt_tab_sep(a->utf8), t);
        break;
    }
    }
}

/* The box being stretched: its window and lanes. */
static void box_info(tt_app *a, char *out, size_t cap)
{
    char f[48], t[48], w[48];
    tt_ns res = a->vp.span / (a->vp.cols > 0 ? a->vp.cols : 1);
    tt_tfmt_time(f, sizeof f, a->box.from - a->origin, res);
    tt_tfmt_time(t, sizeof t, a->box.to - a->origin, res);
    tt_fmt_dur(w, sizeof w, a->box.to - a->box.from, 3);
    snprintf(out, cap, "box %s%s%s (%s)%s%zu %s%s", f, tt_tab_dash(a->utf8), t, w, tt_tab_sep(a->utf8), a->box.lanes.n,
             tt_app_mode(a)->box_unit, a->box.lanes.n == 1 ? "" : "s");
}

static void draw_prompt(tt_app *a, tt_grid *g, int y)
{
    static const hint sh[] = {{"Enter", "search"}, {"Esc", "cancel"}, {"~", "regex"}};
    static const hint gh[] = {{"Enter", "go"}, {"Esc", "cancel"}, {"a..b", "range"}};
    static const hint th[] = {{"Enter", "ok"}, {"Esc", "cancel"}, {"C-u", "clear"}};
    static const hint yh[] = {{"y", "yes"}, {"n", "no"}};
    char p[4200], label[300];
    int x, pw, hx, cols = a->cols;
    if (a->mode == TT_MODE_CONFIRM) {
        hx = draw_hints(g, y, cols, cols / 2, yh, 2);
        sanitize(a->question, strlen(a->question), p, sizeof p);
        tt_grid_text_fit(g, 0, y, hx - 1, p, TT_R_PROMPT, 0, a->gl->ellipsis);
        return;
    }
    hx = draw_hints(g, y, cols, cols / 2,
                    a->mode == TT_MODE_SEARCH ? sh : a->mode == TT_MODE_GOTO ? gh : th, 3);
    /* the prompt text was typed by the user: still sanitized, as it may
     * hold pasted control characters */
    sanitize(a->prompt, a->plen, p, sizeof p);
    if (a->mode == TT_MODE_TEXT)
        sanitize(a->ask_label, strlen(a->ask_label), label, sizeof label);
    else
        snprintf(label, sizeof label, "%s", a->mode == TT_MODE_SEARCH ? "/" : ":");
    x = tt_grid_text(g, 0, y, hx > 8 ? hx - 8 : 1, label, TT_R_PROMPT, 0);
    pw = tt_grid_text_width(p);
    /* show the end of a long text */
    {
        const char *shown = p;
        while (pw > hx - x - 2 && *shown) {
            uint32_t cp;
            size_t k = tt_utf8_decode((const unsigned char *)shown, strlen(shown), &cp);
            shown += k ? k : 1;
            pw = tt_grid_text_width(shown);
        }
        x += tt_grid_text(g, x, y, hx - x - 1, shown, TT_R_PROMPT, 0);
    }
    tt_grid_set(g, x, y, a->gl->full, TT_R_PROMPT, 0);
}

/* Most rows an annotation's message takes above the status line. */
#define STATUS_WRAP_ROWS 4

/* The status line's text when it is longer than the room left of the
 * hints (hx): its first lines on the rows just above the status line, over
 * the legend and the bottom of the lanes or the panel, the rest on the
 * status line. It never covers the cursor's row: with too few rows the
 * last one shown is cut with an ellipsis. */
static void status_wrapped(tt_app *a, tt_grid *g, const char *info, int hx)
{
    int y = a->scr.status_y, cols = a->cols, top = y - STATUS_WRAP_ROWS, k = 0;
    const char *p = info;
    if (top < a->scr.area_y)
        top = a->scr.area_y;
    if (a->cur >= a->top) {
        /* the cursor's row stays visible */
        int cy = a->scr.area_y + (int)(a->cur - a->top);
        if (cy < tt_app_lanes_h(a) + a->scr.area_y && top <= cy)
            top = cy + 1;
    }
    if (top < 0)
        top = 0;
    /* how many rows above it needs: full rows until the rest fits left of
     * the hints */
    while (k < y - top && tt_grid_text_width(p) > hx - 1) {
        k++;
        p += tt_text_wrap_len(p, cols);
    }
    p = info;
    for (int r = y - k; r < y; r++) {
        size_t len = tt_text_wrap_len(p, cols);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        tt_grid_fill(g, 0, r, cols, ' ', TT_R_STATUS, 0);
        tt_grid_text(g, 0, r, cols, line, TT_R_STATUS, 0);
        p += len;
    }
    tt_grid_text_fit(g, 0, y, hx - 1, p, TT_R_STATUS, 0, a->gl->ellipsis);
}

void tt_bars_status(tt_app *a, tt_grid *g)
{
    int y = a->scr.status_y, cols = a->cols, hx;
    char info[1024], marks[200];
    static const hint main_hints[] = {
        {"Enter", "details"}, {"/", "search"}, {"L", "longest"}};
    static const hint box_hints[] = {{"Enter", "confirm"}, {"Esc", "cancel"}};
    static const hint details_hints[] = {{"Enter", "follow"}, {"Esc", "close"}};
    static const hint stats_hints[] = {{"Enter", "highlight"}, {"e", "export"}, {"Esc", "close"}};
    static const hint name_hints[] = {{"z", "zoom"}, {"Esc", "close"}};
    static const hint markp_hints[] = {{"S", "save"}, {"r", "rename"}, {"Esc", "close"}};
    /* as the annotations panel's title says (tt_annots_title) */
    static const hint annotp_hints[] = {{"Enter", "detail/fold"}, {"f", "one rule"}, {"Esc", "close"}};
    static const hint annotf_hints[] = {{"Enter", "detail/fold"}, {"f", "all rules"}, {"Esc", "close"}};
    static const hint finding_hints[] = {{"Enter", "go to"}, {"Esc", "back"}};
    static const hint help_hints[] = {{"j k", "scroll"}, {"Esc", "close"}};
    static const hint ranksp_hints[] = {{"Enter", "its tab"}, {"Esc", "close"}};
    static const hint collp_hints[] = {{"Enter", "kernel"}, {"Esc", "close"}};
    static const hint mstats_hints[] = {{"Enter", "go to"}, {"z", "zoom"}, {"Esc", "close"}};
    hint h[8];
    size_t n = 0, keep = 1;
    bool annot = false;
    const hint *ctx;
    size_t nctx;
    if (y < 0)
        return;
    tt_grid_fill(g, 0, y, cols, ' ', TT_R_STATUS, 0);
    if (a->mode != TT_MODE_MAIN) {
        draw_prompt(a, g, y);
        return;
    }
    /* the left part first: hints take what it leaves */
    info[0] = '\0';
    if (a->msg[0])
        sanitize(a->msg, strlen(a->msg), info, sizeof info);
    else if (a->box.selecting)
        box_info(a, info, sizeof info);
    else {
        char raw[1024];
        tt_annots_info(a, raw, sizeof raw);
        if (raw[0]) {
            sanitize(raw, strlen(raw), info, sizeof info);
            annot = true;
        } else
            sel_info(a, info, sizeof info);
    }
    if (a->help) {
        hx = draw_hints(g, y, cols, tt_grid_text_width(info) + 2, help_hints, 2);
    } else {
        if (a->box.selecting) {
            ctx = box_hints;
            nctx = 2;
        } else {
            switch (a->panel) {
            case TT_PANEL_DETAILS: ctx = details_hints; nctx = 2; break;
            case TT_PANEL_STATS:
                ctx = a->stp.kind == TT_SP_BOX ? stats_hints : name_hints;
                nctx = a->stp.kind == TT_SP_BOX ? 3 : 2;
                break;
            case TT_PANEL_MARKS: ctx = markp_hints; nctx = 3; break;
            case TT_PANEL_ANNOTS:
                ctx = a->an.detail ? finding_hints : a->an.filter ? annotf_hints : annotp_hints;
                nctx = a->an.detail ? 2 : 3;
                break;
            case TT_PANEL_RANKS: ctx = ranksp_hints; nctx = 2; break;
            case TT_PANEL_COLL: ctx = collp_hints; nctx = 2; break;
            case TT_PANEL_MSTATS: ctx = mstats_hints; nctx = 3; break;
            default:
                if (tt_panel_get(a->panel) && tt_panel_get(a->panel)->hints) {
                    nctx = tt_panel_get(a->panel)->hints(a, &ctx);
                    break;
                }
                /* the mode's own, or the timeline's */
                nctx = tt_app_mode(a)->hints ? tt_app_mode(a)->hints(a, &ctx) : 0;
                if (nctx == 0) {
                    ctx = main_hints;
                    nctx = 3;
                }
                break;
            }
        }
        for (size_t i = 0; i < nctx; i++)
            h[n++] = ctx[i];
        /* the marker set on screen, and whether it is saved */
        {
            char raw[200];
            tt_marks_status(&a->mk, raw, sizeof raw);
            sanitize(raw, strlen(raw), marks, sizeof marks);
            if (marks[0]) {
                h[n].key = "'";
                h[n].what = marks;
                n++;
                keep++;
            }
        }
        h[n].key = "?";
        h[n].what = "help";
        n++;
        hx = draw_hints_keep(g, y, cols, tt_grid_text_width(info) + 2, h, n, keep);
    }
    if (annot && tt_grid_text_width(info) > hx - 1) {
        /* an annotation's message is read whole: wrapped over rows above */
        status_wrapped(a, g, info, hx);
        return;
    }
    tt_grid_text_fit(g, 0, y, hx - 1, info,
                     a->msg[0] ? (a->msg_err ? TT_R_ERR : TT_R_MSG) : TT_R_STATUS, 0,
                     a->gl->ellipsis);
}

/* ---------------------------------------------------------------- legend */

void tt_bars_legend(tt_app *a, tt_grid *g)
{
    int y = a->scr.legend_y, x, cols = a->cols;
    char head[48], name[256];
    uint32_t top[24];
    size_t nt = 0;
    const tt_view_def *m = tt_app_mode(a);
    if (y < 0)
        return;
    x = 0;
    if (m->legend_by) {
        snprintf(head, sizeof head, "by %s:", tt_colorby_name(a->by));
        x = tt_grid_text(g, 0, y, cols, head, TT_R_LEGEND, 0) + 1;
    }
    if (m->legend) {
        m->legend(a, g, x, y);
        return;
    }
    /* folded groups show their lanes' activity: their events count too */
    for (int i = 0, lh = tt_app_lanes_h(a); i < lh && a->top + (size_t)i < a->list.n; i++) {
        const tt_row *row = &a->list.v[a->top + (size_t)i];
        if (row->kind == TT_ROW_GROUP && a->collapsed && a->collapsed[row->group])
            tt_tl_group_tally(a->tl, row->group);
    }
    /* the keys covering most cells in this frame, most first */
    for (size_t k = 0; k < 24; k++) {
        uint32_t best = 0, bestn = 0;
        bool found = false;
        for (size_t i = 0; i < a->tl->n_touched; i++) {
            uint32_t id = a->tl->touched[i], n = a->tl->tally[id];
            bool taken = false;
            for (size_t j = 0; j < nt; j++)
                taken |= top[j] == id;
            if (taken)
                continue;
            if (!found || n > bestn || (n == bestn && id < best)) {
                best = id;
                bestn = n;
                found = true;
            }
        }
        if (!found)
            break;
        top[nt++] = best;
    }
    if (nt == 0) {
        tt_grid_text(g, x, y, cols - x, "(no events in view)", TT_R_LEGEND, 0);
        return;
    }
    for (size_t i = 0; i < nt && x < cols - 4; i++) {
        int w;
        if (top[i] == 0)
            snprintf(name, sizeof name, "(no %s)", tt_colorby_name(a->by));
        else
            str_safe(a, top[i], name, sizeof name);
        cut(a, name, sizeof name, 28);
        w = tt_grid_text_width(name);
        if (x + 2 + w > cols) {
            if (cols - x - 2 < 6)
                break;
            cut(a, name, sizeof name, cols - x - 2);
            w = tt_grid_text_width(name);
        }
        tt_grid_set(g, x, y, a->gl->swatch, TT_R_SWATCH, tt_tl_color(a->tl, top[i]));
        x += 2;
        x += tt_grid_text(g, x, y, cols - x, name, TT_R_LEGEND, 0) + 2;
    }
}
