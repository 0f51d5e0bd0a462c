/* writer.c - CSV (libcsv), JSON (cJSON) and text tables (see writer.h). */
#include "config.h"

#include "report/writer.h"

#include "util/json.h"
#include "util/num.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <csv.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest rule under a text table's last column when it is left-aligned
 * text: as wide as a typical kernel name, not the longest one. */
#define TEXT_LAST_RULE 40

/* Text rows kept before widths are fixed and the rows printed. */
#define TEXT_CHUNK 4096
/* Columns a text bar takes. */
#define BAR_WIDTH 20

struct tt_writer {
    FILE          *f;
    tt_writer_opts o;
    const tt_col  *cols;
    size_t         ncols;
    bool           failed;     /* out of memory at some point */
    char          *trace;      /* current trace name (owned) */
    size_t         ntraces;
    /* json */
    size_t         nrows_trace;
    /* text: virtual columns = [trace] cols [bar before the last text col] */
    size_t         tcols;      /* number of text columns */
    size_t        *vis;        /* cols shown in text, by index */
    size_t         nvis;
    int            trace_at;   /* index of the Trace column, -1 none */
    int            bar_at;     /* index of the bar column, -1 none */
    int           *width;
    bool          *right;      /* right-aligned */
    char         **cells;      /* TEXT_CHUNK * tcols formatted strings */
    char         **dur_title;  /* per col: a TT_COL_DUR title less " (ns)" (owned), else NULL */
    size_t         nrows;
    bool           header_done;
    bool           printed;    /* anything printed yet (text) */
};

/* --------------------------------------------------------- formatting */

/* Sanitized copy (malloc'ed). Worst case expansion is 4 bytes per byte
 * ("\xNN"). */
static char *sanitize_dup(const char *s)
{
    size_t n = strlen(s), cap = 4 * n + 8;
    char *out = malloc(cap);
    if (out)
        tt_text_sanitize(s, n, out, cap);
    return out;
}

static void fmt_number(const tt_col *c, const tt_cell *v, bool text, char *out, size_t cap)
{
    char raw[64];
    if (c->type == TT_COL_DUR && text) {
        tt_fmt_dur(out, cap, v->i, 3);
        return;
    }
    if (c->type == TT_COL_INT || c->type == TT_COL_DUR) {
        snprintf(raw, sizeof raw, "%" PRId64, v->i);
    } else {
        tt_fmt_fixed(raw, sizeof raw, v->r, c->decimals);
    }
    if (text)   /* thousands separators */
        tt_fmt_grouped(raw, out, cap);
    else
        snprintf(out, cap, "%s", raw);
}

/* OWASP's CSV-injection list: a spreadsheet evaluates a cell starting
 * with one of these (TAB and CR too, as some strip them first). */
static bool formula_like(const char *s)
{
    return s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
}

/* ---------------------------------------------------------------- csv */

int tt_writer_csv_text(FILE *f, const char *s, bool sanitize)
{
    char *safe = NULL;
    int rc = 0;
    if (sanitize) {
        if (!(safe = sanitize_dup(s)))
            return -1;
        s = safe;
    }
    if (formula_like(s)) {
        /* one quoted field: the guard quote, then the text */
        size_t n = strlen(s);
        char *g = malloc(n + 2);
        if (!g) {
            rc = -1;
        } else {
            g[0] = '\'';
            memcpy(g + 1, s, n + 1);
            csv_fwrite(f, g, n + 1);
            free(g);
        }
    } else {
        csv_fwrite(f, s, strlen(s));
    }
    free(safe);
    return rc;
}

static void csv_text(tt_writer *w, const char *s)
{
    if (tt_writer_csv_text(w->f, s, w->o.sanitize))
        w->failed = true;
}

static void csv_header(tt_writer *w)
{
    bool first = true;
    if (w->o.trace_column) {
        csv_text(w, w->o.group_title ? w->o.group_title : "Trace");
        first = false;
    }
    for (size_t i = 0; i < w->ncols; i++) {
        if (w->cols[i].json_only)
            continue;
        if (!first)
            fputc(',', w->f);
        csv_text(w, w->cols[i].title);
        first = false;
    }
    fputs("\r\n", w->f);
}

