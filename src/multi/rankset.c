/* rankset.c - loading the ranks of a job in parallel and aligning them
 * (see rankset.h). */
#include "config.h"

#include "multi/rankset.h"

#include "analysis/classify.h"
#include "markers/markers.h"
#include "multi/jobdir.h"
#include "util/natcmp.h"
#include "util/num.h"
#include "util/parallel.h"
#include "util/sort.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void tt_rankset_init(tt_rankset *rs)
{
    rs->r = NULL;
    rs->n = 0;
    rs->aligned = TT_ALIGN_ABSOLUTE;
}

void tt_rankset_fini(tt_rankset *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->r[i].path);
        tt_trace_free(rs->r[i].trace);
    }
    free(rs->r);
    tt_rankset_init(rs);
}

/* ------------------------------------------------------------- parsing */

int tt_align_parse(const char *s, tt_align_spec *a, tt_error *err)
{
    const char *name = NULL, *hash;
    memset(a, 0, sizeof *a);
    a->nth = 1;
    if (strcmp(s, "absolute") == 0) {
        a->mode = TT_ALIGN_ABSOLUTE;
        return 0;
    }
    if (strcmp(s, "start") == 0) {
        a->mode = TT_ALIGN_START;
        return 0;
    }
    if (strcmp(s, "auto") == 0) {
        a->mode = TT_ALIGN_AUTO;
        return 0;
    }
    a->mode = TT_ALIGN_EVENT;
    if (strncmp(s, "step:", 5) == 0) {
        int64_t n;
        if (tt_parse_int64(s + 5, strlen(s + 5), &n) != TT_NUM_OK || n < 0 || n > 1000000000)
            return tt_error_set(err, TT_ERR_USAGE, "--align '%s': expected step:N, N a step number",
                                s);
        /* as event:ProfilerStep#N: the step named so, else the N-th */
        snprintf(a->event, sizeof a->event, "ProfilerStep#%lld", (long long)n);
        if (n >= 1) {
            a->alt_nth = (unsigned)n;
            snprintf(a->alt_event, sizeof a->alt_event, "ProfilerStep");
        }
        return 0;
    }
    if (strncmp(s, "marker:", 7) == 0) {
        const char *colon = strchr(s + 7, ':');
        if (!colon || colon == s + 7 || !colon[1] || (size_t)(colon - (s + 7)) >= sizeof a->set ||
            strlen(colon + 1) >= sizeof a->event)
            return tt_error_set(err, TT_ERR_USAGE,
                                "--align '%s': expected marker:SET:M, a saved set and one of its "
                                "markers", s);
        snprintf(a->set, sizeof a->set, "%.*s", (int)(colon - (s + 7)), s + 7);
        snprintf(a->event, sizeof a->event, "%s", colon + 1);
        return 0;
    }
    if (strncmp(s, "event:", 6) == 0)
        name = s + 6;
    else if (strncmp(s, "collective", 10) == 0 && (s[10] == '\0' || s[10] == '#'))
        name = s;
    else
        return tt_error_set(err, TT_ERR_USAGE,
                            "--align '%s': expected absolute, start, event:NAME[#N], "
                            "step:N, marker:SET:M or collective[#N]", s);
    /* A trailing "#N" selects the N-th occurrence. ProfilerStep#10 alone
     * is also the name of an event, so with one "#" both readings are kept
     * and the trace decides (tt_align_event_time()); a second "#" or the
     * collective form takes N. */
    hash = strrchr(name, '#');
    if (hash && (strncmp(name, "collective", 10) == 0 || strchr(name, '#') != hash)) {
        int64_t n;
        if (tt_parse_int64(hash + 1, strlen(hash + 1), &n) != TT_NUM_OK || n < 1 || n > 1000000)
            return tt_error_set(err, TT_ERR_USAGE, "--align '%s': bad occurrence number", s);
        a->nth = (unsigned)n;
        snprintf(a->event, sizeof a->event, "%.*s", (int)(hash - name), name);
    } else {
        int64_t n;
        snprintf(a->event, sizeof a->event, "%s", name);
        if (hash && hash > name &&
            tt_parse_int64(hash + 1, strlen(hash + 1), &n) == TT_NUM_OK && n >= 1 &&
            n <= 1000000) {
            a->alt_nth = (unsigned)n;
            snprintf(a->alt_event, sizeof a->alt_event, "%.*s", (int)(hash - name), name);
        }
    }
    if (!a->event[0])
        return tt_error_set(err, TT_ERR_USAGE, "--align '%s': no event name", s);
    return 0;
}

