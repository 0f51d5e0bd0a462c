/* test_multi.c - ranks of a job: rank from file names, directory expansion,
 * parallel loading, rank assignment, alignment and collective matching. */
#include "config.h"

#include "../tap.h"
#include "multi/collectives.h"
#include "multi/rankset.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static void write_file(const char *name, const char *fmt, ...)
{
    char path[512];
    FILE *f;
    va_list ap;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

static tt_trace *trace_of(const char *json)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_error err;
    if (tt_input_open_mem(json, strlen(json), &in, &err) == 0) {
        tt_load_input(in, NULL, &tr, NULL, &err);
        tt_input_close(in);
    }
    return tr;
}

static void test_resolve(void)
{
    int64_t r1[] = {-1, 0, -1, 3, -1}, r2[] = {2, -1, 2}, r3[] = {-1, -1};
    size_t a = 9, b = 9;
    ok(tt_ranks_resolve(r1, 5, &a, &b) == 0 && r1[0] == 1 && r1[1] == 0 && r1[2] == 2 &&
           r1[3] == 3 && r1[4] == 4,
       "ranks without a claim take the lowest free ones in order (1 0 2 3 4)");
    ok(tt_ranks_resolve(r2, 3, &a, &b) != 0 && a == 0 && b == 2, "a rank claimed twice: 0 and 2");
    ok(tt_ranks_resolve(r3, 2, &a, &b) == 0 && r3[0] == 0 && r3[1] == 1, "no claims: the order");
    ok(tt_ranks_resolve(NULL, 0, &a, &b) == 0, "no traces");
}