static void csv_row(tt_writer *w, const tt_cell *cells)
{
    bool first = true;
    if (w->o.trace_column) {
        csv_text(w, w->trace ? w->trace : "");
        first = false;
    }
    for (size_t i = 0; i < w->ncols; i++) {
        const tt_col *c = &w->cols[i];
        if (c->json_only)
            continue;
        if (!first)
            fputc(',', w->f);
        first = false;
        if (cells[i].empty)
            continue;
        if (c->type == TT_COL_TEXT && cells[i].number) {
            fputs(cells[i].s, w->f);   /* JSON number text: "-1" stays a number */
        } else if (c->type == TT_COL_TEXT) {
            csv_text(w, cells[i].s ? cells[i].s : "");
        } else {
            char num[80];
            fmt_number(c, &cells[i], false, num, sizeof num);
            fputs(num, w->f);
        }
    }
    fputs("\r\n", w->f);
}

/* --------------------------------------------------------------- json */

static void sanitize_tree(tt_writer *w, cJSON *o)
{
    for (cJSON *it = o; it; it = it->next) {
        if (cJSON_IsString(it) && it->valuestring) {
            char *safe = sanitize_dup(it->valuestring);
            if (!safe || !cJSON_SetValuestring(it, safe))
                w->failed = true;
            free(safe);
        }
        if (it->child)
            sanitize_tree(w, it->child);
    }
}

/* Print an object's members without the braces, preceded by a comma when
 * any, and free it. */
static void json_members(tt_writer *w, cJSON *o, bool comma_first)
{
    char *s;
    size_t n;
    if (!o)
        return;
    if (w->o.sanitize && o->child)
        sanitize_tree(w, o->child);
    s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!s) {
        w->failed = true;
        return;
    }
    {
        /* valid, terminal-safe JSON whatever bytes the trace's names hold */
        char *ok = tt_json_repair(s);
        free(s);
        if (!(s = ok)) {
            w->failed = true;
            return;
        }
    }
    n = strlen(s);
    if (n > 2) {
        if (comma_first)
            fputc(',', w->f);
        fwrite(s + 1, 1, n - 2, w->f);
    }
    free(s);
}

static void json_row(tt_writer *w, const tt_cell *cells)
{
    cJSON *o = cJSON_CreateObject();
    char *s;
    if (!o) {
        w->failed = true;
        return;
    }
    for (size_t i = 0; i < w->ncols; i++) {
        const tt_col *c = &w->cols[i];
        cJSON *v;
        if (c->type == TT_COL_JSON) {
            v = cells[i].json ? cells[i].json : cJSON_CreateNull();
            if (w->o.sanitize && v)
                sanitize_tree(w, v);
        } else if (cells[i].empty) {
            v = cJSON_CreateNull();
        } else if (c->type == TT_COL_TEXT) {
            char *safe = NULL;
            const char *txt = cells[i].s ? cells[i].s : "";
            if (w->o.sanitize && (safe = sanitize_dup(txt)))
                txt = safe;
            v = cJSON_CreateString(txt);
            free(safe);
        } else if (c->type == TT_COL_INT || c->type == TT_COL_DUR) {
            v = tt_json_int(cells[i].i);   /* exact beyond 2^53 */
        } else {
            v = cJSON_CreateNumber(isfinite(cells[i].r) ? cells[i].r : 0);
        }
        if (!v || !cJSON_AddItemToObject(o, c->json, v)) {
            cJSON_Delete(v);
            w->failed = true;
        }
    }
    s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (s) {
        /* valid, terminal-safe JSON whatever bytes the trace's names hold */
        char *ok = tt_json_repair(s);
        free(s);
        s = ok;
    }
    if (!s) {
        w->failed = true;
        return;
    }
    fputs(w->nrows_trace ? ",\n" : "\n", w->f);
    fputs(s, w->f);
    free(s);
}

/* --------------------------------------------------------------- text */

