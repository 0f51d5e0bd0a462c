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

/* s starts with needle (lowercase), ASCII case-insensitively. */
static bool starts_nocase(const char *s, const char *needle)
{
    size_t i = 0;
    while (needle[i] && s[i] && tolower((unsigned char)s[i]) == needle[i])
        i++;
    return !needle[i];
}

/* Whether the name holds one of collectives[], ASCII case-insensitively:
 * one pass over the name, trying at each byte only the needles that start
 * with it. Kernel names are long C++ template names, and a pass per
 * needle, each byte lowered nine times, was a tenth of the rules' time in
 * a `summary` (each rule's classifier asks once per kernel name). */
bool tt_classify_collective(const char *name)
{
    uint32_t firsts = 0;   /* bit c - 'a': some needle starts with c */
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof collectives / sizeof collectives[0]; i++)
        firsts |= 1u << (collectives[i][0] - 'a');
    for (const char *s = name; *s; s++) {
        int c = tolower((unsigned char)*s);
        if (c < 'a' || c > 'z' || !(firsts >> (c - 'a') & 1))
            continue;
        for (size_t i = 0; i < sizeof collectives / sizeof collectives[0]; i++)
            if (collectives[i][0] == c && starts_nocase(s, collectives[i]))
                return true;
    }
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

tt_cat_class tt_classifier_category_fill(tt_classifier *c, uint32_t cat)
{
    if (cat >= c->n)
        return TT_CAT_OTHER;   /* ids beyond the table cannot occur after finalize */
    if (!c->cat[cat])
        c->cat[cat] = (uint8_t)(tt_classify_category(tt_str(c->tr, cat)) + 1);
    return (tt_cat_class)(c->cat[cat] - 1);
}

bool tt_classifier_collective_fill(tt_classifier *c, uint32_t name)
{
    if (name >= c->n)
        return false;
    if (!c->coll[name])
        c->coll[name] = tt_classify_collective(tt_str(c->tr, name)) ? 2 : 1;
    return c->coll[name] == 2;
}
