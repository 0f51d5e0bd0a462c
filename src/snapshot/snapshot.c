/* snapshot.c - write and read .ttz snapshots (see snapshot.h).
 *
 * Encoding: every section is a sequence of LEB128 varints (signed values
 * zigzag-coded) and byte strings, compressed as one zstd frame. Format 3
 * writes events in per-lane blocks with an index (evblocks.c, which says
 * why); this file reads them, whole or only the blocks a window and lanes
 * need (read_events_blocks). Format 2, still read (read_events), stored
 * events column by column over all lanes in display order, each column
 * turned into small, repetitive numbers, which is what zstd compresses
 * best: times divided by the largest unit that divides every time of the
 * lane (1000 for traces in whole microseconds); starts as the distance
 * from the previous start or from the previous end, durations as they are
 * or against the last duration of the same name (whichever compresses
 * better, tried at write time); categories against the last category of
 * the same name; correlation ids as deltas against the last one of the
 * lane or as positions among the ids already seen (tried like starts);
 * argument handles as deltas against the last non-zero one. Argument
 * records are cut into templates and number columns (argcols.h). Format 2
 * stores no depths: the reader nests each lane as tt_trace_finalize() does
 * (tt_lane_nest()). Format 3 stores them, since a window's load cannot
 * nest what it does not load; a whole load nests every lane all the same
 * and refuses stored depths that differ. The index fields (max_end,
 * busy_upto) and every other derived value (group lane ranges, counter
 * min/max) are recomputed on reading instead of being trusted.
 *
 * The writer hands each finished section to a helper thread that
 * compresses it (secpipe.h) while it builds the next ones, in an order
 * that lets the big compressions overlap the serial work; the sections
 * keep their places in the file, which stays the same byte for byte.
 *
 * Decoding bounds every allocation by data that is really present: a zstd
 * frame cannot expand by more than ZSTD_MAX_RATIO, and every count is
 * checked against the bytes its section holds before anything is
 * allocated for it.
 */
#include "config.h"

#include "snapshot/snapshot.h"

#include "snapshot/argcols.h"
#include "snapshot/argslazy.h"
#include "snapshot/argtmplsec.h"
#include "snapshot/attribsec.h"
#include "snapshot/evblocks.h"
#include "snapshot/secpipe.h"
#include "snapshot/wire.h"

#include "index/index.h"
#include "io/atomic.h"
#include "model/nest.h"
#include "util/bigalloc.h"
#include "util/num.h"
#include "util/parallel.h"
#include "util/u64map.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .ttz writer and reader assume a little-endian host"
#endif

#define HEADER_SIZE 32u
#define ENTRY_SIZE 36u
#define MAX_SECTIONS 64u
/* A zstd block of at most 128 KiB needs at least 3 bytes: no frame expands
 * by more than this (RLE blocks come closest). */
#define ZSTD_MAX_RATIO 44000u
/* Compression: sections decompress at the same speed whatever the level,
 * but a high level costs the writer dearly on big ones for little: the
 * columns are small, repetitive numbers already. So the level falls as
 * sections grow. Up to 256 kB, level 15: a small trace's sections are
 * all that small, and they are where the file's size budget (a third of
 * the gzip'd JSON) is tight (a 2-rank Kineto trace's rank: 42.7 kB at
 * level 19, 42.8 kB at 15, 44.8 kB at 9, against a budget of 44.3 kB);
 * level 15 takes a fifth to a half of level 19's time there (a 100k-event
 * Kineto convert: 1486M instructions at 19, 1123M at 15, 0.1% bigger).
 * Up to 1 MB, level 9: within 1-2% of level 19 in a
 * tenth of the time or less (a 1M-event Kineto trace's counters, 289 kB:
 * 21 ms at 19, 1 ms at 9, 0.1% bigger). Above, level 1 with zstd's own
 * parameters for it: of a 10M-event trace's sections, level 3 with a
 * window over the whole section, long-distance matching and bigger match
 * tables took 0.80 s of CPU (arguments 0.15 s, attribution 0.56 s, flows
 * 0.09 s) for 11.96 MB; level 1 takes 0.11 s for 12.83 MB, 2% of the
 * file. The choices between encodings are made by compressing each
 * candidate at a fast level. */
static int section_level(size_t raw)
{
    return raw <= ((size_t)256 << 10) ? 15 : raw <= ((size_t)1 << 20) ? 9 : 1;
}
#define LEVEL_TRIAL 3

enum section_id {
    SEC_META = 1,
    SEC_STRINGS,
    SEC_ATTRS,
    SEC_ARGS,
    SEC_GROUPS,
    SEC_LANES,
    SEC_EVENTS,
    SEC_COUNTERS,
    SEC_FLOWS,
    SEC_INDEX,    /* format 3: where the event blocks lie (evblocks.h) */
    SEC_ATTRIB,   /* format 4: the attribution (attribsec.h) */
    SEC_ARGTMPL,  /* optional: the arguments' templates (argtmplsec.h) */
    SEC__END
};

enum section_flags {
    SECF_ZSTD = 1u << 0,  /* stored bytes are one zstd frame */
    /* format 3's events: frames one after another that the index section
     * describes, each with its own crc32 there; the table's crc is 0 (a
     * window's read checks only the blocks it decodes) */
    SECF_BLOCKS = 1u << 1
};

/* Event columns, in file order. */
enum {
    COL_START, COL_DUR, COL_NAME, COL_CAT, COL_ATTRS, COL_CORR, COL_ARGS, COL_BYTES, COL_KIND,
    COL__COUNT
};

/* ------------------------------------------------------------- buffers */

static void bb_cstr(tt_wbuf *b, const char *s)
{
    tt_wbuf_str(b, s ? s : "", s ? strlen(s) : 0);
}

static void bb_u32le(tt_wbuf *b, uint32_t v)
{
    tt_wbuf_put(b, &v, 4);
}

static void bb_u64le(tt_wbuf *b, uint64_t v)
{
    tt_wbuf_put(b, &v, 8);
}

/* zlib's CRC-32: a stable, standard checksum of the file's own bytes (zstd
 * frames add their content checksum on top). */
static uint32_t crc(const void *p, size_t n)
{
    return (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), p ? p : (const void *)"", n);
}

/* --------------------------------------------------------------- writer */

typedef struct section {
    uint32_t       id;
    uint32_t       flags;
    unsigned char *data;      /* stored bytes (owned) */
    size_t         stored;
    uint64_t       raw;
} section;

/* Compress raw into a new section. */
static int section_zstd(section *s, uint32_t id, const tt_wbuf *raw, int level, tt_error *err)
{
    ZSTD_CCtx *cc;
    size_t bound = ZSTD_compressBound(raw->n), got;
    memset(s, 0, sizeof *s);
    s->id = id;
    s->flags = SECF_ZSTD;
    s->raw = raw->n;
    s->data = malloc(bound ? bound : 1);
    cc = ZSTD_createCCtx();
    if (!s->data || !cc) {
        ZSTD_freeCCtx(cc);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    got = ZSTD_compress2(cc, s->data, bound, raw->p ? raw->p : (const unsigned char *)"", raw->n);
    ZSTD_freeCCtx(cc);
    if (ZSTD_isError(got))
        return tt_error_set(err, TT_ERR_NOMEM, "cannot compress the snapshot: %s",
                            ZSTD_getErrorName(got));
    s->stored = got;
    return 0;
}

/* A section of event blocks (SECF_BLOCKS): takes raw's bytes as they are. */
static void section_blocks(section *s, uint32_t id, tt_wbuf *raw)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->flags = SECF_BLOCKS;
    s->data = raw->p;
    s->stored = s->raw = raw->n;
    memset(raw, 0, sizeof *raw);
}

/* The source identity comes first, so that the cache reads it alone
 * (tt_snapshot_read_source()). */
static void enc_meta(tt_wbuf *b, const tt_trace *tr, const tt_snapshot_source *src,
                     uint64_t n_samples, uint64_t string_bytes, uint32_t n_args)
{
    char *json;
    tt_wbuf_varint(b, src && src->valid);
    tt_wbuf_svarint(b, src ? src->size : 0);
    tt_wbuf_svarint(b, src ? src->mtime_ns : 0);
    tt_wbuf_varint(b, src ? src->content_hash : 0);
    tt_wbuf_varint(b, src ? src->options_hash : 0);
    bb_cstr(b, src ? src->path : "");

    tt_wbuf_varint(b, tt_strtab_count(tr->strings));
    tt_wbuf_varint(b, string_bytes);
    tt_wbuf_varint(b, tr->attrs->count);
    tt_wbuf_varint(b, n_args);
    tt_wbuf_varint(b, tr->n_groups);
    tt_wbuf_varint(b, tr->n_lanes);
    tt_wbuf_varint(b, tr->n_events);
    tt_wbuf_varint(b, tr->n_counters);
    tt_wbuf_varint(b, n_samples);
    tt_wbuf_varint(b, tr->n_flows);

    bb_cstr(b, PACKAGE_VERSION);
    bb_cstr(b, tr->format);
    bb_cstr(b, tr->compression);
    bb_cstr(b, tr->source);
    tt_wbuf_svarint(b, tr->source_bytes);
    tt_wbuf_svarint(b, tr->rank);
    tt_wbuf_svarint(b, tr->t0);
    tt_wbuf_svarint(b, tr->t1);
    bb_cstr(b, tr->note);

    tt_wbuf_varint(b, TT_PROB__COUNT);
    for (int k = 0; k < TT_PROB__COUNT; k++) {
        tt_wbuf_varint(b, tr->problems[k].count);
        bb_cstr(b, tr->problems[k].example);
    }
    tt_wbuf_varint(b, tr->n_phases);
    for (uint32_t i = 0; i < tr->n_phases; i++) {
        tt_wbuf_varint(b, tr->phases[i].name);
        tt_wbuf_varint(b, tr->phases[i].count);
    }
    json = tr->meta ? cJSON_PrintUnformatted(tr->meta) : NULL;
    if (tr->meta && !json)
        b->oom = true;
    bb_cstr(b, json ? json : "{}");
    free(json);
}

