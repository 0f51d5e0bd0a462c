/* modules.h - the PyTorch module an operator ran in (issue 14, `report
 * --kind operators --by module`).
 *
 * PyTorch's profiler with with_stack=True (its Python tracer) writes each
 * call of an nn.Module as a Python frame event (category python_function)
 * named "nn.Module: CLASS_N", N numbering the instances of CLASS, on the
 * thread of the operators it runs (torch/csrc/autograd/profiler_kineto.cpp;
 * TensorBoard's profiler plugin builds its module view from the same
 * events). A module call is such an event: a Python frame (attrib.h) whose
 * name starts with "nn.Module: ". The module of an event is the innermost
 * module call among its ancestors on the row stack (attrib.h's parents).
 *
 * Library code: no I/O; everything borrowed from the trace.
 */
#ifndef TT_ANALYSIS_MODULES_H
#define TT_ANALYSIS_MODULES_H

#include <stdbool.h>

#include "analysis/attrib.h"
#include "model/trace.h"

#define TT_MODULE_PREFIX "nn.Module: "

/* Is ev a module call? O(1). */
bool tt_module_is(const tt_trace *tr, const tt_attrib *a, tt_evref ev);

/* The innermost module call enclosing ev (not ev itself), TT_NO_EVENT
 * when it runs outside any module. O(depth). */
tt_evref tt_module_of(const tt_trace *tr, const tt_attrib *a, tt_evref ev);

/* A module call's name without the prefix ("Linear_0"), borrowed from
 * the trace. */
const char *tt_module_name(const tt_trace *tr, tt_evref module);

/* Does the trace hold any module call? O(events). */
bool tt_modules_present(const tt_trace *tr, const tt_attrib *a);

#endif
