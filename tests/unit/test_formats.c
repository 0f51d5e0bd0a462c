/* test_formats.c - the device profile decoders on small inputs written in
 * the test: exact times and fields, lanes, attributes and arguments,
 * malformed-row positions and --lenient, the CSV column map, neuron's
 * derived counters against a per-nanosecond brute force, HugeCTR's average
 * iteration, and (with SQLite) an Nsight Systems export built here with
 * its flows, names and schema gaps.
 */
#include "config.h"

#include "../tap.h"

#include "decode/csv_common.h"
#include "decode/decode.h"
#include "decode/json_scan.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

static tt_trace *load_mem(const char *text, size_t n, const char *format, bool lenient,
                          const char *map, tt_error *err)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_load_opts o;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.lenient = lenient;
    o.csv_map = map;
    tt_error_clear(err);
    if (tt_input_open_mem(text, n, &in, err))
        return NULL;
    if (tt_load_input(in, &o, &tr, NULL, err))
        tr = NULL;
    tt_input_close(in);
    return tr;
}

static tt_trace *load_str(const char *text, const char *format, bool lenient, const char *map,
                          tt_error *err)
{
    return load_mem(text, strlen(text), format, lenient, map, err);
}

/* Lane index by "group / lane" name, or -1. */
static int lane_of(const tt_trace *tr, const char *full)
{
    char buf[512];
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        if (strcmp(tt_lane_fullname(tr, l, buf, sizeof buf), full) == 0)
            return (int)l;
    return -1;
}

static int counter_of(const tt_trace *tr, const char *name)
{
    for (uint32_t c = 0; c < tr->n_counters; c++)
        if (strcmp(tt_str(tr, tr->counters[c].name), name) == 0)
            return (int)c;
    return -1;
}

/* The argument object of an event, parsed (caller deletes). */
static cJSON *args_of(const tt_trace *tr, const tt_event *e)
{
    tt_args_reader r;
    const char *a, *x;
    size_t an, xn;
    cJSON *j = NULL;
    tt_args_reader_init(&r, tr->args);
    if (e->args && tt_args_read(&r, e->args, &a, &an, &x, &xn) == 0)
        j = cJSON_ParseWithLength(a, an);
    tt_args_reader_fini(&r);
    return j;
}

/* ---------------------------------------------------------- CSV helpers */

static void test_csv_helpers(void)
{
    is_i64(tt_csv_time_scale("Start Time(us)"), 3, "Start Time(us) is us");
    is_i64(tt_csv_time_scale("Start (ns)"), 0, "Start (ns) is ns");
    is_i64(tt_csv_time_scale("Duration ( ms )"), 6, "Duration ( ms ) is ms");
    is_i64(tt_csv_time_scale("Begin (s)"), 9, "Begin (s) is s");
    is_i64(tt_csv_time_scale("Start [us]"), 3, "Start [us] is us");
    is_i64(tt_csv_time_scale("Duration[ ms ]"), 6, "Duration[ ms ] is ms");
    is_i64(tt_csv_time_scale("End (s) [ns]"), 0, "the last unit counts");
    is_i64(tt_csv_time_scale("Start [us"), -1, "an unclosed bracket is no unit");
    is_i64(tt_csv_bytes_scale("Size [KB]"), 3, "Size [KB]");
    is_i64(tt_csv_time_scale("Start"), -1, "no unit");
    is_i64(tt_csv_time_scale("Size (MB)"), -1, "MB is no time unit");
    is_i64(tt_csv_bytes_scale("Bytes (MB)"), 6, "Bytes (MB)");
    is_i64(tt_csv_bytes_scale("Bytes (B)"), 0, "Bytes (B)");
    is_i64(tt_csv_bytes_scale("Bytes (MiB)"), -120, "Bytes (MiB)");
    is_i64(tt_csv_bytes_scale("Bytes"), 0, "Bytes without unit");
    ok(tt_csv_is_null("N/A", 3) && tt_csv_is_null("", 0) && tt_csv_is_null("-", 1) &&
           !tt_csv_is_null("0", 1) && !tt_csv_is_null("NaN", 3),
       "null cells");
    {
        char b[100];
        tt_nsys_memcpy_name(b, sizeof b, "Host-to-Device", "Pageable", "Device");
        is_str(b, "Memcpy HtoD (Pageable -> Device)", "memcpy name with kinds");
        tt_nsys_memcpy_name(b, sizeof b, "DtoH", NULL, NULL);
        is_str(b, "Memcpy DtoH", "old nsys label, kinds unknown");
        tt_nsys_memcpy_name(b, sizeof b, "Unified Device-to-Host", "Managed", "Pageable");
        is_str(b, "Memcpy DtoH (Managed -> Pageable)", "unified copies");
        tt_nsys_memset_name(b, sizeof b, "Device");
        is_str(b, "Memset (Device)", "memset name");
    }
    {
        /* cells and argument values copied into JSON as numbers must be
         * numbers by JSON's grammar; the rest become strings */
        static const char *const yes[] = {"0", "-0", "12", "-3.25", "1e9", "2.5E-3", "0.0"};
        static const char *const no[] = {"", "-", "01", "1.", ".5", "+1", "1e", "1e+",
                                         "0x10", "NaN", "Infinity", "1 ", "12ab"};
        int bad = 0;
        for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
            bad += !js_is_number(yes[i], strlen(yes[i]));
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
            bad += js_is_number(no[i], strlen(no[i]));
        is_i64(bad, 0, "strict JSON number grammar: 7 numbers, 13 non-numbers");
        ok(js_is_number("125x", 3) && !js_is_number("125x", 4), "only the given span is read");
    }
}