/* Encodings of three event columns, chosen per block (format 3) or per
 * file (format 2) by trial compression. Correlation ids: a delta against
 * the lane's last one, or (for ids that repeat across lanes, such as a
 * kernel's and its launch's) the position of the id in the list of
 * distinct ids as they first appear, against the last such position. */
enum { START_AFTER_START, START_AFTER_END };
enum { DUR_PLAIN, DUR_BY_NAME };
enum { CORR_DELTA, CORR_MATCH };

/* New argument handles in event order (lane by lane): map[old] = new, and
 * hint[new - 1] describes the event that introduces the record (its
 * numbers are predicted from it). Records no event uses are left out. */
static int args_order(const tt_trace *tr, uint32_t **map_out, tt_argcols_hint **hint_out,
                      uint32_t *n_out)
{
    uint32_t count = tt_args_count(tr->args), next = 1;
    uint32_t *map = calloc((size_t)count + 1, sizeof *map);
    tt_argcols_hint *hint = malloc(((size_t)count + 1) * sizeof *hint);
    if (!map || !hint) {
        free(map);
        free(hint);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            uint32_t h = ln->ev[i].args;
            if (h && h <= count && !map[h]) {
                map[h] = next;
                hint[next - 1].corr = ln->ev[i].corr;
                hint[next - 1].name = ln->ev[i].name;
                next++;
            }
        }
    }
    *map_out = map;
    *hint_out = hint;
    *n_out = next - 1;
    return 0;
}

/* The ids an event holds index tables while encoding: check them first. */
static int check_events(const tt_trace *tr, tt_error *err)
{
    uint32_t ns = tt_strtab_count(tr->strings), na = tt_args_count(tr->args);
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *e = &tr->lanes[l].ev[i];
            if (e->args > na)
                return tt_error_set(err, TT_ERR_USAGE, "event with an unknown argument handle");
            if (e->name >= ns || e->cat >= ns)
                return tt_error_set(err, TT_ERR_USAGE, "event with an unknown string");
        }
    return 0;
}

/* The sections' places in the file, in the order the format has always
 * had (the writer builds them in another order, see enc_sections). */
enum {
    P_META, P_STRINGS, P_ATTRS, P_ARGS, P_ARGTMPL, P_GROUPS, P_LANES, P_EVENTS, P_INDEX,
    P_COUNTERS, P_FLOWS, P_ATTRIB, P__COUNT
};

/* section_zstd() at the level chosen by the writer, for the pipe. */
static int sec_compress(void *dst, uint32_t id, const tt_wbuf *raw, int level, tt_error *err)
{
    return section_zstd(dst, id, raw, level, err);
}

/* The attribution section, built on a thread of its own (enc_sections). */
typedef struct attrib_job {
    const tt_trace *tr;
    tt_wbuf         b;
    tt_error        err;
    int             rc;
} attrib_job;

static void *attrib_run(void *arg)
{
    attrib_job *j = arg;
    j->rc = tt_attribsec_encode(j->tr, &j->b, &j->err);
    return NULL;
}

static int enc_sections(const tt_trace *tr, const tt_snapshot_source *src, section *sec,
                        uint32_t *n_sec, tt_error *err)
{
    tt_wbuf b = {0}, tb = {0};
    tt_secpipe *pipe = tt_secpipe_start(sec_compress);
    uint64_t n_samples = 0, string_bytes = 0;
    uint32_t ns = tt_strtab_count(tr->strings), n_args = 0;
    uint32_t *arg_map = NULL;
    tt_argcols_hint *arg_hint = NULL;
    uint32_t k = 0;
    int rc = -1, tmpl;
    attrib_job aj;
    pthread_t at;
    bool athread;

    if (!pipe)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
    if (check_events(tr, err) ||
        (args_order(tr, &arg_map, &arg_hint, &n_args) &&
         tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot"))) {
        tt_secpipe_finish(pipe, err);
        free(arg_map);
        free(arg_hint);
        return -1;
    }
    /* Building the attribution is serial (a 10M-event trace: 0.65 s of
     * CPU, most of it on one core while the other only compressed the
     * arguments): on a thread of its own it fills the cores' gaps in the
     * arguments' encoding instead. Its section is the same. */
    memset(&aj, 0, sizeof aj);
    aj.tr = tr;
    tt_error_clear(&aj.err);
    athread = tt_parallel_cores() > 1 && pthread_create(&at, NULL, attrib_run, &aj) == 0;
    for (uint32_t i = 1; i < ns; i++)
        string_bytes += tt_strtab_len(tr->strings, i);
    for (uint32_t i = 0; i < tr->n_counters; i++)
        n_samples += tr->counters[i].n;

    /* each finished section goes to the pipe, into its place in the file
     * (pos), and b starts afresh in a recycled buffer */
#define FINISH(pos, id)                                                           \
    do {                                                                          \
        if (tt_secpipe_submit(pipe, &sec[(pos)], (id), &b, section_level(b.n), err)) \
            goto out;                                                             \
    } while (0)

    enc_meta(&b, tr, src, n_samples, string_bytes, n_args);
    FINISH(P_META, SEC_META);

    for (uint32_t i = 1; i < ns; i++)
        tt_wbuf_varint(&b, tt_strtab_len(tr->strings, i));
    for (uint32_t i = 1; i < ns; i++)
        tt_wbuf_put(&b, tt_strtab_get(tr->strings, i), tt_strtab_len(tr->strings, i));
    FINISH(P_STRINGS, SEC_STRINGS);

    for (uint32_t i = 1; i < tr->attrs->count; i++) {
        tt_wbuf_varint(&b, tr->attrs->tuple[i].opcode);
        tt_wbuf_varint(&b, tr->attrs->tuple[i].layer);
        tt_wbuf_varint(&b, tr->attrs->tuple[i].operand);
    }
    FINISH(P_ATTRS, SEC_ATTRS);

    switch (tt_argcols_encode(tr->args, arg_map, n_args, arg_hint, ns, LEVEL_TRIAL, 0, &b)) {
    case 0:
        break;
    case -2:
        tt_error_set(err, TT_ERR_FORMAT, "cannot read the event arguments (a corrupt block)");
        goto out;
    default:
        b.oom = true;
        break;
    }
    /* its templates too, unless too big to be worth it (1) */
    tmpl = b.oom ? 1 : tt_argtmplsec_encode(b.p, b.n, n_args, &tb);
    if (tmpl < 0)
        b.oom = true;   /* the payload is the encoder's own: only memory fails */
    FINISH(P_ARGS, SEC_ARGS);
    if (tmpl == 0) {
        tt_wbuf_put(&b, tb.p, tb.n);
        b.oom |= tb.oom;
        FINISH(P_ARGTMPL, SEC_ARGTMPL);
    }

    for (uint32_t i = 0; i < tr->n_groups; i++) {
        const tt_group *g = &tr->groups[i];
        tt_wbuf_varint(&b, g->key);
        tt_wbuf_varint(&b, g->name);
        tt_wbuf_varint(&b, g->labels);
        tt_wbuf_varint(&b, g->has_sort);
        tt_wbuf_svarint(&b, g->sort_index);
        tt_wbuf_varint(&b, g->first_lane);
    }
    FINISH(P_GROUPS, SEC_GROUPS);

    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        const tt_lane *l = &tr->lanes[i];
        tt_wbuf_varint(&b, l->group);
        tt_wbuf_varint(&b, l->key);
        tt_wbuf_varint(&b, l->name);
        tt_wbuf_varint(&b, l->has_sort);
        tt_wbuf_svarint(&b, l->sort_index);
        tt_wbuf_varint(&b, l->kind);
        tt_wbuf_varint(&b, l->n);
    }
    FINISH(P_LANES, SEC_LANES);

    /* The attribution (built meanwhile on its thread), counters and flows
     * before the events: the helper compresses those three while the
     * events are encoded. */
    if (athread) {
        pthread_join(at, NULL);
        athread = false;
    } else {
        aj.rc = tt_attribsec_encode(tr, &aj.b, &aj.err);
    }
    if (aj.rc) {
        *err = aj.err;
        goto out;
    }
    {
        /* its bytes go to the pipe, and b's empty buffer to aj, freed below */
        tt_wbuf t = b;
        b = aj.b;
        aj.b = t;
    }
    FINISH(P_ATTRIB, SEC_ATTRIB);
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        const tt_counter *c = &tr->counters[i];
        tt_wbuf_varint(&b, c->group);
        tt_wbuf_varint(&b, c->name);
        tt_wbuf_varint(&b, c->key);
        tt_wbuf_varint(&b, c->unit);
        tt_wbuf_varint(&b, c->derived);
        tt_wbuf_varint(&b, c->n);
    }
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        const tt_counter *c = &tr->counters[i];
        for (size_t j = 0; j < c->n; j++) {
            if (j == 0)
                tt_wbuf_svarint(&b, c->t[0]);
            else
                tt_wbuf_varint(&b, (uint64_t)(c->t[j] - c->t[j - 1]));
        }
    }
    for (uint32_t i = 0; i < tr->n_counters; i++)
        tt_wbuf_put(&b, tr->counters[i].v, tr->counters[i].n * sizeof(double));
    FINISH(P_COUNTERS, SEC_COUNTERS);

    {
        /* flows are sorted by source event: delta-code the endpoints */
        tt_evref pf = {0, 0}, pt = {0, 0};
        int64_t pk = 0;
        for (size_t i = 0; i < tr->n_flows; i++) {
            const tt_flow *f = &tr->flows[i];
            tt_wbuf_varint(&b, f->from.lane - pf.lane);
            tt_wbuf_varint(&b, f->from.lane == pf.lane ? f->from.idx - pf.idx : f->from.idx);
            tt_wbuf_svarint(&b, (int64_t)f->to.lane - pt.lane);
            if (f->to.lane == pt.lane)
                tt_wbuf_svarint(&b, (int64_t)f->to.idx - pt.idx);
            else
                tt_wbuf_svarint(&b, f->to.idx);
            tt_wbuf_varint(&b, f->name);
            tt_wbuf_varint(&b, f->cat);
            pf = f->from;
            pt = f->to;
        }
        for (size_t i = 0; i < tr->n_flows; i++) {
            int64_t kk = tr->flows_by_to ? tr->flows_by_to[i] : (int64_t)i;
            tt_wbuf_svarint(&b, kk - pk);
            pk = kk;
        }
    }
    FINISH(P_FLOWS, SEC_FLOWS);
    {
        /* the events in blocks (evblocks.h): stored as they come, each
         * block compressed on its own */
        tt_wbuf index = {0};
        int level = section_level((size_t)(tr->n_events * 12 < SIZE_MAX ? tr->n_events * 12 : SIZE_MAX));
        if (tt_evb_encode(tr, arg_map, level, 0, &b, &index))
            b.oom = true;
        if (b.oom || index.oom) {
            tt_wbuf_free(&index);
            tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
            goto out;
        }
        section_blocks(&sec[P_EVENTS], SEC_EVENTS, &b);
        b = index;
        FINISH(P_INDEX, SEC_INDEX);
    }

