/* nest.c - the growth of a lane nesting's rows (see nest.h). */
#include "config.h"

#include "model/nest.h"

tt_ns *tt_nest_grow(tt_ns *row_end, size_t cap)
{
    return realloc(row_end, cap * 2 * sizeof *row_end);
}
