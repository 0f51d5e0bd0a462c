/* search.c - name search and hit stepping (see search.h). */
#include "config.h"

#include "tui/search.h"

#include "util/relin.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void tt_hits_init(tt_hits *h)
{
    memset(h, 0, sizeof *h);
}

void tt_hits_fini(tt_hits *h)
{
    if (h->pos)
        for (uint32_t l = 0; l < h->n_lanes; l++)
            free(h->pos[l]);
    free(h->pos);
    free(h->n);
    tt_hits_init(h);
}

const char *tt_search_field_of(const char *pattern, tt_search_field *field)
{
    if (strncmp(pattern, "cat:", 4) == 0) {
        *field = TT_FIELD_CAT;
        return pattern + 4;
    }
    *field = TT_FIELD_NAME;
    return pattern;
}

static uint32_t field_id(const tt_event *e, tt_search_field field)
{
    return field == TT_FIELD_CAT ? e->cat : e->name;
}

int tt_search_used_ids(const tt_trace *tr, tt_search_field field, uint8_t **out)
{
    uint32_t ns = tt_strtab_count(tr->strings);
    uint8_t *used = calloc((size_t)ns + 1, 1);
    if (!used)
        return -1;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++)
            used[field_id(&ln->ev[i], field)] = 1;
    }
    *out = used;
    return 0;
}

/* Case-insensitive (ASCII) substring test over n bytes of s. */
static bool contains_ci(const char *s, size_t n, const char *pat, size_t pn)
{
    if (pn == 0)
        return true;
    if (pn > n)
        return false;
    for (size_t i = 0; i + pn <= n; i++) {
        size_t k = 0;
        while (k < pn && tolower((unsigned char)s[i + k]) == tolower((unsigned char)pat[k]))
            k++;
        if (k == pn)
            return true;
    }
    return false;
}

int tt_search_match_names(const tt_trace *tr, const uint8_t *used, const char *pattern,
                          uint8_t *match, size_t *n_ids, tt_error *err)
{
    uint32_t ns = tt_strtab_count(tr->strings);
    bool is_re = false;
    tt_relin *re = NULL;
    size_t count = 0;
    if (pattern[0] == '~') {
        is_re = true;
        pattern++;
    } else if (pattern[0] == '\\') {
        pattern++;
    }
    if (!pattern[0])
        return tt_error_set(err, TT_ERR_USAGE, "empty search pattern");
    if (is_re) {
        /* linear time whatever the pattern: the view must not freeze */
        tt_error rerr;
        tt_error_clear(&rerr);
        re = tt_relin_compile(pattern, TT_RELIN_ICASE, &rerr);
        if (!re)
            return tt_error_set(err, rerr.code, "bad regular expression %s", rerr.what);
    }
    for (uint32_t id = 0; id < ns; id++) {
        bool m;
        match[id] = 0;
        if (!used[id])
            continue;
        if (is_re) {
            m = tt_relin_match(re, tt_str(tr, id), tt_strtab_len(tr->strings, id));
        } else {
            m = contains_ci(tt_str(tr, id), tt_strtab_len(tr->strings, id), pattern,
                            strlen(pattern));
        }
        if (m) {
            match[id] = 1;
            count++;
        }
    }
    tt_relin_free(re);
    *n_ids = count;
    return 0;
}

typedef struct pred {
    const uint8_t  *match;      /* ids marked, or NULL */
    uint32_t        id;         /* the one id when match is NULL */
    tt_search_field field;
} pred;

static inline bool pred_test(const pred *p, const tt_event *e)
{
    uint32_t id = field_id(e, p->field);
    return p->match ? p->match[id] != 0 : id == p->id;
}

static int build(tt_hits *h, const tt_trace *tr, const pred *p)
{
    tt_hits_fini(h);
    h->n_lanes = tr->n_lanes;
    h->pos = calloc((size_t)tr->n_lanes + 1, sizeof *h->pos);
    h->n = calloc((size_t)tr->n_lanes + 1, sizeof *h->n);
    if (!h->pos || !h->n) {
        tt_hits_fini(h);
        return -1;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        size_t k = 0;
        for (size_t i = 0; i < ln->n; i++)
            k += pred_test(p, &ln->ev[i]);
        if (k == 0)
            continue;
        h->pos[l] = malloc(k * sizeof **h->pos);
        if (!h->pos[l]) {
            tt_hits_fini(h);
            return -1;
        }
        k = 0;
        for (size_t i = 0; i < ln->n; i++)
            if (pred_test(p, &ln->ev[i]))
                h->pos[l][k++] = (uint32_t)i;
        h->n[l] = k;
        h->total += k;
    }
    return 0;
}

