/* key.c - grouping keys and on-demand argument values (see key.h). */
#include "config.h"

#include "analysis/key.h"

#include "analysis/argvals.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tt_key_parse(const char *s, tt_key *k, tt_error *err)
{
    memset(k, 0, sizeof *k);
    if (strcmp(s, "name") == 0)
        k->kind = TT_KEY_NAME;
    else if (strcmp(s, "category") == 0 || strcmp(s, "cat") == 0)
        k->kind = TT_KEY_CAT;
    else if (strcmp(s, "opcode") == 0)
        k->kind = TT_KEY_OPCODE;
    else if (strcmp(s, "lane") == 0)
        k->kind = TT_KEY_LANE;
    else if (strcmp(s, "layer") == 0)
        k->kind = TT_KEY_LAYER;
    else if (strncmp(s, "arg:", 4) == 0) {
        size_t n = strlen(s + 4);
        if (n == 0)
            return tt_error_set(err, TT_ERR_USAGE, "key 'arg:' needs an argument name (arg:KEY)");
        if (n > TT_KEY_ARG_MAX)
            return tt_error_set(err, TT_ERR_USAGE, "key '%.40s...': argument name too long", s);
        k->kind = TT_KEY_ARG;
        memcpy(k->arg, s + 4, n + 1);
    } else {
        return tt_error_set(err, TT_ERR_USAGE,
                            "unknown key '%.200s' (name, category, opcode, lane, layer or arg:KEY)",
                            s);
    }
    return 0;
}

const char *tt_key_str(const tt_key *k, char *buf, size_t n)
{
    static const char *const names[] = {"name", "category", "opcode", "lane", "layer"};
    if (k->kind == TT_KEY_ARG)
        snprintf(buf, n, "arg:%s", k->arg);
    else
        snprintf(buf, n, "%s", names[k->kind]);
    return buf;
}

void tt_argcache_init(tt_argcache *c, const tt_trace *tr)
{
    tt_args_reader_init(&c->rd, tr->args);
    c->handle = 0;
    c->args = c->extra = NULL;
    c->text = NULL;
}

static void drop_record(tt_argcache *c)
{
    cJSON_Delete(c->args);
    cJSON_Delete(c->extra);
    c->args = c->extra = NULL;
    c->handle = 0;
}

void tt_argcache_fini(tt_argcache *c)
{
    drop_record(c);
    free(c->text);
    c->text = NULL;
    tt_args_reader_fini(&c->rd);
}

static cJSON *parse_object(const char *s, size_t n)
{
    cJSON *o;
    if (n == 0)
        return NULL;
    o = cJSON_ParseWithLength(s, n);
    if (o && !cJSON_IsObject(o)) {
        cJSON_Delete(o);
        o = NULL;
    }
    return o;
}

int tt_argcache_unreadable(const tt_args *store, uint32_t handle, tt_error *err)
{
    tt_error why;
    if (store && tt_args_error(store, &why)) {
        if (err)
            *err = why;
        return -1;
    }
    tt_error_set(err, TT_ERR_FORMAT, "cannot read the stored arguments of an event (record %u)",
                 handle);
    return -1;
}

void tt_argcache_take(tt_argcache *c, uint32_t handle, const char *a, size_t an, const char *x,
                      size_t xn)
{
    drop_record(c);
    /* The decoder stored what it parsed, so both texts are JSON objects; a
     * record that does not parse simply has no arguments. */
    c->args = parse_object(a, an);
    c->extra = parse_object(x, xn);
    c->handle = handle;
}

int tt_argcache_get(tt_argcache *c, const tt_event *e, const char *key, const char **val,
                    tt_error *err)
{
    return tt_argcache_get_typed(c, e, key, val, NULL, err);
}