static void test_names(void)
{
    static const struct { const char *name; int64_t rank; } cases[] = {
        {"profile_rank_5.json", 5}, {"rank-3.json.gz", 3}, {"RANK12.pt.trace.json", 12},
        {"dir/rank.7.json", 7}, {"rank=2.json", 2}, {"llama-5-of-8.json", 5},
        {"job_11_of_64.json.zst", 11}, {"worker5.json", 5}, {"worker_0.json", 0},
        {"trace.json", -1}, {"ranking.json", -1}, {"/rank_9/trace.json", -1},
        {"step-3-of.json", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        is_i64(tt_rank_from_name(cases[i].name), cases[i].rank, "rank of %s", cases[i].name);
}

static void test_align_parse(void)
{
    tt_align_spec a;
    tt_error err;
    ok(tt_align_parse("absolute", &a, &err) == 0 && a.mode == TT_ALIGN_ABSOLUTE, "absolute");
    ok(tt_align_parse("start", &a, &err) == 0 && a.mode == TT_ALIGN_START, "start");
    ok(tt_align_parse("event:ProfilerStep#10", &a, &err) == 0 && a.mode == TT_ALIGN_EVENT &&
       strcmp(a.event, "ProfilerStep#10") == 0 && a.nth == 1, "event name with a # in it");
    ok(tt_align_parse("event:ProfilerStep#10#2", &a, &err) == 0 && a.nth == 2 &&
       strcmp(a.event, "ProfilerStep#10") == 0, "event:NAME#N");
    ok(tt_align_parse("collective#3", &a, &err) == 0 && a.nth == 3 &&
       strcmp(a.event, "collective") == 0, "collective#3");
    ok(tt_align_parse("collective#0", &a, &err) != 0, "occurrence 0 is rejected");
    ok(tt_align_parse("sideways", &a, &err) != 0, "unknown mode is rejected");
    ok(tt_align_parse("step:12", &a, &err) == 0 && a.mode == TT_ALIGN_EVENT &&
       strcmp(a.event, "ProfilerStep#12") == 0 && strcmp(a.alt_event, "ProfilerStep") == 0 &&
       a.alt_nth == 12 && !a.set[0], "step:N is event:ProfilerStep#N");
    ok(tt_align_parse("step:x", &a, &err) != 0, "step: takes a number");
    ok(tt_align_parse("marker:base:warm up", &a, &err) == 0 && a.mode == TT_ALIGN_EVENT &&
       strcmp(a.set, "base") == 0 && strcmp(a.event, "warm up") == 0,
       "marker:SET:M names the set and the marker");
    ok(tt_align_parse("marker:base", &a, &err) != 0 && tt_align_parse("marker::m", &a, &err) != 0 &&
       tt_align_parse("marker:s:", &a, &err) != 0, "marker: needs a set and a marker");

    /* one "#": the event named so when the trace has one, else the N-th */
    {
        tt_trace *named = trace_of("[{\"ph\":\"X\",\"name\":\"step#2\",\"pid\":1,\"tid\":1,"
                                   "\"ts\":50,\"dur\":1},{\"ph\":\"X\",\"name\":\"step\","
                                   "\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":1},{\"ph\":\"X\","
                                   "\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}]");
        tt_trace *plain = trace_of("[{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,"
                                   "\"ts\":30,\"dur\":1},{\"ph\":\"X\",\"name\":\"step\","
                                   "\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":1}]");
        tt_ns at = -1;
        char what[600];
        ok(tt_align_parse("event:step#2", &a, &err) == 0 && strcmp(a.event, "step#2") == 0 &&
               a.nth == 1 && strcmp(a.alt_event, "step") == 0 && a.alt_nth == 2,
           "event:step#2 keeps both readings");
        ok(named && tt_align_event_time(named, &a, &at) == 0 && at == 50000,
           "the event named step#2 when there is one (%lld)", (long long)at);
        ok(plain && tt_align_event_time(plain, &a, &at) == 0 && at == 30000,
           "else the second step in time order (%lld)", (long long)at);
        ok(tt_align_parse("event:step#3", &a, &err) == 0 && plain &&
               tt_align_event_time(plain, &a, &at) == 1,
           "neither reading found");
        is_str(tt_align_target(&a, what, sizeof what),
               "event named 'step#3' nor an occurrence 3 of 'step'", "and the message says both");
        ok(tt_align_parse("event:step#x", &a, &err) == 0 && a.alt_event[0] == '\0',
           "a # without a number is part of the name only");
        tt_trace_free(named);
        tt_trace_free(plain);
    }
}

static void test_offsets(void)
{
    tt_ns t0[3] = {1000, 1200, 900}, t1[3] = {5000, 5100, 4800}, ev[3] = {3000, 3500, 2500};
    tt_ns off[3];
    tt_align_mode m;
    tt_align_spec a;
    memset(&a, 0, sizeof a);
    a.mode = TT_ALIGN_AUTO;
    tt_align_offsets(&a, t0, t1, NULL, 3, off, &m);
    ok(m == TT_ALIGN_ABSOLUTE && off[0] == 0 && off[1] == 0 && off[2] == 0,
       "auto: overlapping spans share a clock");
    t0[1] = 100000000;
    t1[1] = 100004000;
    tt_align_offsets(&a, t0, t1, NULL, 3, off, &m);
    ok(m == TT_ALIGN_START && off[0] == -100 && off[1] == 900 - 100000000 && off[2] == 0,
       "auto: far-apart starts are start-aligned");
    a.mode = TT_ALIGN_EVENT;
    tt_align_offsets(&a, t0, t1, ev, 3, off, &m);
    ok(m == TT_ALIGN_EVENT && off[0] == 0 && off[1] == -500 && off[2] == 500,
       "event: the event happens at the first rank's time everywhere");
}

static void test_expand_and_load(void)
{
    const char *ev = "[{\"ph\":\"X\",\"name\":\"k\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":10}%s]";
    char *paths[1];
    char **files = NULL;
    size_t n = 0;
    tt_error err;
    tt_rankset rs;
    tt_rankset_opts o;
    char sub[300];
    write_file("b-rank_10.json", ev, 5, "");
    write_file("a-rank_2.json", ev, 7, "");
    write_file("c.json", ev, 9, "");      /* no rank anywhere: takes the lowest free */
    write_file("d.json", ev, 3, ",{\"ph\":\"M\",\"name\":\"x\"}");
    write_file("a-rank_2.json.markers.json", "{}");
    write_file(".hidden.json", ev, 1, "");
    write_file("notes.txt", "hello, not a trace\n");
    paths[0] = dir;
    if (!ok(tt_rankset_expand((const char *const *)paths, 1, &files, &n, &err) == 0,
            "expand a directory"))
        return;
    is_i64((int64_t)n, 4, "four traces: sidecars, hidden files and text skipped");
    if (n == 4) {
        ok(strstr(files[0], "a-rank_2") && strstr(files[1], "b-rank_10") && strstr(files[2], "c.json"),
           "natural order of names");
    }
    memset(&o, 0, sizeof o);
    o.threads = 2;
    if (ok(tt_rankset_load(&rs, files, n, &o, &err) == 0, "load in parallel")) {
        is_i64((int64_t)rs.n, 4, "four ranks");
        if (rs.n == 4) {
            ok(rs.r[0].rank == 0 && strstr(rs.r[0].path, "c.json") &&
               rs.r[0].source == TT_RANK_FROM_ORDER, "c.json takes rank 0 (first free)");
            ok(rs.r[1].rank == 1 && strstr(rs.r[1].path, "d.json"), "d.json takes rank 1");
            ok(rs.r[2].rank == 2 && rs.r[2].source == TT_RANK_FROM_NAME, "rank_2 from the name");
            ok(rs.r[3].rank == 10, "rank_10 from the name, sorted last");
        }
        tt_rankset_fini(&rs);
    }
    tt_rankset_free_files(files, n);

    snprintf(sub, sizeof sub, "%s/dup", dir);
    mkdir(sub, 0777);
    {
        char a[400], b[400];
        char *two[2] = {a, b};
        FILE *f;
        snprintf(a, sizeof a, "%s/x-rank_1.json", sub);
        snprintf(b, sizeof b, "%s/y-rank_1.json", sub);
        f = fopen(a, "w");
        fprintf(f, ev, 1, "");
        fclose(f);
        f = fopen(b, "w");
        fprintf(f, ev, 1, "");
        fclose(f);
        ok(tt_rankset_load(&rs, two, 2, &o, &err) != 0 && strstr(err.what, "both claim rank 1"),
           "two files claiming one rank: %s", err.what);
        snprintf(b, sizeof b, "%s/broken.json", sub);
        f = fopen(b, "w");
        fputs("[{\"ph\":", f);
        fclose(f);
        ok(tt_rankset_load(&rs, two, 2, &o, &err) != 0 && strstr(err.what, "broken.json"),
           "a broken rank names its file: %s", err.what);
    }
    snprintf(sub, sizeof sub, "%s/empty", dir);
    mkdir(sub, 0777);
    paths[0] = sub;
    ok(tt_rankset_expand((const char *const *)paths, 1, &files, &n, &err) != 0 &&
       strstr(err.what, "no trace files"), "an empty directory is an error");
}

