/* marks.c - the view's markers and the sidecar's sets (see marks.h). */
#include "config.h"

#include "tui/marks.h"

#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CURRENT "current"

int tt_marks_init(tt_marks *m, const char *path)
{
    tt_trace_id none = {0, 0};
    memset(m, 0, sizeof *m);
    tt_markstore_init(&m->cur);
    tt_markstore_init(&m->disk);
    tt_plist_init(&m->pl);
    if (path && strcmp(path, "-") != 0 && !(m->path = strdup(path)))
        return -1;
    if (!tt_markstore_get(&m->cur, CURRENT, none)) {
        tt_marks_fini(m);
        return -1;
    }
    return 0;
}

void tt_marks_fini(tt_marks *m)
{
    tt_markstore_fini(&m->cur);
    tt_markstore_fini(&m->disk);
    tt_plist_fini(&m->pl);
    free(m->path);
    memset(m, 0, sizeof *m);
}

tt_markset *tt_marks_set(tt_marks *m)
{
    return &m->cur.sets[0];
}

static void changed(tt_marks *m)
{
    m->dirty = true;
    m->built = false;
}

static bool valid_name(const char *name, tt_error *err)
{
    size_t n = strlen(name);
    if (n == 0)
        return tt_error_set(err, TT_ERR_USAGE, "a name cannot be empty"), false;
    if (n > TT_MARK_NAME_MAX)
        return tt_error_set(err, TT_ERR_USAGE, "names are at most %d bytes", TT_MARK_NAME_MAX),
               false;
    /* "A:B" of report --between splits at the first colon */
    if (strchr(name, ':'))
        return tt_error_set(err, TT_ERR_USAGE,
                            "a marker name cannot hold ':' (report --between A:B splits there)"),
               false;
    return true;
}

long tt_marks_add(tt_marks *m, int64_t t, const char *name, tt_error *err)
{
    tt_markset *set = tt_marks_set(m);
    char auto_name[32];
    long i;
    if (!name) {
        for (unsigned k = 1;; k++) {
            snprintf(auto_name, sizeof auto_name, "m%u", k);
            if (tt_markset_find(set, auto_name) < 0)
                break;
        }
        name = auto_name;
    } else {
        if (!valid_name(name, err))
            return -1;
        if (tt_markset_find(set, name) >= 0)
            return tt_error_set(err, TT_ERR_USAGE, "there is a marker named '%s' already", name),
                   -1;
    }
    i = tt_markset_add(set, t, name, "");
    if (i < 0)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    changed(m);
    return i;
}

long tt_marks_rename(tt_marks *m, size_t i, const char *name, tt_error *err)
{
    tt_markset *set = tt_marks_set(m);
    long other;
    char old[TT_MARK_NAME_MAX + 1];
    if (i >= set->n)
        return tt_error_set(err, TT_ERR_USAGE, "no such marker"), -1;
    if (!valid_name(name, err))
        return -1;
    other = tt_markset_find(set, name);
    if (other >= 0 && (size_t)other != i)
        return tt_error_set(err, TT_ERR_USAGE, "there is a marker named '%s' already", name), -1;
    snprintf(old, sizeof old, "%s", set->m[i].name);
    if (tt_markset_rename(set, i, name))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    for (int k = 0; k < 2; k++)
        if (strcmp(m->chosen[k], old) == 0)
            snprintf(m->chosen[k], sizeof m->chosen[k], "%s", name);
    changed(m);
    return tt_markset_find(set, name);
}

int tt_marks_note(tt_marks *m, size_t i, const char *note, tt_error *err)
{
    tt_markset *set = tt_marks_set(m);
    if (i >= set->n)
        return tt_error_set(err, TT_ERR_USAGE, "no such marker");
    if (strlen(note) > 1000)
        return tt_error_set(err, TT_ERR_USAGE, "notes are at most 1000 bytes");
    if (tt_markset_note(set, i, note))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    changed(m);
    return 0;
}

void tt_marks_remove(tt_marks *m, size_t i)
{
    tt_markset *set = tt_marks_set(m);
    if (i >= set->n)
        return;
    for (int k = 0; k < 2; k++)
        if (strcmp(m->chosen[k], set->m[i].name) == 0)
            m->chosen[k][0] = '\0';
    tt_markset_remove(set, i);
    changed(m);
}

