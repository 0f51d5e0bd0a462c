/* test_rules.c - every warning rule fires where it must, with the exact
 * span, and stays silent on a near miss (threshold edges included); the
 * median the rules compare against (a selection, not a sort) is the one
 * sorting gives, on odd and even counts, repeats and sorted input. */
#include "config.h"

#include "../tap.h"
#include "decode/decode.h"
#include "rules/rank.h"
#include "rules/rules.h"
#include "rules/rules_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

/* Load a trace of any format from text. */
static tt_trace *trace_text(const char *text)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_error err;
    if (tt_input_open_mem(text, strlen(text), &in, &err) == 0) {
        if (tt_load_input(in, NULL, &tr, NULL, &err))
            diag("load: %s (col %lld)", err.what, (long long)err.column);
        tt_input_close(in);
    }
    return tr;
}

/* Build a Chrome trace from event lines (printf-style). */
static tt_trace *trace_of(const char *fmt, ...)
{
    char body[65536];
    char *json;
    va_list ap;
    tt_trace *tr;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    json = malloc(strlen(body) + 64);
    sprintf(json, "{\"traceEvents\":[%s]}", body);
    tr = trace_text(json);
    free(json);
    return tr;
}

/* Run one rule (all others disabled) with optional settings. */
static size_t run_rule(const char *id, tt_trace **tr, size_t n, tt_annotations *out,
                       const char *setting)
{
    tt_rules_config cfg;
    tt_error err;
    tt_rules_config_defaults(&cfg);
    tt_rules_config_enable(&cfg, "all", false, &err);
    tt_rules_config_enable(&cfg, id, true, &err);
    if (setting) {
        /* "A=1;B=2": several settings */
        char buf[256], *save = NULL;
        snprintf(buf, sizeof buf, "%s", setting);
        for (char *one = strtok_r(buf, ";", &save); one; one = strtok_r(NULL, ";", &save))
            if (tt_rules_config_set(&cfg, one, &err))
                diag("setting %s: %s", one, err.what);
    }
    tt_annotations_init(out);
    if (tt_rules_run(&cfg, (const tt_trace *const *)tr, n, out, &err))
        diag("run %s: %s", id, err.what);
    return out->n;
}

/* Exactly one annotation with this span (relative to t0, in ns). */
static void expect_one(const char *id, tt_trace *tr, const char *setting, tt_ns s, tt_ns e,
                       const char *msg_part, const char *what)
{
    tt_annotations a;
    size_t n = run_rule(id, &tr, 1, &a, setting);
    if (is_i64((int64_t)n, 1, "%s fires once: %s", id, what)) {
        is_i64(a.v[0].start - tr->t0, s, "%s span start", id);
        is_i64(a.v[0].end - tr->t0, e, "%s span end", id);
        ok(strstr(a.v[0].msg, msg_part) != NULL, "%s message mentions '%s': %s", id, msg_part,
           a.v[0].msg);
    } else {
        for (size_t i = 0; i < n; i++)
            diag("got: %s", a.v[i].msg);
    }
    tt_annotations_fini(&a);
}

static void expect_none(const char *id, tt_trace *tr, const char *setting, const char *what)
{
    tt_annotations a;
    size_t n = run_rule(id, &tr, 1, &a, setting);
    if (!is_i64((int64_t)n, 0, "%s silent: %s", id, what))
        for (size_t i = 0; i < n; i++)
            diag("got: %s", a.v[i].msg);
    tt_annotations_fini(&a);
}

#define K(ts, dur) "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" #ts ",\"dur\":" #dur "}"
#define EV(cat, name, pid, tid, ts, dur) "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":" pid ",\"tid\":" tid ",\"ts\":" #ts ",\"dur\":" #dur "}"
#define CPU(ts, dur) "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_device_idle(void)
{
    /* gaps 10, 10, 200 us: median 10 us, so 100 us (x10) = min_gap here */
    const char *g100 = "device-idle.min_gap=100us";
    tt_trace *tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) "," CPU(40, 160));
    expect_one("device-idle", tr, g100, 50000, 250000,
               "while the host was 75% busy (top: op, 150 us): the device waits for the host",
               "200 us gap, host 75% busy");
    expect_none("device-idle", tr, NULL, "the default min_gap is 1 ms");
    tt_trace_free(tr);
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) "," CPU(40, 89));
    expect_none("device-idle", tr, g100, "host only 39.5% busy");
    tt_trace_free(tr);
    /* edge: host exactly 50% busy of a gap exactly min_gap */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(150, 10) "," CPU(50, 50));
    expect_one("device-idle", tr, g100, 50000, 150000, "50% busy", "edges are inclusive");
    tt_trace_free(tr);
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(149.999, 10) "," CPU(50, 50));
    expect_none("device-idle", tr, g100, "gap 1 ns shorter than min_gap");
    tt_trace_free(tr);
    /* default threshold: exactly 1 ms fires */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(1050, 10) "," CPU(40, 1000));
    expect_one("device-idle", tr, NULL, 50000, 1050000, "idle for 1 ms", "1 ms gap at the defaults");
    tt_trace_free(tr);
    /* host busy is real work: not the profiler's envelope, steps, or
     * annotations that merely enclose other events (here before the gap) */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  EV("Trace", "PyTorch Profiler (0)", "\"Spans\"", "\"PyTorch Profiler\"", 0, 260) ","
                  EV("user_annotation", "ProfilerStep#1", "1", "1", 0, 260) ","
                  EV("user_annotation", "## forward ##", "1", "1", 20, 230) ","
                  CPU(20, 25));
    expect_none("device-idle", tr, g100, "the host only sits in envelopes during the gap");
    tt_trace_free(tr);
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  EV("Operator", "ProfilerStep#5", "1", "1", 0, 260) "," CPU(20, 25));
    expect_none("device-idle", tr, g100, "a step span is no work (old Kineto schema)");
    tt_trace_free(tr);
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  EV("cuda_runtime", "cudaStreamSynchronize", "1", "1", 45, 210));
    expect_none("device-idle", tr, g100, "a synchronize call waits for the device");
    tt_trace_free(tr);
    /* Ascend's "Overlap Analysis" process summarizes device time */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":9,\"args\":{\"name\":\"Overlap Analysis\"}},"
                  EV("", "Free", "9", "3", 50, 200));
    expect_none("device-idle", tr, g100, "Overlap Analysis / Free is not the host");
    tt_trace_free(tr);
    /* a leaf annotation is work the profiler did not break down */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  EV("user_annotation", "ProfilerStep#1", "1", "1", 0, 260) ","
                  EV("user_annotation", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                     "1", "1", 60, 180));
    expect_one("device-idle", tr, g100, 50000, 250000,
               "90% busy (top: enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__, 180 us)",
               "the data loader wait");
    tt_trace_free(tr);
    /* the top activity is the outermost work: inside an annotation */
    tr = trace_of(K(0, 10) "," K(20, 10) "," K(40, 10) "," K(250, 10) ","
                  EV("user_annotation", "DistributedDataParallel.forward", "1", "1", 40, 210) ","
                  EV("cpu_op", "aten::unflatten_dense_tensors", "1", "1", 60, 120) ","
                  EV("cpu_op", "aten::narrow", "1", "1", 61, 100) ","
                  EV("cpu_op", "aten::view", "1", "1", 190, 40));
    expect_one("device-idle", tr, g100, 50000, 250000,
               "80% busy (top: aten::unflatten_dense_tensors, 120 us)", "named by its outermost op");
    tt_trace_free(tr);
    /* the gap must also be gap_factor times the median gap */
    tr = trace_of(K(0, 10) "," K(200, 10) "," K(400, 10) "," K(600, 10) "," CPU(0, 600));
    expect_none("device-idle", tr, g100, "190 us gaps are the norm here (median), not idle");
    tt_trace_free(tr);
}