#define NC(ts, dur) "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclAllReduce\",\"pid\":0,\"tid\":20,\"ts\":" #ts ",\"dur\":" #dur "}"

static void test_collectives(void)
{
    tt_trace *tr[3];
    tt_colls c;
    tt_error err;
    tr[0] = trace_of("[" NC(0, 30) "," NC(100, 30) "]");
    tr[1] = trace_of("[" NC(5, 25) "," NC(110, 20) "]");
    tr[2] = trace_of("[" NC(20, 10) "," NC(100, 35) "]");
    tt_colls_init(&c);
    for (size_t i = 0; i < 3; i++)
        tt_colls_add(&c, tr[i], i, 0, &err);
    if (ok(tt_colls_match(&c, &err) == 0 && c.n == 6, "six collectives matched")) {
        /* first collective: starts 0, 5, 20 us; durations 30, 25, 10 */
        ok(c.v[0].rank == 0 && c.v[0].seq == 0 && c.v[0].offset == 0 && c.v[0].wait == 20000 &&
           c.v[0].ranks == 3, "rank 0 waited 20 us");
        ok(c.v[1].rank == 1 && c.v[1].offset == 5000 && c.v[1].wait == 15000, "rank 1 waited 15 us");
        ok(c.v[2].rank == 2 && c.v[2].offset == 20000 && c.v[2].wait == 0, "rank 2 arrived last");
        ok(c.v[3].seq == 1 && c.v[5].rank == 2 && c.v[5].wait == 15000 && c.v[4].wait == 0,
           "second collective: rank 1 last, rank 2 waited 15 us");
    }
    tt_colls_fini(&c);
    for (int i = 0; i < 3; i++)
        tt_trace_free(tr[i]);
}

