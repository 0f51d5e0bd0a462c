/* test_markers.c - marker sets: round trip, atomic replace, corrupt files
 * left untouched, unique marker names (and older files that hold a name
 * twice), the record of a set saved in the view of a job, read-only
 * directories, concurrent writers. */
#include "config.h"

#include "../tap.h"
#include "markers/markers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

typedef struct add_ctx {
    const char *set;
    int64_t     t;
    const char *name;
} add_ctx;

static int edit_add(tt_markstore *s, void *ctx, tt_error *err)
{
    add_ctx *a = ctx;
    tt_trace_id id = {42, 0xabcdefULL};
    tt_markset *set = tt_markstore_get(s, a->set, id);
    return set && tt_markset_add(set, a->t, a->name, "", err) >= 0 ? 0 : -1;
}

static void test_round_trip(void)
{
    char trace[300], *side;
    tt_error err;
    tt_markstore s;
    tt_trace_id id;
    add_ctx a1 = {"iter", 2500, "fwd_start"}, a2 = {"iter", 1000, "load"},
            a3 = {"other", 7, "x"};
    snprintf(trace, sizeof trace, "%s/t.json", dir);
    write_file(trace, "[{\"ph\":\"X\",\"ts\":1}]");
    ok(tt_trace_id_of(trace, &id, &err) == 0 && id.size == 19, "identity: size of the file");
    side = tt_markers_sidecar(trace, true, &err);
    ok(side && strstr(side, "t.json.markers.json") != NULL, "sidecar beside the trace");
    ok(tt_markstore_update(side, edit_add, &a1, &err) == 0, "add first marker");
    ok(tt_markstore_update(side, edit_add, &a2, &err) == 0, "add second marker");
    ok(tt_markstore_update(side, edit_add, &a3, &err) == 0, "add a marker to another set");
    tt_markstore_init(&s);
    if (ok(tt_markstore_read(&s, side, &err) == 0, "read back")) {
        tt_markset *set = tt_markstore_find(&s, "iter");
        is_i64((int64_t)s.n, 2, "two sets");
        ok(set && set->n == 2, "two markers in 'iter'");
        if (set && set->n == 2) {
            is_str(set->m[0].name, "load", "sorted by time: load first");
            is_i64(set->m[1].t, 2500, "fwd_start at 2500 ns");
            ok(set->trace.size == 42 && set->trace.hash == 0xabcdefULL, "identity kept");
            ok(tt_markset_rename(set, 0, "zzz", &err) == 0 && strcmp(set->m[0].name, "zzz") == 0,
               "rename keeps the time order");
        }
        {
            int64_t t;
            ok(tt_markset_resolve(set, "fwd_start", &t, &err) == 0 && t == 2500,
               "resolve a marker by name");
            ok(tt_markset_resolve(set, "1.5us", &t, &err) == 0 && t == 1500,
               "resolve a time with a unit");
            ok(tt_markset_resolve(set, "nope", &t, &err) != 0, "unknown marker is an error");
        }
        ok(tt_markstore_rename(&s, "iter", "other", &err) != 0, "rename onto an existing set fails");
        ok(tt_markstore_rename(&s, "iter", "a-first", &err) == 0 &&
           strcmp(s.sets[0].name, "a-first") == 0, "renamed set moves to its sorted place");
        ok(tt_markstore_remove(&s, "other") && s.n == 1, "remove a set");
    }
    tt_markstore_fini(&s);
    free(side);
}

static int edit_fail(tt_markstore *s, void *ctx, tt_error *err)
{
    (void)s;
    (void)ctx;
    return tt_error_set(err, TT_ERR_USAGE, "refused"), -1;
}

