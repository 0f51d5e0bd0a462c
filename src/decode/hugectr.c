/* hugectr.c - HugeCTR inline profiler results (prof.json).
 *
 * HugeCTR's profiler measures each labelled GPU event many times and its
 * result parser (tools/profiler in the HugeCTR repository) writes a list of
 * hosts, each
 *   {"host_name": ..., "avg_iter_time_ms": T,
 *    "timeline": {"device_N": {"stream_X": [ {"label": ...,
 *        "avg_measured_time_ms": D, "avg_iter_start_to_event_start_time_ms": S,
 *        ...more statistics}, ...]}}}
 * which is an "average iteration": every event placed at its average
 * offset from the iteration start. *_ns variants of the three times are
 * accepted too.
 *
 * Model: one group per host, one lane per device/stream, events [S, S+D)
 * with time 0 = iteration start, category "kernel"; an "iteration" lane per
 * host holds the whole average iteration [0, T) and an "iteration end"
 * instant marks T. Each event keeps its source object as arguments.
 *
 * The file is small (averages, not a trace), so it is parsed whole with
 * cJSON; a syntax error is reported at its line and column.
 */
#include "config.h"

#include "decode/decode.h"
#include "decode/json_scan.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE ((size_t)512 << 20)

static int oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* A time in ns from "<base>_ms" or "<base>_ns"; false when neither is a
 * finite number within TT_TIME_LIMIT. */
static bool get_time(const cJSON *o, const char *base, int64_t *ns)
{
    char key[96];
    const cJSON *v;
    snprintf(key, sizeof key, "%s_ns", base);
    v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) < (double)TT_TIME_LIMIT) {
        *ns = llround(v->valuedouble);
        return true;
    }
    snprintf(key, sizeof key, "%s_ms", base);
    v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) < (double)TT_TIME_LIMIT / 1e6) {
        *ns = llround(v->valuedouble * 1e6);
        return true;
    }
    return false;
}

/* "device_3" -> "3" (the part after the last '_'), else the whole text. */
static const char *suffix(const char *s)
{
    const char *u = strrchr(s, '_');
    return u && u[1] ? u + 1 : s;
}

static uint32_t lane_for(tt_trace *tr, uint32_t group, const char *key, const char *name)
{
    uint32_t k = tt_trace_intern_cstr(tr, key), nm = tt_trace_intern_cstr(tr, name), l;
    if (k == TT_STR_ERROR || nm == TT_STR_ERROR)
        return TT_NO_LANE;
    l = tt_trace_lane(tr, group, k, TT_LANE_THREAD);
    if (l != TT_NO_LANE)
        tr->lanes[l].name = nm;
    return l;
}

static int64_t push(tt_trace *tr, uint32_t lane, tt_ns start, tt_ns dur, const char *name,
                    const char *cat, uint8_t kind)
{
    uint32_t nm = tt_trace_intern_cstr(tr, name), c = tt_trace_intern_cstr(tr, cat);
    int64_t idx;
    tt_event *e;
    if (nm == TT_STR_ERROR || c == TT_STR_ERROR)
        return -1;
    idx = tt_trace_push_event(tr, lane);
    if (idx < 0)
        return -1;
    e = &tr->lanes[lane].ev[idx];
    e->start = start;
    e->dur = dur;
    e->name = nm;
    e->cat = c;
    e->kind = kind;
    return idx;
}

