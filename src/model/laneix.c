/* laneix.c - the lane index of tt_trace_lane() (see laneix.h). */
#include "config.h"

#include "model/laneix.h"

#include "model/trace.h"
#include "util/u64map.h"

#include <stdlib.h>

/* Kinds the index keeps a map for: tt_lane_kind's values. */
#define KINDS 2

struct tt_laneix {
    tt_u64map by_kind[KINDS];   /* (group << 32 | key) -> lane */
    uint32_t  n;                /* lanes [0, n) are in the maps */
};

static uint64_t lane_key(uint32_t group, uint32_t key)
{
    return (uint64_t)group << 32 | key;
}

void tt_laneix_free(tt_trace *tr)
{
    if (!tr->lane_ix)
        return;
    for (int k = 0; k < KINDS; k++)
        tt_u64map_fini(&tr->lane_ix->by_kind[k]);
    free(tr->lane_ix);
    tr->lane_ix = NULL;
}

/* The newest lane (group, key, kind) by a scan, as the model always did. */
static uint32_t scan(const tt_trace *tr, uint32_t group, uint32_t key, uint8_t kind)
{
    for (uint32_t i = tr->n_lanes; i-- > 0;) {
        const tt_lane *l = &tr->lanes[i];
        if (l->group == group && l->key == key && l->kind == kind)
            return i;
    }
    return TT_NO_LANE;
}

/* Bring the index up to tr's lanes: 0, or -1 when out of memory (the
 * index is dropped then). */
static int catch_up(tt_trace *tr)
{
    struct tt_laneix *ix = tr->lane_ix;
    if (ix && ix->n > tr->n_lanes)
        tt_laneix_free(tr);   /* lanes went away: start over */
    if (!tr->lane_ix) {
        if (!(ix = calloc(1, sizeof *ix)))
            return -1;
        for (int k = 0; k < KINDS; k++)
            tt_u64map_init(&ix->by_kind[k]);
        tr->lane_ix = ix;
    }
    ix = tr->lane_ix;
    for (; ix->n < tr->n_lanes; ix->n++) {
        const tt_lane *l = &tr->lanes[ix->n];
        if (l->kind < KINDS &&
            tt_u64map_put(&ix->by_kind[l->kind], lane_key(l->group, l->key), ix->n)) {
            tt_laneix_free(tr);
            return -1;
        }
    }
    return 0;
}

uint32_t tt_laneix_find(tt_trace *tr, uint32_t group, uint32_t key, uint8_t kind)
{
    const uint32_t *hit;
    const tt_lane *l;
    if (tr->n_lanes < TT_LANEIX_FROM || kind >= KINDS || catch_up(tr))
        return scan(tr, group, key, kind);
    hit = tt_u64map_get(&tr->lane_ix->by_kind[kind], lane_key(group, key));
    if (!hit)
        return TT_NO_LANE;
    l = *hit < tr->n_lanes ? &tr->lanes[*hit] : NULL;
    if (l && l->group == group && l->key == key && l->kind == kind)
        return *hit;
    return scan(tr, group, key, kind);   /* a stale entry (see laneix.h) */
}