/* ---------------------------------------------------------------- Ascend */

static const char ascend_csv[] =
    "\xef\xbb\xbfStep Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,"
    "Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes\n"
    "19,4294967295,61653,2,aclnnMatmul_MatMulV2,MatMulV2,dynamic,AI_CORE,"
    "\"1736413971558972.912\t\",185.504,1.087,16,\"\"\"81920,4096;8192,512\"\"\"\n"
    "19,4294967295,N/A,N/A,hcom_allReduce__445_0,hcom_allReduce_,N/A,HCCL,"
    "1736413971559100.5,308.92,N/A,N/A,N/A\r\n"
    "\n"
    "20,4294967295,61654,2,aclnnAdd,Add,dynamic,AI_VECTOR_CORE,1736413971559300,2.001,0,40,\"4\"\n";

static void test_ascend(void)
{
    tt_error err;
    tt_trace *tr = load_str(ascend_csv, NULL, false, NULL, &err);
    int s2, hccl;
    if (!ok(tr != NULL, "Ascend table loads (%s)", tr ? "" : err.what))
        return;
    is_str(tr->format, "ascend-csv", "detected as Ascend");
    is_i64((int64_t)tr->n_events, 3, "three rows, blank line skipped");
    s2 = lane_of(tr, "NPU / Stream 2");
    hccl = lane_of(tr, "NPU / HCCL");
    ok(s2 >= 0 && hccl >= 0, "lanes by stream, HCCL by accelerator core");
    if (s2 >= 0) {
        const tt_event *e = &tr->lanes[s2].ev[0];
        cJSON *a = args_of(tr, e);
        is_i64(e->start, INT64_C(1736413971558972912), "quoted start with a trailing tab, exact");
        is_i64(e->dur, 185504, "duration in ns");
        is_str(tt_str(tr, e->name), "aclnnMatmul_MatMulV2", "name");
        is_str(tt_str(tr, tt_event_opcode(tr, e)), "MatMulV2", "Type is the opcode");
        is_str(tt_str(tr, e->cat), "kernel", "category kernel");
        ok(a && cJSON_GetObjectItem(a, "Step Id") &&
               cJSON_GetObjectItem(a, "Step Id")->valuedouble == 19,
           "Step Id kept as a number");
        ok(a && cJSON_IsString(cJSON_GetObjectItem(a, "Input Shapes")) &&
               strcmp(cJSON_GetObjectItem(a, "Input Shapes")->valuestring,
                      "\"81920,4096;8192,512\"") == 0,
           "quoted shape list kept");
        ok(a && !cJSON_GetObjectItem(a, "Start Time(us)") && !cJSON_GetObjectItem(a, "Name"),
           "time and name columns not duplicated in the arguments");
        cJSON_Delete(a);
        is_i64(tr->lanes[s2].ev[1].start, INT64_C(1736413971559300000), "integer microseconds");
    }
    if (hccl >= 0) {
        cJSON *a = args_of(tr, &tr->lanes[hccl].ev[0]);
        ok(a && !cJSON_GetObjectItem(a, "Task ID") && !cJSON_GetObjectItem(a, "Wait Time(us)"),
           "N/A cells left out of the arguments");
        cJSON_Delete(a);
    }
    tt_trace_free(tr);
}

/* ----------------------------------------------------------------- nsys */

static const char nsys_csv[] =
    "Processing [report.sqlite] with [cuda_gpu_trace.py]...\n"
    "\n"
    "\"Start (ns)\",\"Duration (ns)\",\"CorrId\",\"GrdX\",\"Bytes (MB)\",\"SrcMemKd\","
    "\"DstMemKd\",\"Device\",\"Strm\",\"Name\"\n"
    "100,50,7,,77.070,\"Pageable\",\"Device\",\"NVIDIA A100 (0)\",7,\"[CUDA memcpy Host-to-Device]\"\n"
    "200,1000,8,392,,,,\"NVIDIA A100 (0)\",7,\"void k<float, 3>(float *, int)\"\n"
    "250,400,9,8,,,,\"NVIDIA A100 (0)\",20,\"ncclKernel_AllReduce_RING_LL_Sum_float\"\n"
    "300,10,10,,0.004,\"Device\",,\"NVIDIA A100 (0)\",7,\"[CUDA memset]\"\n";

static void test_nsys_csv(void)
{
    tt_error err;
    tt_trace *tr = load_str(nsys_csv, NULL, false, NULL, &err);
    int s7, s20;
    if (!ok(tr != NULL, "nsys CSV with a preamble loads (%s)", tr ? "" : err.what))
        return;
    is_str(tr->format, "nsys-csv", "detected as nsys CSV");
    s7 = lane_of(tr, "NVIDIA A100 (0) / Stream 7");
    s20 = lane_of(tr, "NVIDIA A100 (0) / Stream 20");
    ok(s7 >= 0 && s20 >= 0, "device group, stream lanes");
    if (s7 >= 0 && tr->lanes[s7].n == 3) {
        const tt_event *cp = &tr->lanes[s7].ev[0], *k = &tr->lanes[s7].ev[1];
        const tt_event *ms = &tr->lanes[s7].ev[2];
        is_str(tt_str(tr, cp->name), "Memcpy HtoD (Pageable -> Device)", "copy named with kinds");
        is_str(tt_str(tr, cp->cat), "gpu_memcpy", "copy category");
        is_i64(cp->bytes, 77070000, "77.070 MB is 77070000 bytes");
        is_i64(cp->corr, 7, "correlation id");
        is_str(tt_str(tr, k->name), "void k<float, 3>(float *, int)", "quoted kernel name");
        is_str(tt_str(tr, k->cat), "kernel", "kernel category");
        is_i64(k->bytes, -1, "kernels move no bytes");
        is_str(tt_str(tr, ms->cat), "gpu_memset", "memset category");
        is_str(tt_str(tr, ms->name), "Memset (Device)", "memset named with its memory kind");
        is_i64(ms->bytes, 4000, "memset bytes");
    } else {
        ok(0, "stream 7 holds three events");
    }
    tt_trace_free(tr);
}

