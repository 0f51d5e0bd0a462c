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

static void free_src(tt_marks *m)
{
    for (size_t i = 0; i < m->n_src; i++)
        free(m->src[i].path);
    free(m->src);
    m->src = NULL;
    m->n_src = 0;
}

static void free_disk_index(tt_marks *m)
{
    free(m->disk_src);
    free(m->disk_count);
    m->disk_src = m->disk_count = NULL;
}

void tt_marks_fini(tt_marks *m)
{
    tt_markstore_fini(&m->cur);
    tt_markstore_fini(&m->disk);
    tt_plist_fini(&m->pl);
    free(m->path);
    free_src(m);
    free_disk_index(m);
    memset(m, 0, sizeof *m);
}

int tt_marks_set_job(tt_marks *m, const tt_marks_rank *r, size_t n, const char *align)
{
    free_src(m);
    free_disk_index(m);
    if (n == 0)
        return 0;
    if (!(m->src = calloc(n, sizeof *m->src)))
        return -1;
    m->n_src = n;
    for (size_t i = 0; i < n; i++) {
        tt_marks_src *x = &m->src[i];
        x->rank = r[i].rank;
        x->offset = r[i].offset;
        x->start = r[i].start;
        if (r[i].path && strcmp(r[i].path, "-") != 0 && !(x->path = strdup(r[i].path))) {
            free_src(m);
            return -1;
        }
    }
    snprintf(m->align, sizeof m->align, "%s", align ? align : "absolute");
    m->built = false;
    return 0;
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

/* What any marker name must be (markers.h), and short enough for the
 * panel's column. */
static bool valid_name(const char *name, tt_error *err)
{
    if (strlen(name) > TT_MARK_NAME_MAX)
        return tt_error_set(err, TT_ERR_USAGE, "names are at most %d bytes", TT_MARK_NAME_MAX),
               false;
    return tt_marker_name_check(name, err) == 0;
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
    } else if (!valid_name(name, err)) {
        return -1;
    }
    /* the library refuses a name the set has already */
    if ((i = tt_markset_add(set, t, name, "", err)) < 0)
        return -1;
    changed(m);
    return i;
}

long tt_marks_rename(tt_marks *m, size_t i, const char *name, tt_error *err)
{
    tt_markset *set = tt_marks_set(m);
    char old[TT_MARK_NAME_MAX + 1];
    if (i >= set->n)
        return tt_error_set(err, TT_ERR_USAGE, "no such marker"), -1;
    if (!valid_name(name, err))
        return -1;
    snprintf(old, sizeof old, "%s", set->m[i].name);
    if (tt_markset_rename(set, i, name, err))
        return -1;
    for (int k = 0; k < 2; k++)
        if (strcmp(m->chosen[k], old) == 0)
            snprintf(m->chosen[k], sizeof m->chosen[k], "%s", name);
    changed(m);
    return tt_markset_find(set, name);
}

