/* fuzz_chrome.c - libFuzzer target for the Chrome trace-event JSON decoder.
 *
 * Each input is loaded from memory through the whole pipeline
 * (tt_input_open_mem -> decoder -> tt_trace_finalize), strictly and with
 * --lenient with the decoder forced (so any bytes reach it), and once more
 * through format detection. Beyond "no crash, no leak, no
 * undefined behaviour" (ASan/UBSan), the model's invariants are checked
 * and a violation aborts, so the fuzzer reports it as a crash:
 *   - a load either succeeds or fails with a message (and a sane
 *     position when it has one), never half;
 *   - events are sorted by (start, longer first) with dur >= 0, their
 *     strings and argument records are readable, flows point at events;
 *   - whatever loads strictly loads leniently with the same events.
 *
 * Built as a fuzzer with --enable-fuzzing (see tests/qa.mk), and always as
 * a regression program (with tests/fuzz/fuzz_main.c) that replays the seed
 * corpus tests/fuzz/corpus/chrome/ under `make check`.
 */
#include "config.h"

#include "decode/decode.h"
#include "index/index.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "fuzz_chrome: invariant failed: %s (%s:%d)\n", #cond, \
                    __FILE__, __LINE__);                                         \
            abort();                                                             \
        }                                                                        \
    } while (0)

static void check_trace(const tt_trace *tr)
{
    uint64_t total = 0;
    uint32_t nstr = tt_strtab_count(tr->strings);
    tt_args_reader rd;

    CHECK(tr->finalized);
    CHECK(tr->t0 <= tr->t1);
    tt_args_reader_init(&rd, tr->args);
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        const tt_group *gr = &tr->groups[g];
        CHECK(gr->first_lane + gr->n_lanes <= tr->n_lanes);
        for (uint32_t k = 0; k < gr->n_lanes; k++)
            CHECK(tr->lanes[gr->first_lane + k].group == g);
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        char label[300];
        CHECK(ln->group < tr->n_groups);
        CHECK(ln->n > 0);
        tt_lane_fullname(tr, l, label, sizeof label);
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            CHECK(e->dur >= 0);
            CHECK(e->name < nstr && e->cat < nstr);
            CHECK(e->depth <= ln->max_depth);
            CHECK(e->start >= tr->t0);
            if (i > 0) {
                const tt_event *p = &ln->ev[i - 1];
                CHECK(p->start < e->start || (p->start == e->start && p->dur >= e->dur));
            }
            if (e->args) {
                const char *a, *x;
                size_t an, xn;
                CHECK(tt_args_read(&rd, e->args, &a, &an, &x, &xn) == 0);
            }
        }
        /* the index answers a full-range busy query within the span */
        CHECK(tt_index_busy(ln->ev, ln->n, tr->t0, tr->t1) <= tr->t1 - tr->t0);
        total += ln->n;
    }
    CHECK(total == tr->n_events);
    for (size_t f = 0; f < tr->n_flows; f++) {
        const tt_flow *fl = &tr->flows[f];
        CHECK(fl->from.lane < tr->n_lanes && fl->from.idx < tr->lanes[fl->from.lane].n);
        CHECK(fl->to.lane < tr->n_lanes && fl->to.idx < tr->lanes[fl->to.lane].n);
        CHECK(tr->flows_by_to[f] < tr->n_flows);
    }
    for (uint32_t c = 0; c < tr->n_counters; c++) {
        const tt_counter *ct = &tr->counters[c];
        CHECK(ct->group < tr->n_groups);
        for (size_t i = 1; i < ct->n; i++)
            CHECK(ct->t[i - 1] <= ct->t[i]);
    }
    tt_args_reader_fini(&rd);
}

/* Load data; returns the event count, or -1 when the load failed.
 * force: skip format detection, so that any bytes reach the decoder. */
static int64_t load(const uint8_t *data, size_t size, bool lenient, bool force,
                    const char **format)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_error err;
    tt_load_opts opts;
    tt_load_info info;
    int64_t events = -1;
    char msg[700];

    memset(&opts, 0, sizeof opts);
    opts.lenient = lenient;
    opts.format = force ? "chrome-json" : NULL;
    tt_error_clear(&err);
    if (tt_input_open_mem(data, size, &in, &err)) {
        CHECK(err.code != TT_OK);
        return -1;
    }
    if (tt_load_input(in, &opts, &tr, &info, &err) == 0) {
        CHECK(tr != NULL);
        check_trace(tr);
        CHECK(info.dropped_bytes >= 0);
        events = (int64_t)tr->n_events;
        *format = tr->format;   /* static */
        tt_trace_free(tr);
    } else {
        CHECK(tr == NULL);
        CHECK(err.code != TT_OK && err.what[0] != '\0');
        if (err.pos == TT_POS_LINE)
            CHECK(err.line >= 1 && err.column >= 1 && err.offset >= 0);
        tt_error_format(&err, "<fuzz>", msg, sizeof msg);
    }
    tt_input_close(in);
    return events;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *fs = NULL, *fl = NULL, *fd = NULL;
    int64_t strict = load(data, size, false, true, &fs);
    int64_t lenient = load(data, size, true, true, &fl);
    int64_t detected = load(data, size, false, false, &fd);
    if (strict >= 0)
        CHECK(lenient == strict);
    /* what detection hands to this decoder decodes as when forced */
    if (detected >= 0 && strcmp(fd, "chrome-json") == 0)
        CHECK(detected == strict);
    return 0;
}
