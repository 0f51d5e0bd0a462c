/* show.c - the timeline options and inputs of view and render (see
 * show.h). */
#include "config.h"

#include "cli/show.h"

#include "markers/markers.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    if (strcmp(path, "-") == 0)
        return "(stdin)";
    return s && s[1] ? s + 1 : path;
}

static const char *source_name(tt_rank_source s)
{
    switch (s) {
    case TT_RANK_FROM_METADATA: return "metadata";
    case TT_RANK_FROM_NAME: return "file name";
    default: return "order";
    }
}

/* The --align value that gives the alignment applied. */
static void align_option(const tt_align_spec *a, tt_align_mode applied, char *buf, size_t n)
{
    switch (applied) {
    case TT_ALIGN_START:
        snprintf(buf, n, "start");
        break;
    case TT_ALIGN_EVENT:
        if (a->set[0])
            snprintf(buf, n, "marker:%.120s:%.160s", a->set, a->event);
        else if (strcmp(a->event, "collective") == 0)
            snprintf(buf, n, "collective#%u", a->nth);
        else
            snprintf(buf, n, "event:%s#%u", a->event, a->nth);
        break;
    default:
        snprintf(buf, n, "absolute");
        break;
    }
}

/* Load files[0..n) in parallel (progress line), assign ranks, align the
 * clocks (align NULL: automatic); desc/opt receive the alignment applied,
 * described and as an --align value. 0, or -1 after printing why. */
static int load_job(char *const *files, size_t n, const tt_cli_load *lo,
                    const tt_align_spec *align, tt_rankset *rs, char *desc, size_t desc_n,
                    char *opt, size_t opt_n)
{
    tt_trace **traces = calloc(n ? n : 1, sizeof *traces);
    tt_align_spec none;
    tt_error err;
    char safe[700];
    tt_rankset_init(rs);
    if (!traces) {
        tt_cli_error("out of memory");
        return -1;
    }
    if (tt_cli_load_many(files, n, lo, traces)) {
        free(traces);
        return -1;
    }
    tt_error_clear(&err);
    if (tt_rankset_adopt(rs, files, traces, n, &err)) {
        free(traces);
        tt_cli_error("%s", tt_text_safe(err.what, safe, sizeof safe));
        return -1;
    }
    free(traces);
    if (!align) {
        memset(&none, 0, sizeof none);
        none.mode = TT_ALIGN_AUTO;
        align = &none;
    }
    if (tt_rankset_align(rs, align, &err)) {
        tt_cli_error("--align: %s", tt_text_safe(err.what, safe, sizeof safe));
        tt_rankset_fini(rs);
        return -1;
    }
    tt_align_describe(align, rs->aligned, desc, desc_n);
    align_option(align, rs->aligned, opt, opt_n);
    return 0;
}

/* The view's ranks (out[0..rs->n)) from a loaded job. */
static void view_ranks(const tt_rankset *rs, tt_app_rank *out)
{
    for (size_t i = 0; i < rs->n; i++) {
        out[i].tr = rs->r[i].trace;
        out[i].path = rs->r[i].path;
        out[i].rank = rs->r[i].rank;
        out[i].offset = rs->r[i].offset;
        out[i].source = source_name(rs->r[i].source);
    }
}

/* paths -> the files to load: *files NULL and *n_files 1 when paths is
 * one plain file; else directories expanded (free with
 * tt_rankset_free_files). 0, or -1 after printing why. */
static int view_inputs(char *const *paths, size_t n, char ***files, size_t *n_files)
{
    struct stat st;
    /* one file is loaded as it always was; anything else is a job */
    if (n == 1 && !(strcmp(paths[0], "-") != 0 && stat(paths[0], &st) == 0 &&
                    S_ISDIR(st.st_mode))) {
        *files = NULL;
        *n_files = 1;
        return 0;
    }
    if (!(*files = tt_cli_expand(paths, n, n_files)))
        return -1;
    return 0;
}

/* Header title of a job: a directory's name, or "N files". */
static void job_title(char *const *paths, size_t n, size_t n_files, char *buf, size_t cap)
{
    if (n == 1) {
        /* a directory: its name, without the trailing slashes */
        char p[4096];
        size_t len;
        snprintf(p, sizeof p, "%s", paths[0]);
        len = strlen(p);
        while (len > 1 && p[len - 1] == '/')
            p[--len] = '\0';
        snprintf(buf, cap, "%s", base_name(p));
    } else {
        snprintf(buf, cap, "%zu files", n_files);
    }
}

/* --markers SET, before anything loads: every trace's sidecar parses
 * and (one of) them has the set. 0, or -1 after printing why. */
