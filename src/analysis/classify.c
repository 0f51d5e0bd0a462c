/* classify.c - category and collective tables (see classify.h). */
#include "config.h"

#include "analysis/classify.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

static const struct {
    const char  *cat;
    tt_cat_class cls;
} categories[] = {
    /* PyTorch Kineto (recent and 2021 schemas) */
    {"kernel", TT_CAT_KERNEL},
    {"gpu_memcpy", TT_CAT_MEMCPY},
    {"gpu_memset", TT_CAT_MEMSET},
    {"memcpy", TT_CAT_MEMCPY},
    {"memset", TT_CAT_MEMSET},
    /* names other decoders (Nsight exports, CSV kernel tables) may use */
    {"gpu_kernel", TT_CAT_KERNEL},
    {"cuda_kernel", TT_CAT_KERNEL},
    {"cuda_memcpy", TT_CAT_MEMCPY},
    {"cuda_memset", TT_CAT_MEMSET},
    /* accelerator engines (neuron-profile) */
    {"instruction", TT_CAT_INSTRUCTION},
    {"collective", TT_CAT_COLLECTIVE},
    {"dma", TT_CAT_MEMCPY},
};

/* Substrings of collective-communication kernel names: NVIDIA NCCL, AMD
 * RCCL, Huawei HCCL (and its "hcom" task names), PyTorch c10d, Gloo,
 * Microsoft MSCCL, Cambricon CNCL, and the generic XCCL backends. */
static const char *const collectives[] = {
    "nccl", "rccl", "hccl", "hcom", "c10d", "gloo", "msccl", "cncl", "xccl",
};

tt_cat_class tt_classify_category(const char *cat)
{
    if (!cat || !*cat)
        return TT_CAT_OTHER;
    for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
        if (strcasecmp(cat, categories[i].cat) == 0)
            return categories[i].cls;
    return TT_CAT_OTHER;
}

/* ASCII case-insensitive substring test (names may hold any bytes). */
static bool contains_nocase(const char *s, const char *needle)
{
    size_t k = 0;
    while (needle[k])
        k++;
    for (; *s; s++) {
        size_t i = 0;
        while (i < k && s[i] && tolower((unsigned char)s[i]) == needle[i])
            i++;
        if (i == k)
            return true;
    }
    return false;
}

bool tt_classify_collective(const char *name)
{
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof collectives / sizeof collectives[0]; i++)
        if (contains_nocase(name, collectives[i]))
            return true;
    return false;
}

int tt_classifier_init(tt_classifier *c, const tt_trace *tr)
{
    c->tr = tr;
    c->n = tt_strtab_count(tr->strings);
    c->cat = calloc(c->n ? c->n : 1, 1);
    c->coll = calloc(c->n ? c->n : 1, 1);
    if (!c->cat || !c->coll) {
        tt_classifier_fini(c);
        return -1;
    }
    return 0;
}

void tt_classifier_fini(tt_classifier *c)
{
    free(c->cat);
    free(c->coll);
    c->cat = c->coll = NULL;
    c->n = 0;
}

tt_cat_class tt_classifier_category(tt_classifier *c, const tt_event *e)
{
    if (e->cat >= c->n)
        return TT_CAT_OTHER;   /* ids beyond the table cannot occur after finalize */
    if (!c->cat[e->cat])
        c->cat[e->cat] = (uint8_t)(tt_classify_category(tt_str(c->tr, e->cat)) + 1);
    return (tt_cat_class)(c->cat[e->cat] - 1);
}

tt_gpu_class tt_classifier_gpu(tt_classifier *c, const tt_event *e)
{
    bool coll;
    switch (tt_classifier_category(c, e)) {
    case TT_CAT_MEMCPY:
        return TT_GPU_MEMCPY;
    case TT_CAT_COLLECTIVE:
        return TT_GPU_COMM;
    case TT_CAT_KERNEL:
    case TT_CAT_MEMSET:
    case TT_CAT_INSTRUCTION:
        if (e->name >= c->n)
            return TT_GPU_COMPUTE;
        if (!c->coll[e->name])
            c->coll[e->name] = tt_classify_collective(tt_str(c->tr, e->name)) ? 2 : 1;
        coll = c->coll[e->name] == 2;
        return coll ? TT_GPU_COMM : TT_GPU_COMPUTE;
    default:
        return TT_GPU_NONE;
    }
}