long tt_marks_step(tt_marks *m, int64_t t, int dir)
{
    tt_markset *set = tt_marks_set(m);
    if (dir > 0) {
        for (size_t i = 0; i < set->n; i++)
            if (set->m[i].t > t)
                return (long)i;
    } else {
        for (size_t i = set->n; i > 0; i--)
            if (set->m[i - 1].t < t)
                return (long)(i - 1);
    }
    return -1;
}

void tt_marks_choose(tt_marks *m, size_t i)
{
    tt_markset *set = tt_marks_set(m);
    const char *name;
    if (i >= set->n)
        return;
    name = set->m[i].name;
    m->built = false;
    for (int k = 0; k < 2; k++)
        if (strcmp(m->chosen[k], name) == 0) {
            m->chosen[k][0] = '\0';
            return;
        }
    if (!m->chosen[0][0]) {
        snprintf(m->chosen[0], sizeof m->chosen[0], "%s", name);
    } else if (!m->chosen[1][0]) {
        snprintf(m->chosen[1], sizeof m->chosen[1], "%s", name);
    } else {
        /* the oldest choice goes */
        memcpy(m->chosen[0], m->chosen[1], sizeof m->chosen[0]);
        snprintf(m->chosen[1], sizeof m->chosen[1], "%s", name);
    }
}

bool tt_marks_chosen(tt_marks *m, size_t *a, size_t *b)
{
    tt_markset *set = tt_marks_set(m);
    long x, y;
    if (!m->chosen[0][0] || !m->chosen[1][0])
        return false;
    x = tt_markset_find(set, m->chosen[0]);
    y = tt_markset_find(set, m->chosen[1]);
    if (x < 0 || y < 0)
        return false;
    /* in time order */
    *a = (size_t)(x < y ? x : y);
    *b = (size_t)(x < y ? y : x);
    return true;
}

/* ------------------------------------------------------------ sidecar */

static char *sidecar_path(tt_marks *m, bool writing, tt_error *err)
{
    char *p;
    if (!m->path) {
        tt_error_set(err, TT_ERR_USAGE,
                     "the trace came from standard input: marker sets are kept beside a "
                     "trace file");
        return NULL;
    }
    p = tt_markers_sidecar(m->path, writing, err);
    if (p) {
        const char *base = strrchr(p, '/');
        snprintf(m->sidecar, sizeof m->sidecar, "%s", base ? base + 1 : p);
    }
    return p;
}

static int trace_id(tt_marks *m, tt_error *err)
{
    if (m->has_id)
        return 0;
    if (!m->path)
        return tt_error_set(err, TT_ERR_USAGE, "the trace came from standard input");
    if (tt_trace_id_of(m->path, &m->id, err))
        return -1;
    m->has_id = true;
    return 0;
}

/* "demo.json.markers.json: line 3, column 7: what" into disk_err. */
static void keep_error(tt_marks *m, const tt_error *err)
{
    char msg[400];
    tt_error_format(err, m->sidecar[0] ? m->sidecar : "marker file", msg, sizeof msg);
    snprintf(m->disk_err, sizeof m->disk_err, "%s", msg);
}

int tt_marks_refresh(tt_marks *m, tt_error *err)
{
    char *side;
    tt_markstore_fini(&m->disk);
    tt_markstore_init(&m->disk);
    m->disk_read = false;
    m->disk_err[0] = '\0';
    m->built = false;
    if (!(side = sidecar_path(m, false, err))) {
        keep_error(m, err);
        return -1;
    }
    if (tt_markstore_read(&m->disk, side, err)) {
        free(side);
        tt_markstore_fini(&m->disk);
        tt_markstore_init(&m->disk);
        keep_error(m, err);
        return -1;
    }
    free(side);
    m->disk_read = true;
    {
        /* to tell in the list which sets were saved for another trace */
        tt_error e2;
        tt_error_clear(&e2);
        trace_id(m, &e2);
    }
    return 0;
}

