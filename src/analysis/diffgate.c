/* diffgate.c - parse and evaluate `diff --fail-if` conditions (grammar
 * and meaning in diffgate.h). Parsing finds the operator first (the last
 * '<' or '>'), so a subject's glob may hold anything else; every error
 * names the column where the condition stops making sense.
 */
#include "config.h"

#include "analysis/diffgate.h"
#include "util/num.h"
#include "util/suggest.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char     *name;
    tt_gate_subject subject;
    bool            glob;
} subjects[] = {
    {"total", TT_GATE_TOTAL, false},       {"span", TT_GATE_SPAN, false},
    {"step", TT_GATE_STEP, false},         {"added", TT_GATE_ADDED, false},
    {"deleted", TT_GATE_DELETED, false},   {"increased", TT_GATE_INCREASED, false},
    {"decreased", TT_GATE_DECREASED, false}, {"name", TT_GATE_NAME, true},
    {"kernel", TT_GATE_KERNEL, true},      {"op", TT_GATE_OP, true},
    {"operator", TT_GATE_OPERATOR, true},
};
#define N_SUBJECTS (sizeof subjects / sizeof subjects[0])

/* A usage error at byte `at` of the condition (column at + 1). */
__attribute__((format(printf, 3, 4)))
static int bad(tt_error *err, size_t at, const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    tt_error_at_line(err, TT_ERR_USAGE, (int64_t)at, 1, (int64_t)at + 1, "%s", what);
    return -1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* The subject text[0..n) (spaces trimmed by the caller) into c. */
static int parse_subject(const char *text, size_t n, tt_gate_cond *c, tt_error *err)
{
    const char *colon = memchr(text, ':', n);
    size_t head = colon ? (size_t)(colon - text) : n;
    char word[32];
    tt_suggest sg;
    for (size_t i = 0; i < N_SUBJECTS; i++) {
        if (strlen(subjects[i].name) != head || memcmp(subjects[i].name, text, head) != 0)
            continue;
        if (subjects[i].glob != (colon != NULL))
            return subjects[i].glob
                       ? bad(err, head, "%s needs a glob: %s:GLOB", subjects[i].name,
                             subjects[i].name)
                       : bad(err, head, "%s takes no glob", subjects[i].name);
        c->subject = subjects[i].subject;
        if (colon) {
            if (head + 1 == n)
                return bad(err, n, "%s: the glob is empty", subjects[i].name);
            if (!(c->glob = strndup(colon + 1, n - head - 1)))
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
        }
        return 0;
    }
    snprintf(word, sizeof word, "%.*s", (int)(head < 31 ? head : 31), text);
    tt_suggest_init(&sg, word);
    for (size_t i = 0; i < N_SUBJECTS; i++)
        tt_suggest_offer(&sg, subjects[i].name);
    tt_error_at_line(err, TT_ERR_USAGE, 0, 1, 1,
                     "unknown subject '%s'%s%s%s: expected total, span, step, added, deleted, "
                     "increased, decreased, name:GLOB, kernel:GLOB, op:GLOB or operator:GLOB",
                     word, tt_suggest_best(&sg) ? " (did you mean " : "",
                     tt_suggest_best(&sg) ? tt_suggest_best(&sg) : "",
                     tt_suggest_best(&sg) ? "?)" : "");
    return -1;
}

/* The value text[at..n) into c (unit and number). */
static int parse_value(const char *text, size_t at, size_t n, tt_gate_cond *c, tt_error *err)
{
    const char *v = text + at;
    size_t len = n - at;
    bool neg = false;
    char buf[64];
    if (!len)
        return bad(err, at, "expected a value after the operator: a number with %%, a time "
                   "(ns, us, ms, s) or a count");
    if (*v == '+' || *v == '-') {
        neg = *v == '-';
        v++;
        len--;
    }
    if (!len || len >= sizeof buf || !((*v >= '0' && *v <= '9') || *v == '.'))
        return bad(err, (size_t)(v - text), "expected a number");
    if (v[len - 1] == '%') {
        c->unit = TT_GATE_PCT;
        if (tt_parse_double(v, len - 1, &c->value))
            return bad(err, (size_t)(v - text), "expected a number before '%%'");
    } else if ((v[len - 1] >= '0' && v[len - 1] <= '9') || v[len - 1] == '.') {
        c->unit = TT_GATE_COUNT;
        if (tt_parse_double(v, len, &c->value))
            return bad(err, (size_t)(v - text), "expected a number");
    } else {
        memcpy(buf, v, len);
        buf[len] = '\0';
        c->unit = TT_GATE_TIME;
        if (tt_parse_duration(buf, &c->ns)) {
            size_t d = 0;
            while (d < len && ((v[d] >= '0' && v[d] <= '9') || v[d] == '.'))
                d++;
            return bad(err, (size_t)(v - text) + d,
                       "expected %%, ns, us, ms or s after the number (or nothing: a count)");
        }
        if (neg)
            c->ns = -c->ns;
    }
    if (neg)
        c->value = -c->value;
    return 0;
}

int tt_gate_cond_parse(const char *text, tt_gate_cond *c, tt_error *err)
{
    size_t n = strlen(text), op = n, s0 = 0, s1, v0;
    memset(c, 0, sizeof *c);
    c->text = text;
    while (op && text[op - 1] != '<' && text[op - 1] != '>')
        op--;
    if (!op)
        return bad(err, n, "expected SUBJECT OP VALUE, OP one of > >= < <= (as in total>+5%%)");
    op--;
    v0 = op + 1;
    if (text[v0] == '=')
        v0++;
    c->cmp = text[op] == '>' ? (v0 > op + 1 ? TT_GATE_GE : TT_GATE_GT)
                             : (v0 > op + 1 ? TT_GATE_LE : TT_GATE_LT);
    while (s0 < op && is_space(text[s0]))
        s0++;
    s1 = op;
    while (s1 > s0 && is_space(text[s1 - 1]))
        s1--;
    while (v0 < n && is_space(text[v0]))
        v0++;
    while (n > v0 && is_space(text[n - 1]))
        n--;
    if (s1 == s0)
        return bad(err, s0, "expected a subject before the operator");
    if (parse_subject(text + s0, s1 - s0, c, err)) {
        err->column += (int64_t)s0;   /* positions in the whole text */
        err->offset += (int64_t)s0;
        return -1;
    }
    if (parse_value(text, v0, n, c, err)) {
        tt_gate_cond_fini(c);
        return -1;
    }
    switch (c->subject) {
    case TT_GATE_SPAN:
    case TT_GATE_STEP:
        if (c->unit == TT_GATE_COUNT) {
            tt_gate_cond_fini(c);
            return bad(err, v0, "%s takes a %% or a time (ns, us, ms, s), not a count",
                       subjects[c->subject].name);
        }
        break;
    case TT_GATE_ADDED:
    case TT_GATE_DELETED:
    case TT_GATE_INCREASED:
    case TT_GATE_DECREASED:
        if (c->unit != TT_GATE_COUNT) {
            int rc = bad(err, v0, "%s takes a count of rows (a plain number), not a %% or a time",
                         subjects[c->subject].name);
            tt_gate_cond_fini(c);
            return rc;
        }
        break;
    default:
        break;
    }
    return 0;
}

void tt_gate_cond_fini(tt_gate_cond *c)
{
    if (c) {
        free(c->glob);
        c->glob = NULL;
    }
}

/* 100 * (b - a) / a, with the zero cases of diffgate.h. */
static double rel(double a, double b)
{
    if (a == 0)
        return b == 0 ? 0 : (b > 0 ? INFINITY : -INFINITY);
    return 100.0 * (b - a) / a;
}

static bool compare(double x, tt_gate_cmp cmp, double v)
{
    switch (cmp) {
    case TT_GATE_GT: return x > v;
    case TT_GATE_GE: return x >= v;
    case TT_GATE_LT: return x < v;
    case TT_GATE_LE: return x <= v;
    }
    return false;
}

/* Sums over the rows of d matching glob. */
static void glob_sums(const tt_diff *d, const char *glob, tt_gate_result *r, int64_t *ia,
                      int64_t *ib, double *ca, double *cb)
{
    for (size_t i = 0; i < d->n; i++) {
        const tt_diff_row *row = &d->rows[i];
        if (!row->name || fnmatch(glob, row->name, 0) != 0)
            continue;
        r->rows++;
        *ia = tt_sat_add(*ia, row->total_a);
        *ib = tt_sat_add(*ib, row->total_b);
        *ca += (double)row->count_a;
        *cb += (double)row->count_b;
    }
}

int tt_gate_eval(const tt_gate_cond *c, const tt_gate_input *in, tt_gate_result *r, tt_error *err)
{
    const tt_diff *d = in->diff;
    double ca = 0, cb = 0;
    int64_t ia = 0, ib = 0;   /* exact times where there are some */
    bool exact = false;
    memset(r, 0, sizeof *r);
    switch (c->subject) {
    case TT_GATE_TOTAL:
    case TT_GATE_NAME:
        if (!d)
            return tt_error_set(err, TT_ERR_USAGE, "--fail-if '%s': %s needs --kind ops, kernels "
                                "or operators", c->text,
                                c->subject == TT_GATE_TOTAL ? "total" : "name:GLOB"), -1;
        if (c->subject == TT_GATE_TOTAL) {
            ia = d->sum_a;
            ib = d->sum_b;
            exact = true;
            ca = (double)d->count_a;
            cb = (double)d->count_b;
            r->a = (double)ia;
            r->b = (double)ib;
        } else {
            glob_sums(d, c->glob, r, &ia, &ib, &ca, &cb);
            exact = true;
        }
        break;
    case TT_GATE_KERNEL:
    case TT_GATE_OP:
    case TT_GATE_OPERATOR: {
        tt_diff_kind k = c->subject == TT_GATE_KERNEL ? TT_DIFF_KERNELS
                         : c->subject == TT_GATE_OP   ? TT_DIFF_OPS
                                                      : TT_DIFF_OPERATORS;
        const tt_diff *o = NULL;
        if (!in->diff_of || in->diff_of(in->ctx, k, &o, err))
            return in->diff_of ? -1
                               : (tt_error_set(err, TT_ERR_USAGE, "--fail-if '%s': no %s table",
                                               c->text, tt_diff_kind_name(k)), -1);
        glob_sums(o, c->glob, r, &ia, &ib, &ca, &cb);
        exact = true;
        break;
    }
    case TT_GATE_SPAN:
        ia = in->span_a;
        ib = in->span_b;
        exact = true;
        r->a = (double)ia;
        r->b = (double)ib;
        break;
    case TT_GATE_STEP:
        if (!in->step_mean || in->step_mean(in->ctx, &r->a, &r->b, err))
            return in->step_mean ? -1
                                 : (tt_error_set(err, TT_ERR_USAGE, "--fail-if '%s': no steps",
                                                 c->text), -1);
        break;
    case TT_GATE_ADDED:
    case TT_GATE_DELETED:
    case TT_GATE_INCREASED:
    case TT_GATE_DECREASED: {
        static const tt_diff_status st[] = {TT_DIFF_ADDED, TT_DIFF_DELETED, TT_DIFF_INCREASED,
                                            TT_DIFF_DECREASED};
        if (!d)
            return tt_error_set(err, TT_ERR_USAGE, "--fail-if '%s': row counts need --kind ops, "
                                "kernels or operators", c->text), -1;
        r->b = (double)d->n_status[st[c->subject - TT_GATE_ADDED]];
        r->measured = r->b;
        r->holds = compare(r->measured, c->cmp, c->value);
        return 0;
    }
    }
    if (exact) {
        r->a = (double)ia;
        r->b = (double)ib;
    }
    switch (c->unit) {
    case TT_GATE_PCT:
        r->measured = rel(r->a, r->b);
        r->holds = compare(r->measured, c->cmp, c->value);
        break;
    case TT_GATE_TIME:
        /* exact integers where the subject has them: a delta of 1 ns
         * against a 1 ns threshold must not round either way */
        if (exact) {
            int64_t delta = tt_sat_sub(ib, ia);
            r->measured = (double)delta;
            switch (c->cmp) {
            case TT_GATE_GT: r->holds = delta > c->ns; break;
            case TT_GATE_GE: r->holds = delta >= c->ns; break;
            case TT_GATE_LT: r->holds = delta < c->ns; break;
            case TT_GATE_LE: r->holds = delta <= c->ns; break;
            }
        } else {
            r->measured = r->b - r->a;
            r->holds = compare(r->measured, c->cmp, (double)c->ns);
        }
        break;
    case TT_GATE_COUNT:
        r->a = ca;
        r->b = cb;
        r->measured = cb - ca;
        r->holds = compare(r->measured, c->cmp, c->value);
        break;
    }
    return 0;
}

/* "12,345" for an integral value, else with 1 decimal. */
static char *fmt_num(char *buf, size_t n, double v)
{
    char digits[64];
    if (!isfinite(v))
        snprintf(buf, n, "%s", v > 0 ? "+inf" : v < 0 ? "-inf" : "nan");
    else {
        if (v == floor(v) && fabs(v) < 9e18)
            snprintf(digits, sizeof digits, "%" PRId64, (int64_t)v);
        else
            snprintf(digits, sizeof digits, "%.1f", v);
        tt_fmt_grouped(digits, buf, n);
    }
    return buf;
}

char *tt_gate_describe(const tt_gate_cond *c, const tt_gate_result *r, char *buf, size_t n)
{
    char a[48], b[48], m[48], pct[48];
    const char *subj = subjects[c->subject].name;
    fmt_num(a, sizeof a, r->a);
    fmt_num(b, sizeof b, r->b);
    fmt_num(m, sizeof m, fabs(r->measured));
    if (c->subject >= TT_GATE_ADDED && c->subject <= TT_GATE_DECREASED) {
        snprintf(buf, n, "%s rows: %s", subj, b);
        return buf;
    }
    if (c->unit == TT_GATE_COUNT) {
        snprintf(buf, n, "%s%s%s count: A %s, B %s, delta %s%s", subj, c->glob ? ":" : "",
                 c->glob ? c->glob : "", a, b, r->measured < 0 ? "-" : "+", m);
        return buf;
    }
    if (isfinite(rel(r->a, r->b)))
        snprintf(pct, sizeof pct, "%+.2f%%", rel(r->a, r->b));
    else
        snprintf(pct, sizeof pct, "%sinf%%", r->b > r->a ? "+" : "-");
    {
        double delta = r->b - r->a;
        fmt_num(m, sizeof m, fabs(delta));
        snprintf(buf, n, "%s%s%s: A %s ns, B %s ns, delta %s%s ns (%s)%s", subj,
                 c->glob ? ":" : "", c->glob ? c->glob : "", a, b, delta < 0 ? "-" : "+", m, pct,
                 c->glob && !r->rows ? ", no row matches" : "");
    }
    return buf;
}
