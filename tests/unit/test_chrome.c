/* test_chrome.c - Chrome trace decoder edge cases, loaded from memory. */
#include "config.h"

#include "../tap.h"
#include "decode/decode.h"
#include "index/index.h"

#include <cjson/cJSON.h>

#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

static tt_trace *load(const char *json, bool lenient, tt_load_info *info, tt_error *err)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_load_opts o = {0};
    o.lenient = lenient;
    tt_error_clear(err);
    if (tt_input_open_mem(json, strlen(json), &in, err))
        return NULL;
    tt_load_input(in, &o, &tr, info, err);
    tt_input_close(in);
    return tr;
}

static tt_trace *load_ok(const char *json)
{
    tt_error err;
    tt_trace *tr = load(json, false, NULL, &err);
    if (!tr)
        diag("load failed: %s (line %lld col %lld)", err.what, (long long)err.line,
             (long long)err.column);
    return tr;
}

/* Lane index by its label ("tid 1"), or -1. */
static int lane_named(const tt_trace *tr, const char *label)
{
    char buf[256];
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        if (strcmp(tt_lane_label(tr, &tr->lanes[i], buf, sizeof buf), label) == 0)
            return (int)i;
    return -1;
}

static void test_times(void)
{
    tt_trace *tr = load_ok("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                           "\"ts\":5.1,\"dur\":\"2.25\"},"
                           "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":\"1\",\"ts\":\"1704161511420306.491\",\"dur\":0}]}");
    if (!ok(tr != NULL, "object form loads"))
        return;
    is_i64(tr->n_lanes, 1, "pid/tid as number and string name the same lane");
    is_i64(tr->lanes[0].ev[0].start, 5100, "5.1 us is exactly 5100 ns");
    is_i64(tr->lanes[0].ev[0].dur, 2250, "string duration 2.25 us");
    is_i64(tr->lanes[0].ev[1].start, 1704161511420306491LL, "string timestamp kept to the ns");
    is_i64(tr->t0, 5100, "t0 is the first start");
    tt_trace_free(tr);
}

static void test_nesting(void)
{
    /* out of file order on purpose; E closes the innermost open B */
    tt_trace *tr = load_ok("[{\"ph\":\"B\",\"name\":\"inner\",\"pid\":0,\"tid\":0,\"ts\":2},"
                           "{\"ph\":\"E\",\"pid\":0,\"tid\":0,\"ts\":8},"
                           "{\"ph\":\"B\",\"name\":\"outer\",\"pid\":0,\"tid\":0,\"ts\":0},"
                           "{\"ph\":\"E\",\"pid\":0,\"tid\":0,\"ts\":10},"
                           "{\"ph\":\"X\",\"name\":\"leaf\",\"pid\":0,\"tid\":0,\"ts\":3,\"dur\":1},"
                           "{\"ph\":\"B\",\"name\":\"open\",\"pid\":0,\"tid\":0,\"ts\":12},"
                           "{\"ph\":\"X\",\"name\":\"late\",\"pid\":0,\"tid\":0,\"ts\":20,\"dur\":5}]");
    tt_lane *l;
    if (!ok(tr != NULL, "B/E trace loads"))
        return;
    l = &tr->lanes[0];
    is_i64(l->n, 5, "five slices");
    is_str(tt_str(tr, l->ev[0].name), "outer", "sorted: outer first");
    is_i64(l->ev[0].dur, 10000, "outer lasts 10 us");
    is_i64(l->ev[0].depth, 0, "outer depth 0");
    is_str(tt_str(tr, l->ev[1].name), "inner", "then inner");
    is_i64(l->ev[1].dur, 6000, "inner lasts 6 us");
    is_i64(l->ev[1].depth, 1, "inner depth 1");
    is_i64(l->ev[2].depth, 2, "leaf depth 2");
    is_i64(l->ev[3].flags & TT_EVF_UNCLOSED, TT_EVF_UNCLOSED, "unclosed B is marked");
    is_i64(tt_event_end(&l->ev[3]), 25000, "unclosed B runs to the trace end");
    is_i64(tr->problems[TT_PROB_UNCLOSED_BEGIN].count, 1, "unclosed B reported");
    is_i64(l->max_depth, 2, "max depth");
    tt_trace_free(tr);

    tr = load_ok("[{\"ph\":\"E\",\"name\":\"x\",\"pid\":0,\"tid\":0,\"ts\":1},"
                 "{\"ph\":\"B\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":2},"
                 "{\"ph\":\"E\",\"name\":\"b\",\"pid\":0,\"tid\":0,\"ts\":3}]");
    if (ok(tr != NULL, "unbalanced trace loads")) {
        is_i64(tr->problems[TT_PROB_UNMATCHED_END].count, 1, "unmatched E counted");
        is_i64(tr->problems[TT_PROB_MISMATCHED_END].count, 1, "mismatched E name counted");
        tt_trace_free(tr);
    }
}

