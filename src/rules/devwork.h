/* devwork.h - the device work of each trace, found once per
 * tt_rules_run() and shared by the rules that read it.
 *
 * Why: device-idle and low-utilization both need which lanes hold device
 * work and, per device, the union of that work. Built by each rule on its
 * own, a 10M-event trace paid for the walk over every event (classifying
 * each), the interval list and its sort twice. Here the first rule to ask
 * for a trace builds it, under that trace's lock, while a rule asking at
 * the same time on another thread waits for it; later ones read it. What
 * it holds is exactly what rule_lanes_init() gives and, per device, the
 * union of its work, normalized.
 *
 * Library code: no I/O. Ownership: tt_rules_run() creates one
 * rule_devwork per trace (rule_devwork_new) and frees them; the rules
 * only borrow what the getters return, read-only, until their run ends.
 */
#ifndef TT_RULES_DEVWORK_H
#define TT_RULES_DEVWORK_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/intervals.h"
#include "model/trace.h"
#include "rules/rules.h"
#include "rules/rules_util.h"

typedef struct rule_devwork rule_devwork;

/* One empty entry per trace of traces[0..n) (built on first use), or NULL
 * when out of memory. rule_devwork_free(NULL, n) is a no-op. */
rule_devwork *rule_devwork_new(const tt_trace *const *traces, size_t n);
void rule_devwork_free(rule_devwork *dw, size_t n);

/* The entry of trace 0 of traces + k (what tt_rule_ctx.devwork holds for
 * the traces a run is given). */
rule_devwork *rule_devwork_at(rule_devwork *dw, size_t k);

/* Build entry k now, if no rule has yet (tt_rules_run's first jobs). Out
 * of memory is kept and told to the rules that ask (rule_devwork_lanes). */
void rule_devwork_build(rule_devwork *dw, size_t k);

/* The lanes of ctx->traces[t] as rule_lanes_init() finds them; NULL when
 * out of memory (ctx->err set). */
const rule_lanes *rule_devwork_lanes(const tt_rule_ctx *ctx, size_t t);

/* The work of device `group` of ctx->traces[t]: the normalized union of
 * the kernels, copies, memsets, instructions and collectives on its
 * device lanes into *work (empty for a group without device work), those
 * lanes into lanes[0..*n_lanes), at most cap of them. 0, or -1 when out of memory (ctx->err set). */
int rule_devwork_group(const tt_rule_ctx *ctx, size_t t, uint32_t group, const tt_ivals **work,
                       uint32_t *lanes, size_t cap, size_t *n_lanes);

/* What rule_names_scan() finds in the strings of ctx->traces[t]: one
 * walk for all the rules that skip a trace without the names they look
 * for. The first rule to ask walks, under a lock of its own (a rule
 * waits for the device work above only when it asks for that). */
const rule_names_found *rule_devwork_names(const tt_rule_ctx *ctx, size_t t);

#endif