/* Digits at p as a rank, -1 when none. */
static int64_t digits_at(const char *p)
{
    int64_t v = 0;
    int k = 0;
    while (isdigit((unsigned char)p[k]) && k < 9)
        v = v * 10 + (p[k++] - '0');
    return k ? v : -1;
}

int64_t tt_rank_from_name(const char *path)
{
    const char *base = strrchr(path, '/'), *p;
    int64_t tree = tt_jobdir_tree_rank(path);
    if (tree >= 0)
        return tree;   /* an Ascend tree's timeline: its profiler_info */
    base = base ? base + 1 : path;
    /* rank_5, rank-5, rank.5, rank=5, rank5 (any case) */
    for (p = base; *p; p++) {
        if (strncasecmp(p, "rank", 4) == 0) {
            const char *q = p + 4;
            int64_t r;
            if (*q == '_' || *q == '-' || *q == '.' || *q == '=')
                q++;
            if ((r = digits_at(q)) >= 0)
                return r;
        }
    }
    /* name-5-of-8 or name_5_of_8 */
    for (p = base; *p; p++) {
        if ((*p == '-' || *p == '_') && isdigit((unsigned char)p[1])) {
            const char *q = p + 1;
            int64_t r = digits_at(q);
            while (isdigit((unsigned char)*q))
                q++;
            if ((strncmp(q, "-of-", 4) == 0 || strncmp(q, "_of_", 4) == 0) &&
                isdigit((unsigned char)q[4]))
                return r;
        }
    }
    /* worker5, worker_5, worker-5 */
    for (p = base; *p; p++) {
        if (strncasecmp(p, "worker", 6) == 0) {
            const char *q = p + 6;
            int64_t r;
            if (*q == '_' || *q == '-')
                q++;
            if ((r = digits_at(q)) >= 0)
                return r;
        }
    }
    return tt_jobdir_sqlite_rank(base);   /* an nsys rank set's name_5.sqlite */
}

/* ---------------------------------------------------------- expansion */

/* tracetty's own files and obvious non-traces in a directory. */
static bool skip_entry(const char *name)
{
    size_t n = strlen(name);
    static const char *const suffixes[] = {".markers.json", ".lock", ".tmp", "~"};
    if (name[0] == '.')
        return true;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t k = strlen(suffixes[i]);
        if (n >= k && strcmp(name + n - k, suffixes[i]) == 0)
            return true;
    }
    return false;
}

/* Does a decoder recognise this file (more than a fallback guess)? */
static bool is_trace_file(const char *path)
{
    tt_input *in;
    tt_error err;
    const unsigned char *head;
    size_t n;
    bool yes = false;
    if (tt_input_open(path, &in, &err))
        return false;
    if (tt_input_peek(in, TT_PROBE_BYTES, &head, &n, &err) == 0 && n > 0) {
        const tt_decoder *const *d = tt_decoders();
        for (size_t i = 0; d[i] && !yes; i++)
            if (d[i]->probe(head, n) > TT_PROBE_FALLBACK)
                yes = true;
    }
    tt_input_close(in);
    return yes;
}

static int cmp_names(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return tt_natcmp(*(char *const *)a, *(char *const *)b);
}

static int push_file(char ***v, size_t *n, size_t *cap, const char *path)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    if (!((*v)[*n] = strdup(path)))
        return -1;
    (*n)++;
    return 0;
}

void tt_rankset_free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