static void test_corrupt(void)
{
    char side[300], *after;
    const char *bad = "{\"format\":\"tracetty-markers\",\n \"version\":1,\n \"sets\":[ {oops} ]}\n";
    tt_error err;
    tt_markstore s;
    add_ctx a = {"iter", 1, "m"};
    snprintf(side, sizeof side, "%s/corrupt.markers.json", dir);
    write_file(side, bad);
    tt_markstore_init(&s);
    ok(tt_markstore_read(&s, side, &err) != 0 && err.line == 3, "corrupt sidecar: error at line 3 (%lld)",
       (long long)err.line);
    ok(tt_markstore_update(side, edit_add, &a, &err) != 0, "update refuses a corrupt sidecar");
    after = read_file(side);
    is_str(after, bad, "corrupt sidecar left untouched");
    free(after);
    write_file(side, "{\"format\":\"something else\",\"version\":1,\"sets\":[]}");
    ok(tt_markstore_read(&s, side, &err) != 0, "a foreign JSON file is not taken for a sidecar");
    /* a failing edit leaves the file as it was */
    unlink(side);
    ok(tt_markstore_update(side, edit_add, &a, &err) == 0, "fresh sidecar");
    after = read_file(side);
    ok(tt_markstore_update(side, edit_fail, &a, &err) != 0, "failing edit reports its error");
    {
        char *again = read_file(side);
        is_str(again, after, "failing edit does not touch the file");
        free(again);
    }
    free(after);
    {
        /* no temp files are left behind */
        char cmd[sizeof dir + 200];
        snprintf(cmd, sizeof cmd, "ls -a %s | grep -v -e '^\\.*$' -e markers.json "
                                  "-e '^t.json$' -e '^ro$' | grep -q .", dir);
        ok(system(cmd) != 0, "no temporary or lock files left in the directory");
    }
    tt_markstore_fini(&s);
}

/* Names are unique within a set: adding or renaming onto a name taken is
 * refused and leaves the set as it was. */
static void test_unique(void)
{
    tt_markstore s;
    tt_markset *set;
    tt_trace_id id = {1, 2};
    tt_error err;
    tt_markstore_init(&s);
    tt_error_clear(&err);
    set = tt_markstore_get(&s, "dup", id);
    ok(set && tt_markset_add(set, 10000000, "a", "", &err) == 0, "add a at 10 ms");
    ok(tt_markset_add(set, 50000000, "a", "", &err) < 0 && err.code == TT_ERR_USAGE,
       "a second 'a' is refused");
    is_str(err.what, "there is a marker named 'a' already (at 10 ms)", "the message says where");
    ok(set->n == 1, "and the set is unchanged");
    ok(tt_markset_add(set, 30000000, "b", "", &err) == 1, "add b at 30 ms");
    ok(tt_markset_rename(set, 1, "a", &err) != 0 && err.code == TT_ERR_USAGE &&
           strcmp(set->m[1].name, "b") == 0,
       "renaming b to a is refused, b keeps its name");
    ok(tt_markset_rename(set, 0, "a", &err) == 0, "renaming a marker to its own name is fine");
    is_i64((int64_t)tt_markset_count(set, "a"), 1, "one 'a'");
    tt_markstore_fini(&s);
}

/* A sidecar an older version wrote with a name twice still loads, keeps
 * both markers through an edit, and naming the ambiguous marker in a
 * reference is an error that says so. */
static int edit_add_c(tt_markstore *s, void *ctx, tt_error *err)
{
    tt_markset *set = tt_markstore_find(s, "dup");
    (void)ctx;
    return set && tt_markset_add(set, 70000000, "c", "", err) >= 0 ? 0 : -1;
}