static void test_metadata_and_lanes(void)
{
    tt_trace *tr = load_ok(
        "{\"traceEvents\":["
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"args\":{\"name\":\"GPU\"}},"
        "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":7,\"args\":{\"sort_index\":-1}},"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":10,\"args\":{\"name\":\"stream 10\"}},"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":2,\"args\":{\"name\":\"stream 2\"}},"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":99,\"args\":{\"name\":\"idle\"}},"
        "{\"ph\":\"X\",\"name\":\"k\",\"pid\":7,\"tid\":10,\"ts\":1,\"dur\":1},"
        "{\"ph\":\"X\",\"name\":\"k\",\"pid\":7,\"tid\":2,\"ts\":1,\"dur\":1},"
        "{\"ph\":\"X\",\"name\":\"cpu\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}],"
        "\"distributedInfo\":{\"rank\":3,\"world_size\":8},\"displayTimeUnit\":\"ns\"}");
    char buf[128];
    if (!ok(tr != NULL, "metadata trace loads"))
        return;
    is_i64(tr->n_lanes, 3, "thread without events is dropped");
    is_str(tt_group_label(tr, &tr->groups[tr->lanes[0].group], buf, sizeof buf), "GPU",
           "sort index puts the GPU group first");
    is_str(tt_lane_label(tr, &tr->lanes[0], buf, sizeof buf), "stream 2", "natural order: stream 2");
    is_str(tt_lane_label(tr, &tr->lanes[1], buf, sizeof buf), "stream 10", "before stream 10");
    is_i64(tr->rank, 3, "rank from distributedInfo");
    ok(cJSON_GetObjectItemCaseSensitive(tr->meta, "displayTimeUnit") != NULL,
       "displayTimeUnit kept as metadata");
    is_i64(tr->lanes[0].ev[0].start, 1000, "displayTimeUnit does not rescale timestamps");
    tt_trace_free(tr);
}

static void test_flows_counters_args(void)
{
    tt_trace *tr = load_ok(
        "[{\"ph\":\"X\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5},"
        "{\"ph\":\"s\",\"id\":42,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"pid\":1,\"tid\":1,\"ts\":10},"
        "{\"ph\":\"X\",\"name\":\"kernel\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":3,"
        "\"args\":{\"correlation\":42,\"bytes\":1024,\"note\":\"x\"},\"extra_field\":[1,2]},"
        "{\"ph\":\"f\",\"bp\":\"e\",\"id\":42,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"pid\":0,\"tid\":7,\"ts\":20},"
        "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":1,\"args\":{\"used\":\"10.5\",\"free\":3}},"
        "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":2,\"args\":{\"used\":12}},"
        "{\"ph\":\"Z\",\"name\":\"weird\",\"pid\":1,\"tid\":1,\"ts\":1}]");
    int kl;
    if (!ok(tr != NULL, "flows/counters trace loads"))
        return;
    is_i64(tr->n_flows, 1, "one flow");
    kl = lane_named(tr, "tid 7");
    if (ok(kl >= 0 && tr->n_flows == 1, "kernel lane found")) {
        const tt_flow *f = &tr->flows[0];
        is_str(tt_str(tr, tt_trace_event(tr, f->from)->name), "launch", "flow starts at the launch");
        is_str(tt_str(tr, tt_trace_event(tr, f->to)->name), "kernel", "flow ends at the kernel");
        {
            const tt_event *k = &tr->lanes[kl].ev[0];
            tt_args_reader rd;
            const char *a, *x;
            size_t an, xn;
            is_i64(k->corr, 42, "correlation id extracted");
            is_i64(k->bytes, 1024, "bytes extracted");
            tt_args_reader_init(&rd, tr->args);
            if (ok(tt_args_read(&rd, k->args, &a, &an, &x, &xn) == 0, "args readable")) {
                ok(an > 0 && strstr(a, "\"note\"") != NULL, "args text kept");
                ok(xn > 0 && strstr(x, "extra_field") != NULL, "unknown top-level fields kept");
            }
            tt_args_reader_fini(&rd);
        }
    }
    is_i64(tr->n_counters, 2, "one series per counter key");
    if (tr->n_counters == 2) {
        const tt_counter *used = strcmp(tt_str(tr, tr->counters[0].key), "used") == 0
                                     ? &tr->counters[0] : &tr->counters[1];
        is_i64(used->n, 2, "two samples of 'used'");
        ok(used->v[0] == 10.5 && used->vmax == 12, "numeric-string counter values");
    }
    is_i64(tr->problems[TT_PROB_UNKNOWN_PHASE].count, 1, "unknown phase counted, not fatal");
    tt_trace_free(tr);
}