long tt_marks_move(tt_marks *m, size_t i, int64_t t, tt_error *err)
{
    tt_markset *set = tt_marks_set(m);
    char name[TT_MARK_NAME_MAX + 1], *note;
    int64_t was;
    long k;
    if (i >= set->n)
        return tt_error_set(err, TT_ERR_USAGE, "no such marker"), -1;
    if (set->m[i].t == t)
        return (long)i;
    if (!(note = strdup(set->m[i].note)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    /* names are unique: take it out, then put it back at its new time */
    snprintf(name, sizeof name, "%s", set->m[i].name);
    was = set->m[i].t;
    tt_markset_remove(set, i);
    if ((k = tt_markset_add(set, t, name, note, err)) < 0)
        tt_markset_add(set, was, name, note, NULL);
    else
        changed(m);
    free(note);
    return k;
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

/* ---------------------------------------------------- several ranks */

static int src_id(tt_marks_src *x, tt_error *err)
{
    if (x->has_id)
        return 0;
    if (!x->path)
        return tt_error_set(err, TT_ERR_USAGE, "rank %lld came from standard input",
                            (long long)x->rank);
    if (tt_trace_id_of(x->path, &x->id, err))
        return -1;
    x->has_id = true;
    return 0;
}

static const char *base_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* "rank_3.json.markers.json: line 3, column 7: what" into buf. */
static void side_error(const char *side, const tt_error *err, char *buf, size_t n)
{
    tt_error_format(err, base_of(side), buf, n);
}

/* Read rank k's sidecar into s (an empty store when it has none). */
static int read_rank(const tt_marks *m, size_t k, tt_markstore *s, char *msg, size_t n)
{
    tt_error e;
    char *side;
    tt_error_clear(&e);
    if (!m->src[k].path)
        return 0;
    if (!(side = tt_markers_sidecar(m->src[k].path, false, &e))) {
        tt_error_format(&e, base_of(m->src[k].path), msg, n);
        return -1;
    }
    if (tt_markstore_read(s, side, &e)) {
        side_error(side, &e, msg, n);
        free(side);
        return -1;
    }
    free(side);
    return 0;
}

static int copy_set(tt_markstore *to, const tt_markset *from)
{
    tt_error e;
    tt_error_clear(&e);
    if (tt_markstore_put(to, from->name, from->trace, from->m, from->n, &e))
        return -1;
    return tt_markset_set_job(tt_markstore_find(to, from->name), &from->job);
}

/* Every rank's sets, merged by name (the first rank holding a name
 * gives the set); a sidecar that cannot be read is said in disk_err. */
static int refresh_job(tt_marks *m, tt_error *err)
{
    tt_markstore *one = calloc(m->n_src, sizeof *one);
    bool bad = false;
    int rc = 0;
    free_disk_index(m);
    snprintf(m->sidecar, sizeof m->sidecar, "the %zu ranks' files", m->n_src);
    if (!one)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < m->n_src; k++) {
        char msg[400];
        tt_markstore_init(&one[k]);
        if (read_rank(m, k, &one[k], msg, sizeof msg)) {
            if (!bad)
                snprintf(m->disk_err, sizeof m->disk_err, "%s", msg);
            bad = true;
            continue;
        }
        for (size_t i = 0; i < one[k].n && rc == 0; i++)
            if (!tt_markstore_find(&m->disk, one[k].sets[i].name))
                rc = copy_set(&m->disk, &one[k].sets[i]);
    }
    m->disk_src = calloc(m->disk.n + 1, sizeof *m->disk_src);
    m->disk_count = calloc(m->disk.n + 1, sizeof *m->disk_count);
    if (rc || !m->disk_src || !m->disk_count)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < m->disk.n; i++) {
        bool first = true;
        for (size_t k = 0; k < m->n_src; k++)
            if (tt_markstore_find(&one[k], m->disk.sets[i].name)) {
                if (first)
                    m->disk_src[i] = k;
                first = false;
                m->disk_count[i]++;
            }
    }
    for (size_t k = 0; k < m->n_src; k++)
        tt_markstore_fini(&one[k]);
    free(one);
    if (rc) {
        tt_markstore_fini(&m->disk);
        tt_markstore_init(&m->disk);
        free_disk_index(m);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    m->disk_read = true;
    if (bad)
        return tt_error_set(err, TT_ERR_FORMAT, "%s", m->disk_err);
    return 0;
}

typedef struct job_ctx {
    tt_marks   *m;
    size_t      k;          /* the rank being written */
    const char *name, *to;
} job_ctx;

/* Save: the view's markers in rank k's times, with the job recorded. */
static int edit_save_job(tt_markstore *s, void *ctx, tt_error *err)
{
    job_ctx *c = ctx;
    const tt_marks_src *x = &c->m->src[c->k];
    tt_markset *set = tt_marks_set(c->m), *out;
    tt_marker *conv = malloc((set->n ? set->n : 1) * sizeof *conv);
    tt_markjob job;
    int rc;
    if (!conv)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    for (size_t i = 0; i < set->n; i++) {
        conv[i] = set->m[i];
        conv[i].t = set->m[i].t + x->start;
    }
    rc = tt_markstore_put(s, c->name, x->id, conv, set->n, err) ? -1 : 0;
    free(conv);
    if (rc)
        return -1;
    memset(&job, 0, sizeof job);
    job.align = c->m->align;
    job.rank = x->rank;
    job.ranks = (uint32_t)c->m->n_src;
    job.offset = x->offset;
    job.start = x->start;
    out = tt_markstore_find(s, c->name);
    if (!out || tt_markset_set_job(out, &job))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}

/* Delete or rename in a rank's file that has the set; leave the others. */
static int edit_delete_job(tt_markstore *s, void *ctx, tt_error *err)
{
    job_ctx *c = ctx;
    (void)err;
    return tt_markstore_remove(s, c->name) ? 0 : 1;
}

static int edit_rename_job(tt_markstore *s, void *ctx, tt_error *err)
{
    job_ctx *c = ctx;
    if (!tt_markstore_find(s, c->name))
        return 1;
    return tt_markstore_rename(s, c->name, c->to, err) ? -1 : 0;
}

/* Every rank's sidecar for writing, each checked to read (a corrupt one
 * stops everything before a write); with `taken`, none may hold a set of
 * that name. The paths go to sides[0..n_src) (NULL for a rank without a
 * file). 0, or -1 with err set and nothing to free. */
static int job_sidecars(tt_marks *m, char **sides, const char *taken, tt_error *err)
{
    for (size_t k = 0; k < m->n_src; k++) {
        tt_marks_src *x = &m->src[k];
        tt_markstore one;
        char msg[400];
        int rc = 0;
        sides[k] = NULL;
        if (!x->path) {
            tt_error_set(err, TT_ERR_USAGE, "rank %lld came from standard input: a set of "
                                            "the job is kept beside every rank's file",
                         (long long)x->rank);
            rc = -1;
        } else if (src_id(x, err) || !(sides[k] = tt_markers_sidecar(x->path, true, err))) {
            tt_error_format(err, base_of(x->path), msg, sizeof msg);
            tt_error_set(err, err->code, "%s", msg);
            rc = -1;
        } else {
            tt_markstore_init(&one);
            if (tt_markstore_read(&one, sides[k], err)) {
                side_error(sides[k], err, msg, sizeof msg);
                tt_error_set(err, err->code, "%s (nothing was written)", msg);
                rc = -1;
            } else if (taken && tt_markstore_find(&one, taken)) {
                tt_error_set(err, TT_ERR_USAGE, "%s: a marker set named '%s' already exists",
                             base_of(sides[k]), taken);
                rc = -1;
            }
            tt_markstore_fini(&one);
        }
        if (rc) {
            for (size_t i = 0; i <= k; i++)
                free(sides[i]);
            return -1;
        }
    }
    return 0;
}

/* Apply an edit to every rank's sidecar (see job_sidecars); stops at the
 * first failure, which says how many were changed. */
static int update_job(tt_marks *m, tt_markstore_edit_fn fn, job_ctx *c, const char *taken,
                      tt_error *err)
{
    char **sides = calloc(m->n_src, sizeof *sides);
    int rc = 0;
    if (!sides)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (job_sidecars(m, sides, taken, err)) {
        free(sides);
        return -1;
    }
    for (size_t k = 0; k < m->n_src && rc == 0; k++) {
        c->k = k;
        if (tt_markstore_update(sides[k], fn, c, err)) {
            char msg[400];
            side_error(sides[k], err, msg, sizeof msg);
            tt_error_set(err, err->code, "%s (the files of ranks before rank %lld were "
                                         "changed)", msg, (long long)m->src[k].rank);
            rc = -1;
        }
    }
    for (size_t k = 0; k < m->n_src; k++)
        free(sides[k]);
    free(sides);
    if (rc == 0) {
        tt_error e2;
        tt_error_clear(&e2);
        tt_marks_refresh(m, &e2);
    }
    return rc;
}

/* Load set i of disk: its times moved from its rank's clock to the job's. */
static int load_job(tt_marks *m, size_t i, bool *other, tt_error *err)
{
    const tt_markset *from = &m->disk.sets[i];
    size_t k = m->disk_src ? m->disk_src[i] : 0;
    tt_marks_src *x = &m->src[k];
    tt_markset *cur = tt_marks_set(m);
    if (src_id(x, err))
        return -1;
    *other = from->trace.size != x->id.size || from->trace.hash != x->id.hash;
    if (tt_markset_assign(cur, from->m, from->n, -x->start, err))
        return -1;
    if (from->job.align && m->disk_count[i] == m->n_src && strcmp(from->job.align, m->align) == 0)
        m->note[0] = '\0';
    else if (from->job.align && strcmp(from->job.align, m->align) != 0)
        snprintf(m->note, sizeof m->note, "saved with the clocks aligned %s, shown aligned %s: "
                                          "the times of rank %lld's copy are kept",
                 from->job.align, m->align, (long long)x->rank);
    else
        snprintf(m->note, sizeof m->note, "from rank %lld's file (%zu of %zu ranks have it), "
                                          "its times moved to the job's axis",
                 (long long)x->rank, m->disk_count[i], m->n_src);
    return 0;
}

int tt_marks_refresh(tt_marks *m, tt_error *err)
{
    char *side;
    tt_markstore_fini(&m->disk);
    tt_markstore_init(&m->disk);
    m->disk_read = false;
    m->disk_err[0] = '\0';
    m->built = false;
    if (tt_marks_is_job(m))
        return refresh_job(m, err);
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
    if (tt_marks_is_job(m)) {
        job_ctx jc = {m, 0, name, NULL};
        if (update_job(m, edit_save_job, &jc, NULL, err))
            return -1;
    } else if (update(m, edit_save, &c, err)) {
        return -1;
    }
    snprintf(m->loaded, sizeof m->loaded, "%s", name);
    m->dirty = false;
    m->built = false;
    return 0;
}

int tt_marks_load(tt_marks *m, const char *name, bool *other, tt_error *err)
{
    tt_markset *from, *cur;
    *other = false;
    /* with several ranks, a file that cannot be read does not hide the
     * others' sets */
    if (tt_marks_refresh(m, err) && !(tt_marks_is_job(m) && m->disk_read)) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", m->disk_err);
        return tt_error_set(err, err->code, "%s", msg);
    }
    if (!(from = tt_markstore_find(&m->disk, name)))
        return tt_error_set(err, TT_ERR_USAGE, "there is no set named '%s'", name);
    m->note[0] = '\0';
    if (tt_marks_is_job(m)) {
        if (load_job(m, (size_t)(from - m->disk.sets), other, err))
            return -1;
        goto loaded;
    }
    if (trace_id(m, err))
        return -1;
    *other = from->trace.size != m->id.size || from->trace.hash != m->id.hash;
    cur = tt_marks_set(m);
    if (tt_markset_assign(cur, from->m, from->n, 0, err))
        return -1;
loaded:
    snprintf(m->loaded, sizeof m->loaded, "%s", name);
    m->dirty = false;
    m->chosen[0][0] = m->chosen[1][0] = '\0';
    m->built = false;
    return 0;
}

int tt_marks_delete_set(tt_marks *m, const char *name, tt_error *err)
{
    edit_ctx c = {m, name, NULL};
    if (tt_marks_is_job(m)) {
        job_ctx jc = {m, 0, name, NULL};
        if (update_job(m, edit_delete_job, &jc, NULL, err))
            return -1;
    } else if (update(m, edit_delete, &c, err)) {
        return -1;
    }
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
    if (tt_marks_is_job(m)) {
        job_ctx jc = {m, 0, from, to};
        if (strcmp(from, to) != 0 && update_job(m, edit_rename_job, &jc, to, err))
            return -1;
    } else if (update(m, edit_rename, &c, err)) {
        return -1;
    }
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
    if (m->disk_err[0] && !m->disk_read) {
        if (!tt_plist_add(&m->pl, TT_R_PANEL_TITLE, "Saved sets") ||
            !tt_plist_addf(&m->pl, TT_R_ERR, "cannot read them: %s", m->disk_err))
            return -1;
    } else if (m->disk_read) {
        if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "Saved sets in %s%s", m->sidecar,
                           tt_marks_is_job(m) ? " (S saves beside every rank's trace, in its "
                                                "own times)" : ""))
            return -1;
        if (m->disk_err[0] && !tt_plist_addf(&m->pl, TT_R_ERR, "cannot read one: %s",
                                             m->disk_err))
            return -1;
        if (m->disk.n == 0 &&
            !tt_plist_add(&m->pl, TT_R_PANEL, "  none yet: S saves the markers as a set"))
            return -1;
        for (size_t i = 0; i < m->disk.n; i++) {
            const tt_markset *s = &m->disk.sets[i];
            bool other = m->has_id && (s->trace.size != m->id.size || s->trace.hash != m->id.hash);
            char where[200] = "";
            if (tt_marks_is_job(m) && m->disk_count) {
                other = false;
                if (m->disk_count[i] == m->n_src)
                    snprintf(where, sizeof where, "  (every rank%s)",
                             s->job.align ? "" : "'s file, saved one by one");
                else
                    snprintf(where, sizeof where, "  (rank %lld's file%s)",
                             (long long)m->src[m->disk_src[i]].rank,
                             m->disk_count[i] > 1 ? " and others" : "");
            } else if (s->job.align) {
                snprintf(where, sizeof where, "  (saved in the view of %u ranks)", s->job.ranks);
            }
            snprintf(line, sizeof line, "  %-*s %4zu marker%s%s%s%s", nw, s->name, s->n,
                     s->n == 1 ? "" : "s", strcmp(s->name, m->loaded) == 0 ? "  (on screen)" : "",
                     where, other ? "  (saved for another trace)" : "");
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
