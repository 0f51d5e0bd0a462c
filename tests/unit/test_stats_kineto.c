/* test_stats_kineto.c - the GPU time breakdown of every real Kineto trace
 * in ../shared/traces/pytorch (skipped when the folder is absent).
 *
 * Each breakdown is printed (TAP comments) and checked against an
 * independent boundary sweep over the trace's GPU events, classified here
 * from the definitions (categories kernel/memcpy/memset, collectives by
 * "nccl"/"rccl"/"c10d"/"hccl" in the name):
 *   busy = |computation ∪ communication ∪ memcpy ∪ memset|
 *   idle = total - busy, total = last end - first start
 *   exposed communication = |communication \ computation|
 *   exposed memcpy = |memcpy \ (computation ∪ communication)|
 */
#include "config.h"

#include "../tap.h"
#include "analysis/gpu.h"
#include "decode/decode.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { K = 1, S = 2, X = 4, M = 8 };   /* kernel, memset, collective, memcpy */

typedef struct point {
    tt_ns t;
    int   delta;
    int   cls;   /* index 0..3 of the bits above */
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

static bool has_nocase(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0)
            return true;
    return false;
}

static int classify(const char *cat, const char *name)
{
    bool coll = has_nocase(name, "nccl") || has_nocase(name, "rccl") ||
                has_nocase(name, "c10d") || has_nocase(name, "hccl");
    if (!strcasecmp(cat, "kernel"))
        return coll ? X : K;
    if (!strcasecmp(cat, "gpu_memset") || !strcasecmp(cat, "memset"))
        return coll ? X : S;
    if (!strcasecmp(cat, "gpu_memcpy") || !strcasecmp(cat, "memcpy"))
        return M;
    return 0;
}

static int bit_index(int b)
{
    return b == K ? 0 : b == S ? 1 : b == X ? 2 : 3;
}

typedef struct sweep {
    tt_ns busy, comp, comm, copy, exp_comm, exp_copy, first, last;
    bool  any;
} sweep;

static void do_sweep(const tt_trace *tr, sweep *out)
{
    size_t n = 0, cap = 1024;
    point *p = malloc(cap * sizeof *p);
    int cnt[4] = {0, 0, 0, 0};
    memset(out, 0, sizeof *out);
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *e = &tr->lanes[l].ev[i];
            int c = classify(tt_str(tr, e->cat), tt_str(tr, e->name));
            if (!c)
                continue;
            if (!out->any || e->start < out->first)
                out->first = e->start;
            if (!out->any || e->start + e->dur > out->last)
                out->last = e->start + e->dur;
            out->any = true;
            if (n + 2 > cap) {
                cap *= 2;
                p = realloc(p, cap * sizeof *p);
            }
            p[n++] = (point){e->start, +1, bit_index(c)};
            p[n++] = (point){e->start + e->dur, -1, bit_index(c)};
        }
    qsort(p, n, sizeof *p, cmp_point);
    for (size_t i = 0; i < n;) {
        tt_ns t = p[i].t, next;
        while (i < n && p[i].t == t) {
            cnt[p[i].cls] += p[i].delta;
            i++;
        }
        if (i == n)
            break;
        next = p[i].t;
        {
            bool k = cnt[0] > 0, s = cnt[1] > 0, x = cnt[2] > 0, m = cnt[3] > 0;
            tt_ns len = next - t;
            if (k || s || x || m)
                out->busy += len;
            if (k || s)
                out->comp += len;
            if (x)
                out->comm += len;
            if (m)
                out->copy += len;
            if (x && !(k || s))
                out->exp_comm += len;
            if (m && !(k || s || x))
                out->exp_copy += len;
        }
    }
    free(p);
}

static int check_file(const char *path, const char *label)
{
    tt_load_opts o;
    tt_trace *tr = NULL;
    tt_error err;
    tt_sel sel;
    tt_gpu_time g;
    sweep w;
    memset(&o, 0, sizeof o);
    tt_error_clear(&err);
    if (tt_load(path, &o, &tr, NULL, &err)) {
        ok(0, "%s loads: %s", label, err.what);
        return 0;
    }
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    ok(tt_gpu_time_compute(tr, &sel, &g, &err) == 0, "%s: gpu breakdown computed", label);
    diag("%s: rank %lld total %lld busy %lld idle %lld (%.1f%%) computation %lld "
         "communication %lld exposed communication %lld memcpy %lld exposed memcpy %lld "
         "(%llu kernels, %llu memcpy, %llu memset, %llu collectives)",
         label, (long long)tr->rank, (long long)g.total, (long long)g.busy, (long long)g.idle,
         g.total ? 100.0 * (double)g.idle / (double)g.total : 0.0, (long long)g.computation,
         (long long)g.communication, (long long)g.exposed_communication, (long long)g.memcpy,
         (long long)g.exposed_memcpy, (unsigned long long)g.kernels,
         (unsigned long long)g.memcpys, (unsigned long long)g.memsets,
         (unsigned long long)g.collectives);
    do_sweep(tr, &w);
    is_i64(g.total, w.any ? w.last - w.first : 0, "%s: total = last end - first start", label);
    is_i64(g.busy, w.busy, "%s: busy = |computation u communication u memcpy u memset|", label);
    is_i64(g.idle, g.total - g.busy, "%s: idle = total - busy", label);
    is_i64(g.computation, w.comp, "%s: computation", label);
    is_i64(g.communication, w.comm, "%s: communication", label);
    is_i64(g.memcpy, w.copy, "%s: memcpy", label);
    is_i64(g.exposed_communication, w.exp_comm, "%s: exposed communication", label);
    is_i64(g.exposed_memcpy, w.exp_copy, "%s: exposed memcpy", label);
    ok(g.exposed_communication <= g.communication && g.exposed_memcpy <= g.memcpy &&
           g.busy <= g.total, "%s: orderings hold", label);
    tt_trace_free(tr);
    return g.communication > 0 ? 2 : g.kernels > 0 ? 1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *srcdir = getenv("srcdir");
    const char *subdirs[] = {"pytorch", "pytorch/two_ranks"};
    char dir[1024];
    int files = 0, with_kernels = 0, with_comm = 0;
    if (!srcdir)
        srcdir = ".";
    snprintf(dir, sizeof dir, "%s/../shared/traces/pytorch", srcdir);
    {
        DIR *d = opendir(dir);
        if (!d)
            return tap_skip_all("../shared/traces is absent");
        closedir(d);
    }
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        char *names[64];
        size_t n = 0;
        struct dirent *e;
        DIR *d;
        snprintf(dir, sizeof dir, "%s/../shared/traces/%s", srcdir, subdirs[s]);
        if (!(d = opendir(dir)))
            continue;
        while ((e = readdir(d)) && n < 64) {
            size_t len = strlen(e->d_name);
            if (len > 8 && strcmp(e->d_name + len - 8, ".json.gz") == 0)
                names[n++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp_str);
        for (size_t i = 0; i < n; i++) {
            char path[2048], label[256];
            int r;
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            snprintf(label, sizeof label, "%s/%s", subdirs[s], names[i]);
            r = check_file(path, label);
            files++;
            with_kernels += r >= 1;
            with_comm += r == 2;
            free(names[i]);
        }
    }
    ok(files >= 5, "%d Kineto traces checked", files);
    ok(with_kernels >= 4 && with_comm >= 1,
       "the traces exercise kernels (%d) and collectives (%d)", with_kernels, with_comm);
    return tap_done();
}
