/* diffinput.c - the two inputs of a comparison: parsed, loaded and
 * resolved (see diffinput.h). */
#include "config.h"

#include "cli/diffinput.h"

#include "analysis/steps.h"
#include "markers/markers.h"
#include "multi/rankset.h"
#include "report/report.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------- parsing */

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static void side_fini(tt_din_side *s)
{
    free(s->path);
    free(s->set);
    free(s->ma);
    free(s->mb);
    free(s->step);
    free(s->label);
    memset(s, 0, sizeof *s);
}

void tt_din_spec_fini(tt_din_spec *spec)
{
    side_fini(&spec->side[0]);
    side_fini(&spec->side[1]);
}

static int nomem(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* "markers:SET:A:B" after the '@': SET and A end at the next colon. */
static int parse_markers(const char *op, const char *r, tt_din_side *s, tt_error *err)
{
    const char *c1 = strchr(r, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || c1 == r || c2 == c1 + 1 || !c2[1])
        return tt_error_set(err, TT_ERR_USAGE,
                            "%.200s: expected TRACE@markers:SET:A:B (a set and two markers)", op),
               -1;
    if (!(s->set = dup_n(r, (size_t)(c1 - r))) ||
        !(s->ma = dup_n(c1 + 1, (size_t)(c2 - c1 - 1))) || !(s->mb = strdup(c2 + 1)))
        return nomem(err);
    s->region = TT_DIN_MARKERS;
    return 0;
}

/* One operand: a path, TRACE@REGION, DIR:N or DIR:N@REGION. */
static int parse_operand(const char *op, tt_din_side *s, tt_error *err)
{
    const char *at = strrchr(op, '@'), *colon;
    char *base;
    memset(s, 0, sizeof *s);
    s->rank = -1;
    if (!(s->label = strdup(op)))
        return nomem(err);
    if (exists(op) || !at || at == op) {
        base = strdup(op);
    } else {
        const char *r = at + 1;
        if (!strncmp(r, "markers:", 8)) {
            if (parse_markers(op, r + 8, s, err))
                return -1;
        } else {
            if (tt_window_parse(r, &s->window, err)) {
                char why[sizeof err->what];
                snprintf(why, sizeof why, "%s", err->what);
                return tt_error_set(err, TT_ERR_USAGE, "%.200s: %s", op, why), -1;
            }
            s->region = TT_DIN_WINDOW;
        }
        base = dup_n(op, (size_t)(at - op));
    }
    if (!base)
        return nomem(err);
    /* DIR:N, unless that whole name exists */
    colon = strrchr(base, ':');
    if (!exists(base) && colon && colon > base && colon[1] &&
        strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        char *dir = dup_n(base, (size_t)(colon - base));
        if (!dir) {
            free(base);
            return nomem(err);
        }
        if (is_dir(dir)) {
            s->rank = strtoll(colon + 1, NULL, 10);
            free(base);
            base = dir;
        } else {
            free(dir);
        }
    }
    s->path = base;
    return 0;
}

static int side_copy(const tt_din_side *from, tt_din_side *to, tt_error *err)
{
    *to = *from;
    to->path = to->set = to->ma = to->mb = to->step = to->label = NULL;
#define COPY(f) \
    if (from->f && !(to->f = strdup(from->f))) \
        return nomem(err)
    COPY(path);
    COPY(set);
    COPY(ma);
    COPY(mb);
    COPY(step);
    COPY(label);
#undef COPY
    return 0;
}

/* label + " " + what + " " + value */
static int label_add(tt_din_side *s, const char *what, const char *value, tt_error *err)
{
    size_t n = strlen(s->label) + strlen(what) + strlen(value) + 3;
    char *l = malloc(n);
    if (!l)
        return nomem(err);
    snprintf(l, n, "%s %s %s", s->label, what, value);
    free(s->label);
    s->label = l;
    return 0;
}

static int apply_rank(tt_din_side *s, const char *v, tt_error *err)
{
    if (!*v || strspn(v, "0123456789") != strlen(v))
        return tt_error_set(err, TT_ERR_USAGE, "--rank expects a rank number, not '%.100s'", v),
               -1;
    if (s->rank >= 0)
        return tt_error_set(err, TT_ERR_USAGE, "%.200s: a rank given twice (DIR:N and --rank)",
                            s->label), -1;
    s->rank = strtoll(v, NULL, 10);
    return label_add(s, "--rank", v, err);
}

static int apply_step(tt_din_side *s, const char *v, tt_error *err)
{
    if (!*v)
        return tt_error_set(err, TT_ERR_USAGE, "--step expects a step number"), -1;
    if (s->region != TT_DIN_WHOLE)
        return tt_error_set(err, TT_ERR_USAGE, "%.200s: --step and a region (@...) exclude "
                            "each other", s->label), -1;
    s->region = TT_DIN_STEP;
    if (!(s->step = strdup(v)))
        return nomem(err);
    return label_add(s, "--step", v, err);
}

int tt_din_spec_parse(char *const *operands, size_t n, char *const *ranks, size_t n_ranks,
                      char *const *steps, size_t n_steps, tt_din_spec *spec, tt_error *err)
{
    memset(spec, 0, sizeof *spec);
    if (n == 0 || n > 2 || n_ranks > 2 || n_steps > 2)
        return tt_error_set(err, TT_ERR_USAGE, "%s",
                            n == 0  ? "two inputs needed (A and B)"
                            : n > 2 ? "more than two inputs"
                            : n_ranks > 2 ? "--rank given more than twice"
                                          : "--step given more than twice"), -1;
    if (n == 1 && n_ranks < 2 && n_steps < 2)
        return tt_error_set(err, TT_ERR_USAGE, "two inputs needed (A and B), or one with two "
                            "--rank or two --step"), -1;
    if (n == 1 && n_ranks == 2 && n_steps == 2)
        return tt_error_set(err, TT_ERR_USAGE, "one input: two --rank or two --step, not both"),
               -1;
    for (size_t i = 0; i < n; i++)
        if (parse_operand(operands[i], &spec->side[i], err))
            goto fail;
    if (n == 1 && side_copy(&spec->side[0], &spec->side[1], err))
        goto fail;
    for (size_t i = 0; i < 2; i++) {
        if (n_ranks && apply_rank(&spec->side[i], ranks[n_ranks == 2 ? i : 0], err))
            goto fail;
        if (n_steps && apply_step(&spec->side[i], steps[n_steps == 2 ? i : 0], err))
            goto fail;
    }
    return 0;
fail:
    tt_din_spec_fini(spec);
    return -1;
}

bool tt_din_spec_reads_args(const tt_din_spec *spec)
{
    return spec->side[0].region == TT_DIN_STEP || spec->side[1].region == TT_DIN_STEP;
}

/* ------------------------------------------------------------- loading */

/* "CMD: LABEL: what" on stderr, the label and what sanitized. */
__attribute__((format(printf, 3, 4)))
static void say(const char *cmd, const char *label, const char *fmt, ...)
{
    char what[1200], sw[1600], sl[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    tt_cli_error("%s: %s: %s", cmd, tt_text_safe(label, sl, sizeof sl),
                 tt_text_safe(what, sw, sizeof sw));
}

/* Append ", s" (or s first) to a list in buf, "..." once it is full. */
static void list_add(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    if (n + strlen(s) + 8 >= cap) {
        if (n + 5 < cap && (n < 3 || strcmp(buf + n - 3, "...")))
            snprintf(buf + n, cap - n, "%s...", n ? ", " : "");
        return;
    }
    snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", s);
}

/* The file of side s: the path, or its rank's file in the directory. */
static char *side_file(const char *cmd, const tt_din_side *s)
{
    char **files = NULL, *path = s->path, *out = NULL;
    size_t n = 0;
    int64_t *ranks;
    tt_error err;
    char list[400] = "";
    if (s->rank < 0 && !is_dir(path))
        return strdup(path);
    tt_error_clear(&err);
    if (tt_rankset_expand((const char *const *)&path, 1, &files, &n, &err)) {
        say(cmd, s->label, "%s", err.what);
        return NULL;
    }
    if (!(ranks = tt_report_fallback_ranks(files, n))) {
        tt_rankset_free_files(files, n);
        tt_cli_error("%s: out of memory", cmd);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char r[32];
        if (s->rank >= 0 && ranks[i] == s->rank && !out && !(out = strdup(files[i])))
            tt_cli_error("%s: out of memory", cmd);
        snprintf(r, sizeof r, "%lld", (long long)ranks[i]);
        list_add(list, sizeof list, r);
    }
    if (s->rank < 0)
        say(cmd, s->label, "a directory of %zu trace%s: name a rank, as DIR:N or --rank N "
            "(ranks: %s)", n, n == 1 ? "" : "s", list);
    else if (!out)
        say(cmd, s->label, "no rank %lld in this directory (ranks: %s)", (long long)s->rank,
            list);
    free(ranks);
    tt_rankset_free_files(files, n);
    return out;
}

/* The window between two markers of a set of the trace's sidecar. */
static int markers_window(const char *cmd, const tt_din_side *s, const char *file,
                          tt_window_spec *w)
{
    tt_markstore store;
    tt_markset *set;
    tt_error err;
    char *side = NULL, list[400] = "";
    int rc = -1;
    tt_markstore_init(&store);
    tt_error_clear(&err);
    if (!(side = tt_markers_sidecar(file, false, &err)) ||
        tt_markstore_read(&store, side, &err)) {
        say(cmd, s->label, "%s", err.what);
        goto out;
    }
    if (!(set = tt_markstore_find(&store, s->set))) {
        for (size_t i = 0; i < store.n; i++)
            list_add(list, sizeof list, store.sets[i].name);
        if (store.n)
            say(cmd, s->label, "no marker set named '%s' (sets: %s)", s->set, list);
        else
            say(cmd, s->label, "no marker set named '%s': this trace has no marker sets "
                "(`tracetty markers add` or M in the view makes one)", s->set);
        goto out;
    }
    memset(w, 0, sizeof *w);
    w->has_from = w->has_to = true;
    if (tt_markset_resolve(set, s->ma, &w->from, &err) ||
        tt_markset_resolve(set, s->mb, &w->to, &err)) {
        for (size_t i = 0; i < set->n; i++)
            list_add(list, sizeof list, set->m[i].name);
        say(cmd, s->label, "%s (markers: %s)", err.what, set->n ? list : "none");
        goto out;
    }
    if (w->to < w->from) {
        say(cmd, s->label, "marker '%s' comes after '%s': the window would end before it starts",
            s->ma, s->mb);
        goto out;
    }
    rc = 0;
out:
    free(side);
    tt_markstore_fini(&store);
    return rc;
}

/* The selection of step s->step (ProfilerStep#N) of tr. */
static int step_sel(const char *cmd, const tt_din_side *s, const tt_trace *tr, tt_sel *sel)
{
    tt_steps *st = NULL;
    tt_error err;
    char list[400] = "";
    tt_sel whole;
    memset(&whole, 0, sizeof whole);
    tt_sel_window(tr, NULL, &whole);
    tt_error_clear(&err);
    if (tt_steps_compute(tr, &whole, NULL, &st, &err)) {
        say(cmd, s->label, "%s", err.what);
        return -1;
    }
    for (size_t i = 0; i < st->n; i++)
        if (!strcmp(st->v[i].name, s->step)) {
            sel->from = st->v[i].start;
            sel->to = st->v[i].end;
            sel->to_inclusive = false;
            tt_steps_free(st);
            return 0;
        }
    for (size_t i = 0; i < st->n; i++)
        list_add(list, sizeof list, st->v[i].name);
    if (st->n)
        say(cmd, s->label, "no step %s in this trace (steps: %s)", s->step, list);
    else
        say(cmd, s->label, "no step %s: this trace has no steps (no ProfilerStep#N events, no "
            "Step Id)", s->step);
    tt_steps_free(st);
    return -1;
}

void tt_din_inputs_fini(tt_din_inputs *in)
{
    tt_trace_free(in->owned[0]);
    tt_trace_free(in->owned[1]);
    free(in->file[0]);
    free(in->file[1]);
    memset(in, 0, sizeof *in);
}

int tt_din_load(const char *cmd, const tt_din_spec *spec, const tt_cli_load *lo,
                tt_din_inputs *in)
{
    tt_window_spec mw[2];
    bool one;
    memset(in, 0, sizeof *in);
    for (int i = 0; i < 2; i++)
        if (!(in->file[i] = side_file(cmd, &spec->side[i])))
            goto fail;
    /* markers are read (and checked) before any trace is loaded */
    for (int i = 0; i < 2; i++)
        if (spec->side[i].region == TT_DIN_MARKERS &&
            markers_window(cmd, &spec->side[i], in->file[i], &mw[i]))
            goto fail;
    one = !strcmp(in->file[0], in->file[1]);
    if (tt_cli_load_many(in->file, one ? 1 : 2, lo, in->owned))
        goto fail;
    in->tr[0] = in->owned[0];
    in->tr[1] = one ? in->owned[0] : in->owned[1];
    for (int i = 0; i < 2; i++) {
        const tt_din_side *s = &spec->side[i];
        memset(&in->sel[i], 0, sizeof in->sel[i]);
        switch (s->region) {
        case TT_DIN_WHOLE: tt_sel_window(in->tr[i], NULL, &in->sel[i]); break;
        case TT_DIN_WINDOW: tt_sel_window(in->tr[i], &s->window, &in->sel[i]); break;
        case TT_DIN_MARKERS: tt_sel_window(in->tr[i], &mw[i], &in->sel[i]); break;
        case TT_DIN_STEP:
            if (step_sel(cmd, s, in->tr[i], &in->sel[i]))
                goto fail;
            break;
        }
    }
    return 0;
fail:
    tt_din_inputs_fini(in);
    return -1;
}
