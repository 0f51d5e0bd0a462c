/* markers.c - marker sets in a JSON sidecar (see markers.h). */
#include "config.h"

#include "markers/markers.h"

#include "io/atomic.h"
#include "model/trace.h"
#include "util/hash.h"
#include "util/json.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define ID_PREFIX_BYTES ((size_t)1 << 20)
#define SIDECAR_MAX ((size_t)64 << 20)
#define FORMAT_NAME "tracetty-markers"
#define FORMAT_VERSION 1

/* -------------------------------------------------------------- identity */

int tt_trace_id_of(const char *trace_path, tt_trace_id *id, tt_error *err)
{
    int fd;
    struct stat st;
    unsigned char *buf;
    ssize_t got;
    size_t have = 0;
    if (strcmp(trace_path, "-") == 0)
        return tt_error_set(err, TT_ERR_USAGE, "markers need a trace file, not standard input");
    fd = open(trace_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tt_error_set(err, TT_ERR_IO, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tt_error_set(err, TT_ERR_IO, "not a regular file");
    }
    buf = malloc(ID_PREFIX_BYTES);
    if (!buf) {
        close(fd);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    while (have < ID_PREFIX_BYTES) {
        got = read(fd, buf + have, ID_PREFIX_BYTES - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            close(fd);
            return tt_error_set(err, TT_ERR_IO, "read error: %s", strerror(errno));
        }
        if (got == 0)
            break;
        have += (size_t)got;
    }
    close(fd);
    id->size = (uint64_t)st.st_size;
    id->hash = tt_hash_bytes(buf, have, 0x7472616365747479ULL);
    free(buf);
    return 0;
}

static int dir_writable(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        return access(".", W_OK) == 0;
    if ((size_t)(slash - path) >= sizeof dir)
        return 0;
    if (slash == path)
        return access("/", W_OK) == 0;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    return access(dir, W_OK) == 0;
}

static int mkdir_p(const char *dir)
{
    char tmp[PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof tmp)
        return -1;
    memcpy(tmp, dir, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

char *tt_markers_sidecar(const char *trace_path, bool writing, tt_error *err)
{
    size_t n;
    char *beside;
    const char *base, *xdg, *home;
    char real[PATH_MAX], dir[PATH_MAX], *out;
    if (strcmp(trace_path, "-") == 0) {
        tt_error_set(err, TT_ERR_USAGE, "markers need a trace file, not standard input");
        return NULL;
    }
    n = strlen(trace_path);
    beside = malloc(n + sizeof ".markers.json");
    if (!beside) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(beside, trace_path, n);
    memcpy(beside + n, ".markers.json", sizeof ".markers.json");
    if (dir_writable(trace_path) || (!writing && access(beside, R_OK) == 0))
        return beside;
    free(beside);

    /* Read-only directory: keep sets per user, keyed by the trace's real
     * path so two traces with the same file name do not share a file. */
    if (!realpath(trace_path, real)) {
        tt_error_set(err, TT_ERR_IO, "cannot resolve path: %s", strerror(errno));
        return NULL;
    }
    xdg = getenv("XDG_DATA_HOME");
    home = getenv("HOME");
    if (xdg && *xdg == '/')
        snprintf(dir, sizeof dir, "%s/tracetty", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/share/tracetty", home);
    else {
        tt_error_set(err, TT_ERR_IO, "the trace's directory is not writable and neither "
                                     "XDG_DATA_HOME nor HOME is set");
        return NULL;
    }
    if (writing && mkdir_p(dir) != 0) {
        tt_error_set(err, TT_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
        return NULL;
    }
    base = strrchr(real, '/');
    base = base ? base + 1 : real;
    n = strlen(dir) + strlen(base) + 48;
    out = malloc(n);
    if (!out) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(out, n, "%s/%s-%016llx.markers.json", dir, base,
             (unsigned long long)tt_hash_bytes(real, strlen(real), 0));
    return out;
}

/* ----------------------------------------------------------------- sets */

void tt_markstore_init(tt_markstore *s)
{
    s->sets = NULL;
    s->n = s->cap = 0;
}

static void markset_fini(tt_markset *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->m[i].name);
        free(set->m[i].note);
    }
    free(set->m);
    free(set->name);
    free(set->job.align);
    memset(set, 0, sizeof *set);
}

void tt_markstore_fini(tt_markstore *s)
{
    for (size_t i = 0; i < s->n; i++)
        markset_fini(&s->sets[i]);
    free(s->sets);
    tt_markstore_init(s);
}

tt_markset *tt_markstore_find(tt_markstore *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->sets[i].name, name) == 0)
            return &s->sets[i];
    return NULL;
}

tt_markset *tt_markstore_get(tt_markstore *s, const char *name, tt_trace_id id)
{
    tt_markset *set = tt_markstore_find(s, name);
    size_t pos;
    if (set)
        return set;
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 8;
        tt_markset *ns = realloc(s->sets, nc * sizeof *ns);
        if (!ns)
            return NULL;
        s->sets = ns;
        s->cap = nc;
    }
    /* keep sets sorted by name */
    for (pos = 0; pos < s->n && strcmp(s->sets[pos].name, name) < 0; pos++)
        ;
    memmove(&s->sets[pos + 1], &s->sets[pos], (s->n - pos) * sizeof *s->sets);
    set = &s->sets[pos];
    memset(set, 0, sizeof *set);
    set->name = strdup(name);
    if (!set->name) {
        memmove(&s->sets[pos], &s->sets[pos + 1], (s->n - pos) * sizeof *s->sets);
        return NULL;
    }
    set->trace = id;
    s->n++;
    return set;
}

bool tt_markstore_remove(tt_markstore *s, const char *name)
{
    tt_markset *set = tt_markstore_find(s, name);
    size_t i;
    if (!set)
        return false;
    i = (size_t)(set - s->sets);
    markset_fini(set);
    memmove(&s->sets[i], &s->sets[i + 1], (s->n - i - 1) * sizeof *s->sets);
    s->n--;
    return true;
}

int tt_markstore_rename(tt_markstore *s, const char *from, const char *to, tt_error *err)
{
    tt_markset *set = tt_markstore_find(s, from), moved;
    size_t i, pos;
    char *nn;
    if (!set)
        return tt_error_set(err, TT_ERR_USAGE, "no marker set named '%s'", from);
    if (strcmp(from, to) == 0)
        return 0;
    if (tt_markstore_find(s, to))
        return tt_error_set(err, TT_ERR_USAGE, "a marker set named '%s' already exists", to);
    if (!(nn = strdup(to)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    /* take the set out and reinsert it at its sorted place */
    i = (size_t)(set - s->sets);
    moved = *set;
    free(moved.name);
    moved.name = nn;
    memmove(&s->sets[i], &s->sets[i + 1], (s->n - i - 1) * sizeof *s->sets);
    s->n--;
    for (pos = 0; pos < s->n && strcmp(s->sets[pos].name, to) < 0; pos++)
        ;
    memmove(&s->sets[pos + 1], &s->sets[pos], (s->n - pos) * sizeof *s->sets);
    s->sets[pos] = moved;
    s->n++;
    return 0;
}

static int marker_before(const tt_marker *a, int64_t t, const char *name)
{
    if (a->t != t)
        return a->t < t;
    return strcmp(a->name, name) <= 0;
}

/* Insert a marker at its place in (time, name) order, names unchecked.
 * Returns its index or -1 on OOM. */
static long markset_insert(tt_markset *set, int64_t t, const char *name, const char *note)
{
    size_t pos;
    tt_marker mk;
    if (set->n == set->cap) {
        size_t nc = set->cap ? set->cap * 2 : 8;
        tt_marker *nm = realloc(set->m, nc * sizeof *nm);
        if (!nm)
            return -1;
        set->m = nm;
        set->cap = nc;
    }
    mk.t = t;
    mk.name = strdup(name ? name : "");
    mk.note = strdup(note ? note : "");
    if (!mk.name || !mk.note) {
        free(mk.name);
        free(mk.note);
        return -1;
    }
    for (pos = set->n; pos > 0 && !marker_before(&set->m[pos - 1], t, mk.name); pos--)
        ;
    memmove(&set->m[pos + 1], &set->m[pos], (set->n - pos) * sizeof *set->m);
    set->m[pos] = mk;
    set->n++;
    return (long)pos;
}

long tt_markset_find(const tt_markset *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->m[i].name, name) == 0)
            return (long)i;
    return -1;
}

size_t tt_markset_count(const tt_markset *set, const char *name)
{
    size_t k = 0;
    for (size_t i = 0; i < set->n; i++)
        k += strcmp(set->m[i].name, name) == 0;
    return k;
}

int tt_marker_name_check(const char *name, tt_error *err)
{
    if (!name[0])
        return tt_error_set(err, TT_ERR_USAGE, "a marker name cannot be empty");
    /* "A:B" of report --between splits at the first colon */
    if (strchr(name, ':'))
        return tt_error_set(err, TT_ERR_USAGE,
                            "a marker name cannot hold ':' (report --between A:B splits there)");
    return 0;
}

/* Is `name` taken by a marker other than `self` (SIZE_MAX: none)? Then
 * err says by which. */
static bool name_taken(const tt_markset *set, const char *name, size_t self, tt_error *err)
{
    for (size_t i = 0; i < set->n; i++) {
        char at[48];
        if (i == self || strcmp(set->m[i].name, name) != 0)
            continue;
        tt_error_set(err, TT_ERR_USAGE, "there is a marker named '%s' already (at %s)", name,
                     tt_fmt_dur(at, sizeof at, set->m[i].t, 3));
        return true;
    }
    return false;
}

long tt_markset_add(tt_markset *set, int64_t t, const char *name, const char *note,
                    tt_error *err)
{
    long i;
    if ((name && tt_marker_name_check(name, err)) ||
        name_taken(set, name ? name : "", SIZE_MAX, err))
        return -1;
    if ((i = markset_insert(set, t, name, note)) < 0)
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return i;
}

int tt_markset_assign(tt_markset *set, const tt_marker *m, size_t n, int64_t shift,
                      tt_error *err)
{
    while (set->n)
        tt_markset_remove(set, set->n - 1);
    for (size_t i = 0; i < n; i++)
        if (markset_insert(set, m[i].t + shift, m[i].name, m[i].note) < 0) {
            while (set->n)
                tt_markset_remove(set, set->n - 1);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
    return 0;
}

void tt_markset_remove(tt_markset *set, size_t i)
{
    if (i >= set->n)
        return;
    free(set->m[i].name);
    free(set->m[i].note);
    memmove(&set->m[i], &set->m[i + 1], (set->n - i - 1) * sizeof *set->m);
    set->n--;
}

int tt_markset_rename(tt_markset *set, size_t i, const char *name, tt_error *err)
{
    char *nn;
    tt_marker mk;
    if (i >= set->n)
        return tt_error_set(err, TT_ERR_USAGE, "no such marker");
    if (tt_marker_name_check(name, err) || name_taken(set, name, i, err))
        return -1;
    if (!(nn = strdup(name)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    /* the order is (time, name): take the marker out and put it back */
    mk = set->m[i];
    free(mk.name);
    mk.name = nn;
    memmove(&set->m[i], &set->m[i + 1], (set->n - i - 1) * sizeof *set->m);
    set->n--;
    {
        size_t pos;
        for (pos = set->n; pos > 0 && !marker_before(&set->m[pos - 1], mk.t, mk.name); pos--)
            ;
        memmove(&set->m[pos + 1], &set->m[pos], (set->n - pos) * sizeof *set->m);
        set->m[pos] = mk;
        set->n++;
    }
    return 0;
}

int tt_markset_note(tt_markset *set, size_t i, const char *note)
{
    char *nn;
    if (i >= set->n || !(nn = strdup(note)))
        return -1;
    free(set->m[i].note);
    set->m[i].note = nn;
    return 0;
}

int tt_markset_resolve(const tt_markset *set, const char *ref, int64_t *t, tt_error *err)
{
    long i = set ? tt_markset_find(set, ref) : -1;
    size_t k;
    if (i >= 0 && (k = tt_markset_count(set, ref)) > 1)
        /* only a file an older version wrote holds a name twice */
        return tt_error_set(err, TT_ERR_USAGE, "marker name '%s' is ambiguous: %zu markers of "
                                               "set '%s' have it (rename all but one)",
                            ref, k, set->name);
    if (i >= 0) {
        *t = set->m[i].t;
        return 0;
    }
    if (tt_parse_duration(ref, t) == TT_NUM_OK) {
        *t = tt_time_clamp(*t);
        return 0;
    }
    if (set)
        return tt_error_set(err, TT_ERR_USAGE, "no marker named '%s' in set '%s'", ref, set->name);
    return tt_error_set(err, TT_ERR_USAGE, "'%s' is not a time", ref);
}

int tt_markstore_put(tt_markstore *s, const char *name, tt_trace_id id,
                     const tt_marker *m, size_t n, tt_error *err)
{
    tt_markset *set;
    tt_markstore_remove(s, name);
    set = tt_markstore_get(s, name, id);
    if (!set)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return tt_markset_assign(set, m, n, 0, err);
}

int tt_markset_set_job(tt_markset *set, const tt_markjob *job)
{
    char *align = NULL;
    if (job && job->align && !(align = strdup(job->align)))
        return -1;
    free(set->job.align);
    memset(&set->job, 0, sizeof set->job);
    if (align) {
        set->job = *job;
        set->job.align = align;
    }
    return 0;
}

/* ----------------------------------------------------------- JSON form */

bool tt_markset_add_job_json(struct cJSON *obj, const tt_markset *set)
{
    const tt_markjob *j = &set->job;
    cJSON *o;
    if (!j->align)
        return true;
    return (o = cJSON_AddObjectToObject(obj, "job")) &&
           cJSON_AddStringToObject(o, "align", j->align) &&
           cJSON_AddNumberToObject(o, "rank", (double)j->rank) &&
           cJSON_AddNumberToObject(o, "ranks", (double)j->ranks) &&
           /* exact: an epoch-based job start is beyond a double's 2^53 */
           tt_json_add_int(o, "offset_ns", j->offset) &&
           tt_json_add_int(o, "job_start_ns", j->start);
}

bool tt_markset_add_json(struct cJSON *obj, const tt_markset *set)
{
    cJSON *ms = cJSON_AddArrayToObject(obj, "markers");
    if (!ms)
        return false;
    for (size_t k = 0; k < set->n; k++) {
        cJSON *m = cJSON_CreateObject();
        if (!m)
            return false;
        cJSON_AddItemToArray(ms, m);
        if (!cJSON_AddStringToObject(m, "name", set->m[k].name) ||
            !cJSON_AddNumberToObject(m, "t_ns", (double)set->m[k].t) ||
            !cJSON_AddStringToObject(m, "note", set->m[k].note))
            return false;
    }
    return true;
}

/* One set as the sidecar holds it; false when out of memory. */
static bool add_set_json(cJSON *sets, const tt_markset *set)
{
    cJSON *o = cJSON_CreateObject(), *tr;
    char hash[24];
    if (!o)
        return false;
    cJSON_AddItemToArray(sets, o);
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)set->trace.hash);
    return cJSON_AddStringToObject(o, "name", set->name) &&
           (tr = cJSON_AddObjectToObject(o, "trace")) &&
           cJSON_AddNumberToObject(tr, "size", (double)set->trace.size) &&
           cJSON_AddStringToObject(tr, "hash", hash) && tt_markset_add_job_json(o, set) &&
           tt_markset_add_json(o, set);
}

char *tt_markstore_to_json(const tt_markstore *s)
{
    cJSON *root = cJSON_CreateObject(), *sets;
    char *text = NULL;
    bool ok = root && cJSON_AddStringToObject(root, "format", FORMAT_NAME) &&
              cJSON_AddNumberToObject(root, "version", FORMAT_VERSION) &&
              (sets = cJSON_AddArrayToObject(root, "sets"));
    for (size_t i = 0; ok && i < s->n; i++)
        ok = add_set_json(sets, &s->sets[i]);
    /* a partial document would drop markers from the sidecar */
    if (ok)
        text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

static void text_position(const char *text, const char *at, int64_t *line, int64_t *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static int shape_error(tt_error *err, const char *what, const char *set)
{
    if (set)
        return tt_error_set(err, TT_ERR_FORMAT, "marker set '%s': %s", set, what);
    return tt_error_set(err, TT_ERR_FORMAT, "%s", what);
}

/* Exact integer from a JSON number (markers are whole nanoseconds). */
static int json_int64(const cJSON *v, int64_t *out)
{
    double d;
    if (!cJSON_IsNumber(v))
        return -1;
    d = v->valuedouble;
    if (!(d >= -9.2e18 && d <= 9.2e18) || d != (double)(int64_t)d)
        return -1;
    *out = (int64_t)d;
    return 0;
}

/* A time from the file (a marker's t_ns, a job's offset or start):
 * brought within the time limits like a typed time (tt_time_clamp), since
 * a hand-edited 9e18 would overflow t0 + t and the distance of two
 * markers. */
static int json_time(const cJSON *v, int64_t *out)
{
    if (json_int64(v, out))
        return -1;
    *out = tt_time_clamp(*out);
    return 0;
}

/* The optional "job" record of a set (see tt_markjob). */
static int job_from_json(tt_markset *set, const cJSON *o, tt_error *err)
{
    const cJSON *al;
    tt_markjob j;
    int64_t v;
    if (!o)
        return 0;
    al = cJSON_GetObjectItemCaseSensitive(o, "align");
    if (!cJSON_IsObject(o) || !cJSON_IsString(al))
        return shape_error(err, "\"job\" must be an object with a string \"align\"", set->name);
    memset(&j, 0, sizeof j);
    j.align = al->valuestring;
    if (json_int64(cJSON_GetObjectItemCaseSensitive(o, "rank"), &j.rank) != 0 ||
        json_time(cJSON_GetObjectItemCaseSensitive(o, "offset_ns"), &j.offset) != 0 ||
        json_time(cJSON_GetObjectItemCaseSensitive(o, "job_start_ns"), &j.start) != 0 ||
        json_int64(cJSON_GetObjectItemCaseSensitive(o, "ranks"), &v) != 0 || v < 0 ||
        v > UINT32_MAX)
        return shape_error(err, "\"job\" needs integer \"rank\", \"ranks\", \"offset_ns\" "
                                "and \"job_start_ns\"", set->name);
    j.ranks = (uint32_t)v;
    if (tt_markset_set_job(set, &j))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return 0;
}

static int markstore_from_json(tt_markstore *s, const cJSON *root, tt_error *err)
{
    const cJSON *fmt, *ver, *sets, *o;
    if (!cJSON_IsObject(root))
        return shape_error(err, "expected a JSON object", NULL);
    fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    sets = cJSON_GetObjectItemCaseSensitive(root, "sets");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, FORMAT_NAME) != 0)
        return shape_error(err, "not a tracetty marker file (\"format\" is not \"" FORMAT_NAME "\")", NULL);
    if (!cJSON_IsNumber(ver) || ver->valuedouble > FORMAT_VERSION)
        return shape_error(err, "unsupported marker file version", NULL);
    if (!cJSON_IsArray(sets))
        return shape_error(err, "\"sets\" must be an array", NULL);
    cJSON_ArrayForEach(o, sets) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(o, "trace");
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(o, "markers"), *m;
        tt_trace_id id = {0, 0};
        tt_markset *set;
        if (!cJSON_IsString(name) || !*name->valuestring)
            return shape_error(err, "a set without a name", NULL);
        if (tt_markstore_find(s, name->valuestring))
            return shape_error(err, "the set appears twice", name->valuestring);
        if (cJSON_IsObject(tr)) {
            const cJSON *sz = cJSON_GetObjectItemCaseSensitive(tr, "size");
            const cJSON *h = cJSON_GetObjectItemCaseSensitive(tr, "hash");
            int64_t v;
            if (json_int64(sz, &v) == 0 && v >= 0)
                id.size = (uint64_t)v;
            if (cJSON_IsString(h))
                id.hash = strtoull(h->valuestring, NULL, 16);
        }
        if (!cJSON_IsArray(ms))
            return shape_error(err, "\"markers\" must be an array", name->valuestring);
        if (!(set = tt_markstore_get(s, name->valuestring, id)))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        if (job_from_json(set, cJSON_GetObjectItemCaseSensitive(o, "job"), err))
            return -1;
        cJSON_ArrayForEach(m, ms) {
            const cJSON *mn = cJSON_GetObjectItemCaseSensitive(m, "name");
            const cJSON *mt = cJSON_GetObjectItemCaseSensitive(m, "t_ns");
            const cJSON *note = cJSON_GetObjectItemCaseSensitive(m, "note");
            int64_t t;
            if (!cJSON_IsString(mn) || json_time(mt, &t) != 0)
                return shape_error(err, "a marker needs a string \"name\" and an integer \"t_ns\"",
                                   name->valuestring);
            /* a name twice (an older version allowed it) still loads */
            if (markset_insert(set, t, mn->valuestring,
                               cJSON_IsString(note) ? note->valuestring : "") < 0)
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}

int tt_markstore_read(tt_markstore *s, const char *sidecar, tt_error *err)
{
    FILE *f = fopen(sidecar, "rb");
    char *text;
    size_t n = 0;
    cJSON *root;
    const char *end = NULL;
    int rc;
    tt_markstore_fini(s);
    if (!f) {
        if (errno == ENOENT)
            return 0;
        return tt_error_set(err, TT_ERR_IO, "cannot open: %s", strerror(errno));
    }
    text = malloc(SIDECAR_MAX + 1);
    if (!text) {
        fclose(f);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    n = fread(text, 1, SIDECAR_MAX + 1, f);
    if (ferror(f)) {
        fclose(f);
        free(text);
        return tt_error_set(err, TT_ERR_IO, "read error");
    }
    fclose(f);
    if (n > SIDECAR_MAX) {
        free(text);
        return tt_error_set(err, TT_ERR_FORMAT, "marker file larger than 64 MB");
    }
    text[n] = '\0';
    /* the length includes the NUL: cJSON checks it for require_null_terminated */
    root = cJSON_ParseWithLengthOpts(text, n + 1, &end, 1);
    if (!root) {
        int64_t line, col;
        text_position(text, end ? end : text + n, &line, &col);
        free(text);
        return tt_error_at_line(err, TT_ERR_FORMAT, -1, line, col,
                                "marker file is not valid JSON (left untouched)");
    }
    free(text);
    rc = markstore_from_json(s, root, err);
    cJSON_Delete(root);
    if (rc)
        tt_markstore_fini(s);
    return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- update */

int tt_markstore_update(const char *sidecar, tt_markstore_edit_fn edit, void *ctx,
                        tt_error *err)
{
    size_t n = strlen(sidecar);
    char *lockpath = malloc(n + sizeof ".lock");
    int lockfd, rc = -1;
    tt_markstore s;
    if (!lockpath)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    memcpy(lockpath, sidecar, n);
    memcpy(lockpath + n, ".lock", sizeof ".lock");
    /* The lock file is removed when done, so that none is left beside the
     * trace. A writer that waited on a file its holder then removed finds
     * the path gone or another file there, and locks again. */
    for (;;) {
        struct stat held, now;
        lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (lockfd < 0) {
            tt_error_set(err, TT_ERR_IO, "cannot create the lock file: %s", strerror(errno));
            free(lockpath);
            return -1;
        }
        while (flock(lockfd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                tt_error_set(err, TT_ERR_IO, "cannot lock: %s", strerror(errno));
                close(lockfd);
                free(lockpath);
                return -1;
            }
        }
        if (fstat(lockfd, &held) == 0 && stat(lockpath, &now) == 0 &&
            held.st_dev == now.st_dev && held.st_ino == now.st_ino)
            break;
        close(lockfd);
    }
    tt_markstore_init(&s);
    if (tt_markstore_read(&s, sidecar, err) == 0) {
        int e = edit(&s, ctx, err);
        if (e == 0) {
            char *text = tt_markstore_to_json(&s);
            tt_atomic a = {0};
            if (!text) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            } else if (tt_atomic_open(&a, sidecar, err) == 0) {
                if (tt_atomic_write(&a, text, strlen(text), err) == 0 &&
                    tt_atomic_write(&a, "\n", 1, err) == 0 && tt_atomic_commit(&a, err) == 0)
                    rc = 0;
                else
                    tt_atomic_abort(&a);
            }
            free(text);
        } else if (e > 0) {
            rc = 0;
        }
    }
    tt_markstore_fini(&s);
    unlink(lockpath);   /* while still holding it: see above */
    free(lockpath);
    flock(lockfd, LOCK_UN);
    close(lockfd);
    return rc;
}
