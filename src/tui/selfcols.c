/* selfcols.c - the box statistics' self columns and shares (see
 * selfcols.h). The profiler's span is found by lane: a lane of the
 * selection every event of which has the category "Trace"; the self
 * times on those lanes are summed by a second tt_calltree_self_by over
 * them alone (a handful of events) and taken out of what the shares
 * count. */
#include "config.h"

#include "tui/selfcols.h"

#include "analysis/attrib.h"
#include "analysis/calltree.h"
#include "util/strtab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void tt_selfcols_clear(tt_tab_self *v, size_t n)
{
    memset(v, 0, n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i].has_dev = true;
}

/* Is every event of the lane (one at least) of category `cat`? Stops at
 * the first that is not: O(1) on an ordinary lane. */
static bool lane_all_cat(const tt_trace *tr, uint32_t lane, uint32_t cat)
{
    const tt_lane *ln = &tr->lanes[lane];
    for (size_t i = 0; i < ln->n; i++)
        if (ln->ev[i].cat != cat)
            return false;
    return ln->n > 0;
}

/* The selection's lanes that hold the profiler's own span, into *out
 * (malloc'd, NULL when none). 0, or -1 on OOM. */
static int envelope_lanes(const tt_trace *tr, const tt_sel *sel, uint32_t **out, size_t *n)
{
    uint32_t cat = tt_strtab_find(tr->strings, "Trace", 5);
    size_t nl = tt_sel_lane_count(tr, sel);
    *out = NULL;
    *n = 0;
    if (cat == TT_STR_ERROR)
        return 0;
    for (size_t i = 0; i < nl; i++) {
        uint32_t lane = tt_sel_lane(sel, i);
        if (!lane_all_cat(tr, lane, cat))
            continue;
        if (!*out && !(*out = malloc(nl * sizeof **out)))
            return -1;
        (*out)[(*n)++] = lane;
    }
    return 0;
}

int tt_selfcols_add(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                    const uint32_t *ids, size_t n, tt_tab_self *v, tt_error *err)
{
    const tt_attrib *at;
    tt_ns *host = NULL, *dev = NULL, *env = NULL;
    uint32_t *envl = NULL;
    size_t n_env = 0;
    int rc = -1;
    if (n == 0)
        return 0;
    if (!(at = tt_attrib_get(tr, err)))
        return -1;
    host = malloc(n * sizeof *host);
    dev = malloc(n * sizeof *dev);
    if (!host || !dev || envelope_lanes(tr, sel, &envl, &n_env) ||
        (n_env && !(env = malloc(2 * n * sizeof *env)))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (tt_calltree_self_by(tr, sel, key, ids, n, host, dev, err))
        goto out;
    if (n_env) {
        /* env[n..2n): the span's device self, nothing (it launches
         * nothing), unused */
        tt_sel es = *sel;
        es.lanes = envl;
        es.n_lanes = n_env;
        if (tt_calltree_self_by(tr, &es, key, ids, n, env, env + n, err))
            goto out;
    }
    for (size_t i = 0; i < n; i++) {
        v[i].host += host[i];
        v[i].dev += dev[i];
        v[i].counted += host[i] - (env ? env[i] : 0);
        v[i].has_dev = v[i].has_dev && tt_attrib_has_links(at);
    }
    rc = 0;
out:
    free(host);
    free(dev);
    free(env);
    free(envl);
    return rc;
}

void tt_selfcols_share(tt_tab_self *v, size_t n)
{
    tt_ns sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i].counted;
    for (size_t i = 0; i < n; i++)
        v[i].share = v[i].counted == 0 && v[i].host > 0 ? -1.0
                     : sum > 0 ? 100.0 * (double)v[i].counted / (double)sum : 0.0;
}