#undef FINISH
    rc = 0;
out:
    if (athread)   /* a failure before its section was needed */
        pthread_join(at, NULL);
    tt_wbuf_free(&aj.b);
    /* every section compressed (or failed) before they are laid out */
    if (tt_secpipe_finish(pipe, err))
        rc = -1;
    tt_wbuf_free(&b);
    tt_wbuf_free(&tb);
    free(arg_map);
    free(arg_hint);
    /* the places left empty (no templates section) close up */
    for (uint32_t i = 0; i < P__COUNT; i++)
        if (sec[i].id) {
            section t = sec[i];
            sec[i] = sec[k];
            sec[k++] = t;
        }
    *n_sec = (uint32_t)k;
    return rc;
}

/* The head of a snapshot file: header, then the section table with
 * offsets and checksums; the section bytes follow it in table order.
 * *total: the whole file's size. The sections stay owned by the caller. */
static int container_head(const section *sec, uint32_t n_sec, tt_wbuf *head, uint64_t *total,
                          tt_error *err)
{
    tt_wbuf table = {0};
    uint64_t off = HEADER_SIZE + (uint64_t)ENTRY_SIZE * n_sec;

    for (uint32_t i = 0; i < n_sec; i++) {
        bb_u32le(&table, sec[i].id);
        bb_u32le(&table, sec[i].flags);
        bb_u64le(&table, off);
        bb_u64le(&table, sec[i].stored);
        bb_u64le(&table, sec[i].raw);
        bb_u32le(&table, sec[i].flags & SECF_BLOCKS ? 0 : crc(sec[i].data, sec[i].stored));
        off += sec[i].stored;
    }
    *total = off;
    tt_wbuf_put(head, TT_SNAPSHOT_MAGIC, TT_SNAPSHOT_MAGIC_LEN);
    bb_u32le(head, TT_SNAPSHOT_VERSION);
    bb_u32le(head, n_sec);
    bb_u64le(head, off);
    bb_u32le(head, crc(table.p, table.n));
    bb_u32le(head, crc(head->p, head->n));
    tt_wbuf_put(head, table.p, table.n);
    tt_wbuf_free(&table);
    if (head->oom || off > SIZE_MAX)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
    return 0;
}

/* Lay out sec[0..n_sec) as one snapshot file in memory. */
static int write_container(const section *sec, uint32_t n_sec, unsigned char **out, size_t *n,
                           tt_error *err)
{
    tt_wbuf head = {0};
    uint64_t total, off;
    int rc = -1;

    if (container_head(sec, n_sec, &head, &total, err))
        goto out;
    if (!(*out = malloc((size_t)total))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory writing the snapshot");
        goto out;
    }
    memcpy(*out, head.p, head.n);
    off = head.n;
    for (uint32_t i = 0; i < n_sec; i++) {
        if (sec[i].stored)   /* an empty section may have no buffer */
            memcpy(*out + off, sec[i].data, sec[i].stored);
        off += sec[i].stored;
    }
    *n = (size_t)total;
    rc = 0;
out:
    tt_wbuf_free(&head);
    return rc;
}

static void free_sections(section sec[SEC__END])
{
    for (uint32_t i = 0; i < SEC__END; i++)
        free(sec[i].data);
}

/* The sections of tr's snapshot, into sec (zeroed first; the caller frees
 * them with free_sections(), also on failure). */
static int encode_sections(const tt_trace *tr, const tt_snapshot_source *src,
                           section sec[SEC__END], uint32_t *n_sec, tt_error *err)
{
    memset(sec, 0, sizeof(section) * SEC__END);
    *n_sec = 0;
    if (!tr->finalized)
        return tt_error_set(err, TT_ERR_USAGE, "only a finalized trace can be saved as a snapshot");
    if (tr->lacks)
        return tt_error_set(err, TT_ERR_USAGE,
                            "a trace loaded %s cannot be saved as a snapshot",
                            tr->lacks & TT_TRACE_PARTIAL    ? "in part (a window or some lanes)"
                            : tr->lacks & TT_TRACE_NO_ARGS  ? "without its arguments"
                            : tr->lacks & TT_TRACE_NO_FLOWS ? "without its flows"
                                                            : "without its counters");
    return enc_sections(tr, src, sec, n_sec, err);
}

int tt_snapshot_encode(const tt_trace *tr, const tt_snapshot_source *src,
                       unsigned char **out, size_t *n, tt_error *err)
{
    section sec[SEC__END];
    uint32_t n_sec = 0;
    int rc = -1;

    *out = NULL;
    *n = 0;
    if (encode_sections(tr, src, sec, &n_sec, err) == 0)
        rc = write_container(sec, n_sec, out, n, err);
    free_sections(sec);
    return rc;
}

/* The file is written section by section from the writer's own buffers,
 * not assembled in memory first: at 10M events that copy was 39 MB of
 * fresh pages (~9.5k page faults, ~0.2 s of CPU on the VMs this runs on)
 * on the serial end of `convert`. The bytes are the same as
 * tt_snapshot_encode()'s. */
int tt_snapshot_write(const tt_trace *tr, const char *path, const tt_snapshot_source *src,
                      tt_error *err)
{
    section sec[SEC__END];
    uint32_t n_sec = 0;
    tt_wbuf head = {0};
    uint64_t total;
    tt_atomic a;
    int rc = -1;

    memset(&a, 0, sizeof a);
    if (encode_sections(tr, src, sec, &n_sec, err) ||
        container_head(sec, n_sec, &head, &total, err))
        goto out;
    /* temporary file beside the target, fsync, rename: a failed or
     * interrupted write never leaves a truncated snapshot behind */
    if (tt_atomic_open(&a, path, err))
        goto out;
    rc = tt_atomic_write(&a, head.p, head.n, err);
    for (uint32_t i = 0; i < n_sec && rc == 0; i++)
        rc = tt_atomic_write(&a, sec[i].data, sec[i].stored, err);
    if (rc != 0)
        tt_atomic_abort(&a);
    else
        rc = tt_atomic_commit(&a, err) ? -1 : 0;
out:
    tt_wbuf_free(&head);
    free_sections(sec);
    return rc;
}

/* --------------------------------------------------------------- reader */

