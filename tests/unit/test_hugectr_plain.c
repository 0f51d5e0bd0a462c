/* test_hugectr_plain.c - the HugeCTR reader's two ways of reading a
 * document (src/decode/hugectr.c, "the tree") give the same model, to the
 * byte of every event's arguments text: a plain document is scanned a
 * host at a time, its events' arguments stored as keyed rows with the
 * numbers cJSON prints as written kept as written; anything else goes
 * through cJSON. A byte order mark sends a document through cJSON whole;
 * an escape in the last host's name sends that host alone through cJSON
 * after the plain ones. The events cover what the plain path treats
 * apart: member orders, repeated names, _ns times, literals, nested
 * values, more than 32 members, more than 16 member name sequences, and
 * numbers at the edges of cJSON's plain printing (exponents, trailing
 * zeros, 15 and 16 significant digits, 10^-4 and 10^-5, 10^14 and 10^15,
 * -0, 0.0).
 */
#include "config.h"

#include "../tap.h"
#include "decode/decode.h"
#include "model/args.h"
#include "model/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const nums[] = {
    "0", "-0", "0.0", "-0.0", "1.50", "1e5", "1E+5", "-1.5E-3", "0.00001", "0.0001",
    "0.00012345678901234", "0.000123456789012345", "0.1234567890123456789",
    "123456789012345", "1234567890123456", "99999999999999.5", "999999999999999.5",
    "100000000000000", "1000000000000000", "12345678901234567890", "3.14159", "100", "-7",
    "2.5e-300", "0.30000000000000004", "-12.5", "10.25", "0.5", "7.000000000000001",
};
#define N_NUMS (sizeof nums / sizeof nums[0])

static char *doc;
static size_t doc_n, doc_cap;

static void put(const char *fmt, ...)
{
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (doc_n + (size_t)k + 1 > doc_cap) {
        doc_cap = (doc_n + (size_t)k + 1) * 2;
        doc = realloc(doc, doc_cap);
    }
    va_start(ap, fmt);
    vsnprintf(doc + doc_n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    doc_n += (size_t)k;
}

static void put_event(unsigned i)
{
    const char *dur = nums[(i * 7) % N_NUMS], *start = nums[(i * 3 + 1) % N_NUMS];
    put("{");
    switch (i % 13) {
    case 0:   /* another member order */
        put("\"met_times_within_this_stream\": %u, \"avg_iter_start_to_event_start_time_ms\": "
            "%s, \"label\": \"k%u\", \"avg_measured_time_ms\": %s}",
            i % 3, start, i % 5, dur);
        return;
    case 1:   /* _ns times, a repeated name */
        put("\"label\": \"k%u\", \"avg_measured_time_ns\": %s, "
            "\"avg_iter_start_to_event_start_time_ns\": %s, \"label\": \"again\"}",
            i % 5, dur, start);
        return;
    default:
        break;
    }
    put("\"label\": \"k%u.%.*s\", \"avg_measured_time_ms\": %s, "
        "\"avg_iter_start_to_event_start_time_ms\": %s, \"met_times_within_this_stream\": %u",
        i % 5, (int)(i % 19), "yyyyyyyyyyyyyyyyyyy", dur, start, i % 3);
    switch (i % 13) {
    case 2:
        put(", \"flag\": %s", i % 2 ? "true" : (i % 3 ? "false" : "null"));
        break;
    case 3:
        put(", \"nested\": {\"a\": [1, 2.50, \"x\"], \"b\": {}}");
        break;
    case 4:   /* past ROW_MEMBERS */
        for (unsigned j = 0; j < 28 + i % 5; j++)
            put(", \"m%u\": %s", j, nums[(i + j) % N_NUMS]);
        break;
    case 5:   /* past ROW_KEYSETS */
        put(", \"extra%u\": %s", i % 23, nums[i % N_NUMS]);
        break;
    case 6:
        put(", \"text\": \"h\xc3\xa9llo \xe2\x9c\x93 past sixteen bytes\"");
        break;
    case 7:
        put(", \"\": \"empty name\", \"list\": []");
        break;
    default:
        break;
    }
    put("}");
}

/* A profile of 4 hosts; the last host's name escaped when `escape`. */
static void make_doc(bool escape)
{
    unsigned i = 0;
    doc_n = 0;
    put("[\n");
    for (unsigned h = 0; h < 4; h++) {
        put("%s{\"host_name\": \"%s%u\", \"timeline\": {", h ? ",\n" : "",
            escape && h == 3 ? "node\\/" : "node", h);
        for (unsigned d = 0; d < 3; d++) {
            put("%s\"device_%u\": {", d ? ", " : "", d);
            for (unsigned s = 0; s < 4; s++) {
                put("%s\"stream_%u\": [", s ? ", " : "", s);
                for (unsigned e = 0; e < 9; e++, i++) {
                    if (e)
                        put(",\n ");
                    put_event(i);
                }
                put("]");
            }
            put("}");
        }
        put("}, \"avg_iter_time_ms\": 7.5}");
    }
    put("\n]\n");
}

static tt_trace *load(const char *text, size_t n)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_load_opts o;
    tt_error err;
    memset(&o, 0, sizeof o);
    o.format = "hugectr-json";
    tt_error_clear(&err);
    if (tt_input_open_mem(text, n, &in, &err))
        return NULL;
    if (tt_load_input(in, &o, &tr, NULL, &err)) {
        diag("load: %s", err.what);
        tr = NULL;
    }
    tt_input_close(in);
    return tr;
}

