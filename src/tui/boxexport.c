/* boxexport.c - the panel's tables as CSV (see boxexport.h). */
#include "config.h"

#include "tui/boxexport.h"

#include "io/atomic.h"
#include "report/report.h"
#include "report/writer.h"
#include "util/num.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One table as `tracetty report --kind K` writes it for the selections:
 * one trace, or several with the Trace column; key: its --by, or NULL. */
static int write_table(FILE *f, const tt_box_part *parts, size_t n, bool several,
                       const tt_report_kind *kind, const tt_key *key, tt_error *err)
{
    tt_report_opts o;
    tt_report *r = NULL;
    int rc = 0;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.format = TT_OUT_CSV;
    o.several = several;
    if (key) {
        o.keys[0] = *key;
        o.n_keys = 1;
    }
    if (tt_report_new(f, &o, &r, err))
        return -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = tt_report_add_sel(r, parts[i].tr, parts[i].name, parts[i].position, parts[i].sel,
                               err);
    if (rc == 0)
        rc = tt_report_finish(r, err);
    tt_report_free(r);
    return rc ? -1 : 0;
}

static int export_parts(const char *path, const tt_box_part *parts, size_t n, bool several,
                        const tt_key *key, bool transfers, bool gpu, tt_error *err)
{
    tt_atomic a;
    FILE *f;
    const tt_report_kind *kinds[4];
    size_t nk = 0;
    memset(&a, 0, sizeof a);
    kinds[nk++] = tt_report_kind_find("ops");
    kinds[nk++] = tt_report_kind_find("lanes");
    if (transfers)
        kinds[nk++] = tt_report_kind_find("transfers");
    if (gpu)
        kinds[nk++] = tt_report_kind_find("gpu");
    if (tt_atomic_open(&a, path, err))
        return -1;
    f = tt_atomic_file(&a);
    for (size_t i = 0; i < nk; i++) {
        /* tables apart by an empty record, in the CSV's own line ends */
        if (i > 0 && fputs("\r\n", f) == EOF)
            break;
        if (write_table(f, parts, n, several, kinds[i], i == 0 ? key : NULL, err)) {   /* ops by the key */
            tt_atomic_abort(&a);
            return -1;
        }
    }
    return tt_atomic_commit(&a, err) ? -1 : 0;
}

int tt_box_export(const char *path, const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                  bool transfers, bool gpu, tt_error *err)
{
    tt_box_part one;
    one.tr = tr;
    one.name = "";
    one.position = 0;
    one.sel = sel;
    return export_parts(path, &one, 1, false, key, transfers, gpu, err);
}

int tt_box_export_ranks(const char *path, const tt_box_part *parts, size_t n, const tt_key *key,
                        bool transfers, bool gpu, tt_error *err)
{
    return export_parts(path, parts, n, true, key, transfers, gpu, err);
}

int tt_box_export_colls(const char *path, const tt_box_coll *rows, size_t n, tt_error *err)
{
    tt_atomic a;
    memset(&a, 0, sizeof a);
    if (tt_atomic_open(&a, path, err))
        return -1;
    if (tt_coll_rows_csv(tt_atomic_file(&a), rows, n)) {
        tt_atomic_abort(&a);
        return tt_error_set(err, TT_ERR_IO, "cannot write the table");
    }
    return tt_atomic_commit(&a, err) ? -1 : 0;
}

const char *tt_box_export_default(const char *trace_path, int64_t from, int64_t to, char *buf,
                                  size_t n)
{
    return tt_box_export_default_as(trace_path, "box", from, to, buf, n);
}

const char *tt_box_export_default_as(const char *trace_path, const char *what, int64_t from,
                                     int64_t to, char *buf, size_t n)
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
        snprintf(buf, n, "stdin.%s-%s-%s.csv", what, a, b);
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
        snprintf(buf, n, "%s.%s-%s-%s.csv", trace_path, what, a, b);
    else
        snprintf(buf, n, "%s.%s-%s-%s.csv", base, what, a, b);
    return buf;
}