int tt_rankset_expand(const char *const *paths, size_t n, char ***files, size_t *n_files,
                      tt_error *err)
{
    char **v = NULL;
    size_t nv = 0, cap = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(paths[i]);
            struct dirent *de;
            char **names = NULL;
            size_t nn = 0, ncap = 0, before = nv, nj, rest;
            char **job;
            int rj = tt_jobdir_ascend(paths[i], &job, &nj, err);
            if (rj == 0)   /* an older MindSpore cluster directory: its step traces */
                rj = tt_jobdir_mindspore(paths[i], &job, &nj, err);
            if (rj < 0) {
                if (d)
                    closedir(d);
                goto fail;
            }
            if (rj > 0) {
                /* a job: its trees' timelines (step traces), nothing else */
                if (d)
                    closedir(d);
                for (size_t k = 0; k < nj; k++)
                    if (push_file(&v, &nv, &cap, job[k])) {
                        tt_rankset_free_files(job, nj);
                        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                        goto fail;
                    }
                tt_rankset_free_files(job, nj);
                continue;
            }
            if (!d) {
                tt_error_set(err, TT_ERR_IO, "%s: cannot open directory: %s", paths[i],
                             strerror(errno));
                goto fail;
            }
            while ((de = readdir(d)) != NULL) {
                char full[4096];
                struct stat es;
                if (skip_entry(de->d_name))
                    continue;
                snprintf(full, sizeof full, "%s/%s", paths[i], de->d_name);
                if (stat(full, &es) != 0 || !S_ISREG(es.st_mode))
                    continue;
                if (push_file(&names, &nn, &ncap, full)) {
                    closedir(d);
                    tt_rankset_free_files(names, nn);
                    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                    goto fail;
                }
            }
            closedir(d);
            tt_sort(names, nn, sizeof *names, cmp_names, NULL);
            for (size_t k = 0; k < nn; k++) {
                if (is_trace_file(names[k]) && push_file(&v, &nv, &cap, names[k])) {
                    tt_rankset_free_files(names, nn);
                    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                    goto fail;
                }
            }
            tt_rankset_free_files(names, nn);
            /* a worker's tensorboard captures are one rank */
            rest = nv - before;
            if (tt_jobdir_captures(v + before, &rest, err))
                goto fail;
            nv = before + rest;
            if (nv == before) {
                tt_error_set(err, TT_ERR_USAGE, "%s: no trace files in this directory", paths[i]);
                goto fail;
            }
        } else if (push_file(&v, &nv, &cap, paths[i])) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto fail;
        }
    }
    *files = v;
    *n_files = nv;
    return 0;
fail:
    tt_rankset_free_files(v, nv);
    return -1;
}

/* --------------------------------------------------------- parallel load */

typedef struct load_job {
    char *const           *files;
    size_t                 n;
    const tt_rankset_opts *o;
    unsigned               threads;   /* each load's thread budget */
    tt_trace             **traces;
    tt_error              *errs;
    atomic_size_t          done;
    atomic_int_fast64_t    bytes;
    atomic_uint_fast64_t   events;
    atomic_int             failed;
    pthread_mutex_t        lock;   /* serializes the progress callback */
} load_job;

typedef struct file_progress {
    load_job *job;
    int64_t   last_bytes;
    uint64_t  last_events;
} file_progress;

static void report(load_job *j)
{
    if (!j->o->progress)
        return;
    pthread_mutex_lock(&j->lock);
    j->o->progress(j->o->progress_ctx, atomic_load(&j->done), j->n, atomic_load(&j->bytes),
                   atomic_load(&j->events));
    pthread_mutex_unlock(&j->lock);
}

static void on_file_progress(void *ctx, int64_t file_pos, int64_t file_size, int64_t data_pos,
                             uint64_t events)
{
    file_progress *fp = ctx;
    (void)file_pos;
    (void)file_size;
    atomic_fetch_add(&fp->job->bytes, data_pos - fp->last_bytes);
    atomic_fetch_add(&fp->job->events, events - fp->last_events);
    fp->last_bytes = data_pos;
    fp->last_events = events;
    report(fp->job);
}

/* Load file i into j->traces[i], or its error into j->errs[i]; 0 or -1. */
static int load_file(load_job *j, size_t i)
{
    tt_load_opts lo;
    file_progress fp = {j, 0, 0};
    int rc;
    if (j->o->load)
        lo = *j->o->load;
    else
        memset(&lo, 0, sizeof lo);
    lo.progress = on_file_progress;
    lo.progress_ctx = &fp;
    lo.threads = j->threads;
    tt_error_clear(&j->errs[i]);
    rc = tt_load(j->files[i], &lo, &j->traces[i], NULL, &j->errs[i]);
    atomic_fetch_add(&j->done, 1);
    report(j);
    return rc;
}