/* --------------------------------------------------------- generic CSV */

static void test_generic_csv(void)
{
    static const char csv[] = "op,begin (ms),end (ms),worker,extra\n"
                              "load,1.5,2.25,w1,a\n"
                              "step,2.25,4,w2,\n"
                              "save,4,4.000001,w1,b\n";
    tt_error err;
    tt_trace *tr;
    tr = load_str(csv, NULL, false, NULL, &err);
    ok(!tr && err.code == TT_ERR_USAGE && strstr(err.what, "--csv-map"),
       "unknown CSV columns: asks for --csv-map (%s)", err.what);
    tr = load_str(csv, NULL, false, "start=begin (ms),end=3,name=op,lane=worker", &err);
    if (ok(tr != NULL, "generic CSV with a map loads (%s)", tr ? "" : err.what)) {
        int w1 = lane_of(tr, "csv / w1");
        is_str(tr->format, "csv", "a map selects the generic reader");
        ok(w1 >= 0 && tr->lanes[w1].n == 2, "lane per worker");
        if (w1 >= 0) {
            is_i64(tr->lanes[w1].ev[0].start, 1500000, "ms from the header unit");
            is_i64(tr->lanes[w1].ev[0].dur, 750000, "end column by number");
            is_i64(tr->lanes[w1].ev[1].dur, 1, "end - start to the nanosecond");
        }
        tt_trace_free(tr);
    }
    tr = load_str("op,begin [us],len [ns]\nx,2,500\n", NULL, false, "start=2,dur=3,name=op",
                  &err);
    ok(tr && tr->lanes[0].ev[0].start == 2000 && tr->lanes[0].ev[0].dur == 500,
       "--csv-map: units from [us] and [ns] headers (%s)", tr ? "" : err.what);
    tt_trace_free(tr);
    tr = load_str(csv, NULL, false, "start=begin (ms),dur=end (ms),name=op,unit=us", &err);
    ok(tr && tr->lanes[0].ev[0].start == 1500, "unit= overrides the header");
    tt_trace_free(tr);
    tr = load_str(csv, NULL, false, "dur=end (ms),name=op", &err);
    ok(!tr && err.code == TT_ERR_USAGE && strstr(err.what, "start=COLUMN is required"),
       "start is required: %s", err.what);
    tr = load_str(csv, NULL, false, "start=1,dur=2,end=3", &err);
    ok(!tr && strstr(err.what, "exactly one of dur"), "dur and end exclude each other");
    tr = load_str(csv, NULL, false, "start=2,dur=3,color=op", &err);
    ok(!tr && strstr(err.what, "unknown key \"color\""), "unknown key: %s", err.what);
    tr = load_str(csv, NULL, false, "start=nope,dur=3", &err);
    ok(!tr && strstr(err.what, "start=nope names no column"), "unknown column: %s", err.what);
    tr = load_str("a,b\n1,2\n", NULL, false, "start=a,dur=b", &err);
    ok(!tr && err.pos == TT_POS_ROW && err.line == 1 && err.column == 1 &&
           strstr(err.what, "names no time unit"),
       "no unit anywhere: an error at the header cell");
}

