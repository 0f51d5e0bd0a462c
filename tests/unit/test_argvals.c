/* test_argvals.c - argument values of many events read in storage order
 * (analysis/argvals.h, tt_key_arg_groups in key.h).
 *
 * A trace whose events were added in an order unrelated to their start
 * times, as a shuffled file decodes, with records big enough to fill many
 * compressed blocks. Every value fetched for the events in time order must
 * equal what tt_argcache_get_typed() reads event by event (strings,
 * numbers, objects, keys only among the other fields, missing keys), while
 * each block is decompressed once instead of about once per event; group
 * ids must be handed out in the caller's order.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/argvals.h"
#include "analysis/key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EVENTS 5000

static uint64_t rng = 0x243f6a8885a308d3ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

/* Events 0..N_EVENTS-1 on two lanes with shuffled start times; record i
 * has a string "v" (escaped as "\u0076" in every 7th), a number "n", an
 * object "o", padding, a key with a quote in every 11th, and for every
 * third event an "x" key among the other fields only; every fifth event
 * has no arguments at all. */
static tt_trace *shuffled_trace(void)
{
    tt_trace *tr = tt_trace_new();
    uint32_t g, lanes[2];
    int64_t *start = malloc(N_EVENTS * sizeof *start);
    tt_error err;
    if (!tr || !start)
        return NULL;
    for (int i = 0; i < N_EVENTS; i++)
        start[i] = (int64_t)i * 10;
    for (int i = N_EVENTS - 1; i > 0; i--) {
        int j = (int)(rnd() % (uint64_t)(i + 1));
        int64_t t = start[i];
        start[i] = start[j];
        start[j] = t;
    }
    g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    lanes[0] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "1"), TT_LANE_THREAD);
    lanes[1] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    for (int i = 0; i < N_EVENTS; i++) {
        uint32_t l = lanes[i % 2];
        int64_t k = tt_trace_push_event(tr, l);
        tt_event *e = &tr->lanes[l].ev[k];
        char a[600], x[64];
        int an, xn = 0;
        e->start = start[i];
        e->dur = 5;
        e->name = tt_trace_intern_cstr(tr, "op");
        if (i % 5 == 4)
            continue;
        /* every 7th names "v" with an escape, every 11th has a key with a
         * quote in it: both must be found without the raw bytes "v" */
        an = snprintf(a, sizeof a, "{\"%s\": \"val%d\", \"n\": %d.5, \"o\": {\"i\": [%d]}, "
                      "%s\"pad\": \"%0*d\"}", i % 7 == 0 ? "\\u0076" : "v", i % 37, i, i,
                      i % 11 == 0 ? "\"q\\\"k\": 1, " : "", 200 + (int)(rnd() % 300), i);
        if (i % 3 == 0)
            xn = snprintf(x, sizeof x, "{\"x\": %d}", i % 7);
        e->args = tt_args_add(tr->args, a, (size_t)an, x, (size_t)xn);
    }
    free(start);
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

