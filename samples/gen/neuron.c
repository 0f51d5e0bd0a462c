/* neuron.c - `gen-trace neuron`: a neuron-profile JSON profile
 * (`neuron-profile view --output-format json`) of one NeuronCore running a
 * small transformer MLP block, layer after layer.
 *
 * Layout, as the neuron-profile user guide shows it: a top-level object
 * with "summary" (a list of one object: total_time in seconds,
 * event_count, nc_idx, nd_idx, per-engine counts and percents) and
 * "instruction" (timestamp and duration in ns, label = engine, hlo_name,
 * opcode, operands), printed the way Go's json.MarshalIndent prints
 * (four-space indent, one member per line). The other arrays' JSON layout
 * is not published; they use the field names of neuron-explorer's
 * documented tables for the same data: "dma" (DmaPacketAggregated:
 * queue_name, op, source, dest, variable, transfer_bytes), "cc_op"
 * (label = CC-core, opcode) and "throttle" (Throttle: k, n, type).
 *
 * What analyses should find in it, by construction:
 *   - TensorMatrix MATMULs fed by DMA weight loads (HBM -> SB), with Vector,
 *     Scalar, GpSimd and Sync engine work per layer;
 *   - one tensor, "shared.embedding", DMA-loaded three times (a spill
 *     reload queue brings it back), so tensor-reload warns;
 *   - a throttling stretch (k/n = 2/4) during which engines run at half
 *     speed;
 *   - an all-reduce on two CC-core lanes at the end of the block.
 *
 * Deterministic: the same options give the same bytes.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define T_START INT64_C(10261883214)   /* the user guide's first timestamp */
#define MAX_EVENTS 200000

enum { E_TM, E_VEC, E_SCA, E_POOL, E_SYNC, E__N };
static const char *const engine[E__N] = {"TensorMatrix", "Vector", "Scalar", "GpSimd", "Sync"};

typedef enum ekind { K_INSTR, K_DMA, K_CC, K_THROTTLE } ekind;

typedef struct nev {
    ekind       kind;
    int64_t     ts, dur;
    int         eng;            /* instruction: engine; cc: core */
    const char *opcode;         /* instruction, cc */
    char        hlo[96];
    char        operands[160];
    const char *queue;          /* dma */
    const char *op, *src, *dst;
    char        var[48];
    int64_t     bytes;
    int         k, n;           /* throttle */
    size_t      seq;            /* creation order: ties sort stably */
} nev;

typedef struct ngen {
    gen_rng  rng;
    gen_out  out;
    nev     *ev;
    size_t   n, cap;
    bool     oom;
    int64_t  clock[E__N];       /* engine free at */
    int64_t  q_free[8];         /* DMA queue free at */
    int64_t  thr_start, thr_end;   /* throttling stretch */
    uint64_t seed, layers;
    const char *path;
} ngen;

static nev *add(ngen *g, ekind k)
{
    nev *e;
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 1024;
        nev *ne = nc <= MAX_EVENTS ? realloc(g->ev, nc * sizeof *ne) : NULL;
        if (!ne) {
            g->oom = true;
            return NULL;
        }
        g->ev = ne;
        g->cap = nc;
    }
    e = &g->ev[g->n];
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->seq = g->n++;
    return e;
}

/* Durations double inside the throttling stretch (k/n = 2/4). */
static int64_t slowed(ngen *g, int64_t at, int64_t dur)
{
    return at >= g->thr_start && at < g->thr_end ? dur * 2 : dur;
}

static int64_t instr(ngen *g, int eng, int64_t not_before, int64_t dur, const char *opcode,
                     const char *hlo, const char *operands)
{
    nev *e;
    int64_t ts = g->clock[eng] > not_before ? g->clock[eng] : not_before;
    ts += gen_rng_range(&g->rng, 8, 40);   /* issue latency */
    dur = slowed(g, ts, dur);
    e = add(g, K_INSTR);
    if (!e)
        return ts;
    e->ts = ts;
    e->dur = dur;
    e->eng = eng;
    e->opcode = opcode;
    snprintf(e->hlo, sizeof e->hlo, "%s", hlo);
    snprintf(e->operands, sizeof e->operands, "%s", operands);
    g->clock[eng] = ts + dur;
    return ts + dur;
}