static void test_csv_errors(void)
{
    static const char bad[] = "Name,Start Time(us),Duration(us)\n"
                              "a,1,2\n"
                              "b,x3,2\n"
                              "c,5,-1\n"
                              "d,7,1,extra\n"
                              "e,9,1\n";
    tt_error err;
    tt_trace *tr = load_str(bad, NULL, false, NULL, &err);
    ok(!tr && err.pos == TT_POS_ROW && err.line == 3 && err.column == 2 &&
           strstr(err.what, "invalid start time in \"Start Time(us)\""),
       "bad time: row 3, column 2 (%s, row %lld col %lld)", err.what, (long long)err.line,
       (long long)err.column);
    tr = load_str(bad, NULL, true, NULL, &err);
    if (ok(tr != NULL, "--lenient skips malformed rows")) {
        is_i64((int64_t)tr->n_events, 2, "two good rows kept");
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 3, "three rows counted");
        ok(strncmp(tr->problems[TT_PROB_BAD_EVENT].example, "row 3, column 2:", 16) == 0,
           "first example names its row and column: %s", tr->problems[TT_PROB_BAD_EVENT].example);
        tt_trace_free(tr);
    }
    tr = load_str("Name,Start Time(us),Duration(us)\na,1,2\nb,\"3\"x,2\n", NULL, false, NULL, &err);
    ok(!tr && err.pos == TT_POS_ROW && err.line == 3 && err.column == 2 &&
           strstr(err.what, "malformed quoting"),
       "quoting error positioned: row %lld, column %lld", (long long)err.line,
       (long long)err.column);
    tr = load_str("Name,Start Time(us),Duration(us)\na,1,2\nb,\"3,2\n", NULL, false, NULL, &err);
    ok(!tr && strstr(err.what, "ends inside a quoted field"), "unterminated quote: %s", err.what);

    /* times beyond TT_TIME_LIMIT (3e18 ns) are invalid cells, not overflows */
    tr = load_str("Start (ns),Duration (ns),Name,Strm,Device\n"
                  "3000000000000000000,0,edge,1,0\n"
                  "3000000000000000001,5,late,1,0\n"
                  "1,3000000000000000001,long,1,0\n",
                  NULL, false, NULL, &err);
    ok(!tr && err.pos == TT_POS_ROW && err.line == 3 && err.column == 1 &&
           strstr(err.what, "invalid start time"),
       "start beyond the limit: row 3, column 1 (%s)", err.what);
    tr = load_str("Start (ns),Duration (ns),Name,Strm,Device\n"
                  "3000000000000000000,0,edge,1,0\n"
                  "3000000000000000001,5,late,1,0\n"
                  "1,3000000000000000001,long,1,0\n",
                  NULL, true, NULL, &err);
    if (ok(tr != NULL, "--lenient skips them (%s)", tr ? "" : err.what)) {
        is_i64((int64_t)tr->n_events, 1, "the row at the limit is kept");
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 2, "two rows counted");
        tt_trace_free(tr);
    }
    tr = load_str("a,b,c\n-1000000000000000000,2000000000000000000,x\n", NULL, false,
                  "start=a,end=b,name=c,unit=ns", &err);
    if (ok(tr != NULL, "--csv-map: a duration at the limit loads (%s)", tr ? "" : err.what)) {
        is_i64(tr->lanes[0].ev[0].dur, 3000000000000000000LL, "end - start computed exactly");
        tt_trace_free(tr);
    }
    tr = load_str("a,b,c\n-3000000000000000000,3000000000000000000,x\n", NULL, false,
                  "start=a,end=b,name=c,unit=ns", &err);
    ok(!tr && err.pos == TT_POS_ROW && err.line == 2 && err.column == 2,
       "--csv-map: a duration beyond it is refused at the end cell (%s)", err.what);
}

/* --------------------------------------------------------------- neuron */

/* Brute force: per-nanosecond union coverage of the TensorMatrix
 * intervals, bytes moved and DMAs in flight, summed over each bucket. */
