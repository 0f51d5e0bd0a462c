/* key.h - what statistics group events by, and reading event arguments.
 *
 * Keys: name, category (also "cat"), opcode, lane, layer, and arg:KEY (the
 * value of argument KEY; looked up in the event's args object first, then
 * among its other unknown fields). Argument values are text: a string as
 * is, a number as JSON prints it, true/false/null, arrays and objects as
 * compact JSON. Events without the key (no category, no such argument)
 * form their own "none" group.
 *
 * Arguments are stored compressed (model/args.h); a tt_argcache decodes a
 * record once and answers every key asked of the same event from the parsed
 * copy. Library code: no I/O; one cache per thread.
 */
#ifndef TT_ANALYSIS_KEY_H
#define TT_ANALYSIS_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef enum tt_key_kind {
    TT_KEY_NAME = 0,
    TT_KEY_CAT,
    TT_KEY_OPCODE,
    TT_KEY_LANE,
    TT_KEY_LAYER,
    TT_KEY_ARG
} tt_key_kind;

#define TT_KEY_ARG_MAX 120

typedef struct tt_key {
    tt_key_kind kind;
    char        arg[TT_KEY_ARG_MAX + 1];   /* TT_KEY_ARG: the argument name */
} tt_key;

/* Parse "name", "category"/"cat", "opcode", "lane", "layer", "arg:KEY".
 * TT_ERR_USAGE for anything else (or an empty or too long KEY). */
int tt_key_parse(const char *s, tt_key *k, tt_error *err);

/* Canonical spelling ("name", "category", "arg:KEY") into buf. */
const char *tt_key_str(const tt_key *k, char *buf, size_t n);

/* String id of a string-valued key (name, category, opcode, layer) of an
 * event; 0 = none. Not for lane or arg keys. */
static inline uint32_t tt_key_string_id(const tt_trace *tr, const tt_key *k, const tt_event *e)
{
    switch (k->kind) {
    case TT_KEY_NAME: return e->name;
    case TT_KEY_CAT: return e->cat;
    case TT_KEY_OPCODE: return tt_event_opcode(tr, e);
    case TT_KEY_LAYER: return tt_event_layer(tr, e);
    default: return 0;
    }
}

struct cJSON;

typedef struct tt_argcache {
    tt_args_reader rd;
    uint32_t       handle;    /* record parsed below, 0 = none */
    struct cJSON  *args;      /* parsed args object, or NULL */
    struct cJSON  *extra;     /* parsed extra-fields object, or NULL */
    char          *text;      /* last non-string value printed */
} tt_argcache;

void tt_argcache_init(tt_argcache *c, const tt_trace *tr);
void tt_argcache_fini(tt_argcache *c);

/* Value of argument `key` of event e as text. Returns 1 with *val set
 * (valid until the next call), 0 when the event has no such argument, or
 * -1 with err set when the stored record cannot be read (corrupt block or
 * out of memory). */
int tt_argcache_get(tt_argcache *c, const tt_event *e, const char *key, const char **val,
                    tt_error *err);

/* For callers that read a record's texts from c->rd themselves (to look at
 * the raw text first): parse them as the record `handle`, so that the
 * next tt_argcache_get*() of an event with that record uses them. */
void tt_argcache_take(tt_argcache *c, uint32_t handle, const char *a, size_t an, const char *x,
                      size_t xn);

/* The error of record `handle` of store that cannot be read: err set (the
 * store's own error when it has one: a snapshot's arguments section found
 * corrupt when first read, model/args.h), returns -1. */
int tt_argcache_unreadable(const tt_args *store, uint32_t handle, tt_error *err);

/* tt_argcache_get(), also telling whether the value is a JSON number
 * (its text then is the number as written). */
int tt_argcache_get_typed(tt_argcache *c, const tt_event *e, const char *key, const char **val,
                          bool *is_number, tt_error *err);

/* Grouping events by a key, as breakdowns and transfers do. A group id is
 * the lane index (lane key), the string id (name, category, opcode,
 * layer; 0 = none) or, for arg:KEY, 1 + the id of the value in `vals`
 * (0 = no such argument). `vals` is the caller's table of argument values
 * (only used for arg keys). */

/* Group id of event e on lane. 0 with *gid set, -1 out of memory, or -2
 * with err set when the event's arguments cannot be read. */
int tt_key_group(const tt_trace *tr, const tt_key *k, uint32_t lane, const tt_event *e,
                 tt_argcache *ac, tt_strtab *vals, uint32_t *gid, tt_error *err);

/* Group ids (as tt_key_group()) of n events for an arg:KEY key, the
 * arguments read in storage order (analysis/argvals.h): a caller walking
 * many events in time order collects them first, asks here, and takes
 * gid[i] for the i-th. Values are added to `vals` in the order of ev, as
 * tt_key_group() called on each in turn would. 0, -1 out of memory, or -2
 * with err set when an event's arguments cannot be read. */
int tt_key_arg_groups(const tt_trace *tr, const tt_key *k, const tt_event *const *ev, size_t n,
                      tt_strtab *vals, uint32_t *gid, tt_error *err);

struct tt_sel;

/* tt_key_arg_groups() of the events of a selection in the order statistics
 * walk it (argvals.h: tt_argvals_sel_events), only those with a byte count
 * when transfers_only: *gid (free() it) holds one id per such event. 0, -1
 * out of memory (err set), or -2 with err set as tt_key_arg_groups(). */
int tt_key_sel_arg_groups(const tt_trace *tr, const struct tt_sel *sel, const tt_key *k,
                          bool transfers_only, tt_strtab *vals, uint32_t **gid, tt_error *err);

/* Label of a group id (borrowed, or written to buf), and whether it is the
 * "none" group; *id receives the string id or lane behind it (0 for arg
 * keys). */
const char *tt_key_group_label(const tt_trace *tr, const tt_key *k, const tt_strtab *vals,
                               uint32_t gid, char *buf, size_t n, bool *none, uint32_t *id);

#endif