typedef struct edit_ctx {
    tt_marks   *m;
    const char *name, *to;
} edit_ctx;

static int edit_save(tt_markstore *s, void *ctx, tt_error *err)
{
    edit_ctx *c = ctx;
    tt_markset *set = tt_marks_set(c->m);
    return tt_markstore_put(s, c->name, c->m->id, set->m, set->n, err) ? -1 : 0;
}

static int edit_delete(tt_markstore *s, void *ctx, tt_error *err)
{
    edit_ctx *c = ctx;
    if (!tt_markstore_remove(s, c->name))
        return tt_error_set(err, TT_ERR_USAGE, "there is no set named '%s'", c->name), -1;
    return 0;
}

static int edit_rename(tt_markstore *s, void *ctx, tt_error *err)
{
    edit_ctx *c = ctx;
    return tt_markstore_rename(s, c->name, c->to, err) ? -1 : 0;
}

/* Apply an edit to the sidecar under its lock, then read it back for the
 * panel. */
static int update(tt_marks *m, tt_markstore_edit_fn fn, edit_ctx *c, tt_error *err)
{
    char *side;
    int rc;
    if (!(side = sidecar_path(m, true, err)))
        return -1;
    if (trace_id(m, err)) {
        free(side);
        return -1;
    }
    rc = tt_markstore_update(side, fn, c, err);
    free(side);
    if (rc) {
        char msg[400];
        tt_error_format(err, m->sidecar[0] ? m->sidecar : "marker file", msg, sizeof msg);
        tt_error_set(err, err->code, "%s", msg);
        return -1;
    }
    {
        tt_error e2;
        tt_error_clear(&e2);
        tt_marks_refresh(m, &e2);
    }
    return 0;
}

int tt_marks_save(tt_marks *m, const char *name, tt_error *err)
{
    edit_ctx c = {m, name, NULL};
    if (strlen(name) == 0)
        return tt_error_set(err, TT_ERR_USAGE, "a set needs a name");
    if (strlen(name) > TT_MARK_NAME_MAX)
        return tt_error_set(err, TT_ERR_USAGE, "set names are at most %d bytes",
                            TT_MARK_NAME_MAX);
    if (update(m, edit_save, &c, err))
        return -1;
    snprintf(m->loaded, sizeof m->loaded, "%s", name);
    m->dirty = false;
    m->built = false;
    return 0;
}

int tt_marks_load(tt_marks *m, const char *name, bool *other, tt_error *err)
{
    tt_markset *from, *cur;
    *other = false;
    if (tt_marks_refresh(m, err)) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", m->disk_err);
        return tt_error_set(err, err->code, "%s", msg);
    }
    if (!(from = tt_markstore_find(&m->disk, name)))
        return tt_error_set(err, TT_ERR_USAGE, "there is no set named '%s'", name);
    if (trace_id(m, err))
        return -1;
    *other = from->trace.size != m->id.size || from->trace.hash != m->id.hash;
    cur = tt_marks_set(m);
    while (cur->n)
        tt_markset_remove(cur, cur->n - 1);
    for (size_t i = 0; i < from->n; i++)
        if (tt_markset_add(cur, from->m[i].t, from->m[i].name, from->m[i].note) < 0)
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    snprintf(m->loaded, sizeof m->loaded, "%s", name);
    m->dirty = false;
    m->chosen[0][0] = m->chosen[1][0] = '\0';
    m->built = false;
    return 0;
}

int tt_marks_delete_set(tt_marks *m, const char *name, tt_error *err)
{
    edit_ctx c = {m, name, NULL};
    if (update(m, edit_delete, &c, err))
        return -1;
    if (strcmp(m->loaded, name) == 0) {
        /* what is on screen is no longer kept anywhere */
        m->loaded[0] = '\0';
        m->dirty = tt_marks_count(m) > 0;
    }
    m->built = false;
    return 0;
}

int tt_marks_rename_set(tt_marks *m, const char *from, const char *to, tt_error *err)
{
    edit_ctx c = {m, from, to};
    if (strlen(to) == 0 || strlen(to) > TT_MARK_NAME_MAX)
        return tt_error_set(err, TT_ERR_USAGE, "set names are 1 to %d bytes", TT_MARK_NAME_MAX);
    if (update(m, edit_rename, &c, err))
        return -1;
    if (strcmp(m->loaded, from) == 0)
        snprintf(m->loaded, sizeof m->loaded, "%s", to);
    m->built = false;
    return 0;
}

