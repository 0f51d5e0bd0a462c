/* decode.c - format detection and the decoder table (see decode.h). */
#include "config.h"

#include "decode/decode.h"

#include "decode/ascend_tree.h"
#include "decode/captures.h"
#include "util/timings.h"

#include <stdlib.h>
#include <string.h>

/* Adding a format is adding its decoder here. Order breaks probe ties. */
static const tt_decoder *const decoders[] = {
    &tt_decoder_chrome,
    &tt_decoder_ttz,
    &tt_decoder_neuron,
    &tt_decoder_hugectr,
    &tt_decoder_ascend_csv,
    &tt_decoder_nsys_csv,
    &tt_decoder_ncu_csv,
    &tt_decoder_mindspore_steps,
    &tt_decoder_nsys_sqlite,
    &tt_decoder_csv,
    NULL,
};

size_t tt_probe_find(const unsigned char *head, size_t n, size_t from, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = from; i + m <= n; i++)
        if (head[i] == (unsigned char)needle[0] && memcmp(head + i, needle, m) == 0)
            return i;
    return n;
}

bool tt_probe_has(const unsigned char *head, size_t n, const char *needle)
{
    return tt_probe_find(head, n, 0, needle) < n;
}

const tt_decoder *const *tt_decoders(void)
{
    return decoders;
}

const tt_decoder *tt_decoder_find(const char *name)
{
    for (size_t i = 0; decoders[i]; i++)
        if (strcmp(decoders[i]->name, name) == 0)
            return decoders[i];
    return NULL;
}

/* Short description of undecodable data for the error message. */
static const char *describe_unknown(const unsigned char *p, size_t n)
{
    size_t ctrl = 0;
    for (size_t i = 0; i < n && i < 4096; i++)
        if (p[i] == 0 || (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t'))
            ctrl++;
    if (ctrl > 0)
        return "binary data, not a supported trace format";
    return "not a supported trace format (expected Chrome trace JSON, neuron-profile JSON, "
           "HugeCTR prof.json, an Ascend or nsys CSV table, an Nsight Systems SQLite export or "
           "a .ttz snapshot)";
}

int tt_decode_input(tt_input *in, const tt_load_opts *opts, tt_trace **out,
                    tt_load_info *info, tt_error *err)
{
    static const tt_load_opts defaults;
    const unsigned char *head;
    size_t n, ws = 0;
    const tt_decoder *best = NULL;
    int best_score = 0;
    tt_trace *tr;
    tt_load_info local_info;
    tt_phase_mark mark;   /* --timings */

    *out = NULL;
    if (!opts)
        opts = &defaults;
    if (!info)
        info = &local_info;
    memset(info, 0, sizeof *info);
    if (tt_input_peek(in, TT_PROBE_BYTES, &head, &n, err))
        return -1;
    if (n == 0) {
        if (tt_input_truncated(in))
            return tt_error_set(err, TT_ERR_FORMAT, "compressed data ends before any content");
        return tt_error_set(err, TT_ERR_FORMAT, "empty file");
    }
    while (ws < n && (head[ws] == ' ' || head[ws] == '\n' || head[ws] == '\r' || head[ws] == '\t'))
        ws++;
    if (ws == n && n < TT_PROBE_BYTES)
        return tt_error_set(err, TT_ERR_FORMAT, "file holds only whitespace, no trace data");

    if (opts->format) {
        best = tt_decoder_find(opts->format);
        if (!best)
            return tt_error_set(err, TT_ERR_USAGE, "unknown format '%s'", opts->format);
    } else if (opts->csv_map) {
        /* a column map only means something to the generic CSV reader */
        best = &tt_decoder_csv;
    } else {
        for (size_t i = 0; decoders[i]; i++) {
            int s = decoders[i]->probe(head, n);
            if (s > best_score) {
                best_score = s;
                best = decoders[i];
            }
        }
        if (!best)
            return tt_error_set(err, TT_ERR_FORMAT, "%s", describe_unknown(head, n));
    }

    tr = tt_trace_new();
    if (!tr)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tr->source = strdup(tt_input_path(in));
    tr->format = best->name;
    tr->compression = tt_input_compression_name(in);
    if (!tr->source) {
        tt_trace_free(tr);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    tt_phase_start(&mark);
    if (best->decode(in, opts, tr, info, err)) {
        tt_trace_free(tr);
        return -1;
    }
    tt_phase_stop(TT_PHASE_DECODE, &mark);
    /* a snapshot restores the byte count of the trace it was made from */
    if (tr->source_bytes == 0)
        tr->source_bytes = tt_input_data_pos(in);
    *out = tr;
    return 0;
}

int tt_load_input(tt_input *in, const tt_load_opts *opts, tt_trace **out,
                  tt_load_info *info, tt_error *err)
{
    tt_phase_mark mark;   /* --timings */
    tt_trace *tr;
    if (tt_decode_input(in, opts, &tr, info, err))
        return -1;
    tt_phase_start(&mark);
    if (tt_trace_finalize_threads(tr, opts ? opts->threads : 0, err)) {
        tt_trace_free(tr);
        return -1;
    }
    tt_phase_stop(TT_PHASE_FINALIZE, &mark);
    *out = tr;
    return 0;
}

int tt_load(const char *path, const tt_load_opts *opts, tt_trace **out,
            tt_load_info *info, tt_error *err)
{
    tt_input *in;
    int rc;
    *out = NULL;
    /* one worker's captures of a tensorboard_trace_handler directory,
     * named by the pattern a job directory gives them (captures.h) */
    if (tt_captures_is_group(path))
        return tt_captures_load(path, opts, out, info, err);
    if (tt_input_open(path, &in, err))
        return -1;
    rc = tt_load_input(in, opts, out, info, err);
    tt_input_close(in);
    /* an Ascend trace_view.json: its rank tree's rank, kernel_details.csv
     * joined (ascend_tree.h) */
    if (rc == 0 && tt_ascend_tree_finish(path, *out, err)) {
        tt_trace_free(*out);
        *out = NULL;
        rc = -1;
    }
    return rc;
}
