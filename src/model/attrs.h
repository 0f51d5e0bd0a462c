/* attrs.h - deduplicated (opcode, layer, operand) tuples.
 *
 * Accelerator events carry an opcode, a framework layer (e.g. hlo_name) and
 * an operand/tensor identity. Few distinct combinations occur, so events
 * store one 32-bit tuple id instead of three string ids (see tt_event).
 * Id 0 is the all-empty tuple. Ownership: the table owns its tuples.
 */
#ifndef TT_MODEL_ATTRS_H
#define TT_MODEL_ATTRS_H

#include <stdint.h>

typedef struct tt_attr_tuple {
    uint32_t opcode;   /* string ids, 0 = none */
    uint32_t layer;
    uint32_t operand;
} tt_attr_tuple;

typedef struct tt_attrs {
    tt_attr_tuple *tuple;   /* id -> tuple; tuple[0] is all zero */
    uint32_t       count, cap;
    uint32_t      *slots;   /* open addressing over ids, 0 = empty */
    uint32_t       mask;
} tt_attrs;

tt_attrs *tt_attrs_new(void);
void tt_attrs_free(tt_attrs *a);   /* NULL is a no-op */

/* Id of the tuple, adding it when new; 0 for the empty tuple; UINT32_MAX on
 * out of memory. */
uint32_t tt_attrs_intern(tt_attrs *a, tt_attr_tuple t);

static inline tt_attr_tuple tt_attrs_get(const tt_attrs *a, uint32_t id)
{
    if (!a || id >= a->count)
        id = 0;
    return a->tuple[id];
}

#endif