/* One definition of "last to arrive" (the least in-kernel wait), and the
 * facts the notes rest on: start offsets that contradict the waits,
 * kernels that never overlap, world_size, point-to-point names. */
static void test_collective_facts(void)
{
    static const char *const p2p[] = {
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclKernel_Send", "ncclDevKernel_Recv_x"};
    static const char *const not_p2p[] = {
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclKernel_SendRecvX", "ncclKernel_Sender", "SendRecv", "ncclAllReduce", ""};
    tt_trace *tr[2];
    tt_colls c;
    tt_colls_facts f;
    tt_error err;
    char notes[2048];
    bool all = true;
    for (size_t i = 0; i < sizeof p2p / sizeof p2p[0]; i++)
        all &= tt_coll_name_is_p2p(p2p[i]);
    ok(all, "SendRecv, Send and Recv kernels are point-to-point");
    all = true;
    for (size_t i = 0; i < sizeof not_p2p / sizeof not_p2p[0]; i++)
        all &= !tt_coll_name_is_p2p(not_p2p[i]);
    ok(all, "all-reduces and look-alike names are not");
    /* #0: rank 1 starts 40 us late but waits 20 us inside: the clocks
     *     contradict the waits (and the kernels never overlap);
     * #1: agree (rank 1 starts 10 us later, waits 0);
     * #2: equal waits: the later start is the last to arrive */
    tr[0] = trace_of("{\"distributedInfo\":{\"rank\":0,\"world_size\":8},\"traceEvents\":["
                     NC(0, 10) "," NC(100, 30) "," NC(200, 10) "]}");
    tr[1] = trace_of("{\"distributedInfo\":{\"rank\":1,\"world_size\":8},\"traceEvents\":["
                     NC(40, 30) "," NC(110, 20) "," NC(205, 10) "]}");
    tt_colls_init(&c);
    for (size_t i = 0; i < 2; i++)
        tt_colls_add(&c, tr[i], i, 0, &err);
    if (ok(tt_colls_match(&c, &err) == 0 && c.n == 6, "six entries matched")) {
        ok(c.v[0].last && !c.v[1].last && c.v[1].offset == 40000 && c.v[1].wait == 20000,
           "#0: rank 0 is last to arrive by its wait although rank 1 starts later");
        ok(!c.v[2].last && c.v[3].last, "#1: rank 1 is last to arrive");
        ok(!c.v[4].last && c.v[5].last, "#2: equal waits: the later start");
        tt_colls_facts_of(&c, &f);
        ok(f.total == 3 && f.matched == 3 && f.contradict == 1 && f.disjoint == 1 && f.p2p == 0,
           "one of three contradicts, and its kernels do not overlap");
        ok(f.ranks == 2 && f.world_size == 8, "2 ranks loaded of world_size 8");
        ok(tt_colls_notes(&f, notes, sizeof notes) == 2 &&
               strstr(notes, "contradict the in-kernel waits at 1 of 3 collectives") &&
               strstr(notes, "world_size is 8 but 2 ranks are loaded") &&
               !strstr(notes, "point-to-point"),
           "notes: clocks and world_size, no point-to-point");
        tt_colls_facts_range(&c, 2, 4, &f);
        ok(f.total == 1 && f.contradict == 0 && f.disjoint == 0, "#1 alone: consistent");
    }
    tt_colls_fini(&c);
    for (int i = 0; i < 2; i++)
        tt_trace_free(tr[i]);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tt-multi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return tap_skip_all("cannot create a temporary directory");
    test_names();
    test_align_parse();
    test_resolve();
    test_offsets();
    test_expand_and_load();
    test_collectives();
    test_collective_facts();
    {
        char cmd[sizeof dir + 16];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            diag("cleanup failed");
    }
    return tap_done();
}
