/* captures.c - one worker's tensorboard_trace_handler captures as one
 * trace (see captures.h). */
#include "config.h"

#include "decode/captures.h"

#include "model/merge.h"
#include "util/natcmp.h"
#include "util/sort.h"
#include "util/timings.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CAPTURE_TAIL ".pt.trace.json"

bool tt_captures_parse(const char *name, size_t *worker_len, uint64_t *ts)
{
    size_t n = strlen(name), tail = strlen(CAPTURE_TAIL), d;
    uint64_t v = 0;
    /* gzip is what the handler writes (use_gzip); zstd is what people
     * recompress to */
    if (n > 3 && strcmp(name + n - 3, ".gz") == 0)
        n -= 3;
    else if (n > 4 && strcmp(name + n - 4, ".zst") == 0)
        n -= 4;
    if (n <= tail || strncmp(name + n - tail, CAPTURE_TAIL, tail) != 0)
        return false;
    n -= tail;
    /* the timestamp is the last dot-separated part: worker names may hold
     * dots (a host name with its domain) */
    d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
        d--;
    if (d == n || n - d > 19 || d < 2 || name[d - 1] != '.')
        return false;
    for (size_t i = d; i < n; i++)
        v = v * 10 + (uint64_t)(name[i] - '0');
    *worker_len = d - 1;
    *ts = v;
    return true;
}

bool tt_captures_is_group(const char *path)
{
    const char *base = strrchr(path, '/');
    size_t n = strlen(path), g = strlen(TT_CAPTURES_GLOB);
    struct stat st;
    base = base ? base + 1 : path;
    return strlen(base) > g && strcmp(path + n - g, TT_CAPTURES_GLOB) == 0 &&
           stat(path, &st) != 0;
}

typedef struct capture {
    char    *path;
    uint64_t ts;
} capture;

static int cmp_capture(const void *pa, const void *pb, void *ctx)
{
    const capture *a = pa, *b = pb;
    (void)ctx;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return tt_natcmp(a->path, b->path);
}

int tt_captures_list(const char *pattern, char ***files, size_t *n_files, tt_error *err)
{
    const char *slash = strrchr(pattern, '/');
    size_t plen = strlen(pattern), g = strlen(TT_CAPTURES_GLOB);
    char dir[4096];
    const char *worker = slash ? slash + 1 : pattern;
    size_t wlen = (size_t)(pattern + plen - g - worker);
    capture *v = NULL;
    size_t n = 0, cap = 0;
    DIR *d;
    struct dirent *de;
    *files = NULL;
    *n_files = 0;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - pattern), pattern);
    else
        snprintf(dir, sizeof dir, ".");
    if (slash == pattern)
        snprintf(dir, sizeof dir, "/");
    if (!(d = opendir(dir)))
        return tt_error_set(err, TT_ERR_IO, "cannot open directory %s: %s", dir,
                            strerror(errno));
    while ((de = readdir(d)) != NULL) {
        size_t wl;
        uint64_t ts;
        if (de->d_name[0] == '.' || !tt_captures_parse(de->d_name, &wl, &ts) || wl != wlen ||
            strncmp(de->d_name, worker, wlen) != 0)
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 8;
            capture *nv = realloc(v, nc * sizeof *nv);
            if (!nv)
                goto oom;
            v = nv;
            cap = nc;
        }
        if (!(v[n].path = malloc(strlen(dir) + strlen(de->d_name) + 2)))
            goto oom;
        sprintf(v[n].path, "%s/%s", dir, de->d_name);
        v[n++].ts = ts;
    }
    closedir(d);
    d = NULL;
    if (n == 0) {
        free(v);
        return tt_error_set(err, TT_ERR_IO, "no capture of worker '%.*s' (%.*s.TIMESTAMP"
                            CAPTURE_TAIL ") in %s", (int)wlen, worker, (int)wlen, worker,
                            dir);
    }
    tt_sort(v, n, sizeof *v, cmp_capture, NULL);
    if (!(*files = malloc(n * sizeof **files)))
        goto oom;
    for (size_t i = 0; i < n; i++)
        (*files)[i] = v[i].path;
    *n_files = n;
    free(v);
    return 0;
oom:
    if (d)
        closedir(d);
    for (size_t i = 0; i < n; i++)
        free(v[i].path);
    free(v);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

/* Decode one capture, unfinalized; the error names the file. */
static int decode_one(const char *path, const tt_load_opts *opts, tt_trace **out,
                      tt_load_info *info, tt_error *err)
{
    tt_input *in;
    tt_error e;
    int rc;
    tt_error_clear(&e);
    if (tt_input_open(path, &in, &e) == 0) {
        rc = tt_decode_input(in, opts, out, info, &e);
        tt_input_close(in);
        if (rc == 0)
            return 0;
    }
    {
        char msg[sizeof err->what];
        tt_error_format(&e, path, msg, sizeof msg);
        tt_error_set(err, e.code, "%s", msg);
    }
    return -1;
}

int tt_captures_load(const char *pattern, const tt_load_opts *opts, tt_trace **out,
                     tt_load_info *info, tt_error *err)
{
    static const tt_load_opts defaults;
    char **files = NULL;
    size_t n = 0;
    tt_trace *tr = NULL;
    tt_load_info one;
    int64_t bytes = 0;
    int rc = -1;
    *out = NULL;
    if (!opts)
        opts = &defaults;
    if (info)
        memset(info, 0, sizeof *info);
    if (tt_captures_list(pattern, &files, &n, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        tt_trace *frag;
        tt_merge_map map;
        if (decode_one(files[i], opts, &frag, &one, err))
            goto out;
        if (info) {
            info->dropped_bytes += one.dropped_bytes;
            info->dropped_events += one.dropped_events;
        }
        bytes += frag->source_bytes;
        if (!tr) {
            tr = frag;
            continue;
        }
        if (tr->rank < 0)
            tr->rank = frag->rank;
        /* the windows follow one another on the process's clock: their
         * events join the same lanes, after the earlier windows' */
        rc = tt_trace_merge(tr, frag, &map, err);
        tt_merge_map_fini(&map);
        if (rc)
            goto out;
        rc = -1;
    }
    free(tr->source);
    if (!(tr->source = strdup(pattern)) ||
        (tr->meta && !cJSON_AddNumberToObject(tr->meta, "captures", (double)n))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    tr->source_bytes = bytes;
    {
        tt_phase_mark mark;   /* --timings */
        tt_phase_start(&mark);
        if (tt_trace_finalize_threads(tr, opts->threads, err))
            goto out;
        tt_phase_stop(TT_PHASE_FINALIZE, &mark);
    }
    *out = tr;
    tr = NULL;
    rc = 0;
out:
    tt_trace_free(tr);
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}
