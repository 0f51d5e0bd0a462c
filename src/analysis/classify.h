/* classify.h - what kind of device activity an event is.
 *
 * The one place that knows how each trace format labels GPU/accelerator
 * work, so the GPU time breakdown (and later the warning rules) never test
 * category strings themselves. A new decoder that writes other category
 * names adds them to the tables in classify.c.
 *
 * Classes (from the event's category, compared case-insensitively and
 * exactly, never by substring, so "cuda_runtime" calls that merely launch a
 * copy stay host work):
 *   kernel       "kernel", "gpu_kernel", "cuda_kernel"
 *   memcpy       "gpu_memcpy", "memcpy", "cuda_memcpy", "dma" (neuron DMA)
 *   memset       "gpu_memset", "memset", "cuda_memset"
 *   instruction  "instruction" (an accelerator engine's instruction, e.g.
 *                neuron-profile: device compute, but no launch per
 *                instruction, so never a "tiny kernel")
 *   collective   "collective" (neuron CC-core work: always communication)
 * (The Chrome decoder gives Ascend's uncategorised NPU tasks, process
 * "Ascend Hardware", the category "kernel", or "gpu_memcpy" for copies.)
 * A kernel or memset is a collective (communication) when its name contains,
 * case-insensitively, one of: nccl, rccl, hccl, hcom, c10d, gloo, msccl, cncl,
 * xccl.
 *
 * Library code: no I/O. A classifier caches answers per string id and
 * belongs to one thread.
 */
#ifndef TT_ANALYSIS_CLASSIFY_H
#define TT_ANALYSIS_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"

typedef enum tt_gpu_class {
    TT_GPU_NONE = 0,      /* host work or anything else */
    TT_GPU_COMPUTE,       /* kernel, memset or instruction that is not a collective */
    TT_GPU_COMM,          /* collective kernel, memset, or collective work */
    TT_GPU_MEMCPY         /* copy or DMA transfer */
} tt_gpu_class;

typedef enum tt_cat_class {
    TT_CAT_OTHER = 0,
    TT_CAT_KERNEL,
    TT_CAT_MEMCPY,
    TT_CAT_MEMSET,
    TT_CAT_INSTRUCTION,
    TT_CAT_COLLECTIVE
} tt_cat_class;

/* Class of a category string. */
tt_cat_class tt_classify_category(const char *cat);

/* True when a kernel/memset name is a collective communication. */
bool tt_classify_collective(const char *name);

/* Per-trace cache of the two answers above, by string id. */
typedef struct tt_classifier {
    const tt_trace *tr;
    uint8_t        *cat;    /* per string id: 0 unknown, else tt_cat_class + 1 */
    uint8_t        *coll;   /* per string id: 0 unknown, 1 no, 2 yes */
    uint32_t        n;      /* ids covered */
} tt_classifier;

/* 0, or -1 when out of memory. */
int tt_classifier_init(tt_classifier *c, const tt_trace *tr);
void tt_classifier_fini(tt_classifier *c);

/* The answers not cached yet: classify the string and remember it (the
 * inline functions below call these on a miss). */
tt_cat_class tt_classifier_category_fill(tt_classifier *c, uint32_t cat);
bool tt_classifier_collective_fill(tt_classifier *c, uint32_t name);

/* Category class of an event. Inline: the rules and analyses ask it of
 * every event of a trace, and a hit is one byte read; a call per event
 * was a tenth of a 10M-event `summary`. */
static inline tt_cat_class tt_classifier_category(tt_classifier *c, const tt_event *e)
{
    uint32_t id = e->cat;
    if (id < c->n && c->cat[id])
        return (tt_cat_class)(c->cat[id] - 1);
    return tt_classifier_category_fill(c, id);
}

/* GPU class of an event (see above). */
static inline tt_gpu_class tt_classifier_gpu(tt_classifier *c, const tt_event *e)
{
    uint32_t id;
    switch (tt_classifier_category(c, e)) {
    case TT_CAT_MEMCPY:
        return TT_GPU_MEMCPY;
    case TT_CAT_COLLECTIVE:
        return TT_GPU_COMM;
    case TT_CAT_KERNEL:
    case TT_CAT_MEMSET:
    case TT_CAT_INSTRUCTION:
        id = e->name;
        if (id >= c->n)
            return TT_GPU_COMPUTE;
        if (c->coll[id])
            return c->coll[id] == 2 ? TT_GPU_COMM : TT_GPU_COMPUTE;
        return tt_classifier_collective_fill(c, id) ? TT_GPU_COMM : TT_GPU_COMPUTE;
    default:
        return TT_GPU_NONE;
    }
}

#endif
