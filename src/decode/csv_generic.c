/* csv_generic.c - any CSV table of timed rows, read through a column map.
 *
 *   --csv-map start=COL,dur=COL|end=COL[,name=COL][,lane=COL][,group=COL]
 *             [,cat=COL][,bytes=COL][,unit=ns|us|ms|s]
 *
 * COL is a header name (matched case-insensitively) or a 1-based column
 * number. Times are read in the unit given by unit=, else the unit written
 * in each time column's header ("Start (us)", "Begin [ms]"), else it is an
 * error: guessing a unit would silently scale the whole trace. Events go
 * to one lane per distinct "lane" value ("rows" without one), in one group
 * per "group" value; the other columns stay in the event's arguments.
 *
 * Detection: a text file whose first line looks like a CSV header is
 * claimed with a low score; without a map the decode asks for one. When a
 * map is given, tt_load_input() picks this decoder directly.
 */
#include "config.h"

#include "decode/csv_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_START, K_DUR, K_END, K_NAME, K_LANE, K_GROUP, K_CAT, K_BYTES, K__COUNT };

static const char *const key_names[K__COUNT] = {"start", "dur", "end", "name",
                                                "lane", "group", "cat", "bytes"};

typedef struct generic {
    tt_csv_job job;
    char      *spec[K__COUNT];   /* column named in the map, or NULL */
    int        col[K__COUNT];
    int        scale[3];         /* start, dur, end */
    int        unit;             /* unit= as a decimal scale, -1 when not given */
    int        s_bytes;
    bool       have_header;
} generic;

