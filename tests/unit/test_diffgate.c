/* test_diffgate.c - `diff --fail-if` conditions (analysis/diffgate.h):
 * the grammar (every subject, operator and unit; malformed conditions
 * with the column they are reported at) and the evaluation against a
 * hand-made diff whose sums are worked out below, with the zero and
 * exact-ns edges.
 */
#include "config.h"

#include "../tap.h"
#include "analysis/diffgate.h"

#include <math.h>
#include <stdlib.h>

/* A diff of three rows (names and numbers chosen for the globs):
 *   gemm_a   count 2 -> 3, total 1000 -> 1300   increased
 *   gemm_b   count 1 -> 1, total  500 ->  450   unchanged
 *   relu     count 4 -> 0, total  200 ->    0   deleted
 *   softmax  count 0 -> 2, total    0 ->  100   added
 * sums: total 1700 -> 1850 (+150, +8.8235%), counts 7 -> 6. */
static tt_diff_row rows[] = {
    {"gemm_a", TT_DIFF_INCREASED, 2, 3, 1000, 1300, 300, 30.0, 500, 1300.0 / 3},
    {"relu", TT_DIFF_DELETED, 4, 0, 200, 0, -200, -100.0, 50, NAN},
    {"softmax", TT_DIFF_ADDED, 0, 2, 0, 100, 100, NAN, NAN, 50},
    {"gemm_b", TT_DIFF_UNCHANGED, 1, 1, 500, 450, -50, -10.0, 500, 450},
};

/* the kernels table diff_of hands out: one kernel only in B */
static tt_diff_row krows[] = {
    {"ampere_sgemm_128x64_nn", TT_DIFF_ADDED, 0, 5, 0, 5000, 5000, NAN, NAN, 1000},
    {"void f<int>(int)", TT_DIFF_UNCHANGED, 3, 3, 3000, 3001, 1, 1.0 / 30, 1000, 3001.0 / 3},
};

static tt_diff dd, kd;
static int diff_of_calls;

static int diff_of(void *ctx, tt_diff_kind kind, const tt_diff **out, tt_error *err)
{
    (void)ctx;
    diff_of_calls++;
    if (kind != TT_DIFF_KERNELS)
        return tt_error_set(err, TT_ERR_USAGE, "only kernels here"), -1;
    *out = &kd;
    return 0;
}

static int steps_none(void *ctx, double *a, double *b, tt_error *err)
{
    (void)ctx, (void)a, (void)b;
    return tt_error_set(err, TT_ERR_USAGE, "A has no steps"), -1;
}

static int steps_some(void *ctx, double *a, double *b, tt_error *err)
{
    (void)ctx, (void)err;
    *a = 2000.5;
    *b = 2100.5;
    return 0;
}

/* Evaluate text; -1 when parse or eval fails, else whether it holds. */
static int holds(const char *text, tt_gate_input *in, tt_gate_result *r)
{
    tt_gate_cond c;
    tt_error err;
    int rc;
    tt_error_clear(&err);
    if (tt_gate_cond_parse(text, &c, &err))
        return -1;
    rc = tt_gate_eval(&c, in, r, &err) ? -1 : r->holds;
    tt_gate_cond_fini(&c);
    return rc;
}

static void parse_fails(const char *text, int64_t column, const char *why)
{
    tt_gate_cond c;
    tt_error err;
    tt_error_clear(&err);
    if (!ok(tt_gate_cond_parse(text, &c, &err) != 0, "malformed: %s (%s)", text, why)) {
        tt_gate_cond_fini(&c);
        return;
    }
    ok(err.code == TT_ERR_USAGE, "  a usage error: %s", err.what);
    is_i64(err.column, column, "  at column %lld", (long long)column);
}