#define MC(ts, name, bytes) "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts ",\"dur\":10,\"args\":{\"bytes\":" #bytes "}}"

static void test_pageable(void)
{
    tt_trace *tr = trace_of(MC(0, "Memcpy HtoD (Pageable -> Device)", 1000000) ","
                            MC(500, "Memcpy HtoD (Pageable -> Device)", 2000000));
    expect_one("pageable-memcpy", tr, NULL, 0, 510000, "2 copies from pageable memory (3.0 MB",
               "two copies merged");
    tt_trace_free(tr);
    tr = trace_of(MC(0, "Memcpy HtoD (Pageable -> Device)", 65536) ","
                  MC(1011, "Memcpy HtoD (Pageable -> Device)", 65536));
    {
        tt_annotations a;
        is_i64((int64_t)run_rule("pageable-memcpy", &tr, 1, &a, NULL), 2,
               "copies 1.001 ms apart are two findings");
        tt_annotations_fini(&a);
    }
    tt_trace_free(tr);
    /* min_bytes (64 KiB): 1- and 4-byte copies are not worth a finding */
    tr = trace_of(MC(0, "Memcpy DtoH (Device -> Pageable)", 1) ","
                  MC(100, "Memcpy DtoH (Device -> Pageable)", 4) ","
                  MC(200, "Memcpy HtoD (Pageable -> Device)", 65535));
    expect_none("pageable-memcpy", tr, NULL, "copies under 64 KiB are left out");
    expect_one("pageable-memcpy", tr, "pageable-memcpy.min_bytes=4", 100000, 210000,
               "2 copies from pageable memory", "min_bytes=4: the 4-byte copy and up");
    tt_trace_free(tr);
    tr = trace_of("{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\","
                  "\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":10}");
    expect_one("pageable-memcpy", tr, NULL, 0, 10000, "1 copy from pageable memory",
               "a copy of unknown size is kept");
    tt_trace_free(tr);
    tr = trace_of(MC(0, "Memcpy HtoD (Pinned -> Device)", 100));
    expect_none("pageable-memcpy", tr, NULL, "pinned copy");
    tt_trace_free(tr);
}

#define RT(ts, dur, name) "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_sync_calls(void)
{
    tt_trace *tr = trace_of(RT(0, 5, "cudaMemcpy") "," RT(10, 5, "cudaMemset"));
    expect_one("sync-memcpy", tr, NULL, 0, 15000, "2 synchronous", "cudaMemcpy and cudaMemset");
    tt_trace_free(tr);
    tr = trace_of(RT(0, 5, "cudaMemcpyAsync") "," RT(10, 5, "cudaMemsetAsync"));
    expect_none("sync-memcpy", tr, NULL, "async variants");
    tt_trace_free(tr);
    /* nsys exports: cudaMemcpy and cudaMemcpy_v3020 nested, one correlation id */
    tr = trace_of(RT(0, 50, "cudaMemcpy") "," RT(0.2, 49.6, "cudaMemcpy_v3020") ","
                  RT(60, 40, "cudaMemcpy") "," RT(60.1, 39.8, "cudaMemcpy_v3020"));
    expect_one("sync-memcpy", tr, NULL, 0, 100000, "2 synchronous copy/memset calls (cudaMemcpy, 90 us",
               "a nested versioned entry point is the same call");
    tt_trace_free(tr);

    tr = trace_of(RT(0, 1000, "cudaDeviceSynchronize") "," RT(2000, 5000, "cudaLaunchKernel"));
    expect_one("host-sync", tr, NULL, 0, 1000000, "cudaDeviceSynchronize", "exactly 1 ms");
    tt_trace_free(tr);
    tr = trace_of(RT(0, 999.999, "cudaStreamSynchronize"));
    expect_none("host-sync", tr, NULL, "1 ns under 1 ms");
    tt_trace_free(tr);
    tr = trace_of(RT(0, 2000, "cudaDeviceSynchronize") "," RT(0.5, 1999, "cudaDeviceSynchronize_v3020"));
    expect_one("host-sync", tr, NULL, 0, 2000000, "for 2 ms", "the nested entry point is not a second wait");
    tt_trace_free(tr);
}