char *tt_writer_bar(bool utf8, double frac, int width, char *out, size_t cap)
{
    static const char *const eighths[] = {"", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
                                          "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a",
                                          "\xe2\x96\x89"};
    size_t o = 0;
    int cols = 0;
    if (cap == 0)
        return out;
    if (!(frac >= 0))
        frac = 0;   /* also NaN */
    if (frac > 1)
        frac = 1;
    if (utf8) {
        long e = lround(frac * width * 8);
        for (long i = 0; i < e / 8 && o + 4 < cap; i++, cols++) {
            memcpy(out + o, "\xe2\x96\x88", 3);   /* full block */
            o += 3;
        }
        if (e % 8 && o + 4 < cap) {
            memcpy(out + o, eighths[e % 8], 3);
            o += 3;
            cols++;
        }
    } else {
        long n = lround(frac * width);
        for (long i = 0; i < n && o + 1 < cap; i++, cols++)
            out[o++] = '#';
    }
    for (; cols < width && o + 1 < cap; cols++)
        out[o++] = ' ';
    out[o] = '\0';
    return out;
}

static const char *text_title(const tt_writer *w, size_t t)
{
    size_t c;
    if ((int)t == w->trace_at)
        return w->o.group_title ? w->o.group_title : "Trace";
    if ((int)t == w->bar_at)
        return w->o.bar_title;
    c = t - (w->trace_at >= 0) - (w->bar_at >= 0 && (int)t > w->bar_at);
    return w->dur_title[w->vis[c]] ? w->dur_title[w->vis[c]] : w->cols[w->vis[c]].title;
}

/* Print a cell; blanks are held back in *pending and only written before
 * later text, so lines never end in spaces. */
static void put_cell(FILE *f, const char *s, int width, bool right, int *pending)
{
    int used = tt_text_width(s);
    if (right)
        *pending += width > used ? width - used : 0;
    if (*s) {
        for (; *pending > 0; (*pending)--)
            fputc(' ', f);
        fputs(s, f);
    }
    if (!right)
        *pending += width > used ? width - used : 0;
}

static void text_line(tt_writer *w, char *const *row)
{
    int pending = 0;
    for (size_t t = 0; t < w->tcols; t++) {
        put_cell(w->f, row[t], w->width[t], w->right[t], &pending);
        if (t + 1 < w->tcols)
            pending += 2;
    }
    fputc('\n', w->f);
}

static void text_flush(tt_writer *w)
{
    if ((w->nrows == 0 && w->header_done) || w->o.text_whole)
        return;
    if (!w->header_done) {
        char **titles = calloc(w->tcols, sizeof *titles);
        char **dashes = calloc(w->tcols, sizeof *dashes);
        for (size_t t = 0; t < w->tcols; t++) {
            int tw = tt_text_width(text_title(w, t));
            if (tw > w->width[t])
                w->width[t] = tw;
        }
        for (size_t r = 0; r < w->nrows; r++)
            for (size_t t = 0; t < w->tcols; t++) {
                int cw = tt_text_width(w->cells[r * w->tcols + t]);
                if (cw > w->width[t])
                    w->width[t] = cw;
            }
        if (!titles || !dashes) {
            w->failed = true;
        } else {
            bool ok = true;
            for (size_t t = 0; t < w->tcols; t++) {
                size_t dn = (size_t)w->width[t];
                titles[t] = (char *)text_title(w, t);
                /* the last column (Name) is never padded, so one long
                 * name must not stretch its rule across the screen */
                if (t + 1 == w->tcols && !w->right[t] && dn > TEXT_LAST_RULE) {
                    size_t tw = (size_t)tt_text_width(titles[t]);
                    dn = tw > TEXT_LAST_RULE ? tw : TEXT_LAST_RULE;
                }
                if (!(dashes[t] = malloc(dn + 1))) {
                    ok = false;
                    break;
                }
                memset(dashes[t], '-', dn);
                dashes[t][dn] = '\0';
            }
            if (ok) {
                text_line(w, titles);
                text_line(w, dashes);
            } else {
                w->failed = true;
            }
            for (size_t t = 0; t < w->tcols; t++)
                free(dashes[t]);
        }
        free(titles);
        free(dashes);
        w->header_done = true;
    } else {
        for (size_t r = 0; r < w->nrows; r++)
            for (size_t t = 0; t < w->tcols; t++) {
                int cw = tt_text_width(w->cells[r * w->tcols + t]);
                if (cw > w->width[t])
                    w->width[t] = cw;
            }
    }
    for (size_t r = 0; r < w->nrows; r++) {
        text_line(w, &w->cells[r * w->tcols]);
        for (size_t t = 0; t < w->tcols; t++) {
            free(w->cells[r * w->tcols + t]);
            w->cells[r * w->tcols + t] = NULL;
        }
    }
    w->nrows = 0;
    w->printed = true;
}