static inline uint32_t get_u32le(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t get_u64le(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

typedef struct sec_in {
    bool                 present;
    uint32_t             flags;
    uint64_t             offset, stored, raw;
    const unsigned char *data;     /* stored bytes (a zstd frame) inside the file */
    unsigned char       *buf;      /* decompressed (owned), NULL until opened */
} sec_in;

/* What check_span() needs of a lane: its first start, its last end or
 * start (leaving out the ends of unclosed events, which run to the end of
 * the trace), and the latest end of its unclosed events. */
typedef struct lane_span {
    tt_ns t0, t1, unclosed_end;
} lane_span;

static void lane_span_of(const tt_lane *ln, lane_span *sp)
{
    sp->t0 = ln->n ? ln->ev[0].start : INT64_MAX;
    sp->t1 = sp->unclosed_end = INT64_MIN;
    for (size_t i = 0; i < ln->n; i++) {
        tt_ns end = tt_event_end(&ln->ev[i]);
        if (!(ln->ev[i].flags & TT_EVF_UNCLOSED)) {
            if (end > sp->t1)
                sp->t1 = end;
        } else if (end > sp->unclosed_end) {
            sp->unclosed_end = end;
        }
        if (ln->ev[i].start > sp->t1)
            sp->t1 = ln->ev[i].start;
    }
}

typedef struct reader {
    const unsigned char *file;
    size_t               size;
    sec_in               sec[SEC__END];
    tt_trace            *tr;
    tt_error            *err;
    unsigned             threads;  /* for the arguments, 0: one per core */
    unsigned             skip;     /* TT_TRACE_NO_*: parts left out */
    uint32_t             version;  /* 2 to 4 */
    const tt_load_part  *part;     /* NULL: the whole trace */
    /* counts from the meta section */
    uint32_t n_strings, n_attrs, n_args, n_groups, n_lanes, n_counters;
    uint64_t string_bytes, n_events, n_samples, n_flows;
    /* where the events introduce new argument records (format 3: at its
     * blocks; NULL: from the first event), for rebuilding them later */
    tt_argslazy_mark *marks;
    size_t            n_marks;
    lane_span       *spans;   /* per lane, when the lane checks made them */
} reader;

static int bad(reader *r, uint32_t sec, const char *what)
{
    int64_t off = sec < SEC__END && r->sec[sec].present ? (int64_t)r->sec[sec].offset : 0;
    static const char *names[SEC__END] = {
        [SEC_META] = "metadata", [SEC_STRINGS] = "strings", [SEC_ATTRS] = "attributes",
        [SEC_ARGS] = "arguments", [SEC_GROUPS] = "groups", [SEC_LANES] = "lanes",
        [SEC_EVENTS] = "events", [SEC_COUNTERS] = "counters", [SEC_FLOWS] = "flows",
        [SEC_INDEX] = "event index", [SEC_ATTRIB] = "attribution",
        [SEC_ARGTMPL] = "argument templates",
    };
    return tt_error_at_offset(r->err, TT_ERR_FORMAT, off, "corrupt snapshot: %s section: %s",
                              sec < SEC__END && names[sec] ? names[sec] : "?", what);
}

static int oom(reader *r)
{
    return tt_error_set(r->err, TT_ERR_NOMEM, "out of memory reading the snapshot");
}

/* Check the header and table; locate the sections. */
static int read_layout(reader *r)
{
    const unsigned char *f = r->file;
    uint32_t version, n_sec;
    uint64_t total;
    if (r->size < HEADER_SIZE || memcmp(f, TT_SNAPSHOT_MAGIC, TT_SNAPSHOT_MAGIC_LEN) != 0)
        return tt_error_at_offset(r->err, TT_ERR_FORMAT, 0, "not a tracetty snapshot");
    if (get_u32le(f + 28) != crc(f, 28))
        return tt_error_at_offset(r->err, TT_ERR_FORMAT, 0,
                                  "corrupt snapshot: header checksum mismatch");
    version = get_u32le(f + 8);
    r->version = version;
    /* format 2 (one frame of events) is still read: old snapshots and
     * cache entries keep working */
    if (version < 2 || version > TT_SNAPSHOT_VERSION)
        return tt_error_at_offset(r->err, TT_ERR_UNSUPPORTED, 8,
                                  "snapshot format %u was made by another tracetty version "
                                  "(this one reads format %u); reconvert the trace",
                                  version, TT_SNAPSHOT_VERSION);
    n_sec = get_u32le(f + 12);
    total = get_u64le(f + 16);
    if (total != r->size)
        return tt_error_at_offset(r->err, TT_ERR_FORMAT, (int64_t)r->size,
                                  "snapshot is %zu bytes but its header says %llu: the file is "
                                  "cut off or has trailing data",
                                  r->size, (unsigned long long)total);
    if (n_sec > MAX_SECTIONS || HEADER_SIZE + (uint64_t)n_sec * ENTRY_SIZE > r->size)
        return tt_error_at_offset(r->err, TT_ERR_FORMAT, 12, "corrupt snapshot: bad section count");
    if (get_u32le(f + 24) != crc(f + HEADER_SIZE, (size_t)n_sec * ENTRY_SIZE))
        return tt_error_at_offset(r->err, TT_ERR_FORMAT, HEADER_SIZE,
                                  "corrupt snapshot: section table checksum mismatch");
    for (uint32_t i = 0; i < n_sec; i++) {
        const unsigned char *e = f + HEADER_SIZE + (size_t)i * ENTRY_SIZE;
        uint32_t id = get_u32le(e);
        sec_in *s;
        if (id == 0 || id >= SEC__END)
            continue;   /* a section this version does not know: ignored */
        s = &r->sec[id];
        if (s->present)
            return tt_error_at_offset(r->err, TT_ERR_FORMAT, HEADER_SIZE + (int64_t)i * ENTRY_SIZE,
                                      "corrupt snapshot: section %u listed twice", id);
        s->present = true;
        s->flags = get_u32le(e + 4);
        s->offset = get_u64le(e + 8);
        s->stored = get_u64le(e + 16);
        s->raw = get_u64le(e + 24);
        if (s->offset > r->size || s->stored > r->size - s->offset)
            return bad(r, id, "extends past the end of the file");
        s->data = f + s->offset;
        if (version >= 3 && id == SEC_EVENTS) {
            /* blocks, each checked by its own crc32 when it is read */
            if (s->flags != SECF_BLOCKS || s->raw != s->stored || get_u32le(e + 32) != 0)
                return bad(r, id, "not stored as blocks");
            continue;
        }
        if (get_u32le(e + 32) != crc(s->data, (size_t)s->stored))
            return bad(r, id, "checksum mismatch");
        if (!(s->flags & SECF_ZSTD))
            return bad(r, id, "stored uncompressed, which this format never writes");
        if (s->flags & SECF_BLOCKS)
            return bad(r, id, "stored as blocks, which only the events are");
    }
    for (uint32_t id = 1; id < SEC__END; id++)
        if (!r->sec[id].present && (id != SEC_INDEX || version >= 3) &&
            (id != SEC_ATTRIB || version >= 4) && id != SEC_ARGTMPL)
            return bad(r, id, "missing");
    return 0;
}

/* Cursor over a section's raw bytes, decompressing it on first use (a
 * section of blocks: its stored bytes). */
static int open_section(reader *r, uint32_t id, tt_rd *c)
{
    sec_in *s = &r->sec[id];
    if (s->flags & SECF_BLOCKS) {
        c->p = s->data;
        c->end = s->data + s->stored;
        c->bad = false;
        return 0;
    }
    if (!s->buf) {
        size_t got;
        if (s->raw > (uint64_t)s->stored * ZSTD_MAX_RATIO + 64 || s->raw > SIZE_MAX - 1)
            return bad(r, id, "impossible size");
        if (ZSTD_getFrameContentSize(s->data, (size_t)s->stored) != s->raw)
            return bad(r, id, "size mismatch");
        /* huge pages: the attribution and flows sections run to tens of
         * MB, and first touches of 4 KiB pages are the costly part here */
        s->buf = tt_bigalloc((size_t)s->raw);
        if (!s->buf)
            return oom(r);
        got = ZSTD_decompress(s->buf, (size_t)s->raw, s->data, (size_t)s->stored);
        if (ZSTD_isError(got) || got != s->raw)
            return bad(r, id, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "size mismatch");
    }
    c->p = s->buf;
    c->end = s->buf + s->raw;
    c->bad = false;
    return 0;
}

static const char *static_compression(const char *s, size_t n)
{
    if (n == 4 && memcmp(s, "gzip", 4) == 0)
        return "gzip";
    if (n == 4 && memcmp(s, "zstd", 4) == 0)
        return "zstd";
    return "none";
}

static const char *static_format(const char *s, size_t n)
{
    const tt_decoder *const *d = tt_decoders();
    for (size_t i = 0; d[i]; i++)
        if (strlen(d[i]->name) == n && memcmp(d[i]->name, s, n) == 0)
            return d[i]->name;
    return "unknown";
}

/* The source identity at the head of the metadata (*c at its start) into
 * *src (NULL: skipped). */
static int read_source(reader *r, tt_rd *c, tt_snapshot_source *src)
{
    tt_snapshot_source tmp;
    tt_snapshot_source *o = src ? src : &tmp;
    const char *s;
    size_t n;
    memset(o, 0, sizeof *o);
    o->valid = tt_rd_varint(c) != 0;
    o->size = tt_rd_svarint(c);
    o->mtime_ns = tt_rd_svarint(c);
    o->content_hash = tt_rd_varint(c);
    o->options_hash = tt_rd_varint(c);
    s = tt_rd_str(c, &n);
    if (c->bad)
        return bad(r, SEC_META, "truncated");
    if (n >= sizeof o->path)
        return bad(r, SEC_META, "source path too long");
    memcpy(o->path, s, n);
    o->path[n] = '\0';
    return 0;
}

static int read_meta(reader *r, tt_snapshot_source *src)
{
    tt_rd c;
    size_t n;
    const char *s;
    tt_trace *tr = r->tr;
    uint64_t v;
    if (open_section(r, SEC_META, &c) || read_source(r, &c, src))
        return -1;
    v = tt_rd_varint(&c);
    if (v == 0 || v > UINT32_MAX)
        return bad(r, SEC_META, "string count");
    r->n_strings = (uint32_t)v;
    r->string_bytes = tt_rd_varint(&c);
    r->n_attrs = tt_rd_u32(&c);
    r->n_args = tt_rd_u32(&c);
    r->n_groups = tt_rd_u32(&c);
    r->n_lanes = tt_rd_u32(&c);
    r->n_events = tt_rd_varint(&c);
    r->n_counters = tt_rd_u32(&c);
    r->n_samples = tt_rd_varint(&c);
    r->n_flows = tt_rd_varint(&c);
    /* every argument record belongs to an event */
    if (c.bad || r->n_attrs == 0 || r->n_args > r->n_events)
        return bad(r, SEC_META, "counts");

    tt_rd_str(&c, &n);   /* tracetty version that wrote it: informational */
    s = tt_rd_str(&c, &n);
    tr->format = static_format(s, n);
    s = tt_rd_str(&c, &n);
    tr->compression = static_compression(s, n);
    s = tt_rd_str(&c, &n);
    /* the path the trace was loaded from; whoever opened the snapshot
     * (tt_load_input) has already named the trace after the file opened */
    if (!tr->source && !(tr->source = strndup(s, n)))
        return oom(r);
    tr->source_bytes = tt_rd_svarint(&c);
    tr->rank = tt_rd_svarint(&c);
    tr->t0 = tt_rd_svarint(&c);
    tr->t1 = tt_rd_svarint(&c);
    s = tt_rd_str(&c, &n);
    if (n >= sizeof tr->note)
        return bad(r, SEC_META, "note too long");
    memcpy(tr->note, s, n);
    tr->note[n] = '\0';

    v = tt_rd_varint(&c);
    if (v > TT_PROB__COUNT)
        return bad(r, SEC_META, "problem kinds from a newer tracetty");
    for (uint64_t k = 0; k < v; k++) {
        tr->problems[k].count = tt_rd_varint(&c);
        s = tt_rd_str(&c, &n);
        if (n >= sizeof tr->problems[k].example)
            return bad(r, SEC_META, "problem example too long");
        memcpy(tr->problems[k].example, s, n);
        tr->problems[k].example[n] = '\0';
    }
    v = tt_rd_varint(&c);
    if (c.bad || v > (uint64_t)(c.end - c.p) / 2)
        return bad(r, SEC_META, "phase count");
    if (v) {
        tr->phases = calloc((size_t)v, sizeof *tr->phases);
        if (!tr->phases)
            return oom(r);
        tr->cap_phases = tr->n_phases = (uint32_t)v;
        for (uint32_t i = 0; i < tr->n_phases; i++) {
            tr->phases[i].name = tt_rd_u32(&c);
            tr->phases[i].count = tt_rd_varint(&c);
            if (tr->phases[i].name >= r->n_strings)
                return bad(r, SEC_META, "phase name");
        }
    }
    s = tt_rd_str(&c, &n);
    if (c.bad)
        return bad(r, SEC_META, "truncated");
    {
        cJSON *m = cJSON_ParseWithLength(s, n);
        if (!m || !cJSON_IsObject(m)) {
            cJSON_Delete(m);
            return bad(r, SEC_META, "metadata is not a JSON object");
        }
        cJSON_Delete(tr->meta);
        tr->meta = m;
    }
    return 0;
}

static int read_strings(reader *r)
{
    tt_rd c, lens;
    const unsigned char *bytes;
    uint64_t total = 0;
    if (open_section(r, SEC_STRINGS, &c))
        return -1;
    /* one length byte at least per string: bounds the count by the data */
    if (r->n_strings - 1 > (uint64_t)(c.end - c.p))
        return bad(r, SEC_STRINGS, "string count");
    lens = c;
    for (uint32_t i = 1; i < r->n_strings; i++)
        total += tt_rd_varint(&c);
    if (c.bad || total != r->string_bytes || total > (uint64_t)(c.end - c.p))
        return bad(r, SEC_STRINGS, "lengths");
    bytes = c.p;
    for (uint32_t i = 1; i < r->n_strings; i++) {
        uint64_t len = tt_rd_varint(&lens);
        uint32_t id = tt_strtab_intern(r->tr->strings, (const char *)bytes, (size_t)len);
        if (id == TT_STR_ERROR)
            return oom(r);
        /* the strings of a table are distinct, so ids come back in order */
        if (id != i)
            return bad(r, SEC_STRINGS, "duplicate string");
        bytes += len;
    }
    return 0;
}

static int read_attrs(reader *r)
{
    tt_rd c;
    if (open_section(r, SEC_ATTRS, &c))
        return -1;
    if ((uint64_t)(r->n_attrs - 1) * 3 > (uint64_t)(c.end - c.p))
        return bad(r, SEC_ATTRS, "tuple count");
    for (uint32_t i = 1; i < r->n_attrs; i++) {
        tt_attr_tuple t;
        uint32_t id;
        t.opcode = tt_rd_u32(&c);
        t.layer = tt_rd_u32(&c);
        t.operand = tt_rd_u32(&c);
        if (c.bad || t.opcode >= r->n_strings || t.layer >= r->n_strings ||
            t.operand >= r->n_strings)
            return bad(r, SEC_ATTRS, "string id out of range");
        id = tt_attrs_intern(r->tr->attrs, t);
        if (id == UINT32_MAX)
            return oom(r);
        if (id != i)
            return bad(r, SEC_ATTRS, "duplicate tuple");
    }
    return 0;
}

/* After the events: the records come back under the handles the events
 * hold, each chunk of them the first time one of its records is read
 * (argslazy.h), its section checked then. */
static int read_args(reader *r)
{
    const sec_in *s = &r->sec[SEC_ARGS];
    tt_argslazy_mark first = {1, 0, 0};
    tt_argcols_chunk *tc = NULL;
    uint32_t ntc = 0;
    tt_rd c = {NULL, NULL, false};
    if (r->n_args == 0)
        return 0;
    /* the templates, when the writer saved them: checked now, kept by the
     * store to tell which chunks may hold a key without opening them */
    if (r->sec[SEC_ARGTMPL].present) {
        const char *why;
        int rc;
        if (open_section(r, SEC_ARGTMPL, &c))
            return -1;
        rc = tt_argtmplsec_decode(c.p, (size_t)(c.end - c.p), r->n_args, &tc, &ntc, &why);
        if (rc)
            return rc == -1 ? oom(r) : bad(r, SEC_ARGTMPL, why);
    }
    return tt_argslazy_attach(r->tr, s->data, (size_t)s->stored, s->raw, (int64_t)s->offset,
                              r->n_args, r->n_strings, r->marks ? r->marks : &first,
                              r->marks ? r->n_marks : 1, c.p, (size_t)(c.end - c.p), tc, ntc,
                              r->err);
}

static int read_groups_lanes(reader *r)
{
    tt_rd c;
    tt_trace *tr = r->tr;
    uint32_t *first = NULL;
    uint64_t events = 0;
    if (open_section(r, SEC_GROUPS, &c))
        return -1;
    if ((uint64_t)r->n_groups * 6 > (uint64_t)(c.end - c.p))
        return bad(r, SEC_GROUPS, "group count");
    tr->groups = calloc(r->n_groups + 1, sizeof *tr->groups);
    if (!tr->groups)
        return oom(r);
    tr->cap_groups = r->n_groups + 1;
    tr->n_groups = r->n_groups;
    first = calloc(r->n_groups + 1, sizeof *first);
    if (!first)
        return oom(r);
    for (uint32_t i = 0; i < r->n_groups; i++) {
        tt_group *g = &tr->groups[i];
        g->key = tt_rd_u32(&c);
        g->name = tt_rd_u32(&c);
        g->labels = tt_rd_u32(&c);
        g->has_sort = tt_rd_varint(&c) != 0;
        g->sort_index = tt_rd_svarint(&c);
        first[i] = tt_rd_u32(&c);
        if (c.bad || g->key >= r->n_strings || g->name >= r->n_strings ||
            g->labels >= r->n_strings) {
            free(first);
            return bad(r, SEC_GROUPS, "string id out of range");
        }
    }

    if (open_section(r, SEC_LANES, &c)) {
        free(first);
        return -1;
    }
    if ((uint64_t)r->n_lanes * 7 > (uint64_t)(c.end - c.p)) {
        free(first);
        return bad(r, SEC_LANES, "lane count");
    }
    tr->lanes = calloc(r->n_lanes + 1, sizeof *tr->lanes);
    if (!tr->lanes) {
        free(first);
        return oom(r);
    }
    tr->cap_lanes = r->n_lanes + 1;
    for (uint32_t i = 0; i < r->n_lanes; i++) {
        tt_lane *l = &tr->lanes[i];
        uint64_t n;
        l->group = tt_rd_u32(&c);
        l->key = tt_rd_u32(&c);
        l->name = tt_rd_u32(&c);
        l->has_sort = tt_rd_varint(&c) != 0;
        l->sort_index = tt_rd_svarint(&c);
        l->kind = (uint8_t)tt_rd_u32(&c);
        n = tt_rd_varint(&c);
        /* lanes of one group are contiguous, in group order (finalize
         * renumbers them so); group lane ranges are rebuilt from that */
        if (c.bad || l->group >= r->n_groups || l->key >= r->n_strings ||
            l->name >= r->n_strings || l->kind > TT_LANE_ASYNC || n == 0 ||
            n >= UINT32_MAX || (i > 0 && l->group < tr->lanes[i - 1].group)) {
            free(first);
            return bad(r, SEC_LANES, "bad lane");
        }
        l->n = l->cap = (size_t)n;
        events += n;
        tr->n_lanes = i + 1;
    }
    if (events != r->n_events) {
        free(first);
        return bad(r, SEC_LANES, "event count");
    }
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        tt_group *g = &tr->groups[tr->lanes[i].group];
        if (g->n_lanes++ == 0)
            g->first_lane = i;
    }
    for (uint32_t i = 0; i < tr->n_groups; i++)
        if (tr->groups[i].n_lanes == 0)
            tr->groups[i].first_lane = first[i] <= tr->n_lanes ? first[i] : 0;
    free(first);
    return 0;
}

typedef struct ev_state {
    tt_rd     col[COL__COUNT];
    unsigned  start_mode, dur_mode, corr_mode;
    /* correlation ids; per lane: the last one, the last new one, the last
     * position matched */
    tt_evb_corr corr;
    int64_t  *last_dur;        /* per name */
    uint32_t *last_cat;        /* per name */
    uint32_t  next_arg;
} ev_state;

/* One event (the lane's i-th, whose predecessor is decoded) from the
 * columns, all but its depth; returns NULL or what is wrong with it. */
static const char *read_event(reader *r, ev_state *st, tt_lane *ln, size_t i, int64_t u)
{
    tt_event *e = &ln->ev[i];
    const tt_event *p = i ? &ln->ev[i - 1] : NULL;
    const char *why;
    uint64_t v;
    e->name = tt_rd_u32(&st->col[COL_NAME]);
    if (e->name >= r->n_strings)
        return "id out of range";
    if ((why = tt_evb_read_time(&st->col[COL_START], &st->col[COL_DUR], st->start_mode,
                                st->dur_mode, p, u, st->last_dur[e->name], e)) != NULL)
        return why;
    st->last_dur[e->name] = e->dur;
    v = tt_rd_varint(&st->col[COL_CAT]);
    if (v > r->n_strings)
        return "id out of range";
    e->cat = v ? (uint32_t)(v - 1) : st->last_cat[e->name];
    st->last_cat[e->name] = e->cat;
    e->attrs = tt_rd_u32(&st->col[COL_ATTRS]);
    if (e->attrs >= r->n_attrs)
        return "id out of range";
    if ((why = tt_evb_read_corr(&st->corr, &st->col[COL_CORR], &e->corr)) != NULL)
        return why;
    if ((why = tt_evb_read_rest(st->col, &st->next_arg, r->n_args + 1, NULL,
                                (r->skip & TT_TRACE_NO_ARGS) != 0, e)))
        return why;
    return NULL;
}

static int read_events(reader *r)
{
    tt_rd c;
    ev_state st;
    tt_trace *tr = r->tr;
    int64_t *unit = NULL;
    int rc = -1;
    if (open_section(r, SEC_EVENTS, &c))
        return -1;
    memset(&st, 0, sizeof st);
    st.next_arg = 1;
    st.start_mode = (unsigned)tt_rd_u32(&c);
    st.dur_mode = (unsigned)tt_rd_u32(&c);
    st.corr_mode = (unsigned)tt_rd_u32(&c);
    if (c.bad || st.start_mode > START_AFTER_END || st.dur_mode > DUR_BY_NAME ||
        st.corr_mode > CORR_MATCH || tr->n_lanes > (size_t)(c.end - c.p))
        return bad(r, SEC_EVENTS, "encoding");
    unit = malloc(((size_t)tr->n_lanes + 1) * sizeof *unit);
    st.last_dur = calloc((size_t)r->n_strings + 1, sizeof *st.last_dur);
    st.last_cat = calloc((size_t)r->n_strings + 1, sizeof *st.last_cat);
    /* n_events is bounded by the section (a byte per event per column) */
    st.corr.match = st.corr_mode == CORR_MATCH;
    st.corr.seen = st.corr.match ? malloc(((size_t)r->n_events + 1) * sizeof *st.corr.seen) : NULL;
    if (!unit || !st.last_dur || !st.last_cat ||
        (st.corr.match && !st.corr.seen)) {
        oom(r);
        goto out;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        uint64_t u = tt_rd_varint(&c);
        if (c.bad || u == 0 || u > INT64_MAX) {
            bad(r, SEC_EVENTS, "time unit");
            goto out;
        }
        unit[l] = (int64_t)u;
    }
    for (int k = 0; k < COL__COUNT; k++) {
        uint64_t len = tt_rd_varint(&c);
        if (c.bad || len > (uint64_t)(c.end - c.p) || len < r->n_events) {
            bad(r, SEC_EVENTS, "column sizes");
            goto out;
        }
        st.col[k].p = c.p;
        st.col[k].end = c.p + len;
        st.col[k].bad = false;
        c.p += len;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        tt_lane *ln = &tr->lanes[l];
        ln->ev = tt_bigalloc(ln->n * sizeof *ln->ev);
        if (!ln->ev) {
            oom(r);
            goto out;
        }
        st.corr.last = st.corr.last_new = 0;
        st.corr.last_pos = -1;
        for (size_t i = 0; i < ln->n; i++) {
            const char *why = read_event(r, &st, ln, i, unit[l]);
            if (why) {
                bad(r, SEC_EVENTS, why);
                goto out;
            }
        }
        for (int k = 0; k < COL__COUNT; k++)
            if (st.col[k].bad) {
                bad(r, SEC_EVENTS, "truncated column");
                goto out;
            }
        /* depths, as tt_trace_finalize() sets them */
        if (tt_lane_nest(ln)) {
            oom(r);
            goto out;
        }
        tt_index_build(ln->ev, ln->n);
    }
    for (int k = 0; k < COL__COUNT; k++)
        if (st.col[k].p != st.col[k].end) {
            bad(r, SEC_EVENTS, "column has extra data");
            goto out;
        }
    if (st.next_arg - 1 != r->n_args) {
        bad(r, SEC_EVENTS, "argument records no event holds");
        goto out;
    }
    tr->n_events = r->n_events;
    rc = 0;
out:
    free(unit);
    free(st.last_dur);
    free(st.last_cat);
    free(st.corr.seen);
    return rc;
}


/* ------------------------------------------------ format 3: event blocks */

static int bad_block(reader *r, const tt_evb_index *ix, size_t k, const char *what)
{
    const tt_evb_block *b = &ix->blocks[k];
    return tt_error_at_offset(r->err, TT_ERR_FORMAT,
                              (int64_t)(r->sec[SEC_EVENTS].offset + b->offset),
                              "corrupt snapshot: events section: block %zu (lane %u): %s", k,
                              b->lane, what);
}

/* What a whole load checks of each lane once its blocks are in: the
 * order across block edges, the stored depths against the nesting
 * tt_trace_finalize() does, and the index fields. */
typedef struct lane_check {
    tt_trace           *tr;
    const tt_evb_index *ix;
    const char        **why;      /* per lane */
    size_t             *at;       /* per lane: the event that is wrong */
    lane_span          *spans;    /* per lane, for check_span() */
} lane_check;

/* One pass over a lane decoded whole: the nesting of tt_lane_nest()
 * (model/nest.h's step) recomputed and compared with the stored depths,
 * ln->max_depth set from it, the interval index of tt_index_build()
 * (index.h's builder) filled in and the lane's span taken
 * (lane_span_of()). These were six passes (a copy of the depths, the
 * nesting, the comparison, two of the index, the span), each over 64-byte
 * events that no cache holds in a big trace: a tenth of a whole
 * 10M-event reopen's CPU. Here each event is read once. 0; 1 with *at,
 * the first event whose stored depth differs from the nesting; -1 out of
 * memory. */
static int nest_index_span(tt_lane *ln, lane_span *sp, size_t *at)
{
    tt_event *ev = ln->ev;
    size_t n = ln->n;
    tt_nest nz;
    tt_index_builder ib;
    uint16_t maxd = 0;
    if (tt_nest_init(&nz, ln->kind))
        return -1;
    tt_index_builder_init(&ib);
    sp->t0 = n ? ev[0].start : INT64_MAX;
    sp->t1 = sp->unclosed_end = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        tt_event *e = &ev[i];
        tt_ns s = e->start, end = s + e->dur;
        int32_t d = tt_nest_step(&nz, s, end);
        if (d != e->depth) {
            tt_nest_fini(&nz);
            *at = i;
            return d < 0 ? -1 : 1;
        }
        if (e->depth > maxd)
            maxd = e->depth;
        tt_index_add(&ib, ev, i);
        /* the span, leaving out the ends of unclosed events */
        if (!(e->flags & TT_EVF_UNCLOSED)) {
            if (end > sp->t1)
                sp->t1 = end;
        } else if (end > sp->unclosed_end) {
            sp->unclosed_end = end;
        }
        if (s > sp->t1)
            sp->t1 = s;
    }
    tt_nest_fini(&nz);
    tt_index_finish(ev, n);
    ln->max_depth = maxd;
    return 0;
}