static void test_neuron_derived(void)
{
    enum { SPAN = 2000 };
    char *json = malloc(1 << 16);
    size_t o = 0;
    int64_t tm[20][2], dma[12][3];
    double busy[SPAN] = {0}, bytes[SPAN] = {0}, flight[SPAN] = {0};
    uint64_t st = 12345;
    tt_error err;
    tt_trace *tr;
    o += (size_t)sprintf(json + o, "{\"summary\": [{\"total_time\": 0.000002, \"nc_idx\": 3, "
                                   "\"nd_idx\": 1}], \"instruction\": [");
    for (int i = 0; i < 20; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        tm[i][0] = (int64_t)((st >> 33) % 1800);
        tm[i][1] = tm[i][0] + 1 + (int64_t)((st >> 20) % 150);
        o += (size_t)sprintf(json + o,
                             "%s{\"timestamp\": %lld, \"duration\": %lld, \"label\": "
                             "\"TensorMatrix\", \"hlo_name\": \"%%dot.%d\", \"opcode\": "
                             "\"MATMUL\", \"operands\": \"op%d\"}",
                             i ? "," : "", (long long)(1000000 + tm[i][0]),
                             (long long)(tm[i][1] - tm[i][0]), i % 3, i);
    }
    o += (size_t)sprintf(json + o, ",{\"timestamp\": 1000000, \"duration\": 1, \"label\": "
                                   "\"Vector\", \"opcode\": \"ADD\"},"
                                   "{\"timestamp\": 1001999, \"duration\": 1, \"label\": "
                                   "\"Vector\", \"opcode\": \"ADD\"}], \"dma\": [");
    for (int i = 0; i < 12; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        dma[i][0] = (int64_t)((st >> 33) % 1900);
        dma[i][1] = dma[i][0] + (i == 5 ? 0 : 1 + (int64_t)((st >> 20) % 90));
        dma[i][2] = 64 * (1 + (int64_t)((st >> 40) % 1000));
        o += (size_t)sprintf(json + o,
                             "%s{\"timestamp\": %lld, \"duration\": %lld, \"queue_name\": "
                             "\"q%d\", \"source\": \"HBM\", \"dest\": \"SB\", \"variable\": "
                             "\"t%d\", \"transfer_bytes\": %lld}",
                             i ? "," : "", (long long)(1000000 + dma[i][0]),
                             (long long)(dma[i][1] - dma[i][0]), i % 2, i % 4,
                             (long long)dma[i][2]);
    }
    o += (size_t)sprintf(json + o, "]}");
    for (int i = 0; i < 20; i++)
        for (int64_t t = tm[i][0]; t < tm[i][1]; t++)
            busy[t] = 1;
    for (int i = 0; i < 12; i++) {
        int64_t d = dma[i][1] - dma[i][0];
        if (d == 0) {
            bytes[dma[i][0]] += (double)dma[i][2];
            continue;
        }
        for (int64_t t = dma[i][0]; t < dma[i][1]; t++) {
            bytes[t] += (double)dma[i][2] / (double)d;
            flight[t] += 1;
        }
    }
    tr = load_str(json, NULL, false, NULL, &err);
    free(json);
    if (!ok(tr != NULL, "neuron JSON loads (%s)", tr ? "" : err.what))
        return;
    is_str(tr->format, "neuron-json", "detected as neuron JSON");
    {
        char g[64];
        is_str(tt_group_label(tr, &tr->groups[0], g, sizeof g), "NeuronCore 3 (NeuronDevice 1)",
               "group named from the summary");
    }
    {
        int c = counter_of(tr, "TensorMatrix Utilization");
        int ct = counter_of(tr, "DMA Throughput"), cp = counter_of(tr, "Pending DMA Count");
        bool u_ok = c >= 0, t_ok = ct >= 0, p_ok = cp >= 0;
        /* span 2000 ns, 1000 buckets target: 2 ns buckets */
        for (int b = 0; c >= 0 && b < SPAN / 2; b++) {
            double want = 100.0 * (busy[2 * b] + busy[2 * b + 1]) / 2.0;
            const tt_counter *k = &tr->counters[c];
            if ((size_t)b >= k->n || k->t[b] != 1000000 + 2 * b || fabs(k->v[b] - want) > 1e-9)
                u_ok = false;
        }
        for (int b = 0; ct >= 0 && b < SPAN / 2; b++) {
            double want = (bytes[2 * b] + bytes[2 * b + 1]) * 1e9 / 2.0;
            const tt_counter *k = &tr->counters[ct];
            if ((size_t)b >= k->n || fabs(k->v[b] - want) > 1e-6 * (want + 1))
                t_ok = false;
        }
        for (int b = 0; cp >= 0 && b < SPAN / 2; b++) {
            double want = (flight[2 * b] + flight[2 * b + 1]) / 2.0;
            const tt_counter *k = &tr->counters[cp];
            if ((size_t)b >= k->n || fabs(k->v[b] - want) > 1e-9)
                p_ok = false;
        }
        ok(u_ok && tr->counters[c].derived, "TensorMatrix utilization matches the brute force");
        ok(t_ok && tr->counters[ct].derived, "DMA throughput matches the brute force");
        ok(p_ok && tr->counters[cp].derived, "pending DMA count matches the brute force");
        ok(c >= 0 && strcmp(tt_str(tr, tr->counters[c].unit), "%") == 0 &&
               strcmp(tt_str(tr, tr->counters[ct].unit), "B/s") == 0,
           "units");
    }
    {
        int tml = lane_of(tr, "NeuronCore 3 (NeuronDevice 1) / TensorMatrix");
        int q0 = lane_of(tr, "NeuronCore 3 (NeuronDevice 1) / DMA q0");
        ok(tml >= 0 && q0 >= 0, "engine and queue lanes");
        if (tml >= 0) {
            const tt_event *e = &tr->lanes[tml].ev[0];
            is_str(tt_str(tr, e->name), "MATMUL", "instruction named by opcode");
            ok(strncmp(tt_str(tr, tt_event_layer(tr, e)), "%dot.", 5) == 0,
               "hlo_name is the layer");
            ok(strncmp(tt_str(tr, tt_event_operand(tr, e)), "op", 2) == 0, "operands kept");
        }
        if (q0 >= 0) {
            const tt_event *e = &tr->lanes[q0].ev[0];
            is_str(tt_str(tr, e->name), "HBM -> SB", "DMA named by direction");
            ok(e->bytes > 0 && strncmp(tt_str(tr, tt_event_operand(tr, e)), "t", 1) == 0,
               "DMA bytes and the tensor as operand");
        }
    }
    tt_trace_free(tr);
}