/* Start a new table: widths from the titles again. */
static void text_reset(tt_writer *w)
{
    for (size_t t = 0; t < w->tcols; t++)
        w->width[t] = 0;
    w->header_done = false;
}

static void text_row(tt_writer *w, const tt_cell *cells, double bar)
{
    char **row = &w->cells[w->nrows * w->tcols];
    size_t c = 0;
    for (size_t t = 0; t < w->tcols; t++) {
        char buf[96];
        if ((int)t == w->trace_at) {
            row[t] = sanitize_dup(w->trace ? w->trace : "");
        } else if ((int)t == w->bar_at) {
            tt_writer_bar(w->o.utf8, bar, BAR_WIDTH, buf, sizeof buf);
            if (t + 1 == w->tcols) {
                /* no trailing blanks at the end of a line */
                size_t n = strlen(buf);
                while (n > 0 && buf[n - 1] == ' ')
                    buf[--n] = '\0';
            }
            row[t] = strdup(buf);
        } else {
            const tt_col *col = &w->cols[w->vis[c]];
            const tt_cell *v = &cells[w->vis[c]];
            c++;
            if (v->empty)
                row[t] = strdup("-");
            else if (col->type == TT_COL_TEXT)
                row[t] = sanitize_dup(v->s ? v->s : "");
            else {
                fmt_number(col, v, true, buf, sizeof buf);
                row[t] = strdup(buf);
            }
        }
        if (!row[t]) {
            w->failed = true;
            row[t] = NULL;
        }
    }
    /* a row with a missing cell (OOM) is dropped rather than printed */
    for (size_t t = 0; t < w->tcols; t++)
        if (!row[t]) {
            for (size_t u = 0; u < w->tcols; u++) {
                free(row[u]);
                row[u] = NULL;
            }
            return;
        }
    w->nrows++;
    if (w->nrows == TEXT_CHUNK)
        text_flush(w);
}

/* Print lines of text, each sanitized. */
static void text_lines(tt_writer *w, const char *s)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        size_t cap = 4 * n + 8;
        char *safe = malloc(cap);
        if (!safe) {
            w->failed = true;
            return;
        }
        tt_text_sanitize(s, n, safe, cap);
        fputs(safe, w->f);
        fputc('\n', w->f);
        free(safe);
        s += n + (nl ? 1 : 0);
    }
}

/* ---------------------------------------------------------------- api */

tt_writer *tt_writer_new(FILE *f, const tt_writer_opts *o, const tt_col *cols, size_t ncols,
                         cJSON *doc)
{
    tt_writer *w = calloc(1, sizeof *w);
    if (!w) {
        cJSON_Delete(doc);
        return NULL;
    }
    w->f = f;
    w->o = *o;
    w->cols = cols;
    w->ncols = ncols;
    w->trace_at = w->bar_at = -1;
    switch (o->format) {
    case TT_OUT_CSV:
        cJSON_Delete(doc);
        csv_header(w);
        break;
    case TT_OUT_JSON: {
        bool members = doc && doc->child;   /* json_members frees doc */
        fputc('{', f);
        json_members(w, doc, false);
        fputs(members ? ",\"traces\":[" : "\"traces\":[", f);
        break;
    }
    case TT_OUT_TEXT: {
        size_t t = 0;
        bool last_text;
        cJSON_Delete(doc);
        if (!(w->vis = calloc(ncols ? ncols : 1, sizeof *w->vis))) {
            tt_writer_free(w);
            return NULL;
        }
        for (size_t i = 0; i < ncols; i++)
            if (!cols[i].json_only)
                w->vis[w->nvis++] = i;
        last_text = w->nvis && cols[w->vis[w->nvis - 1]].type == TT_COL_TEXT;
        w->tcols = w->nvis + (o->one_table && o->trace_column) + (o->bar_title != NULL);
        if (o->one_table && o->trace_column)
            w->trace_at = (int)t++;
        /* the bar goes just before a trailing name column, else last */
        if (o->bar_title)
            w->bar_at = (int)(t + (last_text ? w->nvis - 1 : w->nvis));
        w->width = calloc(w->tcols, sizeof *w->width);
        w->right = calloc(w->tcols, sizeof *w->right);
        w->cells = calloc((size_t)TEXT_CHUNK * w->tcols, sizeof *w->cells);
        w->dur_title = calloc(ncols ? ncols : 1, sizeof *w->dur_title);
        if (!w->width || !w->right || !w->cells || !w->dur_title) {
            tt_writer_free(w);
            return NULL;
        }
        /* text shows durations with their unit, so the title drops it */
        for (size_t i = 0; i < ncols; i++) {
            size_t n = strlen(cols[i].title);
            if (cols[i].type != TT_COL_DUR || n < 5 || strcmp(cols[i].title + n - 5, " (ns)"))
                continue;
            if (!(w->dur_title[i] = strndup(cols[i].title, n - 5))) {
                tt_writer_free(w);
                return NULL;
            }
        }
        for (size_t i = 0, c = 0; i < w->tcols; i++) {
            if ((int)i == w->trace_at || (int)i == w->bar_at)
                continue;
            w->right[i] = cols[w->vis[c++]].type != TT_COL_TEXT;
        }
        break;
    }
    }
    return w;
}