#define OP(ts, dur, name) "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_host_sync(void)
{
    tt_trace *tr;
    tt_annotations a;
    /* the message names the innermost enclosing op, not the step */
    tr = trace_of(OP(0, 100, "ProfilerStep#1") "," OP(1, 50, "aten::item") ","
                  OP(2, 40, "aten::_local_scalar_dense") "," RT(3, 2, "cudaMemcpyAsync") ","
                  RT(6, 30, "cudaStreamSynchronize"));
    expect_one("host-sync", tr, "host-sync.min_duration=10us", 6000, 36000,
               "cudaStreamSynchronize in aten::_local_scalar_dense blocks", "names its op");
    tt_trace_free(tr);
    /* only a step around it: no op named */
    tr = trace_of(OP(0, 100, "ProfilerStep#1") "," RT(6, 30, "cudaDeviceSynchronize"));
    expect_one("host-sync", tr, "host-sync.min_duration=10us", 6000, 36000,
               "cudaDeviceSynchronize blocks", "a step is not an op");
    tt_trace_free(tr);
    /* consecutive syncs in one op, API calls between them: one finding
     * counting them; min_duration applies to their sum (3 x 400 us) */
    tr = trace_of(OP(0, 3000, "aten::cudnn_convolution") ","
                  RT(10, 5, "cudaEventRecord") "," RT(20, 400, "cudaEventSynchronize") ","
                  RT(430, 5, "cudaLaunchKernel") "," RT(440, 400, "cudaEventSynchronize") ","
                  RT(850, 5, "cudaEventRecord") "," RT(860, 400, "cudaEventSynchronize"));
    expect_one("host-sync", tr, NULL, 20000, 1260000,
               "3 cudaEventSynchronize calls in aten::cudnn_convolution block", "merged, counted");
    run_rule("host-sync", &tr, 1, &a, NULL);
    is_i64(a.n == 1 ? (int64_t)a.v[0].n_events_total : -1, 3, "the finding involves the 3 syncs");
    ok(a.n == 1 && strstr(a.v[0].msg, "for 1.2 ms (longest 400 us)"), "total and longest: %s",
       a.n ? a.v[0].msg : "");
    tt_annotations_fini(&a);
    tt_trace_free(tr);
    /* another op between them: two findings */
    tr = trace_of(OP(0, 3000, "aten::cudnn_convolution") "," RT(20, 1000, "cudaEventSynchronize") ","
                  OP(1030, 5, "aten::empty") "," RT(1040, 1000, "cudaEventSynchronize"));
    is_i64((int64_t)run_rule("host-sync", &tr, 1, &a, NULL), 2, "an op between: two findings");
    tt_annotations_fini(&a);
    tt_trace_free(tr);
    /* in two ops: two findings */
    tr = trace_of(OP(0, 1100, "aten::conv2d") "," RT(20, 1000, "cudaEventSynchronize") ","
                  OP(1200, 1100, "aten::conv2d") "," RT(1220, 1000, "cudaEventSynchronize"));
    is_i64((int64_t)run_rule("host-sync", &tr, 1, &a, NULL), 2, "syncs in two ops: two findings");
    tt_annotations_fini(&a);
    tt_trace_free(tr);
    /* the profiler's stop: after the last step, inside its envelope */
#define ENVELOPE "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\",\"pid\":1,\"tid\":\"PyTorch Profiler\",\"ts\":0,\"dur\":20000}"
    tr = trace_of(ENVELOPE "," OP(0, 5000, "ProfilerStep#1") "," RT(5010, 2000, "cudaDeviceSynchronize"));
    expect_none("host-sync", tr, NULL, "the profiler's own stop is not reported");
    tt_trace_free(tr);
    tr = trace_of(ENVELOPE "," OP(0, 5000, "ProfilerStep#1") "," RT(4000, 2000, "cudaDeviceSynchronize"));
    expect_one("host-sync", tr, NULL, 4000000, 6000000, "cudaDeviceSynchronize",
               "a sync starting inside the last step is reported");
    tt_trace_free(tr);
    tr = trace_of(OP(0, 5000, "ProfilerStep#1") "," RT(5010, 2000, "cudaDeviceSynchronize"));
    expect_one("host-sync", tr, NULL, 5010000, 7010000, "cudaDeviceSynchronize",
               "after the last step but no envelope: reported");
    tt_trace_free(tr);
}

static void test_instructions(void)
{
    /* engine instructions are device work but no kernel launches */
    char body[16384];
    size_t o = 0;
    tt_trace *tr;
    for (int i = 0; i < 30; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"ph\":\"X\",\"cat\":\"instruction\","
                              "\"name\":\"MATMUL\",\"pid\":0,\"tid\":\"TensorMatrix\",\"ts\":%d,"
                              "\"dur\":0.5}", i ? "," : "", i);
    o += (size_t)snprintf(body + o, sizeof body - o, ",{\"ph\":\"X\",\"cat\":\"instruction\","
                          "\"name\":\"MATMUL\",\"pid\":0,\"tid\":\"TensorMatrix\",\"ts\":2000,"
                          "\"dur\":1}," CPU(0, 2000));
    tr = trace_of("%s", body);
    expect_none("tiny-kernels", tr, NULL, "30 short instructions are not tiny kernels");
    expect_one("device-idle", tr, NULL, 29500, 2000000, "idle for 1.971 ms",
               "an idle engine while the host is busy");
    tt_trace_free(tr);
}