/* What tt_gate_describe says of text evaluated on in. */
static void describe_is(const char *text, tt_gate_input *in, const char *want)
{
    tt_gate_cond c;
    tt_gate_result r;
    tt_error err;
    char line[300];
    tt_error_clear(&err);
    if (!ok(tt_gate_cond_parse(text, &c, &err) == 0 && tt_gate_eval(&c, in, &r, &err) == 0,
            "evaluate %s", text))
        return;
    is_str(tt_gate_describe(&c, &r, line, sizeof line), want, "  described");
    tt_gate_cond_fini(&c);
}

/* Malformed conditions and the column each is reported at. */
static const struct {
    const char *text;
    int64_t     column;
    const char *why;
} malformed[] = {
    {"total", 6, "no operator"},
    {">5%", 1, "no subject"},
    {"totl>5%", 1, "unknown subject"},
    {"total>", 7, "no value"},
    {"total>+5x", 9, "unknown unit"},
    {"total>abc", 7, "not a number"},
    {"kernel>5%", 7, "kernel without a glob"},
    {"kernel:>5%", 8, "an empty glob"},
    {"total:gemm>5%", 6, "total takes no glob"},
    {"added>5%", 7, "added takes a count"},
    {"span>5", 6, "span takes no count"},
    {"  step > 5", 10, "step takes no count (column after spaces)"},
};