static void test_flows_v2(void)
{
    /* Perfetto-style flow v2: bind_id with flow_out on the source, flow_in
     * on the target, both on a step; a B event can take part too */
    tt_trace *tr = load_ok(
        "[{\"ph\":\"X\",\"name\":\"send\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5,"
        "\"bind_id\":\"0x7\",\"flow_out\":true},"
        "{\"ph\":\"X\",\"name\":\"relay\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":5,"
        "\"bind_id\":\"0x7\",\"flow_in\":true,\"flow_out\":true},"
        "{\"ph\":\"B\",\"name\":\"recv\",\"pid\":2,\"tid\":1,\"ts\":30,"
        "\"bind_id\":\"0x7\",\"flow_in\":true},"
        "{\"ph\":\"E\",\"pid\":2,\"tid\":1,\"ts\":40},"
        "{\"ph\":\"X\",\"name\":\"other\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":5,"
        "\"bind_id\":9,\"flow_out\":false}]");
    if (!ok(tr != NULL, "flow v2 trace loads"))
        return;
    if (is_i64((int64_t)tr->n_flows, 2, "send -> relay -> recv: two links")) {
        const char *a = tt_str(tr, tt_trace_event(tr, tr->flows[0].from)->name);
        const char *b = tt_str(tr, tt_trace_event(tr, tr->flows[0].to)->name);
        const char *c = tt_str(tr, tt_trace_event(tr, tr->flows[1].from)->name);
        const char *d = tt_str(tr, tt_trace_event(tr, tr->flows[1].to)->name);
        ok((!strcmp(a, "send") && !strcmp(b, "relay") && !strcmp(c, "relay") && !strcmp(d, "recv")) ||
           (!strcmp(c, "send") && !strcmp(d, "relay") && !strcmp(a, "relay") && !strcmp(b, "recv")),
           "links: %s->%s, %s->%s", a, b, c, d);
    }
    is_i64((int64_t)tr->problems[TT_PROB_UNRESOLVED_FLOW].count, 0, "nothing unresolved");
    tt_trace_free(tr);
}