/* Parse the map text into g->spec / g->unit. */
static int parse_map(generic *g, const char *map, tt_error *err)
{
    const char *p = map;
    g->unit = -1;
    while (*p) {
        const char *comma = strchr(p, ','), *eq;
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char item[512], *val;
        int k;
        if (n == 0) {
            p += comma ? 1 : 0;
            if (!comma)
                break;
            continue;
        }
        if (n >= sizeof item)
            return tt_error_set(err, TT_ERR_USAGE, "--csv-map: entry too long");
        memcpy(item, p, n);
        item[n] = '\0';
        eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return tt_error_set(err, TT_ERR_USAGE,
                                "--csv-map: expected KEY=COLUMN, got \"%s\"", item);
        val = (char *)eq + 1;
        item[eq - item] = '\0';
        if (strcmp(item, "unit") == 0) {
            if (strcmp(val, "ns") == 0)
                g->unit = 0;
            else if (strcmp(val, "us") == 0)
                g->unit = 3;
            else if (strcmp(val, "ms") == 0)
                g->unit = 6;
            else if (strcmp(val, "s") == 0)
                g->unit = 9;
            else
                return tt_error_set(err, TT_ERR_USAGE,
                                    "--csv-map: unit must be ns, us, ms or s, not \"%s\"", val);
        } else {
            for (k = 0; k < K__COUNT; k++)
                if (strcmp(item, key_names[k]) == 0)
                    break;
            if (k == K__COUNT)
                return tt_error_set(err, TT_ERR_USAGE,
                                    "--csv-map: unknown key \"%s\" (start, dur, end, name, lane, "
                                    "group, cat, bytes, unit)",
                                    item);
            free(g->spec[k]);
            g->spec[k] = strdup(val);
            if (!g->spec[k])
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!g->spec[K_START])
        return tt_error_set(err, TT_ERR_USAGE, "--csv-map: start=COLUMN is required");
    if (!g->spec[K_DUR] == !g->spec[K_END])
        return tt_error_set(err, TT_ERR_USAGE,
                            "--csv-map: give exactly one of dur=COLUMN and end=COLUMN");
    return 0;
}

static int resolve(generic *g, int k, const tt_csv_row *hdr)
{
    tt_csv_job *j = &g->job;
    const char *s = g->spec[k];
    char *endp;
    long v;
    int c;
    if (!s) {
        g->col[k] = -1;
        return 0;
    }
    c = tt_csv_col(j, s);
    if (c < 0 && s[0] >= '0' && s[0] <= '9') {
        v = strtol(s, &endp, 10);
        if (*endp == '\0' && v >= 1 && (size_t)v <= j->n_hdr)
            c = (int)(v - 1);
    }
    if (c < 0)
        return tt_error_at_row(j->err, TT_ERR_USAGE, hdr->row, 0,
                               "--csv-map: %s=%s names no column of the header", key_names[k],
                               s), -1;
    g->col[k] = c;
    return 0;
}

static int generic_header(generic *g, const tt_csv_row *row)
{
    tt_csv_job *j = &g->job;
    static const int timed[3] = {K_START, K_DUR, K_END};
    if (tt_csv_set_header(j, row))
        return -1;
    for (int k = 0; k < K__COUNT; k++)
        if (resolve(g, k, row))
            return -1;
    for (int t = 0; t < 3; t++) {
        int c = g->col[timed[t]];
        if (c < 0)
            continue;
        g->scale[t] = g->unit >= 0 ? g->unit : tt_csv_time_scale(j->hdr[c]);
        if (g->scale[t] < 0)
            return tt_error_at_row(j->err, TT_ERR_USAGE, row->row, c + 1,
                                   "--csv-map: the header \"%s\" names no time unit: add "
                                   "unit=ns|us|ms|s to the map",
                                   j->hdr[c]), -1;
    }
    g->s_bytes = g->col[K_BYTES] >= 0 ? tt_csv_bytes_scale(j->hdr[g->col[K_BYTES]]) : 0;
    for (int k = 0; k < K__COUNT; k++)
        if (g->col[k] >= 0 && k != K_BYTES && k != K_CAT)
            j->keep[g->col[k]] = false;
    g->have_header = true;
    return 0;
}

static const char *cell(const tt_csv_row *row, int c)
{
    if (c < 0 || (size_t)c >= row->n || tt_csv_is_null(row->f[c], row->len[c]))
        return NULL;
    return row->f[c];
}

static int generic_row(void *ctx, const tt_csv_row *row)
{
    generic *g = ctx;
    tt_csv_job *j = &g->job;
    int64_t start, dur, end, idx, v;
    int rc;
    const char *name, *lane, *group, *cat;
    uint32_t lid, args;

    if (!g->have_header)
        return generic_header(g, row);
    if (row->n > j->n_hdr)
        return tt_csv_reject(j, row, (int)j->n_hdr, "row has %zu fields, the header has %zu",
                             row->n, j->n_hdr);
    rc = tt_csv_time(row, g->col[K_START], g->scale[0], &start);
    if (rc)
        return tt_csv_reject(j, row, g->col[K_START], "%s \"%s\": expected a number",
                             rc > 0 ? "no start time in" : "invalid start time in",
                             j->hdr[g->col[K_START]]);
    if (g->col[K_DUR] >= 0) {
        rc = tt_csv_time(row, g->col[K_DUR], g->scale[1], &dur);
        if (rc || dur < 0)
            return tt_csv_reject(j, row, g->col[K_DUR], "%s \"%s\": expected a number >= 0",
                                 rc > 0 ? "no duration in" : "invalid duration in",
                                 j->hdr[g->col[K_DUR]]);
    } else {
        rc = tt_csv_time(row, g->col[K_END], g->scale[2], &end);
        if (rc || end < start || end - start > TT_TIME_LIMIT)
            return tt_csv_reject(j, row, g->col[K_END], "%s \"%s\": expected a time >= the start (and within 3e18 ns of it)",
                                 rc > 0 ? "no end time in" : "invalid end time in",
                                 j->hdr[g->col[K_END]]);
        dur = end - start;
    }
    name = cell(row, g->col[K_NAME]);
    lane = cell(row, g->col[K_LANE]);
    group = cell(row, g->col[K_GROUP]);
    cat = cell(row, g->col[K_CAT]);
    lid = tt_csv_lane(j, group ? group : "csv", lane ? lane : "rows");
    if (lid == TT_NO_LANE || tt_csv_args(j, row, &args))
        return tt_error_set(j->err, TT_ERR_NOMEM, "out of memory"), -1;
    idx = tt_csv_push(j, lid, start, dur, name ? name : "(unnamed)", cat, args);
    if (idx < 0)
        return -1;
    if (g->col[K_BYTES] >= 0 && tt_csv_bytes(row, g->col[K_BYTES], g->s_bytes, &v) == 0 && v >= 0)
        j->tr->lanes[lid].ev[idx].bytes = v;
    return 0;
}

static int generic_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                          tt_error *err)
{
    generic g;
    int rc = -1;
    memset(&g, 0, sizeof g);
    if (!opts->csv_map) {
        const unsigned char *head;
        size_t n;
        char line[200];
        if (tt_input_peek(in, 4096, &head, &n, err))
            return -1;
        if (!tt_csv_first_line(head, n, line, sizeof line))
            snprintf(line, sizeof line, "?");
        return tt_error_set(err, TT_ERR_USAGE,
                            "a CSV table with columns tracetty does not know (%.120s%s): say which "
                            "columns hold the times with --csv-map start=COL,dur=COL,name=COL",
                            line, strlen(line) > 120 ? "..." : "");
    }
    if (parse_map(&g, opts->csv_map, err))
        goto out;
    tt_csv_job_init(&g.job, in, opts, tr, info, err);
    rc = tt_csv_read(&g.job, generic_row, &g);
    if (rc == 0 && !g.have_header)
        rc = (tt_error_set(err, TT_ERR_FORMAT, "no header row"), -1);
    if (rc == 0 && tt_trace_tally_phase(tr, "row", 3, g.job.events))
        rc = (tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1);
    tt_csv_job_fini(&g.job);
out:
    for (int k = 0; k < K__COUNT; k++)
        free(g.spec[k]);
    return rc;
}

/* A header-like first line: printable text with at least one comma and no
 * JSON or XML opening. Low score: only a fallback. */
static int generic_probe(const unsigned char *head, size_t n)
{
    char line[4096];
    if (!tt_csv_first_line(head, n, line, sizeof line))
        return 0;
    if (line[0] == '{' || line[0] == '[' || line[0] == '<' || !strchr(line, ','))
        return 0;
    return TT_PROBE_FALLBACK;
}

const tt_decoder tt_decoder_csv = {
    .name = "csv",
    .description = "CSV table of timed rows, read through --csv-map",
    .probe = generic_probe,
    .decode = generic_decode,
};
