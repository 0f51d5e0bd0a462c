/* cache.c - snapshot cache keyed by source identity (see cache.h). */
#include "config.h"

#include "snapshot/cache.h"

#include "util/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HASH_SPAN ((size_t)1 << 20)   /* first and last MiB */

const char *tt_cache_dir(char *buf, size_t n)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    /* the XDG spec says relative values are to be ignored */
    if (x && x[0] == '/')
        w = snprintf(buf, n, "%s/tracetty", x);
    else if (home && home[0] == '/')
        w = snprintf(buf, n, "%s/.cache/tracetty", home);
    else
        return NULL;
    return w > 0 && (size_t)w < n ? buf : NULL;
}

/* mkdir -p for the cache directory (private: traces can be sensitive). */
static int make_dirs(const char *dir, tt_error *err)
{
    char tmp[4096];
    size_t len = strlen(dir);
    if (len >= sizeof tmp)
        return tt_error_set(err, TT_ERR_IO, "cache directory path too long");
    memcpy(tmp, dir, len + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return tt_error_set(err, TT_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return tt_error_set(err, TT_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
    return 0;
}

static int read_at(int fd, void *buf, size_t n, off_t off)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, (char *)buf + done, n - done, off + (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

/* The load options that change the model. Not the snapshot format: an
 * entry another format version wrote keeps its name, is refused when read
 * (tt_snapshot_read_source() names the version) and so is rebuilt in place
 * instead of lingering beside the new one. */
static uint64_t options_hash(const tt_load_opts *opts)
{
    char buf[8192];
    int n = snprintf(buf, sizeof buf, "ttz\nlenient=%d\nformat=%s\ncsv_map=%s\n",
                     opts && opts->lenient ? 1 : 0,
                     opts && opts->format ? opts->format : "",
                     opts && opts->csv_map ? opts->csv_map : "");
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    return tt_hash_bytes(buf, (size_t)n, 0x7c0a);
}

int tt_cache_prepare(const char *source_path, const tt_load_opts *opts, tt_cache_entry *ce,
                     tt_error *err)
{
    char dir[4096], *real;
    struct stat st;
    unsigned char *buf;
    int fd;
    size_t first;
    uint64_t h;

    memset(ce, 0, sizeof *ce);
    if (strcmp(source_path, "-") == 0)
        return 1;
    fd = open(source_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tt_error_set(err, TT_ERR_IO, "%s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 1;   /* pipes, devices: nothing stable to key on */
    }
    buf = malloc(HASH_SPAN);
    if (!buf) {
        close(fd);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    first = (uint64_t)st.st_size < HASH_SPAN ? (size_t)st.st_size : HASH_SPAN;
    if (read_at(fd, buf, first, 0) != 0) {
        free(buf);
        close(fd);
        return tt_error_set(err, TT_ERR_IO, "cannot read: %s", strerror(errno ? errno : EIO));
    }
    if (tt_snapshot_probe(buf, first)) {
        free(buf);
        close(fd);
        return 1;   /* already a snapshot */
    }
    h = tt_hash_bytes(buf, first, 0x51a7);
    if ((uint64_t)st.st_size > HASH_SPAN) {
        if (read_at(fd, buf, HASH_SPAN, st.st_size - (off_t)HASH_SPAN) != 0) {
            free(buf);
            close(fd);
            return tt_error_set(err, TT_ERR_IO, "cannot read: %s", strerror(errno ? errno : EIO));
        }
        h = tt_hash_mix(h ^ tt_hash_bytes(buf, HASH_SPAN, 0x1a57));
    }
    free(buf);
    close(fd);

    real = realpath(source_path, NULL);
    if (!real)
        return tt_error_set(err, TT_ERR_IO, "%s", strerror(errno));
    if (strlen(real) >= sizeof ce->id.path) {
        free(real);
        return tt_error_set(err, TT_ERR_IO, "path too long");
    }
    ce->id.valid = true;
    ce->id.size = (int64_t)st.st_size;
    ce->id.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    ce->id.content_hash = h;
    ce->id.options_hash = options_hash(opts);
    strcpy(ce->id.path, real);
    free(real);

    if (!tt_cache_dir(dir, sizeof dir))
        return tt_error_set(err, TT_ERR_IO,
                            "no cache directory: set XDG_CACHE_HOME or HOME to an absolute path");
    if (make_dirs(dir, err))
        return -1;
    h = tt_hash_mix(tt_hash_bytes(ce->id.path, strlen(ce->id.path), 0xcace) ^ ce->id.options_hash);
    if ((size_t)snprintf(ce->path, sizeof ce->path, "%s/%016llx.ttz", dir, (unsigned long long)h) >=
        sizeof ce->path)
        return tt_error_set(err, TT_ERR_IO, "cache path too long");
    return 0;
}

static bool same_source(const tt_snapshot_source *a, const tt_snapshot_source *b)
{
    return a->valid && b->valid && a->size == b->size && a->mtime_ns == b->mtime_ns &&
           a->content_hash == b->content_hash && a->options_hash == b->options_hash &&
           strcmp(a->path, b->path) == 0;
}

int tt_cache_load(const tt_cache_entry *ce, unsigned skip, tt_trace **out, tt_error *why)
{
    return tt_cache_load_part(ce, skip, NULL, out, why);
}

int tt_cache_load_part(const tt_cache_entry *ce, unsigned skip, const tt_load_part *part,
                       tt_trace **out, tt_error *why)
{
    FILE *f;
    struct stat st;
    unsigned char *buf;
    size_t n;
    tt_trace *tr;
    tt_snapshot_source stored;

    *out = NULL;
    tt_error_clear(why);
    f = fopen(ce->path, "rb");
    if (!f)
        return 0;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (uint64_t)st.st_size > SIZE_MAX) {
        fclose(f);
        tt_error_set(why, TT_ERR_FORMAT, "cache entry is not a regular file");
        return 0;
    }
    n = (size_t)st.st_size;
    buf = malloc(n);
    if (!buf || fread(buf, 1, n, f) != n) {
        free(buf);
        fclose(f);
        tt_error_set(why, TT_ERR_IO, "cannot read the cache entry");
        return 0;
    }
    fclose(f);
    /* the identity first: a stale entry is not decoded */
    if (tt_snapshot_read_source(buf, n, &stored, why)) {
        free(buf);
        return 0;
    }
    if (!same_source(&stored, &ce->id)) {
        free(buf);
        tt_error_set(why, TT_ERR_FORMAT, "cache entry is stale (the trace or the options changed)");
        return 0;
    }
    tr = tt_trace_new();
    if (!tr) {
        free(buf);
        tt_error_set(why, TT_ERR_NOMEM, "out of memory");
        return 0;
    }
    if (tt_snapshot_decode_sel(buf, n, 0, skip, part, tr, NULL, why)) {
        free(buf);
        tt_trace_free(tr);
        return 0;
    }
    free(buf);
    *out = tr;
    return 1;
}

int tt_cache_store(const tt_cache_entry *ce, const tt_trace *tr, tt_error *err)
{
    return tt_snapshot_write(tr, ce->path, &ce->id, err);
}