static void test_tiny_kernels(void)
{
    char body[16384];
    size_t o = 0;
    tt_trace *tr;
    for (int i = 0; i < 20; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"t\","
                              "\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":9.999}", i ? "," : "", i * 20);
    tr = trace_of("%s", body);
    expect_one("tiny-kernels", tr, NULL, 0, 380000 + 9999, "20 kernels shorter than 10 us", "20 tiny kernels");
    tt_trace_free(tr);
    tr = trace_of("%s", body);
    expect_none("tiny-kernels", tr, "tiny-kernels.min_run=21", "run shorter than min_run");
    tt_trace_free(tr);
    /* one kernel of exactly max_duration breaks the run in two of 10 */
    o = 0;
    for (int i = 0; i < 21; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"t\","
                              "\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":%s}", i ? "," : "", i * 20,
                              i == 10 ? "10" : "9.999");
    tr = trace_of("%s", body);
    expect_none("tiny-kernels", tr, NULL, "a 10 us kernel breaks the run");
    tt_trace_free(tr);
    /* a wait of exactly max_gap (100 us) keeps the run; 1 ns more ends it */
    for (int shift = 0; shift < 2; shift++) {
        o = 0;
        for (int i = 0; i < 20; i++)
            o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"ph\":\"X\",\"cat\":\"kernel\","
                                  "\"name\":\"t\",\"pid\":0,\"tid\":7,\"ts\":%.3f,\"dur\":9.999}",
                                  i ? "," : "", i * 20 + (i >= 10 ? 89.999 + shift * 0.001 : 0));
        tr = trace_of("%s", body);
        if (shift == 0)
            expect_one("tiny-kernels", tr, NULL, 0, 479998, "20 kernels",
                       "a 100 us wait is still launch overhead");
        else
            expect_none("tiny-kernels", tr, NULL, "a 100.001 us wait splits the run in two of 10");
        tt_trace_free(tr);
    }
    /* a copy in the wait is device work: the run goes on */
    o = 0;
    for (int i = 0; i < 20; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s{\"ph\":\"X\",\"cat\":\"kernel\","
                              "\"name\":\"t\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":9}",
                              i ? "," : "", i * 20 + (i >= 10 ? 1000 : 0));
    o += (size_t)snprintf(body + o, sizeof body - o, "," MC(190, "Memcpy HtoD (Pinned -> Device)", 4096));
    o += (size_t)snprintf(body + o, sizeof body - o, ",{\"ph\":\"X\",\"cat\":\"gpu_memcpy\","
                          "\"name\":\"Memcpy DtoD\",\"pid\":0,\"tid\":7,\"ts\":200,\"dur\":900}");
    tr = trace_of("%s", body);
    expect_one("tiny-kernels", tr, NULL, 0, 1389000, "20 kernels", "copies fill the wait");
    tt_trace_free(tr);
}

#define DMA(ts, tensor) "{\"ph\":\"X\",\"cat\":\"dma\",\"name\":\"dma\",\"pid\":2,\"tid\":\"q0\",\"ts\":" #ts ",\"dur\":5,\"args\":{\"bytes\":1048576,\"tensor\":\"" tensor "\"}}"

#define DMAD(ts, name, tensor, more) "{\"ph\":\"X\",\"cat\":\"dma\",\"name\":\"" name "\",\"pid\":2,\"tid\":\"q0\",\"ts\":" #ts ",\"dur\":5,\"args\":{\"bytes\":1048576,\"tensor\":\"" tensor "\"" more "}}"

#define NDMA(ts, op, src, dst) "{\"timestamp\": " #ts ", \"duration\": 100, \"queue_name\": \"q0\", " \
    "\"op\": \"" op "\", \"source\": \"" src "\", \"dest\": \"" dst "\", \"variable\": \"act\", " \
    "\"transfer_bytes\": 1048576}"

static void test_tensor_reload(void)
{
    tt_trace *tr = trace_of(DMA(0, "in_5") "," DMA(100, "in_5") "," DMA(200, "in_5") "," DMA(50, "w"));
    expect_one("tensor-reload", tr, NULL, 0, 205000, "tensor in_5 loaded 3 times (3.1 MB total)",
               "three loads of in_5");
    tt_trace_free(tr);
    tr = trace_of(DMA(0, "in_5") "," DMA(100, "in_5") "," DMA(50, "w"));
    expect_none("tensor-reload", tr, NULL, "two loads are allowed");
    tt_trace_free(tr);
    /* stores (out of on-chip memory) are not loads: by the neuron decoder's
     * "SRC -> DST" name, or by source/dest arguments */
    tr = trace_of(DMAD(0, "HBM -> SB", "act", "") "," DMAD(100, "SB -> HBM", "act", "") ","
                  DMAD(200, "SB -> HBM", "act", ""));
    expect_none("tensor-reload", tr, NULL, "one HBM->SB load and two SB->HBM stores");
    tt_trace_free(tr);
    tr = trace_of(DMAD(0, "dma", "act", ",\"source\":\"SB\",\"dest\":\"HBM\"") ","
                  DMAD(100, "dma", "act", ",\"source\":\"HBM\",\"dest\":\"SB\"") ","
                  DMAD(200, "dma", "act", ",\"src\":\"SBUF\",\"dst\":\"DRAM\"") ","
                  DMAD(300, "dma", "act", ",\"source\":\"HBM\",\"dest\":\"SB\""));
    expect_none("tensor-reload", tr, NULL, "two loads and two stores by their arguments");
    tt_trace_free(tr);
    /* the same in neuron-profile JSON, as gen-trace neuron writes DMA */
    tr = trace_text("{\"summary\": [{\"total_time\": 0.001}], \"dma\": ["
                    NDMA(1000, "read", "HBM", "SB") "," NDMA(2000, "write", "SB", "HBM") ","
                    NDMA(3000, "write", "SB", "HBM") "]}");
    expect_none("tensor-reload", tr, NULL, "neuron JSON: one load and two stores of act");
    tt_trace_free(tr);
    tr = trace_text("{\"summary\": [{\"total_time\": 0.001}], \"dma\": ["
                    NDMA(1000, "read", "HBM", "SB") "," NDMA(2000, "write", "SB", "HBM") ","
                    NDMA(3000, "read", "HBM", "SB") "," NDMA(4000, "read", "HBM", "SB") "]}");
    expect_one("tensor-reload", tr, NULL, 0, 3100, "tensor act loaded 3 times",
               "neuron JSON: three loads of act");
    tt_trace_free(tr);
    tr = trace_of(DMAD(0, "HBM -> SB", "act", "") "," DMAD(100, "SB -> HBM", "act", "") ","
                  DMAD(200, "HBM -> PSUM", "act", "") "," DMAD(300, "HBM -> State Buffer", "act", "") ","
                  DMAD(400, "SB -> HBM", "act", ""));
    expect_one("tensor-reload", tr, NULL, 0, 305000, "tensor act loaded 3 times (3.1 MB total)",
               "three loads among two stores");
    tt_trace_free(tr);
}

