/* fuzz_formats.h - what the decoder fuzz targets share: load the
 * input from memory through the whole pipeline with a decoder forced (so
 * any bytes reach it), strictly and with --lenient, and once through
 * format detection; check the model's invariants and abort on a
 * violation, so the fuzzer reports it like a crash. Included by one
 * fuzz_*.c each (static inline functions, so a target can leave some
 * unused; no separate object).
 */
#ifndef TT_TESTS_FUZZ_FORMATS_H
#define TT_TESTS_FUZZ_FORMATS_H

#include "decode/decode.h"
#include "index/index.h"
#include "snapshot/snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FCHECK(cond)                                                                   \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "fuzz: invariant failed: %s (%s:%d)\n", #cond, __FILE__,   \
                    __LINE__);                                                         \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* trusted_args: the argument blocks were written by a decoder in this
 * process, so reading them must succeed; a snapshot's records come from
 * the input and may fail to read (never crash), with the store's error. */
static inline void fuzz_check_trace(const tt_trace *tr, bool trusted_args)
{
    uint64_t total = 0;
    uint32_t nstr = tt_strtab_count(tr->strings);
    tt_args_reader rd;
    FCHECK(tr->finalized);
    FCHECK(tr->t0 <= tr->t1);
    tt_args_reader_init(&rd, tr->args);
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        const tt_group *gr = &tr->groups[g];
        FCHECK(gr->first_lane + gr->n_lanes <= tr->n_lanes);
        for (uint32_t k = 0; k < gr->n_lanes; k++)
            FCHECK(tr->lanes[gr->first_lane + k].group == g);
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        char label[300];
        FCHECK(ln->group < tr->n_groups);
        FCHECK(ln->n > 0);
        tt_lane_fullname(tr, l, label, sizeof label);
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            FCHECK(e->dur >= 0);
            FCHECK(e->name < nstr && e->cat < nstr);
            FCHECK(e->depth <= ln->max_depth);
            FCHECK(e->start >= tr->t0 && tt_event_end(e) <= tr->t1);
            if (i > 0) {
                const tt_event *p = &ln->ev[i - 1];
                FCHECK(p->start < e->start || (p->start == e->start && p->dur >= e->dur));
            }
            (void)tt_event_opcode(tr, e);
            if (e->args) {
                const char *a, *x;
                size_t an, xn;
                int r = tt_args_read(&rd, e->args, &a, &an, &x, &xn);
                tt_error why;
                FCHECK(r == 0 || !trusted_args);
                /* a snapshot's records are rebuilt when first read: a
                 * failure is the section's positioned error */
                FCHECK(r == 0 || (tt_args_error(tr->args, &why) == 1 &&
                                  why.pos == TT_POS_OFFSET));
            }
        }
        FCHECK(tt_index_busy(ln->ev, ln->n, tr->t0, tr->t1) <= tr->t1 - tr->t0);
        total += ln->n;
    }
    FCHECK(total == tr->n_events);
    for (size_t f = 0; f < tr->n_flows; f++) {
        const tt_flow *fl = &tr->flows[f];
        FCHECK(fl->from.lane < tr->n_lanes && fl->from.idx < tr->lanes[fl->from.lane].n);
        FCHECK(fl->to.lane < tr->n_lanes && fl->to.idx < tr->lanes[fl->to.lane].n);
        FCHECK(tr->flows_by_to[f] < tr->n_flows);
    }
    for (uint32_t c = 0; c < tr->n_counters; c++) {
        const tt_counter *ct = &tr->counters[c];
        FCHECK(ct->group < tr->n_groups);
        for (size_t i = 1; i < ct->n; i++)
            FCHECK(ct->t[i - 1] <= ct->t[i]);
    }
    tt_args_reader_fini(&rd);
}

/* Load an opened input (closed here); the event count, or -1 when the
 * load failed. format NULL: detect. *loaded (when not NULL) receives the
 * format that loaded it. data/size are the input's bytes. */
static inline int64_t fuzz_load_input(tt_input *in, const uint8_t *data, size_t size, bool lenient,
                                      const char *format, const char *csv_map, const char **loaded)
{
    tt_trace *tr = NULL;
    tt_error err;
    tt_load_opts opts;
    tt_load_info info;
    int64_t events = -1;
    char msg[700];
    memset(&opts, 0, sizeof opts);
    opts.lenient = lenient;
    opts.format = format;
    opts.csv_map = csv_map;
    tt_error_clear(&err);
    if (tt_load_input(in, &opts, &tr, &info, &err) == 0) {
        FCHECK(tr != NULL);
        fuzz_check_trace(tr, !tt_snapshot_probe(data, size));
        FCHECK(info.dropped_bytes >= 0);
        events = (int64_t)tr->n_events;
        if (loaded)
            *loaded = tr->format;   /* static */
        tt_trace_free(tr);
    } else {
        FCHECK(tr == NULL);
        FCHECK(err.code != TT_OK && err.what[0] != '\0');
        if (err.pos == TT_POS_LINE)
            FCHECK(err.line >= 1 && err.column >= 1 && err.offset >= 0);
        if (err.pos == TT_POS_ROW)
            FCHECK(err.line >= 1 && err.column >= 0);
        tt_error_format(&err, "<fuzz>", msg, sizeof msg);
    }
    tt_input_close(in);
    return events;
}

/* Load data from memory; as fuzz_load_input(). */
static inline int64_t fuzz_load_as(const uint8_t *data, size_t size, bool lenient,
                                   const char *format, const char *csv_map, const char **loaded)
{
    tt_input *in;
    tt_error err;
    tt_error_clear(&err);
    if (tt_input_open_mem(data, size, &in, &err)) {
        FCHECK(err.code != TT_OK);
        return -1;
    }
    return fuzz_load_input(in, data, size, lenient, format, csv_map, loaded);
}

static inline int64_t fuzz_load(const uint8_t *data, size_t size, bool lenient, const char *format,
                                const char *csv_map)
{
    return fuzz_load_as(data, size, lenient, format, csv_map, NULL);
}

/* Strict and lenient loads of one decoder: whatever loads strictly loads
 * leniently with the same events. */
static inline int64_t fuzz_decoder(const uint8_t *data, size_t size, const char *format,
                                   const char *map)
{
    int64_t strict = fuzz_load(data, size, false, format, map);
    int64_t lenient = fuzz_load(data, size, true, format, map);
    if (strict >= 0)
        FCHECK(lenient == strict);
    return strict;
}

#endif