int main(void)
{
    static const char *const keys[] = {"v", "n", "o", "x", "missing", "q\"k"};
    tt_trace *tr = shuffled_trace();
    const tt_event **ev;
    size_t n = 0;
    tt_argvals av;
    tt_argcache ac;
    tt_error err;
    tt_sel all = {INT64_MIN, INT64_MAX, true, NULL, 0};
    int bad = 0;
    uint64_t blocks = 0, per_event;

    if (!ok(tr != NULL, "a shuffled trace of %d events", N_EVENTS))
        return tap_done();
    ok(tt_argvals_sel_events(tr, &all, false, &ev, &n, &err) == 0 && n == N_EVENTS,
       "the selection's events, in walk order");

    /* reference: each event's record read where the time-order walk is */
    tt_argcache_init(&ac, tr);
    ok(tt_argvals_fetch(tr, ev, n, keys, 6, true, &av, &err) == 0, "fetch 6 keys of every event");
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 6; k++) {
            const char *want, *got;
            bool wnum = false, gnum = false;
            int r = tt_argcache_get_typed(&ac, ev[i], keys[k], &want, &wnum, &err);
            got = tt_argvals_get(&av, i, k, &gnum);
            if (r < 0 || (r == 0) != (got == NULL) || (got && strcmp(got, want) != 0) ||
                (got && wnum != gnum)) {
                if (bad++ < 5)
                    diag("event %zu key %s: got %s, want %s", i, keys[k], got ? got : "(none)",
                         r > 0 ? want : "(none)");
            }
        }
    is_i64(bad, 0, "every value and its number flag as read event by event");
    per_event = ac.rd.loads;
    tt_argcache_fini(&ac);

    /* the blocks there are: a reader going through every handle in order */
    {
        tt_args_reader r;
        const char *a, *x;
        size_t an, xn;
        tt_args_reader_init(&r, tr->args);
        for (uint32_t h = 1; h <= tt_args_count(tr->args); h++)
            tt_args_read(&r, h, &a, &an, &x, &xn);
        blocks = r.loads;
        tt_args_reader_fini(&r);
    }
    ok(blocks >= 10, "the records fill many blocks (%llu)", (unsigned long long)blocks);
    is_i64((int64_t)av.blocks_read, (int64_t)blocks, "the fetch decompresses each block once");
    ok(per_event > 20 * blocks, "where reading in time order decompresses %llu times",
       (unsigned long long)per_event);
    ok(tt_argvals_get(&av, 0, 4, NULL) == NULL, "a missing key has no value");
    is_i64((int64_t)av.parsed, N_EVENTS - N_EVENTS / 5, "every record with arguments parsed");
    tt_argvals_fini(&av);
    {
        int64_t escaped = 0;   /* records with a backslash: these are parsed */
        for (int i = 0; i < N_EVENTS; i++)
            escaped += i % 5 != 4 && (i % 7 == 0 || i % 11 == 0);
        ok(tt_argvals_fetch(tr, ev, n, keys + 4, 1, true, &av, &err) == 0,
           "fetch a key no record holds");
        is_i64((int64_t)av.parsed, escaped,
               "only the records with an escape parsed, the rest passed over unparsed");
    }
    tt_argvals_fini(&av);
    ok(tt_argvals_fetch(tr, ev, n, keys + 5, 1, true, &av, &err) == 0 && av.parsed > 0,
       "a key JSON escapes: the records are parsed");
    tt_argvals_fini(&av);

    /* group ids: 1 + the value's id, values numbered in the caller's order */
    {
        tt_key key;
        tt_strtab *vals = tt_strtab_new();
        uint32_t *gid = malloc(n * sizeof *gid);
        bool first_seen = true;
        uint32_t top = 0, distinct = 0;
        tt_argvals av_v;
        tt_key_parse("arg:v", &key, &err);
        tt_argvals_fetch(tr, ev, n, keys, 1, true, &av_v, &err);
        ok(tt_key_arg_groups(tr, &key, ev, n, vals, gid, &err) == 0, "group ids of arg:v");
        for (size_t i = 0; i < n; i++) {
            if (ev[i]->args == 0) {
                first_seen &= gid[i] == 0;
                continue;
            }
            if (gid[i] > top) {   /* a new value: ids grow in walk order */
                top = gid[i];
                distinct++;
            }
            first_seen &= gid[i] > 0 &&
                          strcmp(tt_key_group_label(tr, &key, vals, gid[i], NULL, 0, &(bool){0},
                                                    &(uint32_t){0}),
                                 tt_argvals_get(&av_v, i, 0, NULL)) == 0;
        }
        ok(first_seen, "ids in first-seen order of the walk, labelled with the value, "
                       "0 without arguments");
        is_i64(distinct, 37, "37 distinct values");
        tt_argvals_fini(&av_v);
        free(gid);
        tt_strtab_free(vals);
    }
    free(ev);
    tt_trace_free(tr);
    return tap_done();
}
