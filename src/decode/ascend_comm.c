/* ascend_comm.c - reading communication.json and communication_matrix.json
 * (see ascend_comm.h). Both are {STEP: {"p2p"|"collective": {OP@GROUP:
 * ...}}}; an op of communication.json holds "Communication Time Info", an
 * op of the matrix one object per link "SRC-DST". Errors name the file
 * and the line and column (syntax) or the JSON path (a member missing or
 * of the wrong type). */
#include "config.h"

#include "decode/ascend_comm.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The side files are small (KB to a few MB); a bigger one is not one. */
#define MAX_FILE ((size_t)512 << 20)

static int oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

const char *tt_comm_dirname(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, cap, ".");
    else if (slash == path)
        snprintf(buf, cap, "/");
    else
        snprintf(buf, cap, "%.*s", (int)(slash - path), path);
    return buf;
}

bool tt_comm_counts_in_total(const char *op)
{
    /* msprof-analyze's check_add_op: the profiler's top/middle/bottom
     * aggregates repeat ops the "-total" aggregate already holds */
    return !strstr(op, "middle") && !strstr(op, "top") && !strstr(op, "bottom");
}

double tt_comm_ratio(double a, double b)
{
    return b != 0 ? a / b : 0;
}

/* ------------------------------------------------------------ reading */

static int read_file(const char *path, char **out, size_t *n, tt_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f)
        return tt_error_set(err, TT_ERR_IO, "%s: cannot open: %s", path, strerror(errno)), -1;
    for (;;) {
        size_t got;
        if (cap - len < 65536 + 1) {
            size_t nc = cap ? cap * 2 : 65536 * 2;
            char *nb;
            if (nc > MAX_FILE + 1) {
                fclose(f);
                free(buf);
                return tt_error_set(err, TT_ERR_FORMAT, "%s: larger than %zu MB: not a "
                                    "communication file", path, MAX_FILE >> 20), -1;
            }
            if (!(nb = realloc(buf, nc))) {
                fclose(f);
                free(buf);
                return oom(err);
            }
            buf = nb;
            cap = nc;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return tt_error_set(err, TT_ERR_IO, "%s: cannot read: %s", path, strerror(errno)), -1;
    }
    fclose(f);
    buf[len] = '\0';
    *out = buf;
    *n = len;
    return 0;
}

/* Whether text[0..n) is a JSON document cut off: it ends inside a string
 * or with an object or array still open (profilers killed at job end). */
static bool cut_off(const char *text, size_t n)
{
    size_t depth = 0;
    bool str = false, esc = false, any = false;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        if (str) {
            if (esc)
                esc = false;
            else if (ch == '\\')
                esc = true;
            else if (ch == '"')
                str = false;
        } else if (ch == '"') {
            str = true;
        } else if (ch == '{' || ch == '[') {
            depth++;
            any = true;
        } else if ((ch == '}' || ch == ']') && depth) {
            depth--;
        }
    }
    return str || (any && depth > 0);
}

static void text_pos(const char *text, const char *at, int64_t *line, int64_t *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* The file's name and path so far, for errors: "step50.collective.OP". */
typedef struct jctx {
    const char *path;
    tt_error   *err;
    char        where[600];
} jctx;

static int bad(jctx *j, const char *fmt, const char *a)
{
    char what[300];
    snprintf(what, sizeof what, fmt, a);
    return tt_error_set(j->err, TT_ERR_FORMAT, "%s: at %s: %s", j->path,
                        j->where[0] ? j->where : "the top level", what), -1;
}

static void where_push(jctx *j, size_t *mark, const char *key)
{
    size_t n = strlen(j->where);
    *mark = n;
    snprintf(j->where + n, sizeof j->where - n, "%s%s", n ? "." : "", key);
}

static void where_pop(jctx *j, size_t mark)
{
    j->where[mark] = '\0';
}

/* A number member of o, or an error naming it. */
static int member_num(jctx *j, const cJSON *o, const char *key, double *v)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!m)
        return bad(j, "no \"%s\" member", key);
    if (!cJSON_IsNumber(m))
        return bad(j, "\"%s\" is not a number", key);
    *v = m->valuedouble;
    return 0;
}