static int check_markers(const char *cmd, const char *name, char *const *files, size_t n)
{
    char safe[600], sname[300], msg[800];
    bool found = false;
    tt_text_safe(name, sname, sizeof sname);
    for (size_t i = 0; i < n; i++) {
        tt_markstore st;
        tt_error err;
        char *side;
        tt_error_clear(&err);
        if (!(side = tt_markers_sidecar(files[i], false, &err))) {
            tt_error_format(&err, strcmp(files[i], "-") == 0 ? "(stdin)" : files[i], msg,
                            sizeof msg);
            tt_cli_error("%s: --markers: %s", cmd, tt_text_safe(msg, safe, sizeof safe));
            return -1;
        }
        tt_markstore_init(&st);
        if (tt_markstore_read(&st, side, &err)) {
            tt_error_format(&err, side, msg, sizeof msg);
            tt_cli_error("%s: --markers: %s", cmd, tt_text_safe(msg, safe, sizeof safe));
            free(side);
            return -1;
        }
        found |= tt_markstore_find(&st, name) != NULL;
        tt_markstore_fini(&st);
        free(side);
    }
    if (found)
        return 0;
    if (n == 1)
        tt_cli_error("%s: --markers: %s: no marker set named '%s' (`tracetty markers list "
                     "TRACE` shows its sets)", cmd, tt_text_safe(files[0], safe, sizeof safe),
                     sname);
    else
        tt_cli_error("%s: --markers: none of the %zu traces has a marker set named '%s' "
                     "(`tracetty markers list TRACE` shows a trace's sets)", cmd, n, sname);
    return -1;
}

void tt_show_init(tt_show *s)
{
    memset(s, 0, sizeof *s);
    tt_rules_config_defaults(&s->rules);
    tt_rankset_init(&s->rs);
}

int tt_show_option(tt_show *s, const char *cmd, int opt, const char *arg)
{
    static const char *const rule_opts[] = {"rules", "set", "enable", "disable"};
    tt_error err;
    char safe[600];
    if (tt_cli_load_option(opt, arg, &s->lo))
        return 1;
    switch (opt) {
    case TT_OPT_RULES:
    case TT_OPT_SET:
    case TT_OPT_ENABLE:
    case TT_OPT_DISABLE:
        return tt_cli_rules_option(cmd, rule_opts[opt - TT_OPT_RULES], arg, &s->rules) < 0 ? -1
                                                                                        : 1;
    case TT_OPT_MARKERS:
        s->markers = arg;
        return 1;
    case TT_OPT_ALIGN:
        tt_error_clear(&err);
        if (tt_align_parse(arg, &s->align, &err)) {
            tt_cli_error("%s: %s", cmd, tt_text_safe(err.what, safe, sizeof safe));
            return -1;
        }
        s->align_given = true;
        return 1;
    default:
        return 0;
    }
}

int tt_show_open(tt_show *s, const char *cmd, char *const *paths, size_t n)
{
    if (view_inputs(paths, n, &s->files, &s->n_files))
        return -1;
    if (s->align_given && s->n_files < 2) {
        tt_cli_error("%s: --align lines up several traces (a directory or several files)", cmd);
        return -1;
    }
    /* a set that is not there is an error before the view starts, not a
     * status message in it */
    if (s->markers && check_markers(cmd, s->markers, s->files ? s->files : paths, s->n_files))
        return -1;
    s->opts.utf8 = tt_text_utf8();
    s->opts.rules = &s->rules;
    s->opts.markers = s->markers;
    if (s->n_files == 1) {
        const char *path = s->files ? s->files[0] : paths[0];
        if (!(s->tr = tt_cli_load_trace(path, &s->lo)))
            return -1;
        s->opts.title = base_name(path);
        s->opts.path = path;
        s->first = s->tr;
        return 0;
    }
    if (load_job(s->files, s->n_files, &s->lo, s->align_given ? &s->align : NULL, &s->rs,
                 s->align_desc, sizeof s->align_desc, s->align_opt, sizeof s->align_opt))
        return -1;
    if (!(s->ranks = calloc(s->rs.n, sizeof *s->ranks))) {
        tt_cli_error("out of memory");
        return -1;
    }
    view_ranks(&s->rs, s->ranks);
    s->job.r = s->ranks;
    s->job.n = s->rs.n;
    s->job.align = s->align_desc;
    s->job.align_opt = s->align_opt;
    job_title(paths, n, s->n_files, s->title, sizeof s->title);
    s->opts.title = s->title;
    s->opts.job = &s->job;
    s->first = s->rs.r[0].trace;
    return 0;
}

void tt_show_fini(tt_show *s)
{
    tt_trace_free(s->tr);
    tt_rankset_fini(&s->rs);
    free(s->ranks);
    tt_rankset_free_files(s->files, s->files ? s->n_files : 0);
    memset(s, 0, sizeof *s);
}
