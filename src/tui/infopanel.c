/* infopanel.c - the metadata and full-name panels' lines (see infopanel.h). */
#include "config.h"

#include "tui/infopanel.h"

#include "util/text.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nested objects and arrays deeper than this show as "{...}": a
 * pathological document must not make the panel endless. */
#define MAX_DEPTH 6
#define KEY_MAX_W 40

bool tt_infopanel_has_meta(const tt_trace *tr)
{
    return tr->note[0] || (tr->meta && tr->meta->child);
}

/* A scalar as text; false for an object or an array. */
static bool scalar_text(const cJSON *v, char *out, size_t cap)
{
    if (cJSON_IsString(v))
        snprintf(out, cap, "%s", v->valuestring ? v->valuestring : "");
    else if (cJSON_IsNumber(v))
        snprintf(out, cap, "%.15g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(out, cap, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        snprintf(out, cap, "null");
    else
        return false;
    return true;
}

/* The widest key among an object's members (sanitized), capped. */
static int key_width(const cJSON *obj, int indent)
{
    const cJSON *m;
    int w = 8;
    cJSON_ArrayForEach(m, obj) {
        char safe[512];
        int k;
        tt_text_sanitize(m->string ? m->string : "", m->string ? strlen(m->string) : 0, safe,
                         sizeof safe);
        k = tt_text_width(safe) + indent;
        if (k > w)
            w = k;
    }
    return w > KEY_MAX_W ? KEY_MAX_W : w;
}

/* "key  value" with the value wrapped under itself when it is long. */
static int add_pair(tt_plist *pl, int indent, const char *key, int keyw, const char *val,
                    int width)
{
    char skey[512], *sval, *line;
    size_t vlen = strlen(val);
    int vw = width - keyw - 2, rc = 0, used;
    const char *p;
    bool first = true;
    tt_text_sanitize(key, strlen(key), skey, sizeof skey);
    sval = malloc(vlen * 4 + 1);
    line = malloc(vlen * 4 + sizeof skey + (size_t)keyw + 8);
    if (!sval || !line) {
        free(sval);
        free(line);
        return -1;
    }
    tt_text_sanitize(val, vlen, sval, vlen * 4 + 1);
    if (vw < 12)
        vw = 12;
    p = sval;
    do {
        size_t fit = tt_text_fit(p, vw, &used), kfit;
        int kused = 0;
        if (fit == 0 && *p)
            fit = strlen(p) < 4 ? strlen(p) : 1;
        if (first) {
            kfit = tt_text_fit(skey, keyw - indent, &kused);
            snprintf(line, vlen * 4 + sizeof skey + (size_t)keyw + 8, "%*s%.*s%*s  %.*s", indent,
                     "", (int)kfit, skey, keyw - indent - kused, "", (int)fit, p);
        } else {
            snprintf(line, vlen * 4 + sizeof skey + (size_t)keyw + 8, "%*s  %.*s", keyw, "",
                     (int)fit, p);
        }
        if (!tt_plist_add(pl, TT_R_PANEL, line))
            rc = -1;
        p += fit;
        first = false;
    } while (*p && rc == 0);
    free(sval);
    free(line);
    return rc;
}

static int add_members(tt_plist *pl, const cJSON *obj, int indent, int depth, int width);

/* One member: a scalar on its line; an object or array as a heading line
 * with its members below, indented. */
static int add_value(tt_plist *pl, const char *key, const cJSON *v, int indent, int keyw,
                     int depth, int width)
{
    char text[4096];
    if (scalar_text(v, text, sizeof text)) {
        /* a long string value is shown whole, not cut at the buffer */
        if (cJSON_IsString(v) && v->valuestring && strlen(v->valuestring) >= sizeof text)
            return add_pair(pl, indent, key, keyw, v->valuestring, width);
        return add_pair(pl, indent, key, keyw, text, width);
    }
    if (depth >= MAX_DEPTH)
        return add_pair(pl, indent, key, keyw, cJSON_IsArray(v) ? "[...]" : "{...}", width);
    if (cJSON_IsArray(v)) {
        snprintf(text, sizeof text, "%d %s", cJSON_GetArraySize(v),
                 cJSON_GetArraySize(v) == 1 ? "entry" : "entries");
        if (!v->child)
            snprintf(text, sizeof text, "(empty)");
    } else {
        snprintf(text, sizeof text, "%s", v->child ? "" : "(empty)");
    }
    if (add_pair(pl, indent, key, keyw, text, width))
        return -1;
    return add_members(pl, v, indent + 2, depth + 1, width);
}

static int add_members(tt_plist *pl, const cJSON *obj, int indent, int depth, int width)
{
    const cJSON *m;
    int i = 0, keyw = key_width(obj, indent);
    if (cJSON_IsArray(obj) && keyw < indent + 6)
        keyw = indent + 6;
    cJSON_ArrayForEach(m, obj) {
        char idx[32];
        const char *key = m->string;
        if (cJSON_IsArray(obj)) {
            snprintf(idx, sizeof idx, "[%d]", i);
            key = idx;
        }
        i++;
        if (add_value(pl, key ? key : "", m, indent, keyw, depth, width))
            return -1;
    }
    return 0;
}

int tt_infopanel_meta(tt_plist *pl, const tt_trace *tr, int width)
{
    if (tr->note[0]) {
        if (tt_plist_wrap(pl, TT_R_PANEL_TITLE, tr->note, width))
            return -1;
        if (!tt_plist_add(pl, TT_R_PANEL, ""))
            return -1;
    }
    if (!tr->meta || !tr->meta->child)
        return tt_plist_add(pl, TT_R_PANEL, "This trace has no metadata.") ? 0 : -1;
    return add_members(pl, tr->meta, 0, 0, width);
}

int tt_infopanel_name(tt_plist *pl, const char *name, size_t n, int width)
{
    char *safe = malloc(n * 4 + 1);
    int rc;
    if (!safe)
        return -1;
    tt_text_sanitize(name, n, safe, n * 4 + 1);
    rc = tt_plist_wrap(pl, TT_R_PANEL, safe, width);
    free(safe);
    return rc;
}