static void check_lane(void *ctx, size_t l)
{
    lane_check *x = ctx;
    tt_lane *ln = &x->tr->lanes[l];
    const tt_evb_lane *il = &x->ix->lanes[l];
    size_t at = 0;
    int rc;
    for (uint32_t k = 1; k < il->n_blocks; k++) {
        size_t i = x->ix->blocks[il->first + k].at;
        const tt_event *p = &ln->ev[i - 1], *e = &ln->ev[i];
        if (e->start < p->start || (e->start == p->start && e->dur > p->dur)) {
            x->why[l] = "events out of order";
            x->at[l] = i;
            return;
        }
    }
    if ((rc = nest_index_span(ln, &x->spans[l], &at)) != 0) {
        x->why[l] = rc < 0 ? "out of memory" : "stored depth differs from the nesting";
        x->at[l] = at;
    } else if (ln->max_depth != il->max_depth) {
        x->why[l] = "lane's max depth differs from its events'";
        x->at[l] = 0;
    }
}

/* The lanes and blocks a partial load decodes: keep[l] from the lane
 * filter, blocks whose [first start, max end] meets the window. */
static int select_blocks(reader *r, const tt_evb_index *ix, unsigned char *want)
{
    const tt_load_part *part = r->part;
    tt_trace *tr = r->tr;
    unsigned char *keep = NULL;
    tt_ns lo = INT64_MIN, hi = INT64_MAX;
    if (!part) {
        memset(want, 1, ix->n_blocks);
        return 0;
    }
    if (part->has_from)
        lo = tt_sat_add(tr->t0, tt_time_clamp(part->from));
    if (part->has_to)
        hi = tt_sat_add(tr->t0, tt_time_clamp(part->to));
    if (part->lanes) {
        if (!(keep = calloc((size_t)tr->n_lanes + 1, 1)))
            return oom(r);
        if (part->lanes(part->lanes_ctx, tr, keep, r->err)) {
            free(keep);
            return -1;
        }
    }
    for (size_t k = 0; k < ix->n_blocks; k++) {
        const tt_evb_block *b = &ix->blocks[k];
        want[k] = (!keep || keep[b->lane]) && b->first <= hi && b->max_end >= lo;
    }
    free(keep);
    return 0;
}