static char *dup_str(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* step, type, op and group of an OP@GROUP key, owned. */
typedef struct names {
    char *step, *type, *op, *group;
} names;

static int names_set(names *nm, const char *step, const char *type, const char *key)
{
    const char *at = strrchr(key, '@');
    nm->step = strdup(step);
    nm->type = strdup(type);
    nm->op = at ? dup_str(key, (size_t)(at - key)) : strdup(key);
    nm->group = strdup(at ? at + 1 : "");
    return nm->step && nm->type && nm->op && nm->group ? 0 : -1;
}

static void names_free(names *nm)
{
    free(nm->step);
    free(nm->type);
    free(nm->op);
    free(nm->group);
}

static int add_op(tt_comm *c, jctx *j, const names *nm, const cJSON *op)
{
    const cJSON *ti = cJSON_GetObjectItemCaseSensitive(op, "Communication Time Info");
    tt_comm_op o;
    size_t mark;
    int rc;
    memset(&o, 0, sizeof o);
    if (!ti)
        return bad(j, "no \"%s\" member", "Communication Time Info");
    if (!cJSON_IsObject(ti))
        return bad(j, "\"%s\" is not an object", "Communication Time Info");
    where_push(j, &mark, "Communication Time Info");
    rc = member_num(j, ti, "Elapse Time(ms)", &o.elapse_ms) ||
         member_num(j, ti, "Transit Time(ms)", &o.transit_ms) ||
         member_num(j, ti, "Wait Time(ms)", &o.wait_ms) ||
         member_num(j, ti, "Synchronization Time(ms)", &o.sync_ms) ||
         member_num(j, ti, "Idle Time(ms)", &o.idle_ms);
    if (!rc && cJSON_GetObjectItemCaseSensitive(ti, "Start Timestamp(us)")) {
        rc = member_num(j, ti, "Start Timestamp(us)", &o.start_us);
        o.has_start = true;
    }
    where_pop(j, mark);
    if (rc)
        return -1;
    o.has_elapse = true;
    o.step = nm->step;
    o.type = nm->type;
    o.op = nm->op;
    o.group = nm->group;
    return tt_comm_push_op(c, &o) ? oom(j->err) : 0;
}

int tt_comm_push_op(tt_comm *c, const tt_comm_op *o)
{
    if (c->n_ops == c->cap_ops) {
        size_t nc = c->cap_ops ? c->cap_ops * 2 : 64;
        tt_comm_op *nv = realloc(c->ops, nc * sizeof *nv);
        if (!nv)
            return -1;
        c->ops = nv;
        c->cap_ops = nc;
    }
    c->ops[c->n_ops++] = *o;
    return 0;
}

int tt_comm_push_link(tt_comm *c, const tt_comm_link *l)
{
    if (c->n_links == c->cap_links) {
        size_t nc = c->cap_links ? c->cap_links * 2 : 64;
        tt_comm_link *nv = realloc(c->links, nc * sizeof *nv);
        if (!nv)
            return -1;
        c->links = nv;
        c->cap_links = nc;
    }
    c->links[c->n_links++] = *l;
    return 0;
}

bool tt_comm_link_ranks(const char *key, int64_t *src, int64_t *dst)
{
    char *end;
    long long a, b;
    errno = 0;
    a = strtoll(key, &end, 10);
    if (end == key || *end != '-' || errno)
        return false;
    key = end + 1;
    b = strtoll(key, &end, 10);
    if (end == key || *end || errno || a < 0 || b < 0)
        return false;
    *src = a;
    *dst = b;
    return true;
}

static int add_link(tt_comm *c, jctx *j, const names *nm, const char *key, const cJSON *l)
{
    tt_comm_link k;
    const cJSON *tt, *on;
    size_t mark;
    int rc;
    memset(&k, 0, sizeof k);
    if (!tt_comm_link_ranks(key, &k.src, &k.dst))
        return bad(j, "link \"%s\" is not SRC-DST (two ranks)", key);
    where_push(j, &mark, key);
    if (!cJSON_IsObject(l)) {
        rc = bad(j, "a link is an object, not %s", cJSON_IsArray(l) ? "an array" : "a value");
        where_pop(j, mark);
        return rc;
    }
    tt = cJSON_GetObjectItemCaseSensitive(l, "Transport Type");
    rc = !cJSON_IsString(tt) ? bad(j, tt ? "\"%s\" is not a string" : "no \"%s\" member",
                                   "Transport Type")
         : member_num(j, l, "Transit Size(MB)", &k.size_mb) ||
               member_num(j, l, "Transit Time(ms)", &k.time_ms) ||
               member_num(j, l, "Bandwidth(GB/s)", &k.bw_gbs);
    where_pop(j, mark);
    if (rc)
        return -1;
    on = cJSON_GetObjectItemCaseSensitive(l, "Op Name");
    if (tt_comm_link_names(&k, nm->step, nm->type, nm->op, nm->group, tt->valuestring,
                           cJSON_IsString(on) ? on->valuestring : "") ||
        tt_comm_push_link(c, &k)) {
        tt_comm_link_fini(&k);
        return oom(j->err);
    }
    return 0;
}

static int walk(tt_comm *c, jctx *j, const cJSON *root, bool matrix)
{
    const cJSON *step, *type, *op;
    if (!cJSON_IsObject(root))
        return bad(j, "expected {STEP: {\"collective\": {...}, \"p2p\": {...}}}%s", "");
    cJSON_ArrayForEach(step, root) {
        size_t m1;
        where_push(j, &m1, step->string);
        if (!cJSON_IsObject(step))
            return bad(j, "a step is an object of %s", "\"collective\" and \"p2p\"");
        cJSON_ArrayForEach(type, step) {
            size_t m2;
            where_push(j, &m2, type->string);
            if (!cJSON_IsObject(type))
                return bad(j, "expected an object of ops%s", "");
            cJSON_ArrayForEach(op, type) {
                size_t m3;
                names nm;
                int rc = 0;
                where_push(j, &m3, op->string);
                if (!cJSON_IsObject(op))
                    return bad(j, "an op is an object%s", "");
                /* the profiler's own step total: the reports compute it per
                 * group from the ops (tests check the two agree) */
                if (strcmp(op->string, "Total Op Info") == 0) {
                    where_pop(j, m3);
                    continue;
                }
                if (names_set(&nm, step->string, type->string, op->string)) {
                    names_free(&nm);
                    return oom(j->err);
                }
                if (matrix) {
                    const cJSON *l;
                    cJSON_ArrayForEach(l, op) {
                        if ((rc = add_link(c, j, &nm, l->string, l)))
                            break;
                    }
                    names_free(&nm);
                } else if ((rc = add_op(c, j, &nm, op))) {
                    names_free(&nm);
                }   /* else the op owns the names */
                if (rc)
                    return -1;
                where_pop(j, m3);
            }
            where_pop(j, m2);
        }
        where_pop(j, m1);
    }
    return 0;
}

int tt_comm_load_json(tt_comm *c, const char *path, bool matrix, tt_error *err)
{
    char *text;
    size_t n;
    const char *end = NULL;
    cJSON *root;
    jctx j;
    int rc;
    if (read_file(path, &text, &n, err))
        return -1;
    root = cJSON_ParseWithLengthOpts(text, n + 1, &end, 1);
    if (!root) {
        int64_t line, col;
        const char *at = end && end >= text && end <= text + n ? end : text + n;
        if (cut_off(text, n))
            at = text + n;
        text_pos(text, at, &line, &col);
        rc = tt_error_set(err, TT_ERR_FORMAT, "%s: line %lld, column %lld (byte %lld): %s",
                          path, (long long)line, (long long)col, (long long)(at - text),
                          at >= text + n ? "the file ends inside the JSON document: it is cut off"
                                         : "invalid JSON");
        free(text);
        (void)rc;
        return -1;
    }
    free(text);
    memset(&j, 0, sizeof j);
    j.path = path;
    j.err = err;
    rc = walk(c, &j, root, matrix);
    cJSON_Delete(root);
    if (rc)
        return -1;
    if (matrix)
        c->has_matrix = true;
    else
        c->has_time = true;
    return 0;
}

int tt_comm_load_dir(const char *dir, unsigned which, tt_comm **out, tt_error *err)
{
    static const char *const files[2] = {"communication.json", "communication_matrix.json"};
    tt_comm *c = NULL;
    *out = NULL;
    for (int i = 0; i < 2; i++) {
        char path[4096];
        FILE *f;
        if (!(which & (i == 0 ? TT_COMM_TIME : TT_COMM_MATRIX)))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (!(f = fopen(path, "rb")))
            continue;
        fclose(f);
        if (!c && !(c = calloc(1, sizeof *c)))
            return oom(err);
        if (tt_comm_load_json(c, path, i == 1, err)) {
            tt_comm_free(c);
            return -1;
        }
    }
    *out = c;
    return c ? TT_COMM_FOUND : TT_COMM_NONE;
}

static bool same(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool same_group(const tt_comm_link *a, const tt_comm_link *b)
{
    return same(a->step, b->step) && same(a->type, b->type) && same(a->group, b->group);
}

int tt_comm_link_totals(const tt_comm *cm, tt_comm_total **out, size_t *n_out)
{
    tt_comm_total *t = NULL;
    size_t n = 0;
    bool *done = calloc(cm->n_links + 1, sizeof *done);
    *out = NULL;
    *n_out = 0;
    if (!done)
        return -1;
    for (size_t i = 0; i < cm->n_links; i++) {
        size_t first = n;
        if (done[i])
            continue;
        for (size_t k = i; k < cm->n_links; k++) {
            const tt_comm_link *l = &cm->links[k];
            size_t j;
            if (!same_group(l, &cm->links[i]))
                continue;
            done[k] = true;
            if (!tt_comm_counts_in_total(l->op))
                continue;
            for (j = first; j < n; j++)
                if (t[j].src == l->src && t[j].dst == l->dst)
                    break;
            if (j == n) {
                tt_comm_total *nt = realloc(t, (n + 1) * sizeof *nt);
                if (!nt) {
                    free(t);
                    free(done);
                    return -1;
                }
                t = nt;
                memset(&t[n], 0, sizeof t[n]);
                t[n].group = &cm->links[i];
                t[n].src = l->src;
                t[n].dst = l->dst;
                n++;
            }
            /* msprof-analyze's combine_link: sums, the last type */
            t[j].transport = l->transport;
            t[j].size_mb += l->size_mb;
            t[j].time_ms += l->time_ms;
        }
    }
    for (size_t j = 0; j < n; j++)
        t[j].bw_gbs = tt_comm_ratio(t[j].size_mb, t[j].time_ms);
    free(done);
    *out = t;
    *n_out = n;
    return 0;
}

int tt_comm_link_names(tt_comm_link *l, const char *step, const char *type, const char *op,
                       const char *group, const char *transport, const char *op_name)
{
    l->step = strdup(step);
    l->type = strdup(type);
    l->op = strdup(op);
    l->group = strdup(group);
    l->transport = strdup(transport);
    l->op_name = strdup(op_name);
    return l->step && l->type && l->op && l->group && l->transport && l->op_name ? 0 : -1;
}

void tt_comm_link_fini(tt_comm_link *k)
{
    free(k->step);
    free(k->type);
    free(k->op);
    free(k->group);
    free(k->transport);
    free(k->op_name);
}

void tt_comm_free(tt_comm *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_ops; i++) {
        free(c->ops[i].step);
        free(c->ops[i].type);
        free(c->ops[i].op);
        free(c->ops[i].group);
    }
    for (size_t i = 0; i < c->n_links; i++)
        tt_comm_link_fini(&c->links[i]);
    free(c->ops);
    free(c->links);
    free(c);
}