int tt_writer_trace_begin(tt_writer *w, const char *name, cJSON *fields, const char *title)
{
    free(w->trace);
    w->trace = strdup(name ? name : "");
    if (!w->trace)
        w->failed = true;
    w->nrows_trace = 0;
    switch (w->o.format) {
    case TT_OUT_CSV:
        cJSON_Delete(fields);
        break;
    case TT_OUT_JSON: {
        cJSON *head = cJSON_CreateObject();
        if (!head || !cJSON_AddStringToObject(head, "trace", name ? name : ""))
            w->failed = true;
        fputs(w->ntraces ? ",\n{" : "\n{", w->f);
        json_members(w, head, false);
        json_members(w, fields, true);
        fputs(",\"rows\":[", w->f);
        break;
    }
    case TT_OUT_TEXT:
        cJSON_Delete(fields);
        if (!w->o.one_table) {
            if (w->printed)
                fputc('\n', w->f);
            if (title)
                text_lines(w, title);
            w->printed = true;
            text_reset(w);
        }
        break;
    }
    w->ntraces++;
    return w->failed ? -1 : 0;
}

int tt_writer_row(tt_writer *w, const tt_cell *cells, double bar)
{
    switch (w->o.format) {
    case TT_OUT_CSV: csv_row(w, cells); break;
    case TT_OUT_JSON: json_row(w, cells); break;
    case TT_OUT_TEXT: text_row(w, cells, bar); break;
    }
    if (w->o.format != TT_OUT_JSON)
        for (size_t i = 0; i < w->ncols; i++)
            if (w->cols[i].type == TT_COL_JSON)
                cJSON_Delete(cells[i].json);
    w->nrows_trace++;
    return w->failed ? -1 : 0;
}

int tt_writer_trace_end(tt_writer *w, cJSON *extra, const char *text_after)
{
    switch (w->o.format) {
    case TT_OUT_CSV:
        cJSON_Delete(extra);
        break;
    case TT_OUT_JSON:
        fputs(w->nrows_trace ? "\n]" : "]", w->f);
        json_members(w, extra, true);
        fputc('}', w->f);
        break;
    case TT_OUT_TEXT:
        cJSON_Delete(extra);
        if (!w->o.one_table) {
            text_flush(w);
            if (text_after)
                text_lines(w, text_after);
        }
        break;
    }
    return w->failed ? -1 : 0;
}

int tt_writer_finish(tt_writer *w)
{
    switch (w->o.format) {
    case TT_OUT_CSV:
        break;
    case TT_OUT_JSON:
        fputs(w->ntraces ? "\n]}\n" : "]}\n", w->f);
        break;
    case TT_OUT_TEXT:
        if (w->o.one_table)
            text_flush(w);
        break;
    }
    if (fflush(w->f) != 0 || ferror(w->f))
        return -1;
    return w->failed ? -1 : 0;
}

void tt_writer_free(tt_writer *w)
{
    if (!w)
        return;
    if (w->cells)
        for (size_t i = 0; i < (size_t)TEXT_CHUNK * w->tcols; i++)
            free(w->cells[i]);
    free(w->cells);
    for (size_t i = 0; w->dur_title && i < w->ncols; i++)
        free(w->dur_title[i]);
    free(w->dur_title);
    free(w->vis);
    free(w->width);
    free(w->right);
    free(w->trace);
    free(w);
}