static int do_host(tt_trace *tr, const cJSON *host, int index, tt_load_info *info,
                   uint64_t *events, tt_error *err)
{
    const cJSON *hn = cJSON_GetObjectItemCaseSensitive(host, "host_name");
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(host, "timeline");
    const cJSON *dev, *strm;
    char gname[256], key[600], name[600];
    int64_t iter;
    uint32_t gk, g;
    (void)info;
    if (cJSON_IsString(hn) && hn->valuestring[0])
        snprintf(gname, sizeof gname, "%s", hn->valuestring);
    else
        snprintf(gname, sizeof gname, "host %d", index);
    snprintf(key, sizeof key, "host:%d:%s", index, gname);
    gk = tt_trace_intern_cstr(tr, key);
    g = gk == TT_STR_ERROR ? TT_NO_LANE : tt_trace_group(tr, gk);
    if (g == TT_NO_LANE)
        return oom(err);
    tr->groups[g].name = tt_trace_intern_cstr(tr, gname);
    tr->groups[g].sort_index = index;
    tr->groups[g].has_sort = true;
    if (tr->groups[g].name == TT_STR_ERROR)
        return oom(err);

    if (get_time(host, "avg_iter_time", &iter) && iter >= 0) {
        uint32_t l = lane_for(tr, g, "iteration", "iteration");
        if (l == TT_NO_LANE || push(tr, l, 0, iter, "iteration (average)", "iteration",
                                    TT_EV_SLICE) < 0 ||
            push(tr, l, iter, 0, "iteration end", "iteration", TT_EV_INSTANT_GLOBAL) < 0)
            return oom(err);
        tr->lanes[l].sort_index = -1;   /* above the streams */
        tr->lanes[l].has_sort = true;
        *events += 2;
    } else {
        tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host \"%s\" has no avg_iter_time_ms", gname);
    }
    if (!cJSON_IsObject(tl)) {
        tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host \"%s\" has no timeline object", gname);
        return 0;
    }
    cJSON_ArrayForEach(dev, tl) {
        if (!cJSON_IsObject(dev)) {
            tt_trace_problem(tr, TT_PROB_BAD_EVENT, "timeline entry \"%s\" is not an object",
                             dev->string ? dev->string : "?");
            continue;
        }
        cJSON_ArrayForEach(strm, dev) {
            const cJSON *ev;
            uint32_t l;
            if (!cJSON_IsArray(strm)) {
                tt_trace_problem(tr, TT_PROB_BAD_EVENT, "stream entry \"%s\" is not a list",
                                 strm->string ? strm->string : "?");
                continue;
            }
            snprintf(key, sizeof key, "%s/%s", dev->string, strm->string);
            snprintf(name, sizeof name, "device %s stream %s", suffix(dev->string),
                     suffix(strm->string));
            l = lane_for(tr, g, key, name);
            if (l == TT_NO_LANE)
                return oom(err);
            cJSON_ArrayForEach(ev, strm) {
                const cJSON *label = cJSON_GetObjectItemCaseSensitive(ev, "label");
                int64_t s, d, idx;
                char *text;
                if (!cJSON_IsObject(ev) || !cJSON_IsString(label) ||
                    !get_time(ev, "avg_iter_start_to_event_start_time", &s) ||
                    !get_time(ev, "avg_measured_time", &d)) {
                    tt_trace_problem(tr, TT_PROB_BAD_EVENT,
                                     "event without label, avg_measured_time_ms or "
                                     "avg_iter_start_to_event_start_time_ms on %s",
                                     key);
                    continue;
                }
                if (d < 0) {
                    tt_trace_problem(tr, TT_PROB_NEGATIVE_DURATION,
                                     "\"%s\" has a negative average time", label->valuestring);
                    d = 0;
                }
                idx = push(tr, l, s, d, label->valuestring, "kernel", TT_EV_SLICE);
                if (idx < 0)
                    return oom(err);
                text = cJSON_PrintUnformatted(ev);
                if (!text)
                    return oom(err);
                tr->lanes[l].ev[idx].args = tt_args_add(tr->args, text, strlen(text), NULL, 0);
                free(text);
                if (!tr->lanes[l].ev[idx].args)
                    return oom(err);
                (*events)++;
            }
        }
    }
    return 0;
}

