/* hugectr.c - `gen-trace hugectr`: a HugeCTR inline profiler result
 * (prof.json) for a DLRM-style model trained on two hosts with two GPUs
 * each.
 *
 * Layout, as HugeCTR's profiler result parser writes it and its timeline
 * chart reads it: a list of hosts, each {"host_name", "avg_iter_time_ms",
 * "timeline": {"device_N": {"stream_X": [events]}}}, every event with
 * "label", "avg_measured_time_ms" and "avg_iter_start_to_event_start_time_ms"
 * (plus "met_times_within_this_stream", the occurrence index the profiler
 * keys events by). Times are averages over the measured iterations, in
 * milliseconds; stream names are the CUDA stream handles in hex.
 *
 * Content: per GPU a data reader stream, a compute stream (embedding
 * lookup, bottom MLP, interaction, top MLP, their backward passes) and a
 * communication stream whose all-reduce overlaps the backward MLP; the
 * second host is a little slower.
 *
 * Deterministic: the same options give the same bytes.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <inttypes.h>
#include <string.h>

typedef struct hgen {
    gen_rng     rng;
    gen_out     out;
    uint64_t    seed, hosts, gpus;
    const char *path;
} hgen;

typedef struct stage {
    const char *label;
    int         stream;      /* 0 data reader, 1 compute, 2 communication */
    int64_t     us_lo, us_hi;
    bool        after_prev;  /* starts when the previous compute stage ends */
} stage;

static const stage stages[] = {
    {"data_reader.read_a_batch", 0, 180, 260, false},
    {"data_reader.copy_to_gpu", 0, 90, 140, false},
    {"sparse_embedding.forward", 1, 850, 1100, true},
    {"bottom_mlp.fc1.fprop", 1, 120, 160, true},
    {"bottom_mlp.fc2.fprop", 1, 90, 130, true},
    {"interaction.fprop", 1, 210, 280, true},
    {"top_mlp.fc1.fprop", 1, 300, 380, true},
    {"top_mlp.fc2.fprop", 1, 150, 200, true},
    {"loss.fprop", 1, 40, 60, true},
    {"top_mlp.fc2.bprop", 1, 260, 330, true},
    {"top_mlp.fc1.bprop", 1, 520, 640, true},
    {"allreduce.dense_grads", 2, 700, 950, false},
    {"interaction.bprop", 1, 380, 450, true},
    {"bottom_mlp.fc2.bprop", 1, 170, 230, true},
    {"bottom_mlp.fc1.bprop", 1, 210, 270, true},
    {"sparse_embedding.backward", 1, 1300, 1600, true},
    {"sparse_embedding.update_params", 1, 600, 780, true},
    {"optimizer.update", 1, 120, 180, true},
};

#define N_STAGES (sizeof stages / sizeof stages[0])

/* ms with up to six decimals from integer ns, shortest form */
static void put_ms(gen_out *o, int64_t ns)
{
    int64_t whole = ns / 1000000, frac = ns % 1000000;
    int digits = 6;
    if (frac == 0) {
        gen_printf(o, "%" PRId64 ".0", whole);
        return;
    }
    while (frac % 10 == 0) {
        frac /= 10;
        digits--;
    }
    gen_printf(o, "%" PRId64 ".%0*" PRId64, whole, digits, frac);
}

