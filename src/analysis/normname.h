/* normname.h - kernel and op names reduced to what survives a library
 * upgrade, for `tracetty diff --normalize` (a tt_diff_name_map).
 *
 * Two runs built against different library versions name the same kernel
 * differently: other template arguments (CUTLASS tile shapes, functor
 * types), pointers printed into the name, generated kernels renumbered
 * (triton_poi_fused_add_0, fusion.7), PyTorch's TBackward renamed
 * TBackward0. The rules, applied left to right in one pass:
 *
 *   1. Template arguments: a '<' right after a letter, digit or '_' opens
 *      template arguments up to its matching '>' (nested '<' '>' counted;
 *      '<' and '>' inside parentheses are not); the whole group becomes
 *      "<>", in a signature's parameters too. "operator<", "operator<<",
 *      "operator<=" keep their '<'; a '<' with no matching '>' stays, as
 *      does one after anything else ("<built-in method ...>").
 *   2. Hex addresses: "0x" or "0X" and hex digits, at the start of a word
 *      or after a '_' and ending the word or followed by '_', become
 *      "0x" (stream_0x55d4c2a1f3a0 -> stream_0x).
 *   3. Numeric suffixes: a word (a run of letters, digits and '_') that
 *      holds a letter and ends in digits loses those digits and one '_'
 *      (or "_v", an API version) right before them (Linear_0 -> Linear,
 *      TBackward0 -> TBackward, cudaMalloc_v3020 -> cudaMalloc, log2 ->
 *      log), unless they belong to a hex address (rule 2). ".N" (digits)
 *      ending a word is removed after a word that holds a letter
 *      (fusion.7 -> fusion), "#N" ending a word always (ProfilerStep#5 ->
 *      ProfilerStep, {lambda()#2} -> {lambda()}). Words followed by "::"
 *      (namespaces and classes: c10::, cuda::) and words of digits only
 *      are kept.
 * Everything else is copied byte for byte: mangled names (_ZN...) are
 * compared as they are.
 *
 * Library code: no I/O, no allocation.
 */
#ifndef TT_ANALYSIS_NORMNAME_H
#define TT_ANALYSIS_NORMNAME_H

#include <stddef.h>

/* The normalized form of in, written into out (cap bytes, NUL-terminated
 * when cap > 0, cut when it does not fit); returns its full length, as
 * snprintf does. Never longer than in. */
size_t tt_name_normalize(const char *in, char *out, size_t cap);

#endif