#define CTR(ts, name, v) "{\"ph\":\"C\",\"name\":\"" name "\",\"pid\":2,\"ts\":" #ts ",\"args\":{\"value\":" #v "}}"

static void test_counters(void)
{
    tt_trace *tr = trace_of(CTR(0, "throttle", 0) "," CTR(10, "throttle", 1) "," CTR(20, "throttle", 2) ","
                            CTR(30, "throttle", 0) "," K(0, 100));
    expect_one("throttle", tr, NULL, 10000, 30000, "peak 2", "counter above zero");
    tt_trace_free(tr);
    tr = trace_of(CTR(0, "throttle", 0) "," CTR(30, "throttle", 0) "," K(0, 100));
    expect_none("throttle", tr, NULL, "counter stays at zero");
    tt_trace_free(tr);
    tr = trace_of("{\"ph\":\"X\",\"name\":\"Power Throttling\",\"pid\":2,\"tid\":1,\"ts\":5,\"dur\":10}," K(0, 100));
    expect_one("throttle", tr, NULL, 5000, 15000, "1 throttle event", "throttle event");
    tt_trace_free(tr);
    /* a counter and events seeing the same stretch are one finding */
    tr = trace_of(CTR(0, "throttle", 0) "," CTR(10, "throttle", 3) "," CTR(20, "throttle", 0) ","
                  "{\"ph\":\"X\",\"name\":\"throttle\",\"pid\":2,\"tid\":1,\"ts\":12,\"dur\":12}," K(0, 100));
    expect_one("throttle", tr, NULL, 10000, 24000, "counter throttle, peak 3; 1 throttle event",
               "counter and event merged");
    tt_trace_free(tr);

    tr = trace_of(CTR(0, "TensorMatrix utilization", 80) "," CTR(1000, "TensorMatrix utilization", 20) ","
                  CTR(2000, "TensorMatrix utilization", 25) "," CTR(3000, "TensorMatrix utilization", 90) ","
                  CTR(4000, "TensorMatrix utilization", 90));
    expect_one("low-utilization", tr, NULL, 1000000, 3000000, "avg 22.5%", "2 ms below 30%");
    tt_trace_free(tr);
    tr = trace_of(CTR(0, "TensorMatrix utilization", 80) "," CTR(1000, "TensorMatrix utilization", 20) ","
                  CTR(1999.999, "TensorMatrix utilization", 90) "," CTR(3000, "TensorMatrix utilization", 90));
    expect_none("low-utilization", tr, NULL, "1 ns under min_duration");
    tt_trace_free(tr);
    tr = trace_of(CTR(0, "TensorMatrix utilization", 80) "," CTR(1000, "TensorMatrix utilization", 20) ","
                  CTR(2000, "TensorMatrix utilization", 90) "," CTR(3000, "TensorMatrix utilization", 90));
    expect_one("low-utilization", tr, NULL, 1000000, 2000000, "below 30", "exactly min_duration");
    tt_trace_free(tr);
    /* units come from the naming, not from the largest value: a
     * utilization is percent unless it says ratio or fraction */
    tr = trace_of(CTR(0, "TensorMatrix utilization", 0.8) "," CTR(1000, "TensorMatrix utilization", 0.5) ","
                  CTR(2000, "TensorMatrix utilization", 0.9) "," CTR(3000, "TensorMatrix utilization", 0.9) ","
                  K(0, 4000));
    expect_one("low-utilization", tr, NULL, 0, 4000000, "avg 0.8%", "0.8/0.5/0.9 percent is low");
    tt_trace_free(tr);
    tr = trace_of(CTR(0, "TensorMatrix utilization ratio", 0.8) "," CTR(1000, "TensorMatrix utilization ratio", 0.2) ","
                  CTR(2000, "TensorMatrix utilization ratio", 0.25) "," CTR(3000, "TensorMatrix utilization ratio", 0.9) ","
                  CTR(4000, "TensorMatrix utilization ratio", 0.9));
    expect_one("low-utilization", tr, NULL, 1000000, 3000000, "avg 22.5%", "a ratio is a fraction of 1");
    tt_trace_free(tr);
}

/* The lanes of an annotation, as "lane,lane". */
static const char *lane_names(const tt_trace *tr, const tt_annotation *an, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < an->n_lanes && o < n; i++) {
        char l[128];
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "",
                              tt_lane_label(tr, &tr->lanes[an->lanes[i]], l, sizeof l));
    }
    return buf;
}