/* A DMA transfer; about 180 bytes per ns of queue bandwidth. */
static int64_t dma(ngen *g, int q, const char *queue, int64_t not_before, const char *op,
                   const char *src, const char *dst, const char *var, int64_t bytes)
{
    nev *e;
    int64_t ts = g->q_free[q] > not_before ? g->q_free[q] : not_before;
    ts += gen_rng_range(&g->rng, 20, 90);
    e = add(g, K_DMA);
    if (!e)
        return ts;
    e->ts = ts;
    e->dur = slowed(g, ts, gen_rng_jitter(&g->rng, bytes / 180 + 400, 80));
    e->queue = queue;
    e->op = op;
    e->src = src;
    e->dst = dst;
    snprintf(e->var, sizeof e->var, "%s", var);
    e->bytes = bytes;
    g->q_free[q] = e->ts + e->dur;
    return e->ts + e->dur;
}

static void simulate(ngen *g)
{
    int64_t t = T_START, w_ready, last = T_START;
    char hlo[96], ops[160], var[48];
    int sem = 3;
    for (int e = 0; e < E__N; e++)
        g->clock[e] = T_START;
    for (int q = 0; q < 8; q++)
        g->q_free[q] = T_START;
    /* the input activations */
    t = dma(g, 0, "qSyncIO0", t, "read", "HBM", "SB", "input.activations", 4 << 20);
    for (uint64_t l = 0; l < g->layers && !g->oom; l++) {
        int64_t mm_end = 0, act_end, vec_end;
        if (l == g->layers / 2) {
            g->thr_start = g->clock[E_TM] + 2000;
            g->thr_end = INT64_MAX;   /* until the next layer starts */
        }
        if (l == g->layers / 2 + 1)
            g->thr_end = g->clock[E_TM] + 1000;
        snprintf(var, sizeof var, "layer%" PRIu64 ".mlp.weight", l);
        w_ready = dma(g, 1, "qScalarIO0", g->clock[E_TM] - 6000, "read", "HBM", "SB", var,
                      (int64_t)(2 + l % 2) << 20);
        /* the shared embedding is spilled and reloaded on odd layers */
        if (l % 2 == 1 && l < 6)
            w_ready = dma(g, 2, "qScalarSpillReload0", w_ready - 3000, "read", "HBM", "SB",
                          "shared.embedding", 1 << 20);
        instr(g, E_SYNC, w_ready, 60, "EVENT_SEMAPHORE", "", "S[3] (Tensor) wait");
        for (int k = 0; k < 8; k++) {
            snprintf(hlo, sizeof hlo, "%%dot.%" PRIu64 " = bf16[4096,1024] dot(%%add.%" PRIu64
                     ", %%p%" PRIu64 ".weight)", 10 + l, 9 + l, l);
            snprintf(ops, sizeof ops, "S[%d] (Tensor)++@complete acc_flags=%d row_grp=q%d "
                     "src=bf16@0x%x[1,0,0][3,1,1] dst=0x2000000[1,0,0][3,1,1] 3*128",
                     sem, k == 0 ? 1 : 3, k % 4, 0x5600 + 0x400 * k);
            mm_end = instr(g, E_TM, w_ready, gen_rng_range(&g->rng, 380, 820), "MATMUL", hlo, ops);
        }
        snprintf(hlo, sizeof hlo, "%%add.%" PRIu64 " = bf16[4096,1024] add(%%dot.%" PRIu64
                 ", %%bias.%" PRIu64 ")", 10 + l, 10 + l, l);
        vec_end = instr(g, E_VEC, mm_end, gen_rng_range(&g->rng, 300, 520), "TENSOR_TENSOR", hlo,
                        "src0=fp32@0x2000000 src1=bf16@0x9000 dst=bf16@0xa000 op=add");
        snprintf(hlo, sizeof hlo, "%%gelu.%" PRIu64 " = bf16[4096,1024] custom-call(%%add.%" PRIu64
                 "), custom_call_target=\"gelu\"", l, 10 + l);
        act_end = instr(g, E_SCA, vec_end, gen_rng_range(&g->rng, 450, 900), "ACTIVATE", hlo,
                        "func=gelu src=bf16@0xa000 dst=bf16@0xb000 scale=1.0");
        instr(g, E_POOL, vec_end, gen_rng_range(&g->rng, 120, 260), "IOTA", "",
              "dst=int32@0xc000 pattern=[1,128]");
        instr(g, E_VEC, act_end, gen_rng_range(&g->rng, 200, 340), "TENSOR_REDUCE", hlo,
              "src=bf16@0xb000 dst=fp32@0xd000 op=max axis=1");
        instr(g, E_SYNC, act_end, 50, "NOTIFY", "", "S[4]++");
        snprintf(var, sizeof var, "layer%" PRIu64 ".output", l);
        last = dma(g, 3, "qSyncIO1", act_end, "write", "SB", "HBM", var, 1 << 20);
        sem = 3 + (sem + 1) % 4;
    }
    /* gradient all-reduce across the replica group on the collective cores */
    {
        int64_t cc = last;
        for (int c = 0; c < 2 && !g->oom; c++) {
            int64_t at = cc + gen_rng_range(&g->rng, 100, 300);
            for (int k = 0; k < 3; k++) {
                nev *e = add(g, K_CC);
                if (!e)
                    break;
                e->ts = at;
                e->dur = gen_rng_range(&g->rng, 2500, 4000);
                e->eng = c;
                e->opcode = k == 1 ? "AllReduce" : "Barrier";
                at = e->ts + e->dur + gen_rng_range(&g->rng, 50, 150);
            }
            dma(g, 4 + c, c ? "qCollective1" : "qCollective0", cc, "read", "SB", "HBM",
                "gradients.bucket0", 1 << 20);
        }
    }
    if (g->thr_end == INT64_MAX)
        g->thr_end = g->clock[E_TM];
    if (g->thr_end > g->thr_start) {
        /* the hardware reports the throttled stretch in slices */
        for (int64_t at = g->thr_start; at < g->thr_end && !g->oom;) {
            nev *e = add(g, K_THROTTLE);
            if (!e)
                break;
            e->ts = at;
            e->dur = (g->thr_end - at) < 5000 ? g->thr_end - at : 5000;
            e->k = 2;
            e->n = 4;
            at += e->dur;
        }
    }
}