/* Load file i (tt_parallel_run job); after a failure, the rest are not
 * tried. */
static void load_one(void *ctx, size_t i)
{
    load_job *j = ctx;
    if (atomic_load(&j->failed))
        return;
    if (load_file(j, i))
        atomic_store(&j->failed, 1);
}

static int cmp_ns_ctx(const void *pa, const void *pb, void *ctx)
{
    tt_ns a = *(const tt_ns *)pa, b = *(const tt_ns *)pb;
    (void)ctx;
    return a < b ? -1 : a > b;
}

static int cmp_rank(const void *pa, const void *pb, void *ctx)
{
    const tt_rank *a = pa, *b = pb;
    (void)ctx;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

int tt_load_parallel(char *const *files, size_t n, const tt_rankset_opts *o, tt_trace **out,
                     tt_error *errs)
{
    load_job j;
    unsigned nt = o->threads ? o->threads : tt_parallel_cores();
    memset(&j, 0, sizeof j);
    j.files = files;
    j.n = n;
    j.o = o;
    j.traces = out;
    j.errs = errs;
    atomic_init(&j.done, 0);
    atomic_init(&j.bytes, 0);
    atomic_init(&j.events, 0);
    atomic_init(&j.failed, 0);
    for (size_t i = 0; i < n; i++)
        tt_error_clear(&errs[i]);
    /* The loads share the threads: a load that can use several (a .ttz
     * rebuilds its arguments in parallel) gets one when there are at least
     * as many files as threads, and a share of them when there are fewer. */
    j.threads = n > 0 && n < nt ? nt / (unsigned)n : 1;
    pthread_mutex_init(&j.lock, NULL);
    tt_parallel_run(n, nt, load_one, &j);
    pthread_mutex_destroy(&j.lock);
    for (size_t i = 0; i < n; i++)
        if (!out[i])
            return -1;
    return 0;
}

/* ------------------------------------------------------- streamed load */

typedef struct each_job {
    load_job        base;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    size_t          next;       /* the next file to load (under mu) */
    size_t          consumed;   /* files handed over (under mu) */
    size_t          ahead;
    bool           *ready;      /* file i loaded or failed (under mu) */
    bool            stop;       /* under mu */
} each_job;

static void *each_worker(void *arg)
{
    each_job *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        size_t i;
        while (!e->stop && e->next < e->base.n && e->next >= e->consumed + e->ahead)
            pthread_cond_wait(&e->cv, &e->mu);
        if (e->stop || e->next >= e->base.n)
            break;
        i = e->next++;
        pthread_mutex_unlock(&e->mu);
        load_file(&e->base, i);
        pthread_mutex_lock(&e->mu);
        e->ready[i] = true;
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

int tt_load_each(char *const *files, size_t n, const tt_rankset_opts *o, size_t ahead,
                 tt_load_each_fn fn, void *ctx)
{
    each_job e;
    unsigned nt = o->threads ? o->threads : tt_parallel_cores(), started = 0;
    pthread_t *th = NULL;
    int rc = 0;
    tt_error oom;
    if (n == 0)
        return 0;
    memset(&e, 0, sizeof e);
    e.base.files = files;
    e.base.n = n;
    e.base.o = o;
    e.base.threads = n < nt ? nt / (unsigned)n : 1;
    e.ahead = ahead ? ahead : 1;
    atomic_init(&e.base.done, 0);
    atomic_init(&e.base.bytes, 0);
    atomic_init(&e.base.events, 0);
    atomic_init(&e.base.failed, 0);
    if (nt > n)
        nt = (unsigned)n;
    if (nt > e.ahead)
        nt = (unsigned)e.ahead;
    e.base.traces = calloc(n, sizeof *e.base.traces);
    e.base.errs = calloc(n, sizeof *e.base.errs);
    e.ready = calloc(n, sizeof *e.ready);
    th = calloc(nt, sizeof *th);
    if (!e.base.traces || !e.base.errs || !e.ready || !th) {
        free(e.base.traces);
        free(e.base.errs);
        free(e.ready);
        free(th);
        tt_error_clear(&oom);
        tt_error_set(&oom, TT_ERR_NOMEM, "out of memory");
        return fn(ctx, 0, NULL, &oom);
    }
    pthread_mutex_init(&e.base.lock, NULL);
    pthread_mutex_init(&e.mu, NULL);
    pthread_cond_init(&e.cv, NULL);
    for (unsigned t = 0; t < nt; t++) {
        if (pthread_create(&th[t], NULL, each_worker, &e) != 0)
            break;
        started++;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        tt_trace *tr;
        pthread_mutex_lock(&e.mu);
        while (!e.ready[i]) {
            if (started == 0) {
                /* no thread could start: load it here */
                size_t k = e.next++;
                pthread_mutex_unlock(&e.mu);
                load_file(&e.base, k);
                pthread_mutex_lock(&e.mu);
                e.ready[k] = true;
                continue;
            }
            pthread_cond_wait(&e.cv, &e.mu);
        }
        pthread_mutex_unlock(&e.mu);
        tr = e.base.traces[i];
        e.base.traces[i] = NULL;
        rc = fn(ctx, i, tr, &e.base.errs[i]);
        pthread_mutex_lock(&e.mu);
        e.consumed = i + 1;
        if (rc)
            e.stop = true;
        pthread_cond_broadcast(&e.cv);
        pthread_mutex_unlock(&e.mu);
    }
    pthread_mutex_lock(&e.mu);
    e.stop = true;
    pthread_cond_broadcast(&e.cv);
    pthread_mutex_unlock(&e.mu);
    for (unsigned t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    for (size_t i = 0; i < n; i++)
        tt_trace_free(e.base.traces[i]);
    pthread_cond_destroy(&e.cv);
    pthread_mutex_destroy(&e.mu);
    pthread_mutex_destroy(&e.base.lock);
    free(e.base.traces);
    free(e.base.errs);
    free(e.ready);
    free(th);
    return rc;
}

int tt_rankset_load(tt_rankset *rs, char *const *files, size_t n, const tt_rankset_opts *o,
                    tt_error *err)
{
    tt_trace **traces = NULL;
    tt_error *errs = NULL;
    int rc = -1;

    tt_rankset_init(rs);
    if (n == 0)
        return tt_error_set(err, TT_ERR_USAGE, "no trace given");
    traces = calloc(n, sizeof *traces);
    errs = calloc(n, sizeof *errs);
    if (!traces || !errs) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (tt_load_parallel(files, n, o, traces, errs)) {
        for (size_t i = 0; i < n; i++)
            if (errs[i].code != TT_OK) {
                /* the first failure in input order, with its file */
                char msg[sizeof err->what];
                tt_error_format(&errs[i], files[i], msg, sizeof msg);
                tt_error_set(err, errs[i].code, "%s", msg);
                goto out;
            }
        tt_error_set(err, TT_ERR_IO, "a trace could not be loaded");
        goto out;
    }
    rc = tt_rankset_adopt(rs, files, traces, n, err);
out:
    if (traces)
        for (size_t i = 0; i < n; i++)
            tt_trace_free(traces[i]);
    free(traces);
    free(errs);
    return rc;
}

int tt_ranks_resolve(int64_t *ranks, size_t n, size_t *dup_a, size_t *dup_b)
{
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            if (ranks[i] >= 0 && ranks[i] == ranks[k]) {
                *dup_a = i;
                *dup_b = k;
                return -1;
            }
    for (size_t i = 0; i < n; i++) {
        bool taken;
        if (ranks[i] >= 0)
            continue;
        /* the lowest rank nobody claims; n is small next to a trace load,
         * so the quadratic scan costs nothing */
        do {
            taken = false;
            for (size_t k = 0; k < n && !taken; k++)
                taken = ranks[k] == (int64_t)next;
            if (taken)
                next++;
        } while (taken);
        ranks[i] = (int64_t)next++;
    }
    return 0;
}

int tt_rankset_adopt(tt_rankset *rs, char *const *files, tt_trace **traces, size_t n,
                     tt_error *err)
{
    int rc = -1;
    int64_t *ranks = NULL;
    size_t da, db;

    tt_rankset_init(rs);
    if (n == 0)
        return tt_error_set(err, TT_ERR_USAGE, "no trace given");
    rs->r = calloc(n, sizeof *rs->r);
    ranks = calloc(n, sizeof *ranks);
    if (!rs->r || !ranks) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        tt_rank *r = &rs->r[i];
        r->path = strdup(files[i]);
        r->trace = traces[i];
        traces[i] = NULL;
        rs->n++;
        if (!r->path) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        if (r->trace->rank >= 0) {
            r->rank = r->trace->rank;
            r->source = TT_RANK_FROM_METADATA;
        } else if ((r->rank = tt_rank_from_name(files[i])) >= 0) {
            r->source = TT_RANK_FROM_NAME;
        } else {
            r->rank = -1;
            r->source = TT_RANK_FROM_ORDER;
        }
    }
    for (size_t i = 0; i < n; i++)
        ranks[i] = rs->r[i].rank;
    if (tt_ranks_resolve(ranks, n, &da, &db)) {
        tt_error_set(err, TT_ERR_USAGE, "%s and %s both claim rank %lld", rs->r[da].path,
                     rs->r[db].path, (long long)ranks[da]);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        rs->r[i].rank = ranks[i];
    tt_sort(rs->r, rs->n, sizeof *rs->r, cmp_rank, NULL);
    rc = 0;
out:
    /* traces not taken over yet (an early failure) are freed too */
    for (size_t i = 0; i < n; i++) {
        tt_trace_free(traces[i]);
        traces[i] = NULL;
    }
    free(ranks);
    if (rc)
        tt_rankset_fini(rs);
    return rc;
}

/* ------------------------------------------------------------ alignment */

/* Start of the nth event named `name` (or nth collective) in time order. */
static int find_nth(const tt_trace *tr, const char *name, unsigned nth, tt_ns *at)
{
    bool coll = strcmp(name, "collective") == 0;
    tt_ns *starts = NULL;
    size_t n = 0, cap = 0;
    tt_classifier cls;
    uint32_t id = 0;
    int rc = 1;
    if (coll) {
        if (tt_classifier_init(&cls, tr))
            return -1;
    } else {
        id = tt_strtab_find(tr->strings, name, strlen(name));
        if (id == TT_STR_ERROR)
            return 1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            bool hit = coll ? tt_classifier_gpu(&cls, &ln->ev[i]) == TT_GPU_COMM
                            : ln->ev[i].name == id;
            if (!hit)
                continue;
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                tt_ns *ns = realloc(starts, nc * sizeof *ns);
                if (!ns) {
                    rc = -1;
                    goto out;
                }
                starts = ns;
                cap = nc;
            }
            starts[n++] = ln->ev[i].start;
        }
    }
    if (n >= nth) {
        tt_sort(starts, n, sizeof *starts, cmp_ns_ctx, NULL);
        *at = starts[nth - 1];
        rc = 0;
    }
out:
    if (coll)
        tt_classifier_fini(&cls);
    free(starts);
    return rc;
}

/* Marker a->event of set a->set in the sidecar of the trace's file: 0 and
 * *at (on the trace's clock), 1 when there is no such set or marker (or
 * no file), -1 out of memory. */
static int marker_time(const tt_trace *tr, const tt_align_spec *a, tt_ns *at)
{
    tt_markstore store;
    tt_markset *set;
    tt_error err;
    char *side;
    int64_t t;
    int rc = 1;
    if (!tr->source || strcmp(tr->source, "-") == 0)
        return 1;
    tt_error_clear(&err);
    if (!(side = tt_markers_sidecar(tr->source, false, &err)))
        return err.code == TT_ERR_NOMEM ? -1 : 1;
    tt_markstore_init(&store);
    if (tt_markstore_read(&store, side, &err))
        rc = err.code == TT_ERR_NOMEM ? -1 : 1;
    else if ((set = tt_markstore_find(&store, a->set)) &&
             tt_markset_resolve(set, a->event, &t, &err) == 0) {
        /* marker times count from the trace's start */
        *at = tr->t0 + t;
        rc = 0;
    }
    tt_markstore_fini(&store);
    free(side);
    return rc;
}

int tt_align_event_time(const tt_trace *tr, const tt_align_spec *a, tt_ns *at)
{
    int rc;
    if (a->set[0])
        return marker_time(tr, a, at);
    rc = find_nth(tr, a->event, a->nth, at);
    if (rc == 1 && a->alt_event[0])
        rc = find_nth(tr, a->alt_event, a->alt_nth, at);
    return rc;
}

const char *tt_align_target(const tt_align_spec *a, char *buf, size_t n)
{
    if (a->set[0])
        snprintf(buf, n, "marker '%s' in a marker set '%s' of its file", a->event, a->set);
    else if (a->alt_event[0])
        snprintf(buf, n, "event named '%s' nor an occurrence %u of '%s'", a->event, a->alt_nth,
                 a->alt_event);
    else
        snprintf(buf, n, "occurrence %u of '%s'", a->nth, a->event);
    return buf;
}

void tt_align_offsets(const tt_align_spec *a, const tt_ns *t0, const tt_ns *t1,
                      const tt_ns *event_at, size_t n, tt_ns *offsets, tt_align_mode *applied)
{
    tt_align_mode mode = a ? a->mode : TT_ALIGN_AUTO;
    tt_ns min_t0 = INT64_MAX, max_t0 = INT64_MIN, max_span = 0;
    for (size_t i = 0; i < n; i++) {
        if (t0[i] < min_t0)
            min_t0 = t0[i];
        if (t0[i] > max_t0)
            max_t0 = t0[i];
        if (t1[i] - t0[i] > max_span)
            max_span = t1[i] - t0[i];
    }
    /* Clocks share a base when the ranks' starts lie within one trace
     * span of each other; traces from different runs are start-aligned. */
    if (mode == TT_ALIGN_AUTO)
        mode = n < 2 || max_t0 - min_t0 <= max_span ? TT_ALIGN_ABSOLUTE : TT_ALIGN_START;
    if (mode == TT_ALIGN_EVENT && !event_at)
        mode = TT_ALIGN_ABSOLUTE;
    for (size_t i = 0; i < n; i++) {
        switch (mode) {
        case TT_ALIGN_START: offsets[i] = min_t0 - t0[i]; break;
        case TT_ALIGN_EVENT: offsets[i] = event_at[0] - event_at[i]; break;
        case TT_ALIGN_ABSOLUTE:
        case TT_ALIGN_AUTO: offsets[i] = 0; break;
        }
    }
    *applied = mode;
}

const char *tt_align_describe(const tt_align_spec *a, tt_align_mode applied, char *buf, size_t n)
{
    switch (applied) {
    case TT_ALIGN_START: snprintf(buf, n, "start"); break;
    case TT_ALIGN_EVENT:
        if (a->set[0])
            snprintf(buf, n, "marker %s of set %s", a->event, a->set);
        else if (strcmp(a->event, "collective") == 0)
            snprintf(buf, n, "collective #%u", a->nth);
        else if (a->alt_event[0])
            snprintf(buf, n, "event %s", a->event);
        else
            snprintf(buf, n, "event %s#%u", a->event, a->nth);
        break;
    case TT_ALIGN_ABSOLUTE:
    case TT_ALIGN_AUTO: snprintf(buf, n, "absolute"); break;
    }
    return buf;
}

int tt_rankset_align(tt_rankset *rs, const tt_align_spec *a, tt_error *err)
{
    tt_ns *t0 = calloc(rs->n + 1, sizeof *t0), *t1 = calloc(rs->n + 1, sizeof *t1);
    tt_ns *ev = NULL, *off = calloc(rs->n + 1, sizeof *off);
    int rc = -1;
    if (!t0 || !t1 || !off) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < rs->n; i++) {
        t0[i] = rs->r[i].trace->t0;
        t1[i] = rs->r[i].trace->t1;
    }
    if (a && a->mode == TT_ALIGN_EVENT) {
        if (!(ev = calloc(rs->n + 1, sizeof *ev))) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < rs->n; i++) {
            int r = tt_align_event_time(rs->r[i].trace, a, &ev[i]);
            if (r < 0) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                goto out;
            }
            if (r > 0) {
                char what[600];
                tt_error_set(err, TT_ERR_USAGE, "rank %lld (%s) has no %s to align on",
                             (long long)rs->r[i].rank, rs->r[i].path,
                             tt_align_target(a, what, sizeof what));
                goto out;
            }
        }
    }
    tt_align_offsets(a, t0, t1, ev, rs->n, off, &rs->aligned);
    for (size_t i = 0; i < rs->n; i++)
        rs->r[i].offset = off[i];
    rc = 0;
out:
    free(t0);
    free(t1);
    free(ev);
    free(off);
    return rc;
}
