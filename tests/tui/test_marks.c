/* test_marks.c - the view's markers and marker sets (tui/marks.h) on real
 * files in a temporary directory: automatic names, unique names, notes,
 * stepping, the distance choice; saving a set and loading it back in a new
 * view; a set saved for another trace (loaded, with a warning); listing,
 * renaming and deleting sets; a corrupt sidecar (reported with its
 * position, left byte for byte as it was); a trace read from stdin (no
 * sets). Sets written here are read back through src/markers, the module
 * `tracetty markers` uses.
 */
#include "config.h"

#include "../tap.h"
#include "markers/markers.h"
#include "tui/marks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(void)
{
    char dir[] = "/tmp/tracetty-test-marks.XXXXXX", trace[600], other[600], side[700];
    tt_marks m;
    tt_error err;
    char st[200];
    long i;
    if (!mkdtemp(dir)) {
        ok(0, "a temporary directory");
        return tap_done();
    }
    snprintf(trace, sizeof trace, "%s/t.json", dir);
    snprintf(other, sizeof other, "%s/u.json", dir);
    snprintf(side, sizeof side, "%s.markers.json", trace);
    write_file(trace, "{\"traceEvents\": []}\n");
    tt_error_clear(&err);

    ok(tt_marks_init(&m, trace) == 0, "a view's markers");
    is_str(tt_marks_status(&m, st, sizeof st), "", "no markers: nothing in the status line");
    is_i64(tt_marks_add(&m, 5000, NULL, &err), 0, "m drops m1");
    is_i64(tt_marks_add(&m, 1000, NULL, &err), 0, "an earlier one goes first");
    is_str(tt_marks_set(&m)->m[0].name, "m2", "named m2");
    is_str(tt_marks_status(&m, st, sizeof st), "2 markers*", "status: two unsaved markers");
    ok(tt_marks_add(&m, 7000, "m1", &err) < 0, "a taken name is refused: %s", err.what);
    ok(tt_marks_add(&m, 7000, "a:b", &err) < 0, "so is a colon: %s", err.what);
    i = tt_marks_rename(&m, 0, "fwd_start", &err);
    is_i64(i, 0, "rename keeps the time order");
    ok(tt_marks_rename(&m, 1, "fwd_start", &err) < 0, "renaming onto a taken name fails");
    ok(tt_marks_rename(&m, 1, "", &err) < 0, "an empty name fails");
    i = tt_marks_add(&m, 3000, "bwd", &err);
    is_i64(i, 1, "a named marker in the middle");
    ok(tt_marks_note(&m, 1, "backward starts", &err) == 0, "a note");
    is_i64(tt_marks_step(&m, 1000, 1), 1, "next after 1000 ns is bwd");
    is_i64(tt_marks_step(&m, 1000, -1), -1, "nothing before the first");
    is_i64(tt_marks_step(&m, 6000, -1), 2, "previous before 6000 ns is m1");
    {
        size_t a, b;
        tt_marks_choose(&m, 2);
        ok(!tt_marks_chosen(&m, &a, &b), "one chosen: no distance yet");
        tt_marks_choose(&m, 0);
        ok(tt_marks_chosen(&m, &a, &b) && a == 0 && b == 2, "two chosen: in time order");
        tt_marks_choose(&m, 1);
        ok(tt_marks_chosen(&m, &a, &b) && a == 0 && b == 1, "a third replaces the oldest");
    }

    /* save, then load into a new view */
    ok(tt_marks_save(&m, "iter", &err) == 0, "save as set iter");
    is_str(tt_marks_status(&m, st, sizeof st), "set iter", "status: set iter, saved");
    ok(access(side, R_OK) == 0, "the sidecar is beside the trace");
    {
        tt_markstore s;
        tt_markset *set;
        tt_markstore_init(&s);
        ok(tt_markstore_read(&s, side, &err) == 0 && (set = tt_markstore_find(&s, "iter")) &&
               set->n == 3 && strcmp(set->m[1].name, "bwd") == 0 && set->m[1].t == 3000 &&
               strcmp(set->m[1].note, "backward starts") == 0,
           "src/markers reads the set back: 3 markers, bwd at 3000 ns with its note");
        tt_markstore_fini(&s);
    }
    tt_marks_remove(&m, 2);
    is_str(tt_marks_status(&m, st, sizeof st), "set iter*", "a change marks the set unsaved");
    tt_marks_fini(&m);
    {
        tt_marks n;
        bool other_trace = true;
        tt_marks_init(&n, trace);
        ok(tt_marks_load(&n, "iter", &other_trace, &err) == 0 && tt_marks_count(&n) == 3,
           "a new view loads iter: 3 markers");
        ok(!other_trace, "saved for this trace");
        is_str(tt_marks_status(&n, st, sizeof st), "set iter", "loaded and unchanged");
        ok(tt_marks_refresh(&n, &err) == 0 && n.disk.n == 1, "the list has one set");
        ok(tt_marks_build(&n, 80, false) == 0 && n.pl.n > 4, "the panel has lines");
        ok(tt_marks_rename_set(&n, "iter", "step10", &err) == 0 && strcmp(n.loaded, "step10") == 0,
           "renaming the set on screen follows it");
        ok(tt_marks_delete_set(&n, "step10", &err) == 0 && n.disk.n == 0,
           "deleting it leaves no set");
        ok(n.dirty, "the markers on screen are now kept nowhere: unsaved");
        ok(tt_marks_save(&n, "iter", &err) == 0, "saved again");
        tt_marks_fini(&n);
    }

    /* another trace with the same sidecar name: loaded with a warning */
    {
        tt_marks o;
        bool other_trace = false;
        char oside[700];
        snprintf(oside, sizeof oside, "%s.markers.json", other);
        write_file(other, "{\"traceEvents\": [{\"ph\": \"X\"}]}\n");
        /* the sidecar of t.json, copied beside u.json */
        {
            char *text = slurp(side);
            write_file(oside, text ? text : "");
            free(text);
        }
        tt_marks_init(&o, other);
        ok(tt_marks_load(&o, "iter", &other_trace, &err) == 0 && tt_marks_count(&o) == 3,
           "a set saved for another trace still loads");
        ok(other_trace, "and says so");
        tt_marks_fini(&o);
        unlink(oside);
    }

    /* a corrupt sidecar: reported, never overwritten */
    {
        tt_marks c;
        const char *bad = "{\"sets\": [ {\"name\": \"x\",, } ]}\n";
        char *after;
        write_file(side, bad);
        tt_marks_init(&c, trace);
        tt_marks_add(&c, 10, NULL, &err);
        ok(tt_marks_refresh(&c, &err) != 0 && c.disk_err[0], "a corrupt sidecar is reported: %s",
           c.disk_err);
        ok(strstr(c.disk_err, "line 1") != NULL, "with its position");
        ok(tt_marks_save(&c, "new", &err) != 0, "saving over it fails: %s", err.what);
        after = slurp(side);
        ok(after && strcmp(after, bad) == 0, "and the file is left as it was");
        free(after);
        tt_marks_fini(&c);
    }

    /* a trace from standard input has no sidecar */
    {
        tt_marks s;
        tt_marks_init(&s, "-");
        tt_marks_add(&s, 10, NULL, &err);
        ok(tt_marks_save(&s, "x", &err) != 0, "no sets for standard input: %s", err.what);
        tt_marks_fini(&s);
    }

    unlink(side);
    {
        char lock[720];
        snprintf(lock, sizeof lock, "%s.lock", side);
        unlink(lock);
    }
    unlink(trace);
    unlink(other);
    rmdir(dir);
    return tap_done();
}