static int read_events_blocks(reader *r)
{
    tt_trace *tr = r->tr;
    tt_evb_index ix;
    tt_evb_decoding d;
    tt_rd c;
    const char *what = NULL;
    unsigned char *want = NULL;
    size_t *sel = NULL, *dest = NULL, n_sel = 0, bad_k = 0;
    int rc = -1, got;

    if (open_section(r, SEC_INDEX, &c))
        return -1;
    got = tt_evb_index_read(c.p, (size_t)(c.end - c.p), tr, r->sec[SEC_EVENTS].stored, r->n_args,
                            &ix, &what);
    if (got)
        return got == -1 ? oom(r) : bad(r, SEC_INDEX, what);
    want = malloc(ix.n_blocks + 1);
    sel = malloc((ix.n_blocks + 1) * sizeof *sel);
    dest = malloc((ix.n_blocks + 1) * sizeof *dest);
    if (!want || !sel || !dest) {
        oom(r);
        goto out;
    }
    if (!(r->skip & TT_TRACE_NO_ARGS) && !r->part) {
        /* the blocks that introduce records, for read_args() */
        if (!(r->marks = malloc((ix.n_blocks + 1) * sizeof *r->marks))) {
            oom(r);
            goto out;
        }
        for (size_t k = 0; k < ix.n_blocks; k++)
            if (ix.blocks[k].new_args) {
                r->marks[r->n_marks].arg = ix.blocks[k].arg_base;
                r->marks[r->n_marks].lane = ix.blocks[k].lane;
                r->marks[r->n_marks++].idx = ix.blocks[k].at;
            }
    }
    if (select_blocks(r, &ix, want))
        goto out;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        tt_lane *ln = &tr->lanes[l];
        const tt_evb_lane *il = &ix.lanes[l];
        size_t n = 0;
        for (uint32_t k = il->first; k < il->first + il->n_blocks; k++)
            if (want[k]) {
                sel[n_sel] = k;
                dest[n_sel++] = n;
                n += ix.blocks[k].n;
            }
        ln->n = ln->cap = n;
        ln->max_depth = (uint16_t)il->max_depth;
        if (!(ln->ev = tt_bigalloc(n * sizeof *ln->ev))) {
            oom(r);
            goto out;
        }
    }
    memset(&d, 0, sizeof d);
    d.ix = &ix;
    d.events = r->sec[SEC_EVENTS].data;
    d.n_strings = r->n_strings;
    d.n_attrs = r->n_attrs;
    d.no_args = (r->skip & TT_TRACE_NO_ARGS) != 0;
    d.hint = NULL;
    d.tr = tr;
    d.threads = r->threads;
    got = tt_evb_decode(&d, sel, dest, n_sel, &bad_k, &what);
    if (got) {
        if (got == -1)
            oom(r);
        else
            bad_block(r, &ix, bad_k, what);
        goto out;
    }
    if (r->part) {
        /* blocks that were neighbours in the lane are checked across their
         * edge; the index has put the others in order */
        for (size_t k = 1; k < n_sel; k++) {
            const tt_evb_block *b = &ix.blocks[sel[k]];
            const tt_event *e = &tr->lanes[b->lane].ev[dest[k]];
            if (sel[k] == sel[k - 1] + 1 && dest[k] > 0 &&
                (e->start < e[-1].start || (e->start == e[-1].start && e->dur > e[-1].dur))) {
                bad_block(r, &ix, sel[k], "events out of order");
                goto out;
            }
        }
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            tt_index_build(tr->lanes[l].ev, tr->lanes[l].n);
    } else {
        lane_check x;
        memset(&x, 0, sizeof x);
        x.tr = tr;
        x.ix = &ix;
        x.why = calloc((size_t)tr->n_lanes + 1, sizeof *x.why);
        x.at = calloc((size_t)tr->n_lanes + 1, sizeof *x.at);
        x.spans = r->spans = malloc(((size_t)tr->n_lanes + 1) * sizeof *r->spans);
        if (!x.why || !x.at || !x.spans) {
            free(x.why);
            free(x.at);
            oom(r);
            goto out;
        }
        tt_parallel_run(tr->n_lanes, r->threads, check_lane, &x);
        for (uint32_t l = 0; l < tr->n_lanes && rc == -1 && !what; l++)
            if (x.why[l]) {
                what = x.why[l];
                if (strcmp(what, "out of memory") == 0)
                    oom(r);
                else
                    bad_block(r, &ix, ix.lanes[l].first + x.at[l] / ix.per_block, what);
            }
        free(x.why);
        free(x.at);
        if (what)
            goto out;
    }
    tr->n_events = r->n_events;
    rc = 0;