/* ---------------------------------------------------------------- panel */

int tt_marks_build(tt_marks *m, int width, bool utf8)
{
    tt_markset *set = tt_marks_set(m);
    char line[2048], t[48], d[48];
    size_t a, b;
    int nw = width > 60 ? 24 : 14;
    if (m->built && m->width == width && m->utf8 == utf8)
        return 0;
    m->width = width;
    m->utf8 = utf8;
    tt_plist_clear(&m->pl);
    if (m->loaded[0])
        snprintf(line, sizeof line, "Markers of set '%s'%s", m->loaded,
                 m->dirty ? ", changed since it was saved" : "");
    else if (set->n)
        snprintf(line, sizeof line, "Markers (not saved in a set)");
    else
        snprintf(line, sizeof line, "No markers yet: m drops one at the cursor");
    if (!tt_plist_add(&m->pl, TT_R_PANEL_TITLE, line))
        return -1;
    for (size_t i = 0; i < set->n; i++) {
        const tt_marker *mk = &set->m[i];
        bool ch = strcmp(m->chosen[0], mk->name) == 0 || strcmp(m->chosen[1], mk->name) == 0;
        char delta[64] = "", mark[8];
        int o = 0;
        tt_fmt_dur(t, sizeof t, mk->t, 3);
        if (i > 0)
            snprintf(delta, sizeof delta, "+%s",
                     tt_fmt_dur(d, sizeof d, mk->t - set->m[i - 1].t, 3));
        o = tt_grid_utf8(ch ? (utf8 ? 0x2022 : '*') : ' ', mark);
        mark[o] = '\0';
        snprintf(line, sizeof line, "%s %12s  %-*s %12s  %s", mark, t, nw, mk->name, delta,
                 mk->note);
        if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MK_LINE_MARK, (int64_t)i, line))
            return -1;
    }
    if (tt_marks_chosen(m, &a, &b)) {
        snprintf(line, sizeof line, "Distance %s %s %s: %s", set->m[a].name,
                 utf8 ? "\xe2\x86\x92" : "->", set->m[b].name,
                 tt_fmt_dur(d, sizeof d, set->m[b].t - set->m[a].t, 6));
        if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
            return -1;
    }
    if (m->disk_err[0]) {
        if (!tt_plist_add(&m->pl, TT_R_PANEL_TITLE, "Saved sets") ||
            !tt_plist_addf(&m->pl, TT_R_ERR, "cannot read them: %s", m->disk_err))
            return -1;
    } else if (m->disk_read) {
        if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "Saved sets in %s", m->sidecar))
            return -1;
        if (m->disk.n == 0 &&
            !tt_plist_add(&m->pl, TT_R_PANEL, "  none yet: S saves the markers as a set"))
            return -1;
        for (size_t i = 0; i < m->disk.n; i++) {
            const tt_markset *s = &m->disk.sets[i];
            bool other = m->has_id && (s->trace.size != m->id.size || s->trace.hash != m->id.hash);
            snprintf(line, sizeof line, "  %-*s %4zu marker%s%s%s", nw, s->name, s->n,
                     s->n == 1 ? "" : "s", strcmp(s->name, m->loaded) == 0 ? "  (on screen)" : "",
                     other ? "  (saved for another trace)" : "");
            if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MK_LINE_SET, (int64_t)i, line))
                return -1;
        }
    }
    tt_plist_clamp(&m->pl);
    m->built = true;
    return 0;
}

const char *tt_marks_status(tt_marks *m, char *buf, size_t n)
{
    size_t k = tt_marks_count(m);
    if (m->loaded[0])
        snprintf(buf, n, "set %s%s", m->loaded, m->dirty ? "*" : "");
    else if (k)
        snprintf(buf, n, "%zu marker%s%s", k, k == 1 ? "" : "s", m->dirty ? "*" : "");
    else
        buf[0] = '\0';
    return buf;
}