#define INS(engine, ts, dur) "{\"ph\":\"X\",\"cat\":\"instruction\",\"name\":\"MATMUL\",\"pid\":2,\"tid\":\"" engine "\",\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_counter_lanes(void)
{
    /* a counter's findings name the lanes it is about: the engine named in
     * it, else the engines of its device */
    tt_trace *tr = trace_of(INS("TensorMatrix", 0, 3000) "," INS("Vector", 0, 3000) ","
                            "{\"ph\":\"X\",\"name\":\"step\",\"pid\":2,\"tid\":\"host\",\"ts\":0,\"dur\":3000},"
                            CTR(0, "TensorMatrix utilization", 80) "," CTR(1000, "TensorMatrix utilization", 20) ","
                            CTR(2000, "TensorMatrix utilization", 90) ","
                            CTR(0, "Throttling", 0) "," CTR(1000, "Throttling", 50) "," CTR(2000, "Throttling", 0));
    tt_annotations a;
    char buf[256];
    if (is_i64((int64_t)run_rule("low-utilization", &tr, 1, &a, NULL), 1, "low-utilization on TensorMatrix"))
        is_str(lane_names(tr, &a.v[0], buf, sizeof buf), "TensorMatrix", "its lane is the engine named by the counter");
    tt_annotations_fini(&a);
    if (is_i64((int64_t)run_rule("throttle", &tr, 1, &a, NULL), 1, "throttle from the counter"))
        is_str(lane_names(tr, &a.v[0], buf, sizeof buf), "TensorMatrix,Vector",
               "a device counter's lanes are the device's engines");
    tt_annotations_fini(&a);
    tt_trace_free(tr);
}

static void test_busy_share(void)
{
    /* 1 ms windows; 3 low windows make a finding */
    const char *set = "low-utilization.window=1ms;low-utilization.min_windows=3";
    tt_trace *tr = trace_of(K(0, 2000) "," K(2000, 100) "," K(3000, 100) "," K(4000, 100) ","
                            K(5000, 100) "," K(6000, 2000));
    tt_annotations a;
    expect_one("low-utilization", tr, set, 2000000, 6000000, "pid 0 busy 10.0% of 4 ms",
               "four windows 10% busy");
    if (is_i64((int64_t)run_rule("low-utilization", &tr, 1, &a, set), 1, "busy share finding"))
        is_i64((int64_t)a.v[0].n_lanes, 1, "with the device's lane");
    tt_annotations_fini(&a);
    expect_none("low-utilization", tr, "low-utilization.window=1ms;low-utilization.min_windows=5",
                "four low windows are fewer than min_windows 5");
    expect_none("low-utilization", tr, "low-utilization.window=0;low-utilization.min_windows=3",
                "window 0 turns the busy share off");
    expect_none("low-utilization", tr, NULL, "the defaults want 100 ms below 30%");
    tt_trace_free(tr);
    /* a stray kernel 31 years later: 10^11 windows of 10 ms, all but two
     * empty, taken in stretches (walking them one by one never ends) */
    alarm(20);
    tr = trace_of(K(0, 20000) "," K(1000000000000000, 1));
    expect_one("low-utilization", tr, NULL, 20000000, 1000000000000000000LL, "pid 0 busy 0.0%",
               "one stretch from the end of the work to the last whole window");
    alarm(0);
    tt_trace_free(tr);
    /* exactly 30% is not below 30%: runs of 1 and 2 windows remain */
    tr = trace_of(K(0, 2000) "," K(2000, 100) "," K(3000, 300) "," K(4000, 100) "," K(5000, 100) ","
                  K(6000, 2000));
    expect_none("low-utilization", tr, set, "a window exactly 30% busy breaks the stretch");
    tt_trace_free(tr);
    /* a device with a utilization counter is judged by the counter */
    tr = trace_of(K(0, 2000) "," K(2000, 100) "," K(3000, 100) "," K(4000, 100) ","
                  K(5000, 100) "," K(6000, 2000) ","
                  "{\"ph\":\"C\",\"name\":\"GPU utilization\",\"pid\":0,\"ts\":0,\"args\":{\"value\":95}}");
    expect_none("low-utilization", tr, set, "the counter says 95%");
    tt_trace_free(tr);
}