out:
    free(want);
    free(sel);
    free(dest);
    tt_evb_index_free(&ix);
    return rc;
}

static int read_counters(reader *r)
{
    tt_rd c;
    tt_trace *tr = r->tr;
    uint64_t samples = 0;
    const unsigned char *vals;
    if (open_section(r, SEC_COUNTERS, &c))
        return -1;
    if ((uint64_t)r->n_counters * 6 > (uint64_t)(c.end - c.p) ||
        r->n_samples > (uint64_t)(c.end - c.p) / 9)
        return bad(r, SEC_COUNTERS, "counts");
    tr->counters = calloc(r->n_counters + 1, sizeof *tr->counters);
    if (!tr->counters)
        return oom(r);
    tr->cap_counters = r->n_counters + 1;
    tr->n_counters = r->n_counters;
    for (uint32_t i = 0; i < r->n_counters; i++) {
        tt_counter *k = &tr->counters[i];
        uint64_t n;
        k->group = tt_rd_u32(&c);
        k->name = tt_rd_u32(&c);
        k->key = tt_rd_u32(&c);
        k->unit = tt_rd_u32(&c);
        k->derived = tt_rd_varint(&c) != 0;
        n = tt_rd_varint(&c);
        if (c.bad || k->group >= r->n_groups || k->name >= r->n_strings ||
            k->key >= r->n_strings || k->unit >= r->n_strings || n > r->n_samples - samples)
            return bad(r, SEC_COUNTERS, "bad counter");
        k->n = k->cap = (size_t)n;
        samples += n;
    }
    if (samples != r->n_samples)
        return bad(r, SEC_COUNTERS, "sample count");
    for (uint32_t i = 0; i < r->n_counters; i++) {
        tt_counter *k = &tr->counters[i];
        k->t = malloc((k->n ? k->n : 1) * sizeof *k->t);
        k->v = malloc((k->n ? k->n : 1) * sizeof *k->v);
        if (!k->t || !k->v)
            return oom(r);
        for (size_t j = 0; j < k->n; j++) {
            if (j == 0) {
                k->t[0] = tt_rd_svarint(&c);
            } else {
                uint64_t d = tt_rd_varint(&c);
                if (d > INT64_MAX || __builtin_add_overflow(k->t[j - 1], (int64_t)d, &k->t[j]))
                    return bad(r, SEC_COUNTERS, "time out of range");
            }
        }
        /* sorted: the ends tell whether all lie within the limit */
        if (k->n && (!tt_time_ok(k->t[0]) || !tt_time_ok(k->t[k->n - 1])))
            return bad(r, SEC_COUNTERS, "time out of range");
    }
    if (c.bad || (uint64_t)(c.end - c.p) != r->n_samples * sizeof(double))
        return bad(r, SEC_COUNTERS, "sample values");
    vals = c.p;
    for (uint32_t i = 0; i < r->n_counters; i++) {
        tt_counter *k = &tr->counters[i];
        memcpy(k->v, vals, k->n * sizeof(double));
        vals += k->n * sizeof(double);
        /* the same min/max pass as tt_trace_finalize() */
        k->vmin = k->n ? k->v[0] : 0;
        k->vmax = k->n ? k->v[0] : 0;
        for (size_t j = 1; j < k->n; j++) {
            if (k->v[j] < k->vmin)
                k->vmin = k->v[j];
            if (k->v[j] > k->vmax)
                k->vmax = k->v[j];
        }
    }
    return 0;
}

static int cmp_ref(tt_evref a, tt_evref b)
{
    if (a.lane != b.lane)
        return a.lane < b.lane ? -1 : 1;
    return a.idx < b.idx ? -1 : a.idx > b.idx;
}

static int read_flows(reader *r)
{
    tt_rd c;
    tt_trace *tr = r->tr;
    uint8_t *seen;
    if (open_section(r, SEC_FLOWS, &c))
        return -1;
    if (r->n_flows > (uint64_t)(c.end - c.p) / 7)
        return bad(r, SEC_FLOWS, "flow count");
    tr->flows = tt_bigalloc((size_t)(r->n_flows + 1) * sizeof *tr->flows);
    tr->flows_by_to = tt_bigalloc((size_t)(r->n_flows + 1) * sizeof *tr->flows_by_to);
    seen = calloc((size_t)r->n_flows + 1, 1);
    if (!tr->flows || !tr->flows_by_to || !seen) {
        free(seen);
        return oom(r);
    }
    tr->cap_flows = (size_t)r->n_flows + 1;
    tt_evref pf = {0, 0}, pt = {0, 0};
    int64_t pk = 0;
    for (size_t i = 0; i < r->n_flows; i++) {
        tt_flow *f = &tr->flows[i];
        uint64_t d = tt_rd_varint(&c);
        int64_t sd;
        if (d >= tr->n_lanes - (uint64_t)pf.lane) {
            free(seen);
            return bad(r, SEC_FLOWS, "bad flow");
        }
        f->from.lane = pf.lane + (uint32_t)d;
        d = tt_rd_varint(&c);
        if (f->from.lane == pf.lane)
            d += pf.idx;
        f->from.idx = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
        sd = (int64_t)pt.lane + tt_rd_svarint(&c);
        f->to.lane = sd < 0 || sd >= tr->n_lanes ? UINT32_MAX : (uint32_t)sd;
        sd = tt_rd_svarint(&c);
        if (f->to.lane == pt.lane)
            sd += pt.idx;
        f->to.idx = sd < 0 || sd > UINT32_MAX ? UINT32_MAX : (uint32_t)sd;
        f->name = tt_rd_u32(&c);
        f->cat = tt_rd_u32(&c);
        pf = f->from;
        pt = f->to;
        if (c.bad || f->from.lane >= tr->n_lanes || f->to.lane >= tr->n_lanes ||
            f->from.idx >= tr->lanes[f->from.lane].n || f->to.idx >= tr->lanes[f->to.lane].n ||
            f->name >= r->n_strings || f->cat >= r->n_strings) {
            free(seen);
            return bad(r, SEC_FLOWS, "bad flow");
        }
        /* tt_trace_flows_from() binary-searches: the order must hold */
        if (i > 0) {
            int k = cmp_ref(tr->flows[i - 1].from, f->from);
            if (k > 0 || (k == 0 && cmp_ref(tr->flows[i - 1].to, f->to) > 0)) {
                free(seen);
                return bad(r, SEC_FLOWS, "flows out of order");
            }
        }
        tr->n_flows = i + 1;
    }
    for (size_t i = 0; i < r->n_flows; i++) {
        int64_t k = pk + tt_rd_svarint(&c);
        pk = k;
        if (c.bad || k < 0 || (uint64_t)k >= r->n_flows || seen[k]) {
            free(seen);
            return bad(r, SEC_FLOWS, "bad flow order");
        }
        seen[k] = 1;
        tr->flows_by_to[i] = (uint32_t)k;
        if (i > 0) {
            const tt_flow *a = &tr->flows[tr->flows_by_to[i - 1]], *b = &tr->flows[k];
            int d = cmp_ref(a->to, b->to);
            if (d > 0 || (d == 0 && cmp_ref(a->from, b->from) > 0)) {
                free(seen);
                return bad(r, SEC_FLOWS, "flows out of order");
            }
        }
    }
    free(seen);
    if (c.p != c.end)
        return bad(r, SEC_FLOWS, "extra data");
    return 0;
}

/* t0/t1 as tt_trace_finalize() computes them: they must match the stored
 * ones, or views would place events outside the trace. */
static int check_span(reader *r)
{
    const tt_trace *tr = r->tr;
    tt_ns t0 = INT64_MAX, t1 = INT64_MIN, unclosed = INT64_MIN;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        lane_span own;
        const lane_span *sp = r->spans ? &r->spans[l] : &own;
        if (!r->spans)
            lane_span_of(&tr->lanes[l], &own);
        if (sp->t0 < t0)
            t0 = sp->t0;
        if (sp->t1 > t1)
            t1 = sp->t1;
        if (sp->unclosed_end > unclosed)
            unclosed = sp->unclosed_end;
    }
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        const tt_counter *c = &tr->counters[i];
        if (c->n && c->t[0] < t0)
            t0 = c->t[0];
        if (c->n && c->t[c->n - 1] > t1)
            t1 = c->t[c->n - 1];
    }
    if (t0 == INT64_MAX)
        t0 = t1 = 0;
    /* unclosed events run to the end of the trace */
    if (unclosed > t1)
        return bad(r, SEC_EVENTS, "an event ends after the trace");
    if (r->skip & TT_TRACE_NO_COUNTERS) {
        /* counters, left out, may widen the span: the events lie in it */
        if (r->n_events && (t0 < tr->t0 || t1 > tr->t1 || unclosed > tr->t1))
            return bad(r, SEC_META, "trace start/end do not hold its events");
        return 0;
    }
    if (t0 != tr->t0 || t1 != tr->t1)
        return bad(r, SEC_META, "trace start/end do not match its events");
    return 0;
}