static void test_neuron_more(void)
{
    static const char with_counters[] =
        "{\"instruction\": [{\"timestamp\": 10, \"duration\": 5, \"label\": \"TensorMatrix\", "
        "\"opcode\": \"MATMUL\"}], \"dma_usage\": [{\"timestamp\": 10, \"current_throughput\": "
        "5.5, \"pcore_idx\": 0}, {\"timestamp\": 20, \"current_throughput\": 1}],"
        "\"cc_op\": [{\"timestamp\": 12, \"duration\": 3, \"label\": \"CC-core 1\", "
        "\"opcode\": \"AllReduce\"}], \"throttle\": [{\"timestamp\": 11, \"duration\": 4, "
        "\"k\": 3, \"n\": 4, \"type\": \"activity_0\"}], \"bad\": [{\"timestamp\": 1, \"duration\": 2},"
        "{\"timestamp\": \"x\", \"duration\": 1}], \"meta\": {\"a\": [1, 2]}}";
    tt_error err;
    tt_trace *tr = load_str(with_counters, "neuron-json", false, NULL, &err);
    if (ok(tr != NULL, "neuron arrays of all kinds (%s)", tr ? "" : err.what)) {
        int c = counter_of(tr, "dma_usage"), th = counter_of(tr, "Throttling");
        ok(c >= 0 && tr->counters[c].n == 2 && !tr->counters[c].derived &&
               strcmp(tt_str(tr, tr->counters[c].key), "current_throughput") == 0,
           "a timestamp-only array becomes counters (index fields skipped)");
        ok(counter_of(tr, "DMA Throughput") < 0,
           "no DMA throughput derived when the file has one (and no DMA)");
        ok(counter_of(tr, "TensorMatrix Utilization") >= 0, "utilization still derived");
        ok(th >= 0 && tr->counters[th].v[0] == 25.0 && tr->counters[th].v[1] == 0.0,
           "throttling 1 - k/n = 25%%, back to 0 at the end");
        ok(lane_of(tr, "NeuronCore / CC-core 1") >= 0, "CC-core lane");
        {
            int t = lane_of(tr, "NeuronCore / Throttle");
            ok(t >= 0 && strcmp(tt_str(tr, tr->lanes[t].ev[0].name), "throttle activity_0") == 0,
               "throttle events named for the throttle rule");
        }
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 1, "an entry with a bad time counted");
        ok(cJSON_GetObjectItem(tr->meta, "meta") != NULL, "other members kept as metadata");
        tt_trace_free(tr);
    }
    tr = load_str("{\"total_time\": 0.2, \"nc_idx\": 1, \"profiler_version\": \"2.29\"}", NULL,
                  false, NULL, &err);
    ok(tr && strcmp(tr->format, "neuron-json") == 0 && tr->n_events == 0 &&
           strstr(tr->note, "summary only") && cJSON_GetObjectItem(tr->meta, "total_time"),
       "summary-json: metadata and a note");
    tt_trace_free(tr);
    {
        static const char cut[] = "{\"instruction\": [\n{\"timestamp\": 10, \"duration\": 5},\n"
                                  "{\"timestamp\": 20, \"dura";
        tr = load_str(cut, "neuron-json", false, NULL, &err);
        ok(!tr && err.pos == TT_POS_LINE && err.line == 3 && strstr(err.what, "cut off"),
           "cut-off file: positioned error (%s, line %lld)", err.what, (long long)err.line);
        tr = load_str(cut, "neuron-json", true, NULL, &err);
        ok(tr && tr->n_events == 1 && tr->problems[TT_PROB_DROPPED_TAIL].count == 1,
           "--lenient keeps the complete entries");
        tt_trace_free(tr);
        tr = load_str("{\"instruction\": [{\"timestamp\": 1 \"duration\": 2}]}", "neuron-json",
                      false, NULL, &err);
        ok(!tr && err.pos == TT_POS_LINE && err.line == 1 && err.column == 34,
           "syntax error at line 1, column 34 (%s, column %lld)", err.what, (long long)err.column);
    }
    /* times beyond TT_TIME_LIMIT: bad entries, counted, never an overflow */
    tr = load_str("{\"instruction\": [{\"timestamp\": 9000000000000000000, \"duration\": 1, "
                  "\"label\": \"Vector\"}, {\"timestamp\": 5, \"duration\": "
                  "9000000000000000000, \"label\": \"Vector\"}, {\"timestamp\": "
                  "-3000000000000000000, \"end_ts\": 1, \"label\": \"Vector\"}, "
                  "{\"timestamp\": 7, \"duration\": 3, \"label\": \"Vector\"}]}",
                  "neuron-json", false, NULL, &err);
    if (ok(tr != NULL, "neuron entries with times out of range load (%s)", tr ? "" : err.what)) {
        is_i64((int64_t)tr->n_events, 1, "only the good entry is kept");
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 3, "the three others counted");
        ok(tr->t0 == 7 && tr->t1 == 10, "span of the good entry");
        tt_trace_free(tr);
    }
}

/* Keys in alphabetical order: a "dma" array larger than the probe's head
 * comes before "instruction" and "summary". */
static void test_neuron_detect(void)
{
    size_t cap = 1 << 18, o = 0;
    char *json = malloc(cap);
    tt_error err;
    tt_trace *tr;
    o += (size_t)sprintf(json + o, "{\"dma\": [");
    for (int i = 0; i < 1500; i++)
        o += (size_t)sprintf(json + o,
                             "%s\n  {\"timestamp\": %d, \"duration\": 5, \"queue_name\": \"q%d\", "
                             "\"source\": \"HBM\", \"dest\": \"SB\", \"transfer_bytes\": 4096}",
                             i ? "," : "", 1000 + 10 * i, i % 4);
    o += (size_t)sprintf(json + o, "],\n \"instruction\": [{\"timestamp\": 1000, \"duration\": 3, "
                                   "\"label\": \"Vector\", \"opcode\": \"ADD\"}],\n \"summary\": "
                                   "[{\"total_time\": 0.000015, \"nc_idx\": 0}]}\n");
    ok(strstr(json, "\"instruction\"") - json > (long)TT_PROBE_BYTES,
       "\"instruction\" lies past the probe's head");
    tr = load_mem(json, o, NULL, false, NULL, &err);
    ok(tr && strcmp(tr->format, "neuron-json") == 0 && tr->n_events == 1501,
       "a large dma array first: detected as neuron JSON (%s)", tr ? tr->format : err.what);
    tt_trace_free(tr);
    free(json);
    tr = load_str("{\"meta\": {\"x\": [1]}, \"events\": [{\"timestamp\": 1, \"duration\": 2, "
                  "\"label\": \"Vector\", \"opcode\": \"ADD\"}]}",
                  NULL, false, NULL, &err);
    ok(tr && strcmp(tr->format, "neuron-json") == 0,
       "instruction entries under another name, after metadata: neuron JSON");
    tt_trace_free(tr);
    tr = load_str("{\"dma\": [{\"name\": \"copy\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, "
                  "\"pid\": 1, \"tid\": 1}]}",
                  NULL, false, NULL, &err);
    ok(!tr && strstr(err.what, "traceEvents"),
       "Chrome-style entries under \"dma\" are no neuron entries (%s)", tr ? tr->format : err.what);
    tt_trace_free(tr);
}

/* -------------------------------------------------------------- HugeCTR */

