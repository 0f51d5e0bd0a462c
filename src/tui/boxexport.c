/* boxexport.c - the panel's tables as CSV (see boxexport.h). */
#include "config.h"

#include "tui/boxexport.h"

#include "io/atomic.h"
#include "report/report.h"
#include "util/num.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One table as `tracetty report --kind K` writes it for the selection. */
static int write_table(FILE *f, const tt_trace *tr, const tt_sel *sel, tt_report_kind kind,
                       const tt_key *key, tt_error *err)
{
    tt_report_opts o;
    tt_report *r = NULL;
    int rc;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.format = TT_OUT_CSV;
    if (kind == TT_REPORT_OPS) {
        o.keys[0] = *key;
        o.n_keys = 1;
    }
    if (tt_report_new(f, &o, &r, err))
        return -1;
    rc = tt_report_add_sel(r, tr, "", 0, sel, err);
    if (rc == 0)
        rc = tt_report_finish(r, err);
    tt_report_free(r);
    return rc ? -1 : 0;
}

int tt_box_export(const char *path, const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                  bool transfers, bool gpu, tt_error *err)
{
    tt_atomic a;
    FILE *f;
    tt_report_kind kinds[4];
    size_t nk = 0;
    memset(&a, 0, sizeof a);
    kinds[nk++] = TT_REPORT_OPS;
    kinds[nk++] = TT_REPORT_LANES;
    if (transfers)
        kinds[nk++] = TT_REPORT_TRANSFERS;
    if (gpu)
        kinds[nk++] = TT_REPORT_GPU;
    if (tt_atomic_open(&a, path, err))
        return -1;
    f = tt_atomic_file(&a);
    for (size_t i = 0; i < nk; i++) {
        /* tables apart by an empty record, in the CSV's own line ends */
        if (i > 0 && fputs("\r\n", f) == EOF)
            break;
        if (write_table(f, tr, sel, kinds[i], key, err)) {
            tt_atomic_abort(&a);
            return -1;
        }
    }
    return tt_atomic_commit(&a, err) ? -1 : 0;
}

const char *tt_box_export_default(const char *trace_path, int64_t from, int64_t to, char *buf,
                                  size_t n)
{
    char a[48], b[48], dir[4096];
    const char *base = trace_path, *slash;
    size_t k = 0;
    bool stdin_trace = !trace_path || strcmp(trace_path, "-") == 0;
    tt_fmt_dur(a, sizeof a, from, 3);
    tt_fmt_dur(b, sizeof b, to, 3);
    /* "12.5 ms" -> "12.5ms" */
    for (size_t i = 0; a[i]; i++)
        if (a[i] != ' ')
            a[k++] = a[i];
    a[k] = '\0';
    k = 0;
    for (size_t i = 0; b[i]; i++)
        if (b[i] != ' ')
            b[k++] = b[i];
    b[k] = '\0';
    if (stdin_trace) {
        snprintf(buf, n, "stdin.box-%s-%s.csv", a, b);
        return buf;
    }
    slash = strrchr(trace_path, '/');
    if (slash) {
        size_t dl = (size_t)(slash - trace_path);
        base = slash + 1;
        if (dl == 0)
            dl = 1;   /* the root directory */
        if (dl >= sizeof dir)
            dl = sizeof dir - 1;
        memcpy(dir, trace_path, dl);
        dir[dl] = '\0';
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (access(dir, W_OK) == 0)
        snprintf(buf, n, "%s.box-%s-%s.csv", trace_path, a, b);
    else
        snprintf(buf, n, "%s.box-%s-%s.csv", base, a, b);
    return buf;
}