/* The stored attribution, restored rather than rebuilt on first use. Not
 * for a trace loaded in part (a window, some lanes) or without its flows
 * (launch links come from flows): the stored one describes the whole
 * trace, so that one is rebuilt, when asked, from what was loaded. Format
 * 2 and 3 files have none: rebuilt as well. */
static int read_attrib(reader *r)
{
    const char *why;
    tt_rd c;
    if (r->version < 4 || r->part || (r->skip & TT_TRACE_NO_FLOWS))
        return 0;
    if (open_section(r, SEC_ATTRIB, &c))
        return -1;
    if (tt_attribsec_decode(c.p, (size_t)(c.end - c.p), r->tr, &why, r->err))
        return why ? bad(r, SEC_ATTRIB, why) : -1;
    return 0;
}

/* The sections read after the events, independent of one another: each
 * on its own copy of the reader with its own error, so that they can run
 * side by side. */
typedef struct tail_job {
    reader  *r;
    reader   own[3];
    tt_error err[3];
    int      rc[3];
} tail_job;

static void tail_work(void *ctx, size_t k)
{
    tail_job *x = ctx;
    reader *r = &x->own[k];
    *r = *x->r;
    r->err = &x->err[k];
    tt_error_clear(r->err);
    if (k == 0)
        x->rc[0] = !(r->skip & TT_TRACE_NO_COUNTERS) && read_counters(r);
    else if (k == 1)
        x->rc[1] = !(r->skip & TT_TRACE_NO_FLOWS) && read_flows(r);
    else
        x->rc[2] = read_attrib(r);
}

/* Counters, flows, the span check and the attribution, with the first
 * failure in that order reported, as if read one after another. The
 * three sections decode in parallel: in a whole 10M-event reopen they
 * are a quarter of the time, all of it on one core before. */
static int read_tail(reader *r)
{
    static const uint32_t ids[3] = {SEC_COUNTERS, SEC_FLOWS, SEC_ATTRIB};
    tail_job x;
    int rc = 0;
    x.r = r;
    memset(x.rc, 0, sizeof x.rc);
    tt_parallel_run(3, r->threads, tail_work, &x);
    for (int k = 0; k < 3; k++) {
        /* the sections a job decompressed are freed with the reader's */
        r->sec[ids[k]].buf = x.own[k].sec[ids[k]].buf;
        if (rc == 0 && k == 2 && !r->part && check_span(r))
            rc = -1;
        if (rc == 0 && x.rc[k]) {
            *r->err = x.err[k];
            rc = -1;
        }
    }
    return rc;
}

int tt_snapshot_decode_sel(const void *data, size_t n, unsigned threads, unsigned skip,
                           const tt_load_part *part, tt_trace *tr, tt_snapshot_source *src,
                           tt_error *err)
{
    reader r;
    int rc = -1;
    memset(&r, 0, sizeof r);
    r.file = data;
    r.size = n;
    r.tr = tr;
    r.err = err;
    r.threads = threads;
    r.skip = skip & (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS);
    if ((r.skip & (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS)) == (TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS))
        r.part = part;
    if (tr->finalized || tr->n_lanes || tt_strtab_count(tr->strings) != 1)
        return tt_error_set(err, TT_ERR_USAGE, "a snapshot is read into a new, empty trace");
    if (read_layout(&r) || read_meta(&r, src) || read_strings(&r) || read_attrs(&r) ||
        read_groups_lanes(&r))
        goto out;
    if (r.version < 3)
        r.part = NULL;   /* one frame of events: all of it or nothing */
    if ((r.version >= 3 ? read_events_blocks(&r) : read_events(&r)) ||
        (!(r.skip & TT_TRACE_NO_ARGS) && read_args(&r)) || read_tail(&r))
        goto out;
    tr->lacks = r.skip | (r.part ? TT_TRACE_PARTIAL : 0);
    tr->finalized = true;
    rc = 0;
out:
    for (uint32_t i = 0; i < SEC__END; i++)
        free(r.sec[i].buf);
    free(r.marks);
    free(r.spans);
    return rc;
}

int tt_snapshot_decode_part(const void *data, size_t n, unsigned threads, unsigned skip,
                            tt_trace *tr, tt_snapshot_source *src, tt_error *err)
{
    return tt_snapshot_decode_sel(data, n, threads, skip, NULL, tr, src, err);
}

int tt_snapshot_decode(const void *data, size_t n, unsigned threads, tt_trace *tr,
                       tt_snapshot_source *src, tt_error *err)
{
    return tt_snapshot_decode_sel(data, n, threads, 0, NULL, tr, src, err);
}

int tt_snapshot_read_source(const void *data, size_t n, tt_snapshot_source *src, tt_error *err)
{
    reader r;
    tt_rd c;
    int rc;
    memset(&r, 0, sizeof r);
    r.file = data;
    r.size = n;
    r.err = err;
    rc = read_layout(&r) || open_section(&r, SEC_META, &c) || read_source(&r, &c, src) ? -1 : 0;
    free(r.sec[SEC_META].buf);
    return rc;
}

/* ------------------------------------------------------ test support */

_Static_assert(SEC__END == TT_SNAPSHOT_SECTIONS, "section count");
_Static_assert(SEC_ATTRIB == TT_SNAPSHOT_SEC_ATTRIB, "attribution section id");

int tt_snapshot_section(const void *file, size_t n, unsigned id, unsigned char **raw,
                        size_t *len, tt_error *err)
{
    reader r;
    tt_rd c;
    int rc = -1;
    memset(&r, 0, sizeof r);
    r.file = file;
    r.size = n;
    r.err = err;
    *raw = NULL;
    *len = 0;
    if (id == 0 || id >= SEC__END)
        return tt_error_set(err, TT_ERR_USAGE, "no section %u", id);
    if (read_layout(&r))
        goto out;
    if (id == SEC_ARGTMPL && !r.sec[id].present) {
        rc = 0;   /* optional and left out: no payload (assemble leaves it out) */
        goto out;
    }
    if (open_section(&r, id, &c))
        goto out;
    *len = (size_t)(c.end - c.p);
    *raw = malloc(*len ? *len : 1);
    if (!*raw) {
        oom(&r);
        goto out;
    }
    memcpy(*raw, c.p, *len);
    rc = 0;
out:
    for (uint32_t i = 0; i < SEC__END; i++)
        free(r.sec[i].buf);
    return rc;
}

int tt_snapshot_assemble(const unsigned char *const raw[TT_SNAPSHOT_SECTIONS],
                         const size_t len[TT_SNAPSHOT_SECTIONS], unsigned char **out, size_t *n,
                         tt_error *err)
{
    section sec[SEC__END];
    uint32_t k = 0;
    int rc = -1;
    memset(sec, 0, sizeof sec);
    *out = NULL;
    *n = 0;
    for (uint32_t id = 1; id < SEC__END; id++) {
        tt_wbuf b;
        if (!raw[id])
            continue;
        if (id == SEC_EVENTS) {
            /* blocks are stored as they are: a copy the section owns */
            memset(&b, 0, sizeof b);
            tt_wbuf_put(&b, raw[id], len[id]);
            if (b.oom) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                goto out;
            }
            section_blocks(&sec[k++], id, &b);
            continue;
        }
        b.p = (unsigned char *)raw[id];
        b.n = b.cap = len[id];
        b.oom = false;
        if (section_zstd(&sec[k], id, &b, 1, err))
            goto out;
        k++;
    }
    rc = write_container(sec, k, out, n, err);
out:
    free_sections(sec);
    return rc;
}

int tt_snapshot_probe(const unsigned char *head, size_t n)
{
    return n >= TT_SNAPSHOT_MAGIC_LEN && memcmp(head, TT_SNAPSHOT_MAGIC, TT_SNAPSHOT_MAGIC_LEN) == 0
               ? 100
               : 0;
}

/* ------------------------------------------------------------- decoder */

/* A plain file mapped rather than read: a window's load then touches only
 * the pages of the blocks it decodes. *len receives its size; NULL when
 * it is not a plain file or cannot be mapped. */
static void *map_plain(tt_input *in, size_t *len)
{
    struct stat st;
    void *map;
    int fd;
    if (!tt_input_is_plain_file(in) || tt_input_compression(in) != TT_COMP_NONE)
        return NULL;
    if ((fd = open(tt_input_path(in), O_RDONLY | O_CLOEXEC)) < 0)
        return NULL;
    if (fstat(fd, &st) || st.st_size != tt_input_file_size(in) || st.st_size <= 0) {
        close(fd);
        return NULL;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return NULL;
    *len = (size_t)st.st_size;
    return map;
}

static int ttz_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                      tt_error *err)
{
    unsigned char *buf;
    size_t len;
    void *map = map_plain(in, &len);
    int rc = 0;
    (void)info;
    if (map)
        buf = map;
    else
        rc = tt_input_read_all(in, SIZE_MAX / 2, &buf, &len, err);
    if (rc == -2)
        return tt_error_set(err, TT_ERR_NOMEM, "snapshot too large");
    if (rc)
        return -1;
    rc = tt_snapshot_decode_sel(buf, len, opts->threads, opts->skip, opts->part, tr, NULL, err);
    if (map)
        munmap(map, len);
    else
        free(buf);
    if (rc == 0 && opts->progress)
        opts->progress(opts->progress_ctx, tt_input_file_pos(in), tt_input_file_size(in),
                       (int64_t)len, tr->n_events);
    return rc;
}

const tt_decoder tt_decoder_ttz = {
    .name = "ttz",
    .description = "tracetty snapshot (.ttz, written by `tracetty convert`)",
    .probe = tt_snapshot_probe,
    .decode = ttz_decode,
};