static void test_hugectr(void)
{
    static const char prof[] =
        "[{\"host_name\": \"h1\", \"avg_iter_time_ms\": 2.5, \"timeline\": {\"device_0\": "
        "{\"stream_0xab\": [{\"label\": \"fprop\", \"avg_measured_time_ms\": 0.5, "
        "\"avg_iter_start_to_event_start_time_ms\": 0.25, \"extra\": [1]}, {\"label\": \"bprop\", "
        "\"avg_measured_time_ms\": 1, \"avg_iter_start_to_event_start_time_ms\": 0.75}, "
        "{\"label\": \"broken\"}]}}},\n {\"host_name\": \"h2\", \"avg_iter_time_ns\": 3000000, "
        "\"timeline\": {}}]";
    tt_error err;
    tt_trace *tr = load_str(prof, NULL, false, NULL, &err);
    if (ok(tr != NULL, "HugeCTR prof.json loads (%s)", tr ? "" : err.what)) {
        int l = lane_of(tr, "h1 / device 0 stream 0xab"), it = lane_of(tr, "h1 / iteration");
        is_str(tr->format, "hugectr-json", "detected");
        ok(l >= 0 && tr->lanes[l].n == 2, "lane per device/stream, broken entry skipped");
        if (l >= 0) {
            is_i64(tr->lanes[l].ev[0].start, 250000, "offset from the iteration start");
            is_i64(tr->lanes[l].ev[0].dur, 500000, "average time");
        }
        ok(it >= 0 && tr->lanes[it].ev[0].dur == 2500000 &&
               tr->lanes[it].ev[1].kind == TT_EV_INSTANT_GLOBAL &&
               tr->lanes[it].ev[1].start == 2500000,
           "iteration slice and end marker");
        ok(lane_of(tr, "h2 / iteration") >= 0 && tr->t1 == 3000000, "_ns times accepted");
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 1, "broken entry counted");
        tt_trace_free(tr);
    }
    tr = load_str("[{\"avg_iter_time_ms\": 1, \"timeline\": {\n}},\n ]", NULL, false, NULL, &err);
    ok(!tr && err.pos == TT_POS_LINE && err.line == 3, "syntax error positioned (%s, line %lld)",
       err.what, (long long)err.line);
}

/* A prof.json as HugeCTR's parser writes it: host_name, then the timeline
 * (here over 64 KiB, past what probes see), then avg_iter_time_ms when
 * with_iter. Caller frees. */
static char *big_prof(bool with_iter, size_t *len)
{
    size_t cap = 1 << 18, o = 0;
    char *s = malloc(cap);
    o += (size_t)sprintf(s + o, "[\n    {\n        \"host_name\": \"h\",\n        \"timeline\": {\n"
                                "            \"device_0\": {\n"
                                "                \"stream_0x55d4c2a1f3a0\": [\n");
    for (int i = 0; i < 800; i++)
        o += (size_t)sprintf(s + o,
                             "%s                    {\"label\": \"op.%d\", \"avg_measured_time_ms\": "
                             "0.001, \"avg_iter_start_to_event_start_time_ms\": %d.002, "
                             "\"met_times_within_this_stream\": 0}",
                             i ? ",\n" : "", i, i);
    o += (size_t)sprintf(s + o, "\n                ]\n            }\n        }%s\n    }\n]\n",
                         with_iter ? ",\n        \"avg_iter_time_ms\": 900" : "");
    *len = o;
    return s;
}

static void test_hugectr_detect(void)
{
    tt_error err;
    tt_trace *tr;
    size_t n;
    char *prof = big_prof(true, &n);
    ok(n > TT_PROBE_BYTES && strstr(prof, "avg_iter_time_ms") - prof > (long)TT_PROBE_BYTES,
       "avg_iter_time_ms lies past the probe's head");
    tr = load_mem(prof, n, NULL, false, NULL, &err);
    ok(tr && strcmp(tr->format, "hugectr-json") == 0 && tr->n_events == 802,
       "timeline before avg_iter_time_ms: detected from the structure (%s)",
       tr ? tr->format : err.what);
    tt_trace_free(tr);
    tr = load_mem(prof, n / 2, NULL, false, NULL, &err);
    ok(!tr && err.pos == TT_POS_LINE && strstr(err.what, "ends inside the JSON document") &&
           strstr(err.what, "cut off"),
       "cut off mid-document: HugeCTR's positioned error (%s)", err.what);
    free(prof);
    prof = big_prof(false, &n);
    tr = load_mem(prof, n, NULL, false, NULL, &err);
    ok(tr && strcmp(tr->format, "hugectr-json") == 0 && tr->n_events == 800 &&
           tr->problems[TT_PROB_BAD_EVENT].count == 1,
       "without avg_iter_time_ms: still HugeCTR, the missing time counted (%s)",
       tr ? tr->format : err.what);
    tt_trace_free(tr);
    free(prof);
    tr = load_str("[{\"name\": \"timeline\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"pid\": 1, "
                  "\"tid\": 1, \"args\": {\"timeline\": \"avg_measured_time_ms\"}}]",
                  NULL, false, NULL, &err);
    ok(tr && strcmp(tr->format, "chrome-json") == 0,
       "a Chrome trace that says \"timeline\" stays Chrome");
    tt_trace_free(tr);
}

/* ---------------------------------------------------------------- SQLite */

static bool exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    bool good = sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK;
    if (!good)
        printf("# sqlite: %s\n", msg ? msg : "?");
    sqlite3_free(msg);
    return good;
}

