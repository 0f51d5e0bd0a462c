/* modules.c - the PyTorch module of an event (see modules.h). */
#include "config.h"

#include "analysis/modules.h"

#include <string.h>

#define PREFIX_LEN (sizeof TT_MODULE_PREFIX - 1)

bool tt_module_is(const tt_trace *tr, const tt_attrib *a, tt_evref ev)
{
    return tt_attrib_is_python(a, ev) &&
           strncmp(tt_str(tr, tt_trace_event(tr, ev)->name), TT_MODULE_PREFIX, PREFIX_LEN) == 0;
}

tt_evref tt_module_of(const tt_trace *tr, const tt_attrib *a, tt_evref ev)
{
    for (tt_evref p = tt_attrib_parent(a, ev); tt_evref_ok(p); p = tt_attrib_parent(a, p))
        if (tt_module_is(tr, a, p))
            return p;
    return TT_NO_EVENT;
}

const char *tt_module_name(const tt_trace *tr, tt_evref module)
{
    return tt_str(tr, tt_trace_event(tr, module)->name) + PREFIX_LEN;
}

bool tt_modules_present(const tt_trace *tr, const tt_attrib *a)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        if (tt_attrib_lane_is_device(a, l))
            continue;
        for (uint32_t i = 0; i < tr->lanes[l].n; i++)
            if (tt_module_is(tr, a, (tt_evref){l, i}))
                return true;
    }
    return false;
}
