/* test_report_sel.c - tt_report_add_sel (a report over an explicit window
 * and lane list, as the terminal UI's box export writes it) against the
 * path `tracetty report --window FROM:TO --lanes PATTERNS` takes
 * (tt_report_add_window with a window spec and lane patterns): for random
 * traces, windows and lane subsets, every per-trace report kind in CSV and
 * JSON must come out byte for byte the same. A second check recomputes the
 * ops table's Instances and Total Time from the events directly.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/select.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x51e5a11ce0ffee01ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *const NAMES[] = {"matmul", "ncclKernel_AllReduce", "Memcpy HtoD", "relu",
                                    "conv"};
static const char *const CATS[] = {"kernel", "gpu_memcpy", "gpu_memset", "cpu_op", ""};

static tt_trace *random_trace(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    int ng = (int)rint_(1, 3);
    for (int g = 0; g < ng; g++) {
        char key[32], name[32];
        uint32_t gi;
        int nl = (int)rint_(1, 4);
        snprintf(key, sizeof key, "%d", g);
        snprintf(name, sizeof name, "proc %d", g);
        gi = tt_trace_group(tr, tt_trace_intern_cstr(tr, key));
        tr->groups[gi].name = tt_trace_intern_cstr(tr, name);
        for (int l = 0; l < nl; l++) {
            uint32_t li;
            int n = (int)rint_(0, 50);
            snprintf(key, sizeof key, "%d", l);
            snprintf(name, sizeof name, "stream %d", l);
            li = tt_trace_lane(tr, gi, tt_trace_intern_cstr(tr, key),
                               rnd() % 3 ? TT_LANE_THREAD : TT_LANE_ASYNC);
            tr->lanes[li].name = tt_trace_intern_cstr(tr, name);
            for (int k = 0; k < n; k++) {
                int64_t i = tt_trace_push_event(tr, li);
                tt_event *e = &tr->lanes[li].ev[i];
                e->start = rint_(0, 3000);
                e->dur = rnd() % 7 == 0 ? 0 : rint_(1, 400);
                e->name = tt_trace_intern_cstr(tr, NAMES[rnd() % 5]);
                e->cat = tt_trace_intern_cstr(tr, CATS[rnd() % 5]);
                e->bytes = rnd() % 3 == 0 ? rint_(0, 90000) : -1;
            }
        }
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* The report of one kind for tr, as text in a malloc'd buffer: through the
 * window spec and patterns (via_sel false) or an explicit selection. */
