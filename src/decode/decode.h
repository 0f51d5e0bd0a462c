/* decode.h - open a trace file of any supported format.
 *
 * The format is detected from content (magic bytes and the first bytes of
 * data), never from the file name. Each decoder is one entry in a table
 * (decode.c): a name, a probe over the first decompressed bytes, and a
 * function that fills a tt_trace from a tt_input. tt_load() opens the file,
 * picks the decoder, runs it and finalizes the trace.
 *
 * Library code: errors come back in tt_error (with a position when the
 * input is malformed); nothing is printed.
 */
#ifndef TT_DECODE_DECODE_H
#define TT_DECODE_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/input.h"
#include "model/trace.h"
#include "util/error.h"

/* Progress report: called now and then during a load (never more often
 * than every few hundred KB of input). */
typedef void (*tt_progress_fn)(void *ctx, int64_t file_pos, int64_t file_size,
                               int64_t data_pos, uint64_t events);

/* Only part of a trace (tt_load_opts.part): the events that may meet a
 * window, on the lanes a filter keeps. */
typedef struct tt_load_part {
    bool  has_from, has_to;   /* window edges, offsets from the trace's start */
    tt_ns from, to;           /* (as --window: analysis/select.h) */
    /* NULL: every lane; else sets keep[l] to 1 for each lane l of tr
     * wanted (tr holds its strings, groups and lanes, not yet its events)
     * and returns 0, or -1 with err set. */
    int (*lanes)(void *ctx, const tt_trace *tr, unsigned char *keep, tt_error *err);
    void *lanes_ctx;
} tt_load_part;

typedef struct tt_load_opts {
    bool           lenient;     /* keep complete events of a cut-off trace */
    const char    *format;      /* force a decoder by name; NULL = detect */
    const char    *csv_map;     /* column map for generic CSV (decoders that use it) */
    tt_progress_fn progress;
    void          *progress_ctx;
    unsigned       threads;     /* most threads the load may use; 0: all cores */
    /* TT_TRACE_NO_* (model/trace.h): parts the command will not look at
     * (arguments, flows, counters).
     * A decoder that can leave them out cheaply does (the .ttz reader, for
     * which rebuilding the arguments is most of a reopen) and says so in
     * tr->lacks; the others ignore it. */
    unsigned       skip;
    /* NULL, or with skip holding TT_TRACE_NO_ARGS and TT_TRACE_NO_FLOWS:
     * the command reads only the events that meet this window on these
     * lanes. A decoder that can load just those cheaply (the .ttz reader,
     * format 3) loads at least every such event, sets TT_TRACE_PARTIAL in
     * tr->lacks and leaves the rest out; the others ignore it. */
    const tt_load_part *part;
} tt_load_opts;

/* Outcome details of a load, for the user-facing note on stderr. */
typedef struct tt_load_info {
    int64_t  dropped_bytes;    /* --lenient: bytes of incomplete data ignored */
    uint64_t dropped_events;   /* --lenient: partial events ignored */
} tt_load_info;

/* Probe scores up to this are fallback guesses (a CSV of unknown columns),
 * enough to pick a decoder for a file the user named, not to call a file in
 * a directory a trace. */
#define TT_PROBE_FALLBACK 10

/* The first bytes of data a probe sees. */
#define TT_PROBE_BYTES ((size_t)64 << 10)

typedef struct tt_decoder {
    const char *name;          /* "chrome-json" */
    const char *description;   /* "Chrome trace-event JSON" */
    /* 0 = not mine, higher = more certain (max 100). head is the first
     * decompressed bytes (up to TT_PROBE_BYTES), n their count. */
    int (*probe)(const unsigned char *head, size_t n);
    /* Fill tr from in. On malformed input return non-zero with err set
     * (position included). */
    int (*decode)(tt_input *in, const tt_load_opts *opts, tt_trace *tr,
                  tt_load_info *info, tt_error *err);
} tt_decoder;

/* For probes: whether needle occurs in the first n bytes of head. */
bool tt_probe_has(const unsigned char *head, size_t n, const char *needle);

/* For probes: the offset of the first needle in head[from, n), or n when
 * there is none (so probes can check that keys come in order). */
size_t tt_probe_find(const unsigned char *head, size_t n, size_t from, const char *needle);

/* All decoders, NULL-terminated. */
const tt_decoder *const *tt_decoders(void);

/* Decoder by name, or NULL. */
const tt_decoder *tt_decoder_find(const char *name);

/* Open path ("-" for stdin), detect, decode and finalize. On success *out
 * owns a finalized trace. info may be NULL. */
int tt_load(const char *path, const tt_load_opts *opts, tt_trace **out,
            tt_load_info *info, tt_error *err);

/* Detect and decode, without finalizing: *out is an unfinalized trace (as
 * model/merge.h joins), for loaders that build one trace of several
 * inputs (captures.h). */
int tt_decode_input(tt_input *in, const tt_load_opts *opts, tt_trace **out,
                    tt_load_info *info, tt_error *err);

/* The same over an already opened input (takes no ownership of in). */
int tt_load_input(tt_input *in, const tt_load_opts *opts, tt_trace **out,
                  tt_load_info *info, tt_error *err);

/* ----------------------------------------------------------- decoders */
extern const tt_decoder tt_decoder_chrome;
extern const tt_decoder tt_decoder_ttz;        /* src/snapshot/snapshot.c */
extern const tt_decoder tt_decoder_neuron;
extern const tt_decoder tt_decoder_hugectr;
extern const tt_decoder tt_decoder_nsys_sqlite;
extern const tt_decoder tt_decoder_ascend_csv;
extern const tt_decoder tt_decoder_nsys_csv;
extern const tt_decoder tt_decoder_ncu_csv;    /* Nsight Compute --csv */
extern const tt_decoder tt_decoder_mindspore_steps; /* MindSpore step_trace_raw_N_detail_time.csv */
extern const tt_decoder tt_decoder_csv;        /* any CSV with --csv-map */

#endif