int tt_argcache_get_typed(tt_argcache *c, const tt_event *e, const char *key, const char **val,
                          bool *is_number, tt_error *err)
{
    const cJSON *it = NULL;
    if (is_number)
        *is_number = false;
    if (e->args == 0)
        return 0;
    if (c->handle != e->args) {
        const char *a, *x;
        size_t an, xn;
        drop_record(c);
        if (tt_args_read(&c->rd, e->args, &a, &an, &x, &xn))
            return tt_argcache_unreadable(c->rd.store, e->args, err);
        tt_argcache_take(c, e->args, a, an, x, xn);
    }
    if (c->args)
        it = cJSON_GetObjectItemCaseSensitive(c->args, key);
    if (!it && c->extra)
        it = cJSON_GetObjectItemCaseSensitive(c->extra, key);
    if (!it)
        return 0;
    if (cJSON_IsString(it)) {
        *val = it->valuestring;
        return 1;
    }
    free(c->text);
    if (is_number)
        *is_number = cJSON_IsNumber(it);
    c->text = cJSON_PrintUnformatted(it);
    if (!c->text)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    *val = c->text;
    return 1;
}

int tt_key_group(const tt_trace *tr, const tt_key *k, uint32_t lane, const tt_event *e,
                 tt_argcache *ac, tt_strtab *vals, uint32_t *gid, tt_error *err)
{
    if (k->kind == TT_KEY_LANE) {
        *gid = lane;
    } else if (k->kind == TT_KEY_ARG) {
        const char *v;
        int r = tt_argcache_get(ac, e, k->arg, &v, err);
        if (r < 0)
            return -2;
        *gid = 0;
        if (r > 0) {
            uint32_t id = tt_strtab_intern(vals, v, strlen(v));
            if (id == TT_STR_ERROR)
                return -1;
            *gid = id + 1;
        }
    } else {
        *gid = tt_key_string_id(tr, k, e);
    }
    return 0;
}

int tt_key_arg_groups(const tt_trace *tr, const tt_key *k, const tt_event *const *ev, size_t n,
                      tt_strtab *vals, uint32_t *gid, tt_error *err)
{
    const char *const keys[1] = {k->arg};
    tt_argvals av;
    int rc = tt_argvals_fetch(tr, ev, n, keys, 1, true, &av, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *v = tt_argvals_get(&av, i, 0, NULL);
        uint32_t id;
        gid[i] = 0;
        if (!v)
            continue;
        /* the argument store is read in handle order, but ids are handed
         * out in the caller's order, as before, so that nothing that
         * depends on them (ties in sorted output) changes */
        if ((id = tt_strtab_intern(vals, v, strlen(v))) == TT_STR_ERROR) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            rc = -1;
        } else {
            gid[i] = id + 1;
        }
    }
    tt_argvals_fini(&av);
    return rc;
}

int tt_key_sel_arg_groups(const tt_trace *tr, const struct tt_sel *sel, const tt_key *k,
                          bool transfers_only, tt_strtab *vals, uint32_t **gid, tt_error *err)
{
    const tt_event **ev = NULL;
    size_t n = 0;
    int rc = -1;
    *gid = NULL;
    if (tt_argvals_sel_events(tr, sel, transfers_only, &ev, &n, err) == 0) {
        if (!(*gid = malloc((n ? n : 1) * sizeof **gid)))
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        else if ((rc = tt_key_arg_groups(tr, k, ev, n, vals, *gid, err)) != 0) {
            free(*gid);
            *gid = NULL;
        }
    }
    free(ev);
    return rc;
}

const char *tt_key_group_label(const tt_trace *tr, const tt_key *k, const tt_strtab *vals,
                               uint32_t gid, char *buf, size_t n, bool *none, uint32_t *id)
{
    switch (k->kind) {
    case TT_KEY_LANE:
        *none = false;
        *id = gid;
        return tt_lane_fullname(tr, gid, buf, n);
    case TT_KEY_ARG:
        *none = gid == 0;
        *id = 0;
        return gid ? tt_strtab_get(vals, gid - 1) : "";
    default:
        *none = gid == 0;
        *id = gid;
        return tt_str(tr, gid);
    }
}
