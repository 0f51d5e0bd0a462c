/* rules_util.c - helpers shared by rules (see rules_util.h). */
#include "config.h"

#include "rules/rules_util.h"

#include "rules/rule_host_calls.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The lane holds kernels, copies, memsets, instructions or collectives. */
static bool lane_has_device_work(const tt_lane *ln, tt_classifier *cls)
{
    for (size_t i = 0; i < ln->n; i++)
        if (tt_classifier_gpu(cls, &ln->ev[i]) != TT_GPU_NONE)
            return true;
    return false;
}

int rule_lanes_init(rule_lanes *rl, const tt_trace *tr, tt_classifier *cls)
{
    memset(rl, 0, sizeof *rl);
    rl->device = calloc(tr->n_lanes + 1, sizeof *rl->device);
    rl->dev = malloc((tr->n_lanes + 1) * sizeof *rl->dev);
    rl->host = malloc((tr->n_lanes + 1) * sizeof *rl->host);
    if (!rl->device || !rl->dev || !rl->host) {
        rule_lanes_fini(rl);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        rl->device[l] = lane_has_device_work(&tr->lanes[l], cls);
        if (rl->device[l])
            rl->dev[rl->n_dev++] = l;
        else
            rl->host[rl->n_host++] = l;
    }
    return 0;
}

void rule_lanes_fini(rule_lanes *rl)
{
    free(rl->device);
    free(rl->dev);
    free(rl->host);
    memset(rl, 0, sizeof *rl);
}

size_t rule_counter_lanes(const tt_trace *tr, tt_classifier *cls, uint32_t counter,
                          uint32_t *out, size_t cap)
{
    const tt_counter *c = &tr->counters[counter];
    const tt_group *g = &tr->groups[c->group];
    const char *cname = tt_str(tr, c->name);
    size_t n = 0, best = 0;
    uint32_t end = g->first_lane + g->n_lanes;
    if (cap == 0)
        return 0;
    /* the lane named at the start of the counter's name (longest wins) */
    for (uint32_t l = g->first_lane; l < end; l++) {
        const tt_lane *ln = &tr->lanes[l];
        const char *lname = tt_str(tr, ln->name);
        size_t k;
        if (!*lname)
            lname = tt_str(tr, ln->key);
        k = strlen(lname);
        if (k >= 2 && k > best && strncasecmp(cname, lname, k) == 0 &&
            !isalnum((unsigned char)cname[k])) {
            best = k;
            out[0] = l;
            n = 1;
        }
    }
    if (n)
        return n;
    for (uint32_t l = g->first_lane; l < end && n < cap; l++)
        if (lane_has_device_work(&tr->lanes[l], cls))
            out[n++] = l;
    if (n == 0)
        for (uint32_t l = g->first_lane; l < end && n < cap; l++)
            out[n++] = l;
    return n;
}

void rule_lane_add(uint32_t *lanes, size_t *n, size_t cap, uint32_t lane)
{
    size_t k = *n;
    while (k > 0 && lanes[k - 1] > lane)
        k--;
    if ((k > 0 && lanes[k - 1] == lane) || *n >= cap)
        return;
    memmove(lanes + k + 1, lanes + k, (*n - k) * sizeof *lanes);
    lanes[k] = lane;
    (*n)++;
}

bool rule_icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return true;
    for (; *hay; hay++) {
        size_t i;
        for (i = 0; i < n && hay[i]; i++)
            if (tolower((unsigned char)hay[i]) != tolower((unsigned char)needle[i]))
                break;
        if (i == n)
            return true;
    }
    return false;
}

bool rule_is_step_name(const char *name)
{
    return strncmp(name, "ProfilerStep#", 13) == 0;
}

static void span_note(rule_span *sp, tt_ns s, tt_ns e, uint32_t lane, uint32_t idx,
                      int64_t bytes)
{
    size_t k;
    if (e > sp->end)
        sp->end = e;
    sp->count++;
    if (bytes > 0)
        sp->bytes += bytes;
    sp->total += e - s;
    for (k = 0; k < sp->n_lanes && sp->lanes[k] != lane; k++)
        ;
    if (k == sp->n_lanes && sp->n_lanes < sizeof sp->lanes / sizeof sp->lanes[0])
        sp->lanes[sp->n_lanes++] = lane;
    if (sp->n_ev < TT_ANN_MAX_EVENTS) {
        sp->ev[sp->n_ev].lane = lane;
        sp->ev[sp->n_ev].idx = idx;
        sp->n_ev++;
    }
}