#define NC(ts, dur) "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":20,\"ts\":" #ts ",\"dur\":" #dur "}"
#define STEP(ts, dur) "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_straggler(void)
{
    /* rank 2 arrives last at all 3 collectives; the others wait 200 us */
    tt_trace *tr[3];
    tt_annotations a;
    tr[0] = trace_of(NC(0, 300) "," NC(1000, 300) "," NC(2000, 300) "," STEP(0, 3000));
    tr[1] = trace_of(NC(0, 300) "," NC(1000, 300) "," NC(2000, 300) "," STEP(0, 3000));
    tr[2] = trace_of(NC(200, 100) "," NC(1200, 100) "," NC(2200, 100) "," STEP(0, 3000));
    if (is_i64((int64_t)run_rule("straggler", tr, 3, &a, NULL), 1, "straggler: one finding")) {
        is_i64(a.v[0].trace, 2, "it names the third trace");
        ok(strstr(a.v[0].msg, "arrived last at 3 of 3 collectives") != NULL &&
           strstr(a.v[0].msg, "wait 200 us") != NULL, "message: %s", a.v[0].msg);
        is_i64(a.v[0].start - tr[2]->t0, 200000, "span from its first late arrival");
        is_i64(a.v[0].end - tr[2]->t0, 2300000, "to the end of its last");
        is_i64(tt_annotation_cost(&a.v[0]), 600000, "it costs the others' 3 x 200 us, not its span");
    }
    tt_annotations_fini(&a);
    is_i64((int64_t)run_rule("straggler", tr, 1, &a, NULL), 0, "straggler needs several ranks");
    tt_annotations_fini(&a);
    for (int i = 0; i < 3; i++)
        tt_trace_free(tr[i]);
    /* near miss: the others wait 99.999 us */
    tr[0] = trace_of(NC(0, 199.999) "," NC(1000, 199.999));
    tr[1] = trace_of(NC(0, 199.999) "," NC(1000, 199.999));
    tr[2] = trace_of(NC(100, 100) "," NC(1100, 100));
    is_i64((int64_t)run_rule("straggler", tr, 3, &a, NULL), 0, "straggler: waits under min_wait");
    tt_annotations_fini(&a);
    for (int i = 0; i < 3; i++)
        tt_trace_free(tr[i]);
    /* slow steps: 1.25x the median fires, 1.249x does not */
    tr[0] = trace_of(STEP(0, 1000));
    tr[1] = trace_of(STEP(0, 1000));
    tr[2] = trace_of(STEP(0, 1250));
    if (is_i64((int64_t)run_rule("straggler", tr, 3, &a, NULL), 1, "slow step fires at 1.25x"))
    {
        ok(a.v[0].trace == 2 && strstr(a.v[0].msg, "1.25x the median"), "%s", a.v[0].msg);
        is_i64(tt_annotation_cost(&a.v[0]), 250000, "a slow step costs its excess over the median");
    }
    tt_annotations_fini(&a);
    tt_trace_free(tr[2]);
    tr[2] = trace_of(STEP(0, 1249));
    is_i64((int64_t)run_rule("straggler", tr, 3, &a, NULL), 0, "1.249x is a near miss");
    tt_annotations_fini(&a);
    for (int i = 0; i < 3; i++)
        tt_trace_free(tr[i]);
}

static void test_config(void)
{
    tt_rules_config c;
    tt_error err;
    char path[256];
    FILE *f;
    tt_rules_config_defaults(&c);
    ok(tt_rules_config_set(&c, "device-idle.min_gap=2ms", &err) == 0, "set a duration");
    ok(tt_rules_config_set(&c, "device-idle.severity=error", &err) == 0, "set a severity");
    ok(tt_rules_config_set(&c, "nope.x=1", &err) != 0 && strstr(err.what, "unknown rule"),
       "unknown rule: %s", err.what);
    ok(tt_rules_config_set(&c, "device-idle.min_gap=soon", &err) != 0, "bad duration");
    ok(tt_rules_config_set(&c, "device-idle", &err) != 0, "missing '='");
    snprintf(path, sizeof path, "%s/tt-rules-%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    f = fopen(path, "w");
    fputs("{\"rules\": {\n  \"host-sync\": {\"min_duration\": \"2ms\", \"severity\": \"error\"},\n"
          "  \"tiny-kernels\": {\"enabled\": false},\n  \"bogus\": {}\n}}\n", f);
    fclose(f);
    ok(tt_rules_config_load(&c, path, &err) != 0 && err.line == 4 && strstr(err.what, "bogus"),
       "unknown rule in a file is positioned at line 4: %s (line %lld)", err.what, (long long)err.line);
    f = fopen(path, "w");
    fputs("{\"rules\": {\"host-sync\": {\"min_duration\": \"2ms\", \"severity\": \"error\"},"
          "\"tiny-kernels\": {\"enabled\": false}}}\n", f);
    fclose(f);
    tt_rules_config_defaults(&c);
    ok(tt_rules_config_load(&c, path, &err) == 0, "valid rules file loads");
    {
        tt_trace *tr = trace_of(RT(0, 1500, "cudaDeviceSynchronize"));
        tt_annotations a;
        tt_trace *one[1] = {tr};
        tt_annotations_init(&a);
        tt_rules_run(&c, (const tt_trace *const *)one, 1, &a, &err);
        is_i64((int64_t)a.n, 0, "file raised host-sync.min_duration to 2 ms");
        tt_annotations_fini(&a);
        tt_trace_free(tr);
    }
    remove(path);
}

/* A hand-made finding (rank tests do not need a rule to produce it). */
static void add_finding(tt_annotations *a, const char *rule, tt_ns s, tt_ns e)
{
    tt_annotation *x;
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
    }
    x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->rule = tt_rule_find(rule)->id;
    x->start = s;
    x->end = e;
    x->msg = strdup(rule);
}