static void test_sqlite(void)
{
    /* in the build directory when run by `make check` (it exports builddir) */
    const char *dir = getenv("builddir");
    char path[4096];
    int fd;
    snprintf(path, sizeof path, "%s/tracetty-test-nsys-XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkstemp(path);
    sqlite3 *db;
    tt_error err;
    tt_trace *tr;
    int64_t pid = 4242, gtid = (pid << 24) | 4243, gpid = pid << 24;
    char sql[4096];
    if (!ok(fd >= 0, "temporary database"))
        return;
    close(fd);
    unlink(path);
    ok(sqlite3_open(path, &db) == SQLITE_OK, "create database");
    snprintf(sql, sizeof sql,
             "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
             "INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'cudaLaunchKernel_v7000'),"
             " (3, 'cudaMemcpyAsync_v3020'), (4, 'worker'), (5, 'step 1');"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId "
             "INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName "
             "INTEGER, shortName INTEGER, gridX INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 3000, 0, 7, 11, %lld, 1, 1, 64);"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId "
             "INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,"
             " copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (3500, 3600, 0, 7, 12, %lld, 4096, 1,"
             " 0, 2);"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass "
             "INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue "
             "INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 900, 0, %lld, 11, 2, 0),"
             " (950, 990, 0, %lld, 12, 3, 0);"
             "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT,"
             " textId INTEGER, globalTid INTEGER);"
             "INSERT INTO NVTX_EVENTS VALUES (10, NULL, 39, 'MPI Rank 3', NULL, %lld),"
             " (400, 1000, 59, NULL, 5, %lld), (450, NULL, 34, 'mark', NULL, %lld);"
             "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
             "INSERT INTO PROCESSES VALUES (%lld, %lld, '/usr/bin/python3');"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId "
             "INTEGER, streamId INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (9000000000000000000, "
             "9000000000000000001, 0, 7), (-9000000000000000000, 9000000000000000000, 0, 7);",
             (long long)gpid, (long long)gpid, (long long)gtid, (long long)gtid, (long long)gtid,
             (long long)gtid, (long long)gtid, (long long)gpid, (long long)pid);
    ok(exec(db, sql), "nsys-like schema (no enum tables, an old column set)");
    sqlite3_close(db);
    tt_error_clear(&err);
    if (ok(tt_load(path, NULL, &tr, NULL, &err) == 0, "export loads (%s)", err.what)) {
        int k = lane_of(tr, "GPU 0 / Stream 7"), t = lane_of(tr, "python3 (pid 4242) / MPI Rank 3");
        is_str(tr->format, "nsys-sqlite", "detected by the SQLite magic");
        ok(k >= 0 && tr->lanes[k].n == 2, "kernel and copy on stream 7");
        ok(t >= 0 && tr->lanes[t].n == 4, "runtime calls, NVTX range and mark on the thread");
        is_i64(tr->rank, 3, "rank from the NVTX thread name");
        if (k >= 0) {
            is_str(tt_str(tr, tr->lanes[k].ev[0].name), "gemm_kernel", "kernel name via StringIds");
            is_str(tt_str(tr, tr->lanes[k].ev[1].name), "Memcpy HtoD (Pageable -> Device)",
                   "copy named with built-in kind labels");
            is_i64(tr->lanes[k].ev[1].bytes, 4096, "copy bytes");
        }
        is_i64((int64_t)tr->n_flows, 2, "launch -> kernel and memcpy call -> copy flows");
        if (tr->n_flows == 2 && k >= 0 && t >= 0)
            ok(tr->flows[0].from.lane == (uint32_t)t && tr->flows[0].to.lane == (uint32_t)k,
               "flows go from the thread to the stream");
        ok(strcmp(tr->note, "") == 0, "no note when kernels exist");
        is_i64((int64_t)tr->problems[TT_PROB_BAD_EVENT].count, 2,
               "memsets with times out of range skipped and counted");
        tt_trace_free(tr);
    }
    ok(sqlite3_open(path, &db) == SQLITE_OK && exec(db, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL"),
       "drop the kernel table");
    sqlite3_close(db);
    if (ok(tt_load(path, NULL, &tr, NULL, &err) == 0, "export without a kernel table loads")) {
        ok(strstr(tr->note, "no kernel table") != NULL, "and says so");
        is_i64((int64_t)tr->n_flows, 1, "the remaining copy flow");
        tt_trace_free(tr);
    }
    ok(sqlite3_open(path, &db) == SQLITE_OK &&
           exec(db, "DROP TABLE StringIds; DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                    "DROP TABLE NVTX_EVENTS; CREATE TABLE other (x INTEGER)"),
       "make it a foreign database");
    sqlite3_close(db);
    ok(tt_load(path, NULL, &tr, NULL, &err) != 0 && strstr(err.what, "not an Nsight Systems"),
       "another SQLite database: %s", err.what);
    {
        /* SQLite bytes in memory (as from a pipe or a decompressed file) */
        FILE *f = fopen(path, "rb");
        unsigned char buf[8192];
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        tt_input *in = NULL;
        if (f)
            fclose(f);
        ok(n >= 100 && tt_input_open_mem(buf, n, &in, &err) == 0 &&
               tt_load_input(in, NULL, &tr, NULL, &err) != 0 && strstr(err.what, "plain file"),
           "SQLite not from a plain file: %s", err.what);
        tt_input_close(in);
    }
    unlink(path);
}

int main(void)
{
    test_csv_helpers();
    test_ascend();
    test_nsys_csv();
    test_generic_csv();
    test_csv_errors();
    test_neuron_derived();
    test_neuron_more();
    test_neuron_detect();
    test_hugectr();
    test_hugectr_detect();
    test_sqlite();
    return tap_done();
}