static int cmp_ts(const void *pa, const void *pb)
{
    const nev *a = pa, *b = pb;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void member_i64(gen_out *o, const char *ind, const char *key, int64_t v, bool last)
{
    gen_printf(o, "%s\"%s\": %" PRId64 "%s\n", ind, key, v, last ? "" : ",");
}

static void member_str(gen_out *o, const char *ind, const char *key, const char *v, bool last)
{
    gen_printf(o, "%s\"%s\": ", ind, key);
    gen_json_str(o, v);
    gen_puts(o, last ? "\n" : ",\n");
}

static void member_dbl(gen_out *o, const char *ind, const char *key, double v, bool last)
{
    gen_printf(o, "%s\"%s\": ", ind, key);
    gen_double(o, v);
    gen_puts(o, last ? "\n" : ",\n");
}

static void write_file(ngen *g)
{
    gen_out *o = &g->out;
    int64_t t0 = INT64_MAX, t1 = 0, count[E__N] = {0}, busy[E__N] = {0}, dma_n = 0, dma_b = 0;
    int64_t rd = 0, wr = 0;
    size_t n_instr = 0;
    static const char *const ind = "            ";
    qsort(g->ev, g->n, sizeof *g->ev, cmp_ts);
    for (size_t i = 0; i < g->n; i++) {
        const nev *e = &g->ev[i];
        if (e->ts < t0)
            t0 = e->ts;
        if (e->ts + e->dur > t1)
            t1 = e->ts + e->dur;
        if (e->kind == K_INSTR) {
            count[e->eng]++;
            busy[e->eng] += e->dur;
            n_instr++;
        } else if (e->kind == K_DMA) {
            dma_n++;
            dma_b += e->bytes;
            if (strcmp(e->src, "HBM") == 0)
                rd += e->bytes;
            else
                wr += e->bytes;
        }
    }
    gen_puts(o, "{\n    \"summary\": [\n        {\n");
    member_dbl(o, ind, "total_time", (double)(t1 - t0) / 1e9, false);
    member_i64(o, ind, "event_count", (int64_t)g->n, false);
    member_i64(o, ind, "nc_idx", 0, false);
    member_i64(o, ind, "nd_idx", 0, false);
    member_str(o, ind, "instance_type", "trn1.2xlarge", false);
    member_dbl(o, ind, "tensor_engine_active_time_percent",
               (double)busy[E_TM] / (double)(t1 - t0), false);
    member_i64(o, ind, "tensor_engine_instruction_count", count[E_TM], false);
    member_dbl(o, ind, "vector_engine_active_time_percent",
               (double)busy[E_VEC] / (double)(t1 - t0), false);
    member_i64(o, ind, "vector_engine_instruction_count", count[E_VEC], false);
    member_dbl(o, ind, "scalar_engine_active_time_percent",
               (double)busy[E_SCA] / (double)(t1 - t0), false);
    member_i64(o, ind, "scalar_engine_instruction_count", count[E_SCA], false);
    member_i64(o, ind, "gpsimd_engine_instruction_count", count[E_POOL], false);
    member_i64(o, ind, "sync_engine_instruction_count", count[E_SYNC], false);
    member_i64(o, ind, "dma_transfer_count", dma_n, false);
    member_i64(o, ind, "dma_transfer_total_bytes", dma_b, false);
    member_i64(o, ind, "hbm_read_bytes", rd, false);
    member_i64(o, ind, "hbm_write_bytes", wr, false);
    member_str(o, ind, "compiler_version", "2.24.5133.0+58f8de22", false);
    member_str(o, ind, "runtime_version", "2.31.24 (0b044)", false);
    member_str(o, ind, "profiler_version", "2.29.18.0%kaena-tools/2.29@d5fe7ba", true);
    gen_puts(o, "        }\n    ],\n");

    for (int pass = 0; pass < 4; pass++) {
        static const char *const names[] = {"instruction", "dma", "cc_op", "throttle"};
        bool first = true;
        gen_printf(o, "    \"%s\": [\n", names[pass]);
        for (size_t i = 0; i < g->n; i++) {
            const nev *e = &g->ev[i];
            char buf[48];
            if ((int)e->kind != pass)
                continue;
            gen_puts(o, first ? "        {\n" : ",\n        {\n");
            first = false;
            member_i64(o, ind, "timestamp", e->ts, false);
            member_i64(o, ind, "duration", e->dur, false);
            switch (e->kind) {
            case K_INSTR:
                member_str(o, ind, "label", engine[e->eng], false);
                member_str(o, ind, "hlo_name", e->hlo, false);
                member_str(o, ind, "opcode", e->opcode, false);
                member_str(o, ind, "operands", e->operands, true);
                break;
            case K_DMA:
                member_str(o, ind, "queue_name", e->queue, false);
                member_str(o, ind, "op", e->op, false);
                member_str(o, ind, "source", e->src, false);
                member_str(o, ind, "dest", e->dst, false);
                member_str(o, ind, "variable", e->var, false);
                member_i64(o, ind, "transfer_bytes", e->bytes, true);
                break;
            case K_CC:
                snprintf(buf, sizeof buf, "CC-core %d", e->eng);
                member_str(o, ind, "label", buf, false);
                member_str(o, ind, "opcode", e->opcode, false);
                member_str(o, ind, "replica_group", "[[0,1,2,3,4,5,6,7]]", true);
                break;
            case K_THROTTLE:
                member_i64(o, ind, "k", e->k, false);
                member_i64(o, ind, "n", e->n, false);
                member_str(o, ind, "type", "activity_0", true);
                break;
            }
            gen_puts(o, "        }");
        }
        gen_puts(o, first ? "    ]" : "\n    ]");
        gen_puts(o, pass < 3 ? ",\n" : "\n");
    }
    gen_puts(o, "}\n");
    (void)n_instr;
}

static int neuron_run(int argc, char **argv)
{
    ngen g;
    char msg[512];
    int rc = GEN_EXIT_OK;
    memset(&g, 0, sizeof g);
    g.seed = 7;
    g.layers = 12;
    {
        gen_opt opts[] = {
            {"output", 'o', GEN_OPT_STR, &g.path, 0, 0, "FILE", "where to write (- = stdout)", false},
            {"layers", 0, GEN_OPT_U64, &g.layers, 2, 5000, "N", "MLP layers (default 12)", false},
            {"seed", 0, GEN_OPT_U64, &g.seed, 0, UINT64_MAX, "S", "random seed (default 7)", false},
            {NULL, 0, 0, NULL, 0, 0, NULL, NULL, false},
        };
        int pr = gen_opts_parse(opts, argc, argv, "neuron",
                                "A neuron-profile JSON profile of one NeuronCore.");
        if (pr)
            return pr > 0 ? GEN_EXIT_OK : GEN_EXIT_ERROR;
    }
    if (!g.path) {
        gen_error("neuron: no output file (-o FILE; - for stdout)");
        return GEN_EXIT_ERROR;
    }
    gen_rng_seed(&g.rng, g.seed);
    simulate(&g);
    if (g.oom) {
        gen_error("neuron: out of memory (or too many layers)");
        free(g.ev);
        return GEN_EXIT_ERROR;
    }
    if (gen_out_open(&g.out, g.path, msg, sizeof msg)) {
        gen_error("%s", msg);
        free(g.ev);
        return GEN_EXIT_ERROR;
    }
    write_file(&g);
    if (gen_out_commit(&g.out, msg, sizeof msg)) {
        gen_error("%s", msg);
        rc = GEN_EXIT_ERROR;
    }
    free(g.ev);
    return rc;
}

const gen_format gen_format_neuron = {
    .name = "neuron",
    .usage = "[--layers N] [--seed S] -o FILE",
    .help = "neuron-profile JSON (view --output-format json) of one NeuronCore",
    .run = neuron_run,
};