static void test_old_duplicates(void)
{
    char side[300];
    tt_markstore s, copy;
    tt_markset *set;
    tt_error err;
    int64_t t;
    snprintf(side, sizeof side, "%s/dup.markers.json", dir);
    write_file(side, "{\"format\":\"tracetty-markers\",\"version\":1,\"sets\":[{\"name\":\"dup\","
                     "\"trace\":{\"size\":0,\"hash\":\"0\"},\"markers\":["
                     "{\"name\":\"a\",\"t_ns\":10000000},{\"name\":\"a\",\"t_ns\":50000000},"
                     "{\"name\":\"b\",\"t_ns\":30000000}]}]}\n");
    tt_markstore_init(&s);
    tt_error_clear(&err);
    ok(tt_markstore_update(side, edit_add_c, NULL, &err) == 0,
       "a sidecar holding a name twice loads and takes an edit: %s", err.what);
    if (ok(tt_markstore_read(&s, side, &err) == 0, "and reads back") &&
        ok((set = tt_markstore_find(&s, "dup")) != NULL && set->n == 4, "all four markers kept")) {
        is_i64((int64_t)tt_markset_count(set, "a"), 2, "both markers named 'a' kept");
        ok(tt_markset_resolve(set, "a", &t, &err) != 0 && err.code == TT_ERR_USAGE,
           "resolving the ambiguous name is an error");
        is_str(err.what, "marker name 'a' is ambiguous: 2 markers of set 'dup' have it "
                         "(rename all but one)", "which says so");
        ok(tt_markset_resolve(set, "b", &t, &err) == 0 && t == 30000000,
           "other names still resolve");
        tt_markstore_init(&copy);
        ok(tt_markstore_put(&copy, "dup", set->trace, set->m, set->n, &err) == 0 &&
               copy.n == 1 && copy.sets[0].n == 4,
           "a copy of the set keeps both (what the view loads and saves)");
        ok(tt_markset_assign(&copy.sets[0], set->m, set->n, 5, &err) == 0 &&
               copy.sets[0].n == 4 && copy.sets[0].m[0].t == 10000005,
           "assign copies with a time shift");
        tt_markstore_fini(&copy);
    }
    tt_markstore_fini(&s);
    unlink(side);
}

/* A set saved in the view of a job: its record survives writing and
 * reading, a rename and a changed marker; a malformed record is a format
 * error that leaves the file alone; a set without one reads as before. */
static int edit_job(tt_markstore *s, void *ctx, tt_error *err)
{
    tt_trace_id id = {7, 9};
    tt_markjob j = {(char *)"event ProfilerStep#2#1", 3, 8, -2006000, -5123456789LL};
    tt_markset *set;
    (void)ctx;
    tt_markstore_remove(s, "job");
    set = tt_markstore_get(s, "job", id);
    return set && tt_markset_add(set, 1000, "m1", "", err) >= 0 &&
                   tt_markset_add(set, -50, "early", "before the trace", err) >= 0 &&
                   tt_markset_set_job(set, &j) == 0
               ? 0
               : -1;
}

static int edit_job_touch(tt_markstore *s, void *ctx, tt_error *err)
{
    tt_markset *set = tt_markstore_find(s, "job");
    (void)ctx;
    if (!set)
        return tt_error_set(err, TT_ERR_USAGE, "no set"), -1;
    if (tt_markset_add(set, 5000, "m2", "", err) < 0)
        return -1;
    return tt_markstore_rename(s, "job", "job2", err) ? -1 : 0;
}

static void test_job_record(void)
{
    char side[300], *text, *bad;
    tt_error err;
    tt_markstore s;
    tt_markset *set;
    snprintf(side, sizeof side, "%s/job.markers.json", dir);
    tt_error_clear(&err);
    ok(tt_markstore_update(side, edit_job, NULL, &err) == 0, "save a set with a job record");
    ok(tt_markstore_update(side, edit_job_touch, NULL, &err) == 0,
       "add a marker to it and rename it");
    tt_markstore_init(&s);
    if (ok(tt_markstore_read(&s, side, &err) == 0, "read back: %s", err.what)) {
        set = tt_markstore_find(&s, "job2");
        ok(set && set->job.align && strcmp(set->job.align, "event ProfilerStep#2#1") == 0 &&
               set->job.rank == 3 && set->job.ranks == 8 && set->job.offset == -2006000 &&
               set->job.start == -5123456789LL,
           "the job record: alignment, rank, ranks, offset, start");
        ok(set && set->n == 3 && set->m[0].t == -50 && strcmp(set->m[0].note,
           "before the trace") == 0, "its markers, a time before the trace start too");
        ok(set && tt_markset_set_job(set, NULL) == 0 && set->job.align == NULL,
           "the record can be dropped");
    }
    tt_markstore_fini(&s);
    text = read_file(side);
    ok(text && strstr(text, "\"job_start_ns\":\t-5123456789") != NULL,
       "the sidecar holds the record as whole nanoseconds");
    /* a record without its numbers: a format error, the file untouched */
    bad = NULL;
    if (text) {
        char *at = strstr(text, "\"offset_ns\"");
        bad = strdup(text);
        if (at && bad)
            memcpy(bad + (at - text), "\"offset_XX\"", 11);
        write_file(side, bad ? bad : "");
    }
    tt_markstore_init(&s);
    ok(tt_markstore_read(&s, side, &err) != 0 && err.code == TT_ERR_FORMAT &&
           strstr(err.what, "job") != NULL,
       "a job record missing a field is a format error: %s", err.what);
    ok(tt_markstore_update(side, edit_job, NULL, &err) != 0, "and the file is not rewritten");
    {
        char *again = read_file(side);
        ok(again && bad && strcmp(again, bad) == 0, "it is left as it was");
        free(again);
    }
    tt_markstore_fini(&s);
    free(text);
    free(bad);
    unlink(side);
}

