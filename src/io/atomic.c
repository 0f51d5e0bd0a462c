/* atomic.c - temp file, fsync, rename (see atomic.h). */
#include "config.h"

#include "io/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary paths of writes in progress, for tt_atomic_signal_cleanup().
 * A signal handler may only read them, so each slot is a fixed buffer
 * published by a sig_atomic_t flag set after the path is complete. */
#define SLOTS 8
#define SLOT_PATH 4096
static char slot_path[SLOTS][SLOT_PATH];
static volatile sig_atomic_t slot_used[SLOTS];

static int slot_take(const char *tmp)
{
    if (strlen(tmp) >= SLOT_PATH)
        return -1;
    for (int i = 0; i < SLOTS; i++)
        if (!slot_used[i]) {
            memcpy(slot_path[i], tmp, strlen(tmp) + 1);
            slot_used[i] = 1;
            return i;
        }
    return -1;   /* not registered: only signal-time cleanup is lost */
}

static void slot_release(int i)
{
    if (i >= 0 && i < SLOTS)
        slot_used[i] = 0;
}

void tt_atomic_signal_cleanup(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i])
            unlink(slot_path[i]);
}

/* Directory part of path ("." when there is none); caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *d;
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    d = malloc((size_t)(slash - path) + 1);
    if (d) {
        memcpy(d, path, (size_t)(slash - path));
        d[slash - path] = '\0';
    }
    return d;
}

static void release(tt_atomic *a)
{
    slot_release(a->slot - 1);
    a->slot = 0;
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    a->f = NULL;
}

/* A device or a pipe (/dev/null, /dev/stdout, a FIFO): written directly,
 * with no temporary file. */
static int open_in_place(tt_atomic *a, const char *path, tt_error *err)
{
    if (!(a->path = strdup(path)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (!(a->f = fopen(path, "w"))) {
        int e = errno;
        tt_error_set(err, TT_ERR_IO, "cannot open %s: %s", path, strerror(e));
        release(a);
        return TT_ERR_IO;
    }
    return 0;
}

int tt_atomic_open(tt_atomic *a, const char *path, tt_error *err)
{
    const char *base = strrchr(path, '/');
    char *dir;
    size_t n;
    int fd;
    struct stat st, lst;
    mode_t mask, mode;
    bool replacing;
    char *real;
    sigset_t block, old_mask;

    memset(a, 0, sizeof *a);
    base = base ? base + 1 : path;
    if (!*base)
        return tt_error_set(err, TT_ERR_USAGE, "%s: is a directory", path);
    replacing = stat(path, &st) == 0;
    if (replacing && S_ISDIR(st.st_mode))
        return tt_error_set(err, TT_ERR_USAGE, "%s: is a directory", path);
    if (replacing && !S_ISREG(st.st_mode))
        return open_in_place(a, path, err);
    /* through a symbolic link, the file it names is the one replaced */
    if (replacing && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
        (real = realpath(path, NULL)) != NULL) {
        int rc = tt_atomic_open(a, real, err);
        free(real);
        return rc;
    }
    dir = dir_of(path);
    a->path = strdup(path);
    n = strlen(path) + 16;
    a->tmp = malloc(n);
    if (!dir || !a->path || !a->tmp) {
        free(dir);
        release(a);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    /* A hidden name beside the target: same directory, same file system. */
    snprintf(a->tmp, n, "%.*s.%s.XXXXXX", (int)(base - path), path, base);
    /* Signals wait while the file is made and registered: a handler that
     * ran in between (a second Ctrl-C) would leave it behind. */
    sigfillset(&block);
    pthread_sigmask(SIG_BLOCK, &block, &old_mask);
    fd = mkstemp(a->tmp);
    if (fd >= 0)
        a->slot = slot_take(a->tmp) + 1;
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (fd < 0) {
        int e = errno;
        tt_error_set(err, TT_ERR_IO, "cannot create a file in %s: %s", dir, strerror(e));
        free(dir);
        release(a);
        return TT_ERR_IO;
    }
    free(dir);
    /* mkstemp makes 0600. A file replaced keeps its mode (a private
     * report stays 0600); a new one gets what a plain fopen would give. */
    if (replacing && S_ISREG(st.st_mode)) {
        mode = st.st_mode & 07777;
    } else {
        mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        /* not fatal: the file is still correct, only more private */
    }
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        release(a);
        return tt_error_set(err, TT_ERR_NOMEM, "cannot open a stream on %s: %s", path,
                            strerror(e));
    }
    return 0;
}

FILE *tt_atomic_file(tt_atomic *a)
{
    return a->f;
}

int tt_atomic_write(tt_atomic *a, const void *p, size_t n, tt_error *err)
{
    if (!a->f)
        return tt_error_set(err, TT_ERR_IO, "write to a closed output");
    if (n && fwrite(p, 1, n, a->f) != n)
        return tt_error_set(err, TT_ERR_IO, "cannot write %s: %s", a->path, strerror(errno));
    return 0;
}

static void fsync_dir(const char *path)
{
    char *dir = dir_of(path);
    int fd;
    if (!dir)
        return;
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        /* Best effort: the rename is already visible; this makes it durable. */
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int tt_atomic_commit(tt_atomic *a, tt_error *err)
{
    int e = 0;
    if (!a->f)
        return tt_error_set(err, TT_ERR_IO, "commit of a closed output");
    if (fflush(a->f) != 0 || ferror(a->f))
        e = errno ? errno : EIO;
    else if (a->tmp && fsync(fileno(a->f)) != 0 && errno != EINVAL)
        e = errno;   /* EINVAL: the file system cannot sync; nothing to do */
    if (fclose(a->f) != 0 && !e)
        e = errno ? errno : EIO;
    a->f = NULL;
    if (!e && a->tmp && rename(a->tmp, a->path) != 0)
        e = errno;
    if (e) {
        if (a->tmp)
            unlink(a->tmp);
        tt_error_set(err, TT_ERR_IO, "cannot write %s: %s", a->path, strerror(e));
        release(a);
        return TT_ERR_IO;
    }
    if (a->tmp)
        fsync_dir(a->path);
    release(a);
    return 0;
}

int tt_atomic_fail(tt_atomic *a, tt_error *err)
{
    int e = errno;   /* of the write that failed, unless something reset it */
    if (a->f && a->tmp) {
        /* Ask the file system again: one more byte at the end fails as
         * the write did (ENOSPC, EFBIG, EIO) when the cause persists. The
         * file is removed below, so the probe costs nothing. */
        int fd = fileno(a->f);
        off_t end = lseek(fd, 0, SEEK_END);
        if (end >= 0 && pwrite(fd, "", 1, end) < 0)
            e = errno;
    }
    if (!e)
        e = EIO;
    tt_error_set(err, TT_ERR_IO, "cannot write %s: %s", a->path ? a->path : "the output",
                 strerror(e));
    tt_atomic_abort(a);
    return TT_ERR_IO;
}

void tt_atomic_abort(tt_atomic *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp)
        unlink(a->tmp);
    release(a);
}