static void write_host(hgen *g, uint64_t h)
{
    gen_out *o = &g->out;
    int64_t starts[N_STAGES], durs[N_STAGES], end = 0;
    char host[32];
    /* host 1 is the slow one: its GPUs run 12% longer */
    int slow = h == 1 ? 120 : 0;
    snprintf(host, sizeof host, "dgx-a100-%02" PRIu64, h + 1);
    gen_puts(o, h ? ",\n    {\n" : "\n    {\n");
    gen_puts(o, "        \"host_name\": ");
    gen_json_str(o, host);
    gen_puts(o, ",\n");
    /* the schedule is simulated once per GPU; the iteration time is the
     * slowest GPU's */
    gen_puts(o, "        \"timeline\": {\n");
    for (uint64_t d = 0; d < g->gpus; d++) {
        int64_t clock[3] = {0, 0, 0};
        gen_printf(o, "%s            \"device_%" PRIu64 "\": {\n", d ? ",\n" : "", d);
        for (size_t i = 0; i < N_STAGES; i++) {
            const stage *s = &stages[i];
            int64_t dur = gen_rng_range(&g->rng, s->us_lo * 1000, s->us_hi * 1000);
            dur += dur * slow / 1000;
            starts[i] = clock[s->stream] + gen_rng_range(&g->rng, 4000, 20000);
            if (s->stream == 1 && i > 0 && clock[0] > starts[i] && strncmp(s->label, "sparse", 6) == 0)
                starts[i] = clock[0] + 6000;   /* the batch must be there */
            if (s->stream == 2)
                starts[i] = clock[1] + 5000;   /* gradients of the top MLP ready */
            durs[i] = dur;
            clock[s->stream] = starts[i] + dur;
            if (clock[s->stream] > end)
                end = clock[s->stream];
        }
        for (int st = 0; st < 3; st++) {
            bool first = true;
            static const char *const handles[] = {"0x55d4c2a1f3a0", "0x55d4c2a1f5e0",
                                                  "0x55d4c2a20820"};
            gen_printf(o, "%s                \"stream_%s\": [", st ? ",\n" : "", handles[st]);
            for (size_t i = 0; i < N_STAGES; i++) {
                if (stages[i].stream != st)
                    continue;
                gen_puts(o, first ? "\n" : ",\n");
                first = false;
                gen_puts(o, "                    {\"label\": ");
                gen_json_str(o, stages[i].label);
                gen_puts(o, ", \"avg_measured_time_ms\": ");
                put_ms(o, durs[i]);
                gen_puts(o, ", \"avg_iter_start_to_event_start_time_ms\": ");
                put_ms(o, starts[i]);
                gen_puts(o, ", \"met_times_within_this_stream\": 0}");
            }
            gen_puts(o, "\n                ]");
        }
        gen_puts(o, "\n            }");
    }
    gen_puts(o, "\n        },\n        \"avg_iter_time_ms\": ");
    put_ms(o, end + gen_rng_range(&g->rng, 50000, 90000));
    gen_puts(o, "\n    }");
}

static int hugectr_run(int argc, char **argv)
{
    hgen g;
    char msg[512];
    memset(&g, 0, sizeof g);
    g.seed = 3;
    g.hosts = 2;
    g.gpus = 2;
    {
        gen_opt opts[] = {
            {"output", 'o', GEN_OPT_STR, &g.path, 0, 0, "FILE", "where to write (- = stdout)", false},
            {"hosts", 0, GEN_OPT_U64, &g.hosts, 1, 1024, "N", "hosts (default 2)", false},
            {"gpus", 0, GEN_OPT_U64, &g.gpus, 1, 16, "N", "GPUs per host (default 2)", false},
            {"seed", 0, GEN_OPT_U64, &g.seed, 0, UINT64_MAX, "S", "random seed (default 3)", false},
            {NULL, 0, 0, NULL, 0, 0, NULL, NULL, false},
        };
        int pr = gen_opts_parse(opts, argc, argv, "hugectr",
                                "A HugeCTR inline profiler result (prof.json).");
        if (pr)
            return pr > 0 ? GEN_EXIT_OK : GEN_EXIT_ERROR;
    }
    if (!g.path) {
        gen_error("hugectr: no output file (-o FILE; - for stdout)");
        return GEN_EXIT_ERROR;
    }
    gen_rng_seed(&g.rng, g.seed);
    if (gen_out_open(&g.out, g.path, msg, sizeof msg)) {
        gen_error("%s", msg);
        return GEN_EXIT_ERROR;
    }
    gen_puts(&g.out, "[");
    for (uint64_t h = 0; h < g.hosts; h++)
        write_host(&g, h);
    gen_puts(&g.out, "\n]\n");
    if (gen_out_commit(&g.out, msg, sizeof msg)) {
        gen_error("%s", msg);
        return GEN_EXIT_ERROR;
    }
    return GEN_EXIT_OK;
}

const gen_format gen_format_hugectr = {
    .name = "hugectr",
    .usage = "[--hosts N] [--gpus N] [--seed S] -o FILE",
    .help = "HugeCTR inline profiler prof.json (average iteration per host/GPU/stream)",
    .run = hugectr_run,
};