/* Runs in a child: as root (CI) it first drops to nobody, because root
 * ignores directory permissions. Exit status: 0 pass, 1 fail, 2 cannot. */
static int readonly_child(const char *ro, const char *xdg)
{
    char trace[320], *side;
    tt_error err;
    add_ctx a = {"ro", 5, "m"};
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        return 2;
    snprintf(trace, sizeof trace, "%s/t.json", ro);
    setenv("XDG_DATA_HOME", xdg, 1);
    side = tt_markers_sidecar(trace, true, &err);
    if (!side || strncmp(side, xdg, strlen(xdg)) != 0)
        return 1;
    if (tt_markstore_update(side, edit_add, &a, &err) != 0)
        return 1;
    free(side);
    /* reading finds the same file again */
    side = tt_markers_sidecar(trace, false, &err);
    if (!side || strncmp(side, xdg, strlen(xdg)) != 0)
        return 1;
    free(side);
    return 0;
}

static void test_readonly_dir(void)
{
    char ro[300], trace[320], xdg[300];
    pid_t pid;
    int st;
    snprintf(ro, sizeof ro, "%s/ro", dir);
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    mkdir(ro, 0777);
    mkdir(xdg, 0777);
    chmod(xdg, 0777);
    chmod(dir, 0755);
    snprintf(trace, sizeof trace, "%s/t.json", ro);
    write_file(trace, "[]");
    chmod(trace, 0644);
    chmod(ro, 0555);
    pid = fork();
    if (pid == 0)
        _exit(readonly_child(ro, xdg));
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
        ok(1, "read-only directory # SKIP cannot drop privileges");
    else
        ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
           "read-only trace directory: the set is written and found under XDG_DATA_HOME");
    chmod(ro, 0755);
}

static void test_concurrent(void)
{
    char side[300];
    tt_markstore s;
    tt_error err;
    int nproc = 8, per = 10;
    snprintf(side, sizeof side, "%s/conc.markers.json", dir);
    for (int p = 0; p < nproc; p++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < per; k++) {
                char set[32], name[32];
                add_ctx a;
                snprintf(set, sizeof set, "w%d", p);
                snprintf(name, sizeof name, "m%d", k);
                a.set = set;
                a.t = k;
                a.name = name;
                if (tt_markstore_update(side, edit_add, &a, &err))
                    _exit(1);
            }
            _exit(0);
        }
    }
    {
        int all_ok = 1, st;
        while (wait(&st) > 0)
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
                all_ok = 0;
        ok(all_ok, "%d concurrent writers all succeed", nproc);
    }
    tt_markstore_init(&s);
    if (ok(tt_markstore_read(&s, side, &err) == 0, "sidecar readable after concurrent writes")) {
        size_t total = 0;
        for (size_t i = 0; i < s.n; i++)
            total += s.sets[i].n;
        is_i64((int64_t)s.n, nproc, "every writer's set is there");
        is_i64((int64_t)total, nproc * per, "no marker lost");
    }
    {
        char lock[sizeof side + 8];
        snprintf(lock, sizeof lock, "%s.lock", side);
        ok(access(lock, F_OK) != 0, "the lock file is gone after the writers");
    }
    tt_markstore_fini(&s);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tt-markers-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return tap_skip_all("cannot create a temporary directory");
    test_round_trip();
    test_corrupt();
    test_unique();
    test_old_duplicates();
    test_job_record();
    test_readonly_dir();
    test_concurrent();
    {
        char cmd[sizeof dir * 2 + 32];
        snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
        if (system(cmd) != 0)
            diag("cleanup of %s failed", dir);
    }
    return tap_done();
}