/* A syntax error at `at` in buf, with its line and column. */
static void syntax_error(tt_error *err, const char *buf, const char *at, const char *msg)
{
    int64_t line = 1, col = 1;
    for (const char *p = buf; p < at; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    tt_error_at_line(err, TT_ERR_FORMAT, at - buf, line, col, "%s", msg);
}

static int hugectr_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                          tt_error *err)
{
    unsigned char *raw;
    char *buf;
    size_t n;
    cJSON *doc;
    const char *end = NULL;
    uint64_t events = 0;
    int rc = 0, index = 0;

    switch (tt_input_read_all(in, MAX_FILE, &raw, &n, err)) {
    case 0:
        buf = (char *)raw;
        break;
    case -2:
        return tt_error_set(err, TT_ERR_FORMAT,
                            "a HugeCTR profile larger than %zu MB is not plausible",
                            MAX_FILE >> 20), -1;
    default:
        return -1;
    }
    doc = cJSON_ParseWithLengthOpts(buf, n, &end, 0);
    if (!doc) {
        /* cJSON reports where it stopped; a document that is fine up to
         * the end of the data (a string or number cut in half included)
         * was cut off */
        const char *at = cJSON_GetErrorPtr();
        js_scanner sc = {0};
        if (!at || at < buf || at > buf + n)
            at = buf + n;
        if (!js_skip_value(&sc, buf, buf + n, false) && sc.status == JS_MORE)
            at = buf + n;
        if (at == buf + n && tt_input_truncated(in))
            tt_error_set(err, TT_ERR_FORMAT, "compressed data ends early: the file is cut off");
        else
            syntax_error(err, buf, at,
                         at == buf + n ? "the file ends inside the JSON document: it is cut off"
                                       : "invalid JSON");
        free(buf);
        return -1;
    }
    while (end && end < buf + n && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t'))
        end++;
    if (end && end < buf + n) {
        syntax_error(err, buf, end, "unexpected data after the end of the JSON document");
        cJSON_Delete(doc);
        free(buf);
        return -1;
    }
    free(buf);
    if (tt_input_truncated(in) && !opts->lenient) {
        cJSON_Delete(doc);
        return tt_error_set(err, TT_ERR_FORMAT, "compressed data ends early: the file is cut off"),
               -1;
    }
    if (cJSON_IsObject(doc)) {
        rc = do_host(tr, doc, 0, info, &events, err);
    } else if (cJSON_IsArray(doc)) {
        const cJSON *h;
        cJSON_ArrayForEach(h, doc) {
            if (!cJSON_IsObject(h)) {
                tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host entry %d is not an object", index);
            } else if ((rc = do_host(tr, h, index, info, &events, err)) != 0) {
                break;
            }
            index++;
        }
    } else {
        tt_error_set(err, TT_ERR_FORMAT, "a HugeCTR profile is a list of hosts, not a JSON scalar");
        rc = -1;
    }
    cJSON_Delete(doc);
    if (rc)
        return -1;
    if (events && tt_trace_tally_phase(tr, "event", 5, events))
        return oom(err);
    cJSON_AddStringToObject(tr->meta, "timeline", "average iteration (HugeCTR inline profiler)");
    if (opts->progress)
        opts->progress(opts->progress_ctx, tt_input_file_pos(in), tt_input_file_size(in),
                       (int64_t)n, events);
    return 0;
}

/* Whether head holds a "timeline" member whose value is an object with an
 * averaged event inside it (device_N -> stream_X -> [{label,
 * avg_measured_time_ms, avg_iter_start_to_event_start_time_ms}]): the
 * structure shows early, while avg_iter_time_ms, which the parser writes
 * after the timeline, is often far past the head. */
static bool probe_timeline(const unsigned char *head, size_t n)
{
    const char *end = (const char *)head + n;
    size_t at = 0;
    while ((at = tt_probe_find(head, n, at, "\"timeline\"")) < n) {
        const char *p = js_skip_ws((const char *)head + at + 10, end);
        at += 10;
        if (p == end || *p != ':')
            continue;   /* a string "timeline", not a member name */
        p = js_skip_ws(p + 1, end);
        if (p == end || *p != '{')
            continue;
        at = (size_t)(p - (const char *)head);
        return tt_probe_find(head, n, at, "\"avg_measured_time_") < n ||
               tt_probe_find(head, n, at, "\"avg_iter_start_to_event_start_time_") < n;
    }
    return false;
}

static int hugectr_probe(const unsigned char *head, size_t n)
{
    const char *p = js_skip_ws((const char *)head, (const char *)head + n);
    if (p == (const char *)head + n || (*p != '[' && *p != '{'))
        return 0;
    if (probe_timeline(head, n) ||
        ((tt_probe_has(head, n, "\"avg_iter_time_ms\"") ||
          tt_probe_has(head, n, "\"avg_iter_time_ns\"")) &&
         tt_probe_has(head, n, "\"timeline\"")))
        return 95;
    return 0;
}

const tt_decoder tt_decoder_hugectr = {
    .name = "hugectr-json",
    .description = "HugeCTR inline profiler prof.json (average iteration)",
    .probe = hugectr_probe,
    .decode = hugectr_decode,
};