static void test_rank(void)
{
    /* two 1 ms steps, then host work up to 3 ms: the step time is 2 ms */
    tt_trace *tr = trace_of(
        "{\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000},"
        "{\"ph\":\"X\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":1000},"
        "{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":2900,\"dur\":100}");
    tt_trace *one[1] = {tr};
    tt_annotations a;
    tt_ranking r;
    tt_rules_config c;
    tt_error err;
    const tt_ns us = 1000;
    tt_annotations_init(&a);
    add_finding(&a, "tiny-kernels", 10 * us, 20 * us);       /* 0.5%: info */
    add_finding(&a, "host-sync", 100 * us, 200 * us);
    add_finding(&a, "device-idle", 0, 500 * us);             /* 25%: error */
    add_finding(&a, "host-sync", 150 * us, 300 * us);        /* overlaps: union 200 us, 10% */
    add_finding(&a, "host-sync", 2500 * us, 2600 * us);      /* after the steps: cost, no share */
    add_finding(&a, "straggler", 0, 1 * us);                 /* tiny, but ranks first */
    tt_rules_config_defaults(&c);
    ok(tt_ranking_build(&r, &a, (const tt_trace *const *)one, 1, &c, &err) == 0, "ranking builds");
    is_i64((int64_t)r.n_groups, 4, "one group per rule");
    ok(strcmp(r.groups[0].rule, "straggler") == 0, "the straggler ranks itself first");
    ok(strcmp(r.groups[1].rule, "device-idle") == 0 && strcmp(r.groups[2].rule, "host-sync") == 0 &&
       strcmp(r.groups[3].rule, "tiny-kernels") == 0, "then by cost: device-idle, host-sync, tiny");
    is_i64(r.groups[2].cost, 300 * us, "host-sync cost: union of its spans, overlap counted once");
    ok(r.groups[2].by_steps && r.groups[2].base == 2000 * us, "reference: the 2 ms of steps");
    ok(r.groups[2].share > 9.999 && r.groups[2].share < 10.001,
       "share: only the time inside the steps, 200 us of 2 ms = 10%% (%g)", r.groups[2].share);
    is_i64(r.groups[2].sev, TT_SEV_WARNING, "10%% is not above 10%%: warning");
    is_i64(r.groups[1].sev, TT_SEV_ERROR, "25%%: error");
    is_i64(r.groups[3].sev, TT_SEV_INFO, "0.5%%: info");
    is_i64(r.groups[0].sev, TT_SEV_INFO, "straggler first whatever its severity");
    ok(r.groups[2].n == 3 && r.groups[2].items[0] == 3 && r.groups[2].items[1] == 1 &&
       r.groups[2].items[2] == 4, "findings costliest first, ties by time");
    ok(r.order[5] == 1 && r.order[2] == 2 && r.order[3] == 3 && r.order[1] == 4 &&
       r.order[4] == 5 && r.order[0] == 6, "order: the ranked listing's positions");
    tt_ranking_fini(&r);

    ok(tt_rules_config_set(&c, "tiny-kernels.severity=error", &err) == 0 &&
       tt_rules_config_set(&c, "impact.error_share=30", &err) == 0, "explicit severity, threshold");
    tt_ranking_build(&r, &a, (const tt_trace *const *)one, 1, &c, &err);
    is_i64(r.groups[3].sev, TT_SEV_ERROR, "an explicit severity wins over the impact");
    ok(r.groups[3].sev_explicit && !r.groups[1].sev_explicit, "and is marked explicit");
    is_i64(r.groups[1].sev, TT_SEV_WARNING, "error_share 30: 25%% is a warning");
    tt_ranking_fini(&r);
    ok(tt_rules_config_set(&c, "impact.error_share=200", &err) != 0 && strstr(err.what, "percent"),
       "share over 100 refused: %s", err.what);
    ok(tt_rules_config_set(&c, "impact.bogus=2", &err) != 0, "unknown impact setting refused");

    /* tt_rules_run applies the derived severity to every finding */
    tt_rules_config_defaults(&c);
    tt_rank_apply_severity(&a, (const tt_trace *const *)one, 1, &c, &err);
    ok(a.v[1].sev == TT_SEV_WARNING && a.v[4].sev == TT_SEV_WARNING && a.v[2].sev == TT_SEV_ERROR,
       "every finding gets its group's severity");
    tt_annotations_fini(&a);
    tt_trace_free(tr);

    /* no steps: the trace span (0-4 ms) is the reference */
    tr = trace_of("{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":4000}");
    one[0] = tr;
    tt_annotations_init(&a);
    add_finding(&a, "host-sync", tr->t0 + 1000 * us, tr->t0 + 1040 * us);
    tt_ranking_build(&r, &a, (const tt_trace *const *)one, 1, &c, &err);
    ok(!r.groups[0].by_steps && r.groups[0].base == 4000 * us && r.groups[0].share > 0.999 &&
       r.groups[0].share < 1.001 && r.groups[0].sev == TT_SEV_INFO,
       "no steps: 40 us of the 4 ms span = 1%%, not above 1%%: info");
    tt_ranking_fini(&r);
    tt_annotations_fini(&a);
    tt_trace_free(tr);

    /* empty: nothing to rank */
    tt_annotations_init(&a);
    ok(tt_ranking_build(&r, &a, NULL, 0, &c, &err) == 0 && r.n_groups == 0, "no findings");
    tt_ranking_fini(&r);
}

static int cmp_ns_test(const void *a, const void *b)
{
    tt_ns x = *(const tt_ns *)a, y = *(const tt_ns *)b;
    return x < y ? -1 : x > y;
}

static void test_median(void)
{
    static const size_t sizes[] = {1, 2, 3, 16, 17, 18, 100, 1001, 4096, 100000};
    uint64_t st = 99;
    size_t bad = 0, runs = 0;
    ok(rule_median(NULL, 0) == 0, "the median of nothing is 0");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int shape = 0; shape < 5; shape++) {
            size_t n = sizes[s];
            tt_ns *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w), want;
            for (size_t i = 0; i < n; i++) {
                st ^= st << 13, st ^= st >> 7, st ^= st << 17;
                v[i] = shape == 0   ? (tt_ns)(st % 1000000007) - 500000000
                       : shape == 1 ? (tt_ns)(st % 3)   /* many repeats */
                       : shape == 2 ? (tt_ns)i           /* sorted */
                       : shape == 3 ? (tt_ns)(n - i)     /* reversed */
                                    : (tt_ns)7;          /* all equal */
            }
            memcpy(w, v, n * sizeof *v);
            qsort(w, n, sizeof *w, cmp_ns_test);
            want = n % 2 ? w[n / 2] : w[n / 2 - 1] + (w[n / 2] - w[n / 2 - 1]) / 2;
            bad += rule_median(v, n) != want;
            runs++;
            free(v);
            free(w);
        }
    ok(bad == 0, "the median is the sorted one in %zu arrays (%zu differ)", runs, bad);
}

int main(void)
{
    test_median();
    test_device_idle();
    test_pageable();
    test_sync_calls();
    test_host_sync();
    test_tiny_kernels();
    test_instructions();
    test_tensor_reload();
    test_counters();
    test_counter_lanes();
    test_busy_share();
    test_straggler();
    test_config();
    test_rank();
    return tap_done();
}
