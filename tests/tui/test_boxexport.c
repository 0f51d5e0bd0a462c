/* test_boxexport.c - the box export of the terminal UI (tui/boxexport.h)
 * against `tracetty report`: for random traces, windows and lane subsets,
 * the file must hold exactly what `report --kind K --window FROM:TO
 * --lanes PATTERNS` writes for ops (by the box's key), lanes, transfers and
 * gpu, separated by empty records; a failed export leaves nothing behind;
 * default file names. The lane patterns are built here independently of
 * the UI (each full name with its glob characters and commas escaped).
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/gpu.h"
#include "analysis/select.h"
#include "analysis/transfers.h"
#include "report/report.h"
#include "tui/boxexport.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0xe4b0c5ad00d1e5ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *const NAMES[] = {"matmul", "ncclKernel_AllReduce", "Memcpy HtoD", "relu"};
static const char *const CATS[] = {"kernel", "gpu_memcpy", "cpu_op", ""};
static const char *const LANES[] = {"stream 7", "a*b", "q?[x]", "c,d", "plain"};

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
            int n = (int)rint_(0, 60);
            snprintf(key, sizeof key, "%d", l);
            li = tt_trace_lane(tr, gi, tt_trace_intern_cstr(tr, key), TT_LANE_THREAD);
            /* unique full names: the group differs or the lane name does */
            tr->lanes[li].name = tt_trace_intern_cstr(tr, LANES[l % 5]);
            for (int k = 0; k < n; k++) {
                int64_t i = tt_trace_push_event(tr, li);
                tt_event *e = &tr->lanes[li].ev[i];
                e->start = rint_(0, 3000);
                e->dur = rnd() % 7 == 0 ? 0 : rint_(1, 400);
                e->name = tt_trace_intern_cstr(tr, NAMES[rnd() % 4]);
                e->cat = tt_trace_intern_cstr(tr, CATS[rnd() % 4]);
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

/* `report --kind K --window W --lanes P` for each table, concatenated. */
static char *reports(const tt_trace *tr, const tt_window_spec *w, const char *pats,
                     const tt_key *key, bool xfer, bool gpu)
{
    const tt_report_kind *kinds[4] = {tt_report_kind_find("ops"), tt_report_kind_find("lanes"),
                                      tt_report_kind_find("transfers"), tt_report_kind_find("gpu")};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int k = 0; k < 4 && f; k++) {
        tt_report_opts o;
        tt_report *r;
        tt_error err;
        bool none;
        if ((k == 2 && !xfer) || (k == 3 && !gpu))
            continue;
        if (k > 0)
            fputs("\r\n", f);
        memset(&o, 0, sizeof o);
        o.kind = kinds[k];
        o.format = TT_OUT_CSV;
        o.window = w;
        o.lanes = pats;
        if (k == 0) {
            o.keys[0] = *key;
            o.n_keys = 1;
        }
        tt_error_clear(&err);
        if (tt_report_new(f, &o, &r, &err) == 0) {
            tt_report_add(r, tr, "x", 0, &none, &err);
            tt_report_finish(r, &err);
            tt_report_free(r);
        }
    }
    if (f)
        fclose(f);
    return buf;
}