static char *report(const tt_trace *tr, const tt_report_kind *kind, tt_out_format fmt,
                    const tt_window_spec *w, const char *patterns, const tt_sel *sel,
                    bool via_sel)
{
    tt_report_opts o;
    tt_report *r;
    tt_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bool none = false;
    int rc;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.format = fmt;
    o.window = w;
    o.lanes = patterns;
    tt_error_clear(&err);
    if (!f || tt_report_new(f, &o, &r, &err)) {
        if (f)
            fclose(f);
        free(buf);
        return NULL;
    }
    rc = via_sel ? tt_report_add_sel(r, tr, "t", 0, sel, &err)
                 : tt_report_add_window(r, tr, "t", 0, w, &none, &err);
    if (rc == 0)
        rc = tt_report_finish(r, &err);
    tt_report_free(r);
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The ops CSV row of `name`: instances and total, parsed back. */
static bool ops_row(const char *csv, const char *name, long long *inst, long long *total)
{
    char want[64];
    const char *p;
    snprintf(want, sizeof want, ",\"%s\"\r\n", name);
    for (p = csv; (p = strstr(p, want)); p++) {
        const char *ls = p;
        double pct, avg;
        while (ls > csv && ls[-1] != '\n')
            ls--;
        if (sscanf(ls, "%lf,%lld,%lld,%lf", &pct, total, inst, &avg) == 4)
            return true;
    }
    return false;
}

int main(void)
{
    const tt_report_kind *kinds[] = {tt_report_kind_find("ops"), tt_report_kind_find("lanes"),
                                     tt_report_kind_find("transfers"), tt_report_kind_find("gpu"),
                                     tt_report_kind_find("events")};
    int same = 0, differ = 0, failed = 0, counted = 0, miscounted = 0;
    for (int round = 0; round < 60; round++) {
        tt_trace *tr = random_trace();
        tt_window_spec w;
        tt_laneset ls;
        tt_sel sel;
        char pats[2048] = "";
        size_t o = 0;
        if (!tr) {
            failed++;
            continue;
        }
        /* a random window (both ends given, as a box has them) */
        memset(&w, 0, sizeof w);
        w.has_from = w.has_to = true;
        w.from = rint_(0, 2500);
        w.to = w.from + rint_(0, 1500);
        /* a random non-empty subset of lanes, named exactly */
        tt_laneset_init(&ls);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 2 || (l + 1 == tr->n_lanes && ls.n == 0)) {
                char full[300];
                tt_laneset_add(&ls, l);
                tt_lane_fullname(tr, l, full, sizeof full);
                o += (size_t)snprintf(pats + o, sizeof pats - o, "%s%s", o ? "," : "", full);
            }
        tt_laneset_finish(&ls);
        memset(&sel, 0, sizeof sel);
        tt_sel_window(tr, &w, &sel);
        tt_sel_lanes(&sel, &ls);
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            for (int fmt = 0; fmt < 2; fmt++) {
                tt_out_format f = fmt ? TT_OUT_JSON : TT_OUT_CSV;
                char *a = report(tr, kinds[k], f, &w, pats, NULL, false);
                char *b = report(tr, kinds[k], f, &w, pats, &sel, true);
                if (!a || !b)
                    failed++;
                else if (strcmp(a, b) == 0)
                    same++;
                else if (differ++ < 3)
                    printf("# kind %s format %d differs:\n# %s\n# %s\n",
                           tt_report_kind_name(kinds[k]), fmt, a, b);
                if (kinds[k] == tt_report_kind_find("ops") && !fmt && b) {
                    /* Instances and Total Time of each name, from the events */
                    for (size_t ni = 0; ni < 5; ni++) {
                        long long n = 0, total = 0, gi = -1, gt = -1;
                        for (size_t li = 0; li < ls.n; li++) {
                            const tt_lane *ln = &tr->lanes[ls.v[li]];
                            for (size_t i = 0; i < ln->n; i++) {
                                const tt_event *e = &ln->ev[i];
                                bool in = e->dur == 0 ? e->start >= sel.from && e->start < sel.to
                                                      : e->start < sel.to &&
                                                            e->start + e->dur > sel.from;
                                tt_ns s, t;
                                if (sel.from >= sel.to)
                                    in = false;
                                if (!in || strcmp(tt_str(tr, e->name), NAMES[ni]) != 0)
                                    continue;
                                s = e->start > sel.from ? e->start : sel.from;
                                t = e->start + e->dur < sel.to ? e->start + e->dur : sel.to;
                                n++;
                                total += t > s ? t - s : 0;
                            }
                        }
                        if (n == 0)
                            continue;
                        counted++;
                        if (!ops_row(b, NAMES[ni], &gi, &gt) || gi != n || gt != total)
                            miscounted++;
                    }
                }
                free(a);
                free(b);
            }
        tt_laneset_fini(&ls);
        tt_trace_free(tr);
    }
    ok(failed == 0, "every report was written (%d failures)", failed);
    ok(differ == 0 && same > 0,
       "explicit selections give the same reports as --window and --lanes (%d same, %d differ)",
       same, differ);
    ok(miscounted == 0 && counted > 0,
       "the ops table's Instances and Total Time match the events (%d names, %d wrong)", counted,
       miscounted);
    return tap_done();
}