/* Whether a and b hold the same events, lane by lane, with the same
 * arguments text; *n_args: events with arguments. */
static bool same_events(const tt_trace *a, const tt_trace *b, size_t *n_args)
{
    tt_args_reader ra, rb;
    bool same = a->n_lanes == b->n_lanes;
    *n_args = 0;
    tt_args_reader_init(&ra, a->args);
    tt_args_reader_init(&rb, b->args);
    for (uint32_t l = 0; same && l < a->n_lanes; l++) {
        const tt_lane *la = &a->lanes[l], *lb = &b->lanes[l];
        same = la->n == lb->n && strcmp(tt_str(a, la->name), tt_str(b, lb->name)) == 0;
        for (size_t k = 0; same && k < la->n; k++) {
            const tt_event *ea = &la->ev[k], *eb = &lb->ev[k];
            const char *ta = "", *tb = "", *x;
            size_t na = 0, nb = 0, xn;
            same = ea->start == eb->start && ea->dur == eb->dur &&
                   strcmp(tt_str(a, ea->name), tt_str(b, eb->name)) == 0 &&
                   !ea->args == !eb->args;
            if (same && ea->args) {
                (*n_args)++;
                same = tt_args_read(&ra, ea->args, &ta, &na, &x, &xn) == 0 &&
                       tt_args_read(&rb, eb->args, &tb, &nb, &x, &xn) == 0;
                /* ta stays valid: rb is another reader */
                same = same && na == nb && memcmp(ta, tb, na) == 0;
                if (!same)
                    diag("lane %u event %zu: %.*s | %.*s", l, k, (int)na, ta, (int)nb, tb);
            }
        }
    }
    tt_args_reader_fini(&ra);
    tt_args_reader_fini(&rb);
    return same;
}

int main(void)
{
    for (int escape = 0; escape < 2; escape++) {
        const char *what = escape ? "an escaped last host" : "a plain document";
        char *bom;
        tt_trace *plain, *cj;
        size_t n_args = 0;
        make_doc(escape);
        bom = malloc(doc_n + 3);
        memcpy(bom, "\xef\xbb\xbf", 3);
        memcpy(bom + 3, doc, doc_n);
        plain = load(doc, doc_n);
        cj = load(bom, doc_n + 3);
        ok(plain && cj, "%s loads, and with a byte order mark", what);
        if (plain && cj) {
            ok(same_events(plain, cj, &n_args), "%s: the same events and arguments as cJSON's",
               what);
            /* 432 but those with a time past TT_TIME_LIMIT (266) */
            ok(n_args > 200, "%s: %zu events with arguments", what, n_args);
        }
        tt_trace_free(plain);
        tt_trace_free(cj);
        free(bom);
    }
    free(doc);
    return tap_done();
}