int main(void)
{
    tt_gate_input in = {0};
    tt_gate_result r;
    tt_gate_cond c;
    tt_error err;

    dd.rows = rows;
    dd.n = 4;
    dd.sum_a = 1700;
    dd.sum_b = 1850;
    dd.count_a = 7;
    dd.count_b = 6;
    dd.n_status[TT_DIFF_ADDED] = 1;
    dd.n_status[TT_DIFF_DELETED] = 1;
    dd.n_status[TT_DIFF_INCREASED] = 1;
    dd.n_status[TT_DIFF_UNCHANGED] = 1;
    kd.rows = krows;
    kd.n = 2;
    kd.sum_a = 3000;
    kd.sum_b = 8001;
    in.diff = &dd;
    in.span_a = 1000000;
    in.span_b = 1000001;
    in.diff_of = diff_of;
    in.step_mean = steps_none;

    /* parsing */
    tt_error_clear(&err);
    ok(tt_gate_cond_parse("kernel:void f<*>*>= -2.5ms", &c, &err) == 0, "a glob with brackets");
    ok(c.subject == TT_GATE_KERNEL && c.cmp == TT_GATE_GE && c.unit == TT_GATE_TIME &&
       c.ns == -2500000 && c.glob && strcmp(c.glob, "void f<*>*") == 0,
       "  kernel, >=, -2.5 ms, glob 'void f<*>*'");
    tt_gate_cond_fini(&c);
    ok(tt_gate_cond_parse(" total <= -5% ", &c, &err) == 0 && c.subject == TT_GATE_TOTAL &&
       c.cmp == TT_GATE_LE && c.unit == TT_GATE_PCT && c.value == -5,
       "spaces around the operator and the value");
    tt_gate_cond_fini(&c);
    ok(tt_gate_cond_parse("added<3", &c, &err) == 0 && c.cmp == TT_GATE_LT &&
       c.unit == TT_GATE_COUNT && c.value == 3, "added<3: a count");
    tt_gate_cond_fini(&c);
    ok(tt_gate_cond_parse("span>300us", &c, &err) == 0 && c.ns == 300000, "span>300us");
    tt_gate_cond_fini(&c);
    ok(tt_gate_cond_parse("step>1.5s", &c, &err) == 0 && c.ns == 1500000000, "step>1.5s");
    tt_gate_cond_fini(&c);
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        parse_fails(malformed[i].text, malformed[i].column, malformed[i].why);
    {
        tt_error e2;
        tt_error_clear(&e2);
        tt_gate_cond_parse("totl>5%", &c, &e2);
        ok(strstr(e2.what, "did you mean total?") != NULL, "a typo gets a suggestion: %s", e2.what);
    }

    /* totals: +150 ns, +8.82% */
    is_i64(holds("total>+5%", &in, &r), 1, "total>+5%% holds");
    ok(fabs(r.measured - 100.0 * 150 / 1700) < 1e-9, "  measured %.4f%%", r.measured);
    is_i64(holds("total>+10%", &in, &r), 0, "total>+10%% does not");
    is_i64(holds("total>150ns", &in, &r), 0, "total>150ns: exactly 150 does not");
    is_i64(holds("total>=150ns", &in, &r), 1, "total>=150ns does");
    is_i64(holds("total<0", &in, &r), 1, "total<0: the count fell 7 -> 6");
    ok(r.a == 7 && r.b == 6 && r.measured == -1, "  counts 7 -> 6");
    /* row counts */
    is_i64(holds("added>0", &in, &r), 1, "added>0 holds (softmax)");
    is_i64(holds("deleted>=2", &in, &r), 0, "deleted>=2 does not");
    is_i64(holds("increased>0", &in, &r), 1, "increased>0");
    is_i64(holds("decreased>0", &in, &r), 0, "decreased>0 does not");
    /* name globs: gemm_* is 1500 -> 1750, +250 ns, +16.67% */
    is_i64(holds("name:gemm_*>+16%", &in, &r), 1, "name:gemm_*>+16%%");
    ok(r.rows == 2 && r.a == 1500 && r.b == 1750, "  two rows, 1500 -> 1750");
    is_i64(holds("name:gemm_*>+17%", &in, &r), 0, "name:gemm_*>+17%% does not");
    is_i64(holds("name:gemm_*>0", &in, &r), 1, "name:gemm_*>0: calls 3 -> 4");
    is_i64(holds("name:soft*>+10%", &in, &r), 1, "something from nothing: +inf%%");
    ok(isinf(r.measured) && r.measured > 0, "  measured +inf");
    is_i64(holds("name:nothing*>+10%", &in, &r), 0, "a glob matching nothing: 0%%");
    ok(r.rows == 0, "  no rows");
    is_i64(holds("name:relu<-99%", &in, &r), 1, "name:relu<-99%%: -100%%");
    /* other kinds through diff_of */
    diff_of_calls = 0;
    is_i64(holds("kernel:*sgemm*>1ms", &in, &r), 0, "kernel:*sgemm*>1ms: 5 us is less");
    is_i64(holds("kernel:*sgemm*>4999ns", &in, &r), 1, "kernel:*sgemm*>4999ns");
    is_i64(holds("kernel:void f<*>*>0ns", &in, &r), 1, "a template glob: +1 ns");
    is_i64(diff_of_calls, 3, "diff_of asked each time");
    is_i64(holds("op:gemm*>1%", &in, &r), -1, "the caller's error comes back");
    /* span and step */
    is_i64(holds("span>0ns", &in, &r), 1, "span grew by 1 ns");
    is_i64(holds("span>=+0.0001%", &in, &r), 1, "span +0.0001%%");
    is_i64(holds("step>1%", &in, &r), -1, "no steps: an error");
    in.step_mean = steps_some;
    is_i64(holds("step>100ns", &in, &r), 0, "step +100 ns is not > 100ns");
    is_i64(holds("step>=100ns", &in, &r), 1, "step >= 100ns");
    /* no name table (--kind gpu) */
    in.diff = NULL;
    is_i64(holds("total>1%", &in, &r), -1, "total needs a name table");
    is_i64(holds("added>0", &in, &r), -1, "added needs a name table");
    is_i64(holds("kernel:*>0", &in, &r), 1, "kernel: works without one");
    in.diff = &dd;

    /* what the command prints */
    describe_is("total>+5%", &in, "total: A 1,700 ns, B 1,850 ns, delta +150 ns (+8.82%)");
    describe_is("added>0", &in, "added rows: 1");
    describe_is("name:relu*<0", &in, "name:relu* count: A 4, B 0, delta -4");
    return tap_done();
}