int main(void)
{
    char dir[] = "/tmp/tracetty-test-boxexport.XXXXXX";
    int exported = 0, same = 0, with_xfer = 0, with_gpu = 0;
    if (!mkdtemp(dir)) {
        ok(0, "a temporary directory");
        return tap_done();
    }
    for (int round = 0; round < 60; round++) {
        tt_trace *tr = random_trace();
        tt_laneset ls;
        tt_sel sel;
        tt_window_spec w;
        tt_key key;
        tt_transfers *x = NULL;
        tt_gpu_time gt;
        tt_error err;
        char pats[4096] = "", path[600];
        size_t o = 0;
        bool xfer, gpu;
        if (!tr)
            continue;
        tt_laneset_init(&ls);
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 2 || (l + 1 == tr->n_lanes && ls.n == 0)) {
                char full[300];
                tt_laneset_add(&ls, l);
                tt_lane_fullname(tr, l, full, sizeof full);
                if (o)
                    pats[o++] = ',';
                for (size_t k = 0; full[k] && o + 3 < sizeof pats; k++) {
                    if (strchr("*?[]\\,", full[k]))
                        pats[o++] = '\\';
                    pats[o++] = full[k];
                }
                pats[o] = '\0';
            }
        tt_laneset_finish(&ls);
        memset(&w, 0, sizeof w);
        w.has_from = w.has_to = true;
        w.from = rint_(0, 2500);
        w.to = w.from + rint_(0, 1500);
        memset(&sel, 0, sizeof sel);
        tt_sel_window(tr, &w, &sel);
        tt_sel_lanes(&sel, &ls);
        memset(&key, 0, sizeof key);
        key.kind = rnd() % 2 ? TT_KEY_NAME : TT_KEY_CAT;
        tt_error_clear(&err);
        tt_transfers_compute(tr, &sel, &key, &x, &err);
        tt_gpu_time_compute(tr, &sel, &gt, &err);
        xfer = x && x->all.bytes.n > 0;
        gpu = gt.kernels + gt.memcpys + gt.memsets > 0;
        with_xfer += xfer;
        with_gpu += gpu;
        tt_transfers_free(x);
        snprintf(path, sizeof path, "%s/box-%d.csv", dir, round);
        if (tt_box_export(path, tr, &sel, &key, xfer, gpu, &err) == 0) {
            char *got = slurp(path), *want = reports(tr, &w, pats, &key, xfer, gpu);
            exported++;
            if (got && want && strcmp(got, want) == 0)
                same++;
            else if (exported - same <= 2)
                printf("# export differs:\n%s\n# want:\n%s\n", got ? got : "", want ? want : "");
            free(got);
            free(want);
            unlink(path);
        } else {
            printf("# export failed: %s\n", err.what);
        }
        tt_laneset_fini(&ls);
        tt_trace_free(tr);
    }
    ok(exported == 60 && same == exported,
       "the export holds the report's tables for the window and lanes (%d of %d)", same,
       exported);
    ok(with_xfer > 0 && with_xfer < 60 && with_gpu > 0,
       "boxes with and without transfers, and with GPU work, were exported (%d, %d)", with_xfer,
       with_gpu);

    /* a failed export leaves nothing behind */
    {
        tt_trace *tr = random_trace();
        tt_sel sel;
        tt_key key;
        tt_error err;
        char path[600];
        memset(&sel, 0, sizeof sel);
        memset(&key, 0, sizeof key);
        tt_sel_window(tr, NULL, &sel);
        tt_error_clear(&err);
        snprintf(path, sizeof path, "%s/no-such-dir/box.csv", dir);
        ok(tt_box_export(path, tr, &sel, &key, false, false, &err) != 0,
           "an export into a missing directory fails: %s", err.what);
        ok(access(path, F_OK) != 0, "and leaves no file");
        tt_trace_free(tr);
    }

    /* default names: beside the trace, else in the current directory */
    {
        char buf[700], tpath[600], want[700];
        snprintf(tpath, sizeof tpath, "%s/t.json", dir);
        tt_box_export_default(tpath, 12500000, 80000000, buf, sizeof buf);
        snprintf(want, sizeof want, "%s/t.json.box-12.5ms-80ms.csv", dir);
        is_str(buf, want, "the default name is beside the trace");
        /* (a directory that does not exist: even root cannot write there) */
        tt_box_export_default("/no/such/dir/t.json", 0, 1500, buf, sizeof buf);
        is_str(buf, "t.json.box-0ns-1.5us.csv",
               "in the current directory when the trace's is not writable");
        tt_box_export_default("-", 0, 1000, buf, sizeof buf);
        is_str(buf, "stdin.box-0ns-1us.csv", "and for standard input");
    }
    rmdir(dir);
    return tap_done();
}