int tt_hits_build(tt_hits *h, const tt_trace *tr, const uint8_t *match, tt_search_field field)
{
    pred p = {match, 0, field};
    return build(h, tr, &p);
}

int tt_hits_build_name(tt_hits *h, const tt_trace *tr, uint32_t name)
{
    pred p = {NULL, name, TT_FIELD_NAME};
    return build(h, tr, &p);
}

/* Hits of lane l: count of entries with start < t (strict) or <= t. */
static size_t count_start(const tt_hits *h, const tt_trace *tr, uint32_t l, int64_t t, bool incl)
{
    const tt_event *ev = tr->lanes[l].ev;
    const uint32_t *p = h->pos[l];
    size_t lo = 0, hi = h->n[l];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t s = ev[p[mid]].start;
        if (s < t || (incl && s == t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Hits of lane l with position < idx. */
static size_t count_pos(const tt_hits *h, uint32_t l, uint32_t idx)
{
    const uint32_t *p = h->pos[l];
    size_t lo = 0, hi = h->n[l];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Number of hits of lane l whose key is below (s, lane, idx), or at or
 * below it with `incl`. */
static size_t count_below(const tt_hits *h, const tt_trace *tr, uint32_t l, int64_t s,
                          uint32_t lane, uint32_t idx, bool incl)
{
    if (l < lane)
        return count_start(h, tr, l, s, true);
    if (l > lane)
        return count_start(h, tr, l, s, false);
    return count_pos(h, l, idx) + (incl && count_pos(h, l, idx) < h->n[l] &&
                                   h->pos[l][count_pos(h, l, idx)] == idx);
}

static int key_cmp(const tt_trace *tr, tt_evref a, tt_evref b)
{
    int64_t sa = tt_trace_event(tr, a)->start, sb = tt_trace_event(tr, b)->start;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (a.lane != b.lane)
        return a.lane < b.lane ? -1 : 1;
    return a.idx < b.idx ? -1 : a.idx > b.idx;
}

bool tt_hits_step(const tt_hits *h, const tt_trace *tr, const tt_evref *from, int64_t t,
                  int dir, tt_evref *out)
{
    bool found = false;
    tt_evref best = {0, 0};
    int64_t s = from ? tt_trace_event(tr, *from)->start : t;
    /* without an event, t acts as a key just before (next) or after (prev)
     * every event starting at t */
    uint32_t lane = from ? from->lane : (dir > 0 ? 0 : UINT32_MAX);
    uint32_t idx = from ? from->idx : 0;
    for (uint32_t l = 0; l < h->n_lanes; l++) {
        size_t k;
        tt_evref cand;
        if (h->n[l] == 0)
            continue;
        if (dir > 0) {
            if (from)
                k = count_below(h, tr, l, s, lane, idx, true);
            else
                k = count_start(h, tr, l, s, false);
            if (k >= h->n[l])
                continue;
        } else {
            if (from)
                k = count_below(h, tr, l, s, lane, idx, false);
            else
                k = count_start(h, tr, l, s, true);
            if (k == 0)
                continue;
            k--;
        }
        cand.lane = l;
        cand.idx = h->pos[l][k];
        if (!found || (dir > 0 ? key_cmp(tr, cand, best) < 0 : key_cmp(tr, cand, best) > 0)) {
            best = cand;
            found = true;
        }
    }
    if (found)
        *out = best;
    return found;
}

uint64_t tt_hits_rank(const tt_hits *h, const tt_trace *tr, tt_evref ev)
{
    uint64_t below = 0;
    int64_t s;
    if (ev.lane >= h->n_lanes || h->n[ev.lane] == 0)
        return 0;
    {
        size_t k = count_pos(h, ev.lane, ev.idx);
        if (k >= h->n[ev.lane] || h->pos[ev.lane][k] != ev.idx)
            return 0;
    }
    s = tt_trace_event(tr, ev)->start;
    for (uint32_t l = 0; l < h->n_lanes; l++)
        if (h->n[l])
            below += count_below(h, tr, l, s, ev.lane, ev.idx, false);
    return below + 1;
}
