/* metrics.c - `--metrics FILE`: ncu metrics joined to a trace (see
 * metrics.h). */
#include "config.h"

#include "cli/metrics.h"

#include "analysis/ncu_join.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

bool tt_cli_metrics_line(const tt_trace *tr, char *buf, size_t cap)
{
    const tt_ncu_join_stats *st = tt_ncu_join_stats_of(tr);
    if (!st)
        return false;
    snprintf(buf, cap, "ncu metrics: %zu of %zu profiled launches matched, %zu names unmatched",
             st->matched, st->profiled, st->names_unmatched);
    return true;
}

int tt_cli_metrics_attach(tt_trace *tr, const char *safe_path, const tt_cli_load *lo)
{
    tt_load_opts opts;
    tt_load_info info;
    tt_trace *ncu = NULL;
    tt_error err;
    char safe_m[512], msg[800], line[200];
    const tt_ncu_join_stats *st;
    const char *format;

    if (!lo || !lo->metrics)
        return 0;
    tt_text_safe(lo->metrics, safe_m, sizeof safe_m);
    memset(&opts, 0, sizeof opts);
    memset(&info, 0, sizeof info);
    /* detected from content like any input: a Kineto trace given by
     * mistake is refused below, not read as metrics */
    tt_error_clear(&err);
    if (tt_load(lo->metrics, &opts, &ncu, &info, &err)) {
        tt_cli_error("--metrics: %s", tt_error_format(&err, safe_m, msg, sizeof msg));
        return -1;
    }
    tt_error_clear(&err);
    format = ncu->format;   /* static; the join takes ncu */
    if (tt_ncu_join_attach(tr, ncu, &err)) {
        if (err.code == TT_ERR_FORMAT)
            tt_cli_error("--metrics: %s: not an Nsight Compute table (ncu --csv, details or raw "
                         "page) but %s",
                         safe_m, format ? format : "another format");
        else
            tt_cli_error("--metrics: %s: %s", safe_m, err.what);
        return -1;
    }
    if (lo->quiet)
        return 0;
    st = tt_ncu_join_stats_of(tr);
    tt_cli_metrics_line(tr, line, sizeof line);
    if (st->shape_mismatch || st->beyond)
        tt_cli_warn("%s: %s (%zu past the timeline's launches of their name, %zu with another "
                    "grid/block size)",
                    safe_path, line, st->beyond, st->shape_mismatch);
    else
        /* a note, not a warning: everything ncu profiled found its kernel */
        fprintf(stderr, "tracetty: %s: %s\n", safe_path, line);
    return 0;
}