static void test_errors(void)
{
    tt_error err;
    tt_load_info info;
    tt_trace *tr;

    tr = load("", false, NULL, &err);
    ok(!tr && strstr(err.what, "empty") != NULL, "empty input: %s", err.what);
    tr = load("  \n ", false, NULL, &err);
    ok(!tr && strstr(err.what, "whitespace") != NULL, "whitespace only: %s", err.what);
    tr = load("\x7f" "ELF\x01\x02", false, NULL, &err);
    ok(!tr && strstr(err.what, "binary") != NULL, "binary data: %s", err.what);
    tr = load("{\"foo\": 1}", false, NULL, &err);
    ok(!tr && strstr(err.what, "traceEvents") != NULL, "object without traceEvents: %s", err.what);

    tr = load("[\n{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":1},\n"
              "{\"ph\":\"X\",\"name\":\"b\",\"pid\":0,\"tid\":0,\"ts\":2,", false, NULL, &err);
    ok(!tr, "cut-off array is an error by default");
    is_i64(err.line, 3, "error names line 3");
    ok(err.column > 1, "error names a column (%lld)", (long long)err.column);
    ok(strstr(err.what, "--lenient") != NULL, "message suggests --lenient: %s", err.what);

    tr = load("[\n{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":1},\n"
              "{\"ph\":\"X\",\"name\":\"b\",\"pid\":0,\"tid\":0,\"ts\":2,", true, &info, &err);
    if (ok(tr != NULL, "--lenient loads the complete events")) {
        is_i64((int64_t)tr->n_events, 1, "one complete event");
        ok(info.dropped_bytes > 0, "dropped bytes reported (%lld)", (long long)info.dropped_bytes);
        is_i64((int64_t)info.dropped_events, 1, "one dropped event");
        tt_trace_free(tr);
    }
    tr = load("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":1},\n", true, &info, &err);
    if (ok(tr != NULL, "--lenient: trailing comma and no ']'")) {
        is_i64((int64_t)tr->n_events, 1, "keeps the event");
        tt_trace_free(tr);
    }
    tr = load("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":1},]", false, NULL, &err);
    ok(tr != NULL, "a trailing comma before ']' is accepted");
    tt_trace_free(tr);
    tr = load("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":\"soon\"}]", false, NULL, &err);
    ok(!tr && err.line == 1 && strstr(err.what, "timestamp"), "bad timestamp: %s", err.what);
    tr = load("[{\"ph\":\"X\" \"name\":\"a\"}]", false, NULL, &err);
    ok(!tr && err.column == 12, "missing comma positioned at column 12 (%lld): %s",
       (long long)err.column, err.what);
    tr = load("[] junk", false, NULL, &err);
    ok(!tr, "data after the array is an error");
    tr = load("[{\"ph\":\"X\",\"name\":\"bad \\q escape\",\"pid\":0,\"tid\":0,\"ts\":1}]", false, NULL, &err);
    ok(!tr && strstr(err.what, "escape"), "invalid escape: %s", err.what);
}

static void test_escapes(void)
{
    tt_trace *tr = load_ok("[{\"ph\":\"X\",\"name\":\"a\\u001b[31mred\\u0007\\ud83d\\ude00\",\"pid\":0,"
                           "\"tid\":0,\"ts\":1,\"dur\":1}]");
    if (!ok(tr != NULL, "escaped name loads"))
        return;
    is_str(tt_str(tr, tr->lanes[0].ev[0].name), "a\x1b[31mred\x07\xf0\x9f\x98\x80",
           "escapes decode to the raw bytes (display sanitizes)");
    tt_trace_free(tr);
}

static void test_compressed(void)
{
    const char *json = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"z\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":2}]}";
    size_t n = strlen(json);
    unsigned char gz[512], zs[512];
    z_stream s;
    size_t zn;
    tt_input *in;
    tt_trace *tr;
    tt_error err;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    s.next_in = (unsigned char *)json;
    s.avail_in = (uInt)n;
    s.next_out = gz;
    s.avail_out = sizeof gz;
    deflate(&s, Z_FINISH);
    deflateEnd(&s);
    if (tt_input_open_mem(gz, s.total_out, &in, &err) == 0) {
        ok(tt_load_input(in, NULL, &tr, NULL, &err) == 0 && tr->n_events == 1, "gzip input");
        is_str(tr ? tr->compression : "", "gzip", "gzip detected from magic bytes");
        tt_trace_free(tr);
        tt_input_close(in);
    }
    /* cut the gzip stream short */
    if (tt_input_open_mem(gz, s.total_out - 12, &in, &err) == 0) {
        ok(tt_load_input(in, NULL, &tr, NULL, &err) != 0, "cut gzip stream is an error: %s", err.what);
        tt_input_close(in);
    }
    zn = ZSTD_compress(zs, sizeof zs, json, n, 3);
    if (tt_input_open_mem(zs, zn, &in, &err) == 0) {
        ok(tt_load_input(in, NULL, &tr, NULL, &err) == 0 && tr->n_events == 1, "zstd input");
        tt_trace_free(tr);
        tt_input_close(in);
    }
}

int main(void)
{
    test_times();
    test_nesting();
    test_metadata_and_lanes();
    test_flows_counters_args();
    test_flows_v2();
    test_errors();
    test_escapes();
    test_compressed();
    return tap_done();
}