void rule_span_start(rule_span *sp, tt_ns s, tt_ns e, uint32_t lane, uint32_t idx,
                     int64_t bytes)
{
    memset(sp, 0, sizeof *sp);
    sp->open = true;
    sp->start = s;
    sp->end = e;
    span_note(sp, s, e, lane, idx, bytes);
}

bool rule_span_add(rule_span *sp, tt_ns gap, tt_ns s, tt_ns e, uint32_t lane, uint32_t idx,
                   int64_t bytes)
{
    if (!sp->open || s - sp->end > gap)
        return false;
    span_note(sp, s, e, lane, idx, bytes);
    return true;
}

static int cmp_ns(const void *a, const void *b)
{
    tt_ns x = *(const tt_ns *)a, y = *(const tt_ns *)b;
    return x < y ? -1 : x > y;
}

/* Reorder v[0..n) so that v[k] is the value sorting would put there, all
 * before it no greater and all after it no smaller: a selection in linear
 * time on average, where sorting millions of gaps (device-idle on a 10M
 * event trace) was most of the rule. Ranges that do not shrink fast
 * enough are sorted instead, so no input makes it quadratic. */
static void select_nth(tt_ns *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n, budget = 64;
    while (hi - lo > 16) {
        tt_ns a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1], p, t;
        size_t i = lo, j = hi - 1;
        if (budget-- == 0)
            break;
        /* the median of three as pivot */
        p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        /* Hoare partition: v[lo..j] <= p <= v[j+1..hi) */
        for (;;) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i >= j)
                break;
            t = v[i];
            v[i] = v[j];
            v[j] = t;
            i++;
            j--;
        }
        if (k <= j)
            hi = j + 1;
        else
            lo = j + 1;
    }
    qsort(v + lo, hi - lo, sizeof *v, cmp_ns);
}

tt_ns rule_median(tt_ns *v, size_t n)
{
    tt_ns lower;
    if (n == 0)
        return 0;
    select_nth(v, n, n / 2);
    if (n % 2)
        return v[n / 2];
    /* the even case's lower middle: the largest of what lies before */
    lower = v[0];
    for (size_t i = 1; i < n / 2; i++)
        if (v[i] > lower)
            lower = v[i];
    return lower + (v[n / 2] - lower) / 2;
}

int rule_names_init(rule_names *rn, const tt_trace *tr, bool (*pred)(const char *name))
{
    rn->tr = tr;
    rn->pred = pred;
    rn->n = tt_strtab_count(tr->strings);
    rn->state = calloc(rn->n ? rn->n : 1, 1);
    return rn->state ? 0 : -1;
}

void rule_names_fini(rule_names *rn)
{
    free(rn->state);
    rn->state = NULL;
    rn->n = 0;
}

bool rule_is_throttle_name(const char *name)
{
    return rule_icontains(name, "throttl");
}

/* The predicate of each rule_name_kind. */
static bool (*const name_kind_pred[RULE_NAME__COUNT])(const char *name) = {
    [RULE_NAME_SYNC_COPY] = rule_is_sync_copy_call,
    [RULE_NAME_SYNC] = rule_is_sync_call,
    [RULE_NAME_THROTTLE] = rule_is_throttle_name,
};

void rule_names_scan(rule_names_found *f, const tt_trace *tr)
{
    uint32_t n = tt_strtab_count(tr->strings);
    unsigned left = RULE_NAME__COUNT;
    for (unsigned k = 0; k < RULE_NAME__COUNT; k++)
        f->first[k] = UINT32_MAX;
    /* a string costs a few comparisons, an event one byte looked up in
     * its cache line: the strings are worth testing only when few */
    f->known = (uint64_t)n <= tr->n_events / 8 + 4096;
    for (uint32_t id = 0; f->known && id < n && left > 0; id++) {
        const char *s = tt_str(tr, id);
        for (unsigned k = 0; k < RULE_NAME__COUNT; k++)
            if (f->first[k] == UINT32_MAX && name_kind_pred[k](s)) {
                f->first[k] = id;
                left--;
            }
    }
}

bool rule_names_any(rule_names *rn, const rule_names_found *f, rule_name_kind kind)
{
    uint32_t first = f->first[kind];
    if (!f->known)
        return true;
    memset(rn->state, 1, first < rn->n ? first : rn->n);
    if (first < rn->n)
        rn->state[first] = 2;
    return first != UINT32_MAX;
}
