/* details.c - details panel content and drawing (see details.h). */
#include "config.h"

#include "tui/details.h"

#include "analysis/attrib.h"
#include "analysis/ncu_join.h"

#include "tui/timefmt.h"
#include "util/num.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTR_KEYW 10
#define MAX_CHILDREN 100
#define MAX_FLOWS 100

void tt_details_init(tt_details *d, const tt_trace *tr)
{
    memset(d, 0, sizeof *d);
    d->origin = tr->t0;
    tt_args_reader_init(&d->rd, tr->args);
}

static void clear_lines(tt_details *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].key);
        free(d->v[i].val);
    }
    d->n = 0;
}

void tt_details_fini(tt_details *d)
{
    clear_lines(d);
    free(d->v);
    tt_args_reader_fini(&d->rd);
    memset(d, 0, sizeof *d);
}

static int push_line(tt_details *d, const char *key, const char *val, size_t vlen, int keyw,
                     uint8_t role, bool link, tt_evref target)
{
    tt_dline *l;
    if (d->n == d->cap) {
        size_t nc = d->cap ? d->cap * 2 : 64;
        tt_dline *nv = realloc(d->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        d->v = nv;
        d->cap = nc;
    }
    l = &d->v[d->n];
    l->key = strdup(key);
    l->val = malloc(vlen + 1);
    if (!l->key || !l->val) {
        free(l->key);
        free(l->val);
        return -1;
    }
    memcpy(l->val, val, vlen);
    l->val[vlen] = '\0';
    l->keyw = (uint8_t)keyw;
    l->role = role;
    l->link = link;
    l->target = target;
    d->n++;
    return 0;
}

/* Add a sanitized value, wrapped to the panel width over at most
 * max_lines lines (0 = no limit; a cut value ends with an ellipsis);
 * continuation lines have an empty key. */
static int add_wrapped(tt_details *d, const char *key, const char *val, int keyw, uint8_t role,
                       bool link, tt_evref target, int max_lines)
{
    int vw = d->width - keyw - 1, lines = 0;
    const char *p = val;
    bool first = true;
    d->last_cut = false;
    if (vw < 8)
        vw = d->width > 8 ? d->width : 8;   /* too narrow for two columns */
    do {
        if (max_lines > 0 && lines == max_lines - 1 && tt_grid_text_width(p) > vw) {
            /* the last line allowed: cut, with an ellipsis */
            char buf[1024];
            const char *ell = tt_text_utf8() ? "\xe2\x80\xa6" : "~";
            size_t fit = tt_text_fit(p, vw - 1, NULL);
            if (fit > sizeof buf - 8)
                fit = sizeof buf - 8;
            memcpy(buf, p, fit);
            strcpy(buf + fit, ell);
            d->last_cut = true;
            return push_line(d, first ? key : "", buf, strlen(buf), keyw, role, link, target);
        }
        lines++;
        int used;
        size_t fit = tt_text_fit(p, vw, &used), len = strlen(p);
        if (fit == 0 && len > 0) {
            /* a character wider than the column: take it alone */
            uint32_t cp;
            fit = tt_utf8_decode((const unsigned char *)p, len, &cp);
            if (fit == 0)
                fit = 1;
        }
        if (fit < len) {
            /* prefer breaking after a space near the end of the chunk */
            for (size_t k = fit; k > fit / 2 && k > 0; k--)
                if (p[k - 1] == ' ') {
                    fit = k;
                    break;
                }
        }
        if (push_line(d, first ? key : "", p, fit, keyw, role, link, target))
            return -1;
        p += fit;
        first = false;
    } while (*p);
    return 0;
}

static int add_safe(tt_details *d, const char *key, const char *val, int keyw, uint8_t role,
                    bool link, tt_evref target)
{
    return add_wrapped(d, key, val, keyw, role, link, target, 0);
}

static const tt_evref no_ref = {TT_NO_LANE, 0};

static int add_raw_lines(tt_details *d, const char *key, const char *raw, size_t n, int keyw,
                         uint8_t role, bool link, tt_evref target, int max_lines)
{
    /* sanitizing may grow text fourfold (\xNN) */
    size_t cap = n * 6 + 16;
    char *safe = malloc(cap), ksafe[128];
    int rc;
    if (!safe)
        return -1;
    tt_text_sanitize(raw, n, safe, cap);
    tt_text_sanitize(key, strlen(key), ksafe, sizeof ksafe);
    rc = add_wrapped(d, ksafe, safe, keyw, role, link, target, max_lines);
    free(safe);
    return rc;
}

static int add_raw(tt_details *d, const char *key, const char *raw, size_t n, int keyw,
                   uint8_t role, bool link, tt_evref target)
{
    return add_raw_lines(d, key, raw, n, keyw, role, link, target, 0);
}

static int add_text(tt_details *d, const char *key, const char *fmt_safe)
{
    return add_safe(d, key, fmt_safe, ATTR_KEYW, TT_R_PANEL, false, no_ref);
}

static int add_title(tt_details *d, const char *title)
{
    return push_line(d, "", title, strlen(title), 0, TT_R_PANEL_TITLE, false, no_ref);
}

static const char *kind_name(uint8_t k)
{
    switch (k) {
    case TT_EV_SLICE: return "slice";
    case TT_EV_INSTANT: return "instant (thread)";
    case TT_EV_INSTANT_PROCESS: return "instant (process)";
    case TT_EV_INSTANT_GLOBAL: return "instant (global)";
    case TT_EV_ASYNC: return "async slice";
    default: return "?";
    }
}

/* "NAME · LANE · at T" for a link to another event; prefix is "from",
 * "to" or "" and gets an arrow. */
static int add_link(tt_details *d, const tt_trace *tr, const char *key, const char *prefix,
                    int arrow, tt_evref to, bool show_dur)
{
    const tt_event *e = tt_trace_event(tr, to);
    bool u = tt_text_utf8();
    const char *sep = u ? " \xc2\xb7 " : " - ";
    const char *arr = arrow < 0   ? (u ? "\xe2\x86\x90 " : "<- ")
                      : arrow > 0 ? (u ? "\xe2\x86\x92 " : "-> ")
                                  : "";
    char name[300], lane[300], t[48], dur[48], buf[800];
    tt_text_sanitize(tt_str(tr, e->name), tt_strtab_len(tr->strings, e->name), name, sizeof name);
    {
        char raw[256];
        tt_lane_fullname(tr, to.lane, raw, sizeof raw);
        tt_text_sanitize(raw, strlen(raw), lane, sizeof lane);
    }
    tt_tfmt_time(t, sizeof t, e->start - d->origin, 1000);
    if (show_dur) {
        tt_fmt_dur(dur, sizeof dur, e->dur, 3);
        snprintf(buf, sizeof buf, "%s%s%s%s%s%s%s%s%sat %s", arr, prefix, *prefix ? " " : "",
                 name, sep, dur, sep, lane, sep, t);
    } else {
        snprintf(buf, sizeof buf, "%s%s%s%s%s%s%sat %s", arr, prefix, *prefix ? " " : "", name,
                 sep, lane, sep, t);
    }
    return add_wrapped(d, key, buf, ATTR_KEYW, TT_R_PANEL_LINK, true, to, 2);
}

/* ------------------------------------------------------------ launches */

#define MAX_LAUNCHED 20
#define MAX_CHAIN 12

/* A device event: the host call that launched it, the launch delay and
 * the chain of host events around the call (op, module or annotation,
 * step), each a link. */
static int add_launcher(tt_details *d, const tt_trace *tr, const tt_attrib *at, tt_evref ev)
{
    tt_evref l = tt_attrib_launcher(at, ev), op = tt_attrib_launch_op(at, ev), p;
    char buf[120], a[64];
    size_t k = 0;
    if (!tt_evref_ok(l))
        return add_text(d, "Launcher", tt_attrib_has_links(at)
                                           ? "unknown (no flow or correlation id names it)"
                                           : "unknown (no launch links in this trace)");
    if (add_link(d, tr, "Launcher", "", 0, l, true))
        return -1;
    tt_fmt_dur(a, sizeof a, tt_trace_event(tr, ev)->start - tt_trace_event(tr, l)->start, 3);
    snprintf(buf, sizeof buf, "%s after the launch call began", a);
    if (add_text(d, "Delay", buf))
        return -1;
    if (tt_evref_ok(op) && (op.lane != l.lane || op.idx != l.idx) &&
        add_link(d, tr, "Launch op", "", 0, op, true))
        return -1;
    /* what the op runs in, outwards: modules, annotations, the step */
    p = tt_evref_ok(op) ? op : l;
    for (p = tt_attrib_parent(at, p); tt_evref_ok(p); p = tt_attrib_parent(at, p), k++) {
        if (k == MAX_CHAIN) {
            size_t more = 0;
            for (; tt_evref_ok(p); p = tt_attrib_parent(at, p))
                more++;
            snprintf(buf, sizeof buf, "... and %zu more callers", more);
            return add_text(d, "", buf);
        }
        if (add_link(d, tr, k == 0 ? "Called in" : "", "", 0, p, true))
            return -1;
    }
    return 0;
}

/* A host event: its self time, its device time and the device events it
 * launched (a runtime call: the ones it launched itself; an op: those
 * whose launch op it is). */
static int add_launched(tt_details *d, const tt_trace *tr, const tt_attrib *at, tt_evref ev)
{
    tt_evref *v = NULL;
    size_t n = 0, cap = 0;
    char buf[240], a[64], b[64];
    bool rt = tt_attrib_is_runtime(at, ev);
    int rc = -1;
    tt_fmt_dur(a, sizeof a, tt_attrib_self(at, ev), 3);
    if (add_text(d, "Self", a))
        return -1;
    if (!tt_attrib_has_links(at))
        return add_text(d, "Device", "no launch links in this trace");
    tt_fmt_dur(a, sizeof a, tt_attrib_device_self(at, ev), 3);
    tt_fmt_dur(b, sizeof b, tt_attrib_device_total(at, ev), 3);
    snprintf(buf, sizeof buf, "self %s (launched by it), total %s (launched under it)", a, b);
    if (add_text(d, "Device", buf))
        return -1;
    if (tt_attrib_launched(at, ev, rt, &v, &n, &cap))
        goto out;
    for (size_t k = 0; k < n && k < MAX_LAUNCHED; k++)
        if (add_link(d, tr, k == 0 ? "Launched" : "", "", 1, v[k], true))
            goto out;
    if (n > MAX_LAUNCHED) {
        snprintf(buf, sizeof buf, "... and %zu more (%zu device events)", n - MAX_LAUNCHED, n);
        if (add_text(d, "", buf))
            goto out;
    }
    rc = 0;
out:
    free(v);
    return rc;
}

/* The Launch section: who launched a device event, what a host event
 * launched. Attribution failing (out of memory) costs the section. */
static int add_launch(tt_details *d, const tt_trace *tr, tt_evref ev)
{
    tt_error err;
    const tt_attrib *at;
    tt_error_clear(&err);
    if (!(at = tt_attrib_get(tr, &err)))
        return 0;
    if (add_title(d, "Launch"))
        return -1;
    return tt_attrib_is_device(at, ev) ? add_launcher(d, tr, at, ev)
                                       : add_launched(d, tr, at, ev);
}

/* The shortest text that reads back as the same double (as JSON
 * writers print it: 0.592593, not 0.59259300000000004). */
static void fmt_number(char *buf, size_t n, double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Width of the key column for a JSON object's members (and nested ones). */
static int json_keyw(const cJSON *obj, int prefix, int depth)
{
    const cJSON *it;
    int w = 0;
    cJSON_ArrayForEach(it, obj) {
        int kw = prefix + (it->string ? (int)strlen(it->string) : 0);
        if (cJSON_IsObject(it) && depth < 3 && it->child)
            kw = json_keyw(it, kw + 1, depth + 1);
        if (kw > w)
            w = kw;
    }
    return w;
}

static int add_json(tt_details *d, const cJSON *obj, const char *prefix, int keyw, int depth)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        char key[256], num[64];
        snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "",
                 it->string ? it->string : "?");
        if (cJSON_IsObject(it) && depth < 3 && it->child) {
            if (add_json(d, it, key, keyw, depth + 1))
                return -1;
            continue;
        }
        if (cJSON_IsString(it)) {
            if (add_raw(d, key, it->valuestring, strlen(it->valuestring), keyw, TT_R_PANEL, false,
                        no_ref))
                return -1;
        } else if (cJSON_IsNumber(it)) {
            fmt_number(num, sizeof num, it->valuedouble);
            if (add_raw(d, key, num, strlen(num), keyw, TT_R_PANEL, false, no_ref))
                return -1;
        } else if (cJSON_IsBool(it) || cJSON_IsNull(it)) {
            const char *s = cJSON_IsNull(it) ? "null" : cJSON_IsTrue(it) ? "true" : "false";
            if (add_raw(d, key, s, strlen(s), keyw, TT_R_PANEL, false, no_ref))
                return -1;
        } else {
            char *s = cJSON_PrintUnformatted(it);
            int rc;
            if (!s)
                return -1;
            /* very long arrays are cut: the panel is for reading */
            rc = add_raw(d, key, s, strlen(s) > 4000 ? 4000 : strlen(s), keyw, TT_R_PANEL, false,
                         no_ref);
            cJSON_free(s);
            if (rc)
                return -1;
        }
    }
    return 0;
}

/* One JSON object text (arguments or other fields) as lines. */
static int add_json_text(tt_details *d, const char *title, const char *text, size_t n,
                         int max_keyw)
{
    cJSON *root;
    int rc = 0, keyw;
    if (n == 0)
        return 0;
    if (add_title(d, title))
        return -1;
    root = cJSON_ParseWithLength(text, n);
    if (!root || !cJSON_IsObject(root)) {
        /* not an object: show the text itself */
        cJSON_Delete(root);
        return add_raw(d, "", text, n > 4000 ? 4000 : n, 0, TT_R_PANEL, false, no_ref);
    }
    keyw = json_keyw(root, 0, 0);
    if (keyw > max_keyw)
        keyw = max_keyw;
    if (keyw > d->width / 2)
        keyw = d->width / 2;
    if (keyw < 4)
        keyw = 4;
    if (!root->child)
        rc = add_safe(d, "", "(empty)", 0, TT_R_PANEL, false, no_ref);
    else
        rc = add_json(d, root, "", keyw, 0);
    cJSON_Delete(root);
    return rc;
}

/* The Nsight Compute metrics joined to a kernel (--metrics,
 * analysis/ncu_join.h), under its arguments; nothing for other events. */
static int add_ncu(tt_details *d, const tt_trace *tr, tt_evref ev)
{
    cJSON *o;
    char *s;
    int rc;
    if (!tt_ncu_join_kernel(tr, ev))
        return 0;
    if (!(o = tt_ncu_join_details(tr, ev)))
        return -1;
    s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!s)
        return -1;
    /* ncu's metric names are long (sm__throughput.avg.pct_of_...) */
    rc = add_json_text(d, "Nsight Compute metrics", s, strlen(s), 48);
    cJSON_free(s);
    return rc;
}

int tt_details_build(tt_details *d, const tt_trace *tr, const tt_levels *lv, tt_evref ev,
                     int width)
{
    const tt_event *e = tt_trace_event(tr, ev);
    const tt_lane *ln = &tr->lanes[ev.lane];
    char buf[512], a[64];
    int rc = -1;
    bool name_cut;
    clear_lines(d);
    d->valid = false;
    d->cur = d->top = 0;
    d->ev = ev;
    d->width = width < 16 ? 16 : width;

    /* two lines of the name up here; all of it under Attributes */
    if (add_raw_lines(d, "Name", tt_str(tr, e->name), tt_strtab_len(tr->strings, e->name),
                      ATTR_KEYW, TT_R_PANEL, false, no_ref, 2))
        goto out;
    name_cut = d->last_cut;
    if (e->cat && add_raw(d, "Category", tt_str(tr, e->cat), tt_strtab_len(tr->strings, e->cat),
                          ATTR_KEYW, TT_R_PANEL, false, no_ref))
        goto out;
    tt_lane_fullname(tr, ev.lane, buf, sizeof buf);
    if (add_raw(d, "Lane", buf, strlen(buf), ATTR_KEYW, TT_R_PANEL, false, no_ref))
        goto out;
    snprintf(buf, sizeof buf, "%s", tt_fmt_dur(a, sizeof a, e->start - d->origin, 9));
    if (add_text(d, "Start", buf))
        goto out;
    snprintf(buf, sizeof buf, "%s", tt_fmt_dur(a, sizeof a, e->dur, 9));
    if (add_text(d, "Duration", buf))
        goto out;

    /* links */
    if (add_title(d, "Links"))
        goto out;
    {
        size_t first, n = tt_trace_flows_to(tr, ev, &first);
        for (size_t k = 0; k < n && k < MAX_FLOWS; k++) {
            const tt_flow *f = &tr->flows[tr->flows_by_to[first + k]];
            snprintf(a, sizeof a, "Flow in");
            if (add_link(d, tr, k == 0 ? a : "", "from", -1, f->from, false))
                goto out;
        }
        n = tt_trace_flows_from(tr, ev, &first);
        for (size_t k = 0; k < n && k < MAX_FLOWS; k++) {
            const tt_flow *f = &tr->flows[first + k];
            if (add_link(d, tr, k == 0 ? "Flow out" : "", "to", 1, f->to, false))
                goto out;
        }
    }
    if (ln->kind == TT_LANE_ASYNC) {
        if (add_text(d, "Parent", "none (async events are packed into rows, not nested)"))
            goto out;
    } else if (e->depth == 0) {
        if (add_text(d, "Parent", "none (top level)"))
            goto out;
    } else {
        const tt_level *pl = tt_levels_get(lv, ev.lane, e->depth - 1u);
        int64_t pi = pl ? tt_level_at(pl, 0, e->start) : -1;
        if (pi >= 0) {
            tt_evref p = {ev.lane, tt_level_pos(pl, (size_t)pi)};
            if (add_link(d, tr, "Parent", "", 0, p, true))
                goto out;
        } else if (add_text(d, "Parent", "none")) {
            goto out;
        }
    }
    if (ln->kind != TT_LANE_ASYNC) {
        const tt_level *cl = tt_levels_get(lv, ev.lane, e->depth + 1u);
        size_t i = cl ? tt_level_lower_bound(cl, 0, e->start) : 0, shown = 0, total = 0;
        tt_ns end = tt_event_end(e);
        if (cl) {
            /* children start inside the parent */
            total = tt_level_lower_bound(cl, i, end) - i;
        }
        if (total == 0) {
            if (add_text(d, "Children", "none"))
                goto out;
        } else {
            for (; shown < total && shown < MAX_CHILDREN; shown++, i++) {
                tt_evref c = {ev.lane, tt_level_pos(cl, i)};
                char key[32];
                snprintf(key, sizeof key, "Children");
                if (add_link(d, tr, shown == 0 ? key : "", "", 0, c, true))
                    goto out;
            }
            if (total > shown) {
                snprintf(buf, sizeof buf, "... and %zu more (%zu children)", total - shown, total);
                if (add_text(d, "", buf))
                    goto out;
            } else if (total > 1) {
                snprintf(buf, sizeof buf, "(%zu children)", total);
                if (add_text(d, "", buf))
                    goto out;
            }
        }
    }

    if (add_launch(d, tr, ev))
        goto out;

    /* everything else the model knows */
    if (add_title(d, "Attributes"))
        goto out;
    if (name_cut && add_raw(d, "Full name", tt_str(tr, e->name),
                            tt_strtab_len(tr->strings, e->name), ATTR_KEYW, TT_R_PANEL, false,
                            no_ref))
        goto out;
    snprintf(buf, sizeof buf, "%s%s%s", kind_name(e->kind),
             (e->flags & TT_EVF_UNCLOSED) ? ", never ended (runs to the trace end)" : "",
             (e->flags & TT_EVF_CLAMPED) ? ", ended before it began (duration set to 0)" : "");
    if (add_text(d, "Kind", buf))
        goto out;
    snprintf(buf, sizeof buf, "%s", tt_fmt_dur(a, sizeof a, tt_event_end(e) - d->origin, 9));
    if (add_text(d, "End", buf))
        goto out;
    snprintf(buf, sizeof buf, "%" PRId64 " ns on the trace's clock", e->start);
    if (add_text(d, "Abs. start", buf))
        goto out;
    snprintf(buf, sizeof buf, "%u", (unsigned)e->depth);
    if (add_text(d, "Depth", buf))
        goto out;
    if (e->bytes >= 0) {
        tt_fmt_bytes(a, sizeof a, e->bytes);
        if (e->dur > 0)
            snprintf(buf, sizeof buf, "%s (%" PRId64 " B), %.2f GB/s", a, e->bytes,
                     (double)e->bytes / (double)e->dur);
        else
            snprintf(buf, sizeof buf, "%s (%" PRId64 " B)", a, e->bytes);
        if (add_text(d, "Bytes", buf))
            goto out;
    }
    {
        uint32_t op = tt_event_opcode(tr, e), layer = tt_event_layer(tr, e),
                 operand = tt_event_operand(tr, e);
        if (op && add_raw(d, "Opcode", tt_str(tr, op), tt_strtab_len(tr->strings, op), ATTR_KEYW,
                          TT_R_PANEL, false, no_ref))
            goto out;
        if (layer && add_raw(d, "Layer", tt_str(tr, layer), tt_strtab_len(tr->strings, layer),
                             ATTR_KEYW, TT_R_PANEL, false, no_ref))
            goto out;
        if (operand && add_raw(d, "Operand", tt_str(tr, operand),
                               tt_strtab_len(tr->strings, operand), ATTR_KEYW, TT_R_PANEL, false,
                               no_ref))
            goto out;
    }
    if (e->corr) {
        snprintf(buf, sizeof buf, "%u", (unsigned)e->corr);
        if (add_text(d, "Corr. id", buf))
            goto out;
    }


    /* arguments, decoded now */
    if (e->args) {
        const char *at, *xt;
        size_t alen, xlen;
        if (tt_args_read(&d->rd, e->args, &at, &alen, &xt, &xlen) == 0) {
            /* the reader's buffer is reused by the next read: copy */
            char *ac = malloc(alen + 1), *xc = malloc(xlen + 1);
            int r2;
            if (!ac || !xc) {
                free(ac);
                free(xc);
                goto out;
            }
            memcpy(ac, at, alen);
            ac[alen] = '\0';
            memcpy(xc, xt, xlen);
            xc[xlen] = '\0';
            r2 = add_json_text(d, "Arguments", ac, alen, 24);
            if (!r2)
                r2 = add_json_text(d, "Other fields", xc, xlen, 24);
            free(ac);
            free(xc);
            if (r2)
                goto out;
        } else {
            /* a snapshot's section found corrupt when first read says
             * where (its message holds no trace strings) */
            tt_error why;
            if (add_title(d, "Arguments") ||
                add_text(d, "", tt_args_error(tr->args, &why)
                                    ? why.what
                                    : "(cannot be decoded: the argument store is damaged)"))
                goto out;
        }
    } else {
        if (add_title(d, "Arguments") || add_safe(d, "", "(none)", 0, TT_R_PANEL, false, no_ref))
            goto out;
    }
    if (add_ncu(d, tr, ev))
        goto out;
    rc = 0;
out:
    /* cursor on the first link: the usual next step */
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i].link) {
            d->cur = i;
            break;
        }
    d->valid = rc == 0;
    return rc;
}

void tt_details_move(tt_details *d, int64_t delta)
{
    int64_t c = (int64_t)d->cur + delta;
    if (c < 0)
        c = 0;
    if (d->n == 0)
        c = 0;
    else if (c >= (int64_t)d->n)
        c = (int64_t)d->n - 1;
    d->cur = (size_t)c;
}

void tt_details_scroll(tt_details *d, int inner_h)
{
    if (inner_h < 1)
        inner_h = 1;
    if (d->cur < d->top)
        d->top = d->cur;
    if (d->cur >= d->top + (size_t)inner_h)
        d->top = d->cur - (size_t)inner_h + 1;
}

bool tt_details_link(const tt_details *d, tt_evref *out)
{
    if (!d->valid || d->cur >= d->n || !d->v[d->cur].link)
        return false;
    *out = d->v[d->cur].target;
    return true;
}

void tt_panel_box(tt_grid *g, int x, int y, int w, int h, const tt_glyphs *gl,
                  const char *title, const char *hint)
{
    if (w < 2 || h < 2)
        return;
    for (int r = 0; r < h; r++)
        tt_grid_fill(g, x, y + r, w, ' ', TT_R_PANEL, 0);
    tt_grid_set(g, x, y, gl->tl, TT_R_PANEL_BORDER, 0);
    tt_grid_fill(g, x + 1, y, w - 2, gl->hline, TT_R_PANEL_BORDER, 0);
    tt_grid_set(g, x + w - 1, y, gl->tr, TT_R_PANEL_BORDER, 0);
    for (int r = 1; r < h - 1; r++) {
        tt_grid_set(g, x, y + r, gl->vline, TT_R_PANEL_BORDER, 0);
        tt_grid_set(g, x + w - 1, y + r, gl->vline, TT_R_PANEL_BORDER, 0);
    }
    tt_grid_set(g, x, y + h - 1, gl->bl, TT_R_PANEL_BORDER, 0);
    tt_grid_fill(g, x + 1, y + h - 1, w - 2, gl->hline, TT_R_PANEL_BORDER, 0);
    tt_grid_set(g, x + w - 1, y + h - 1, gl->br, TT_R_PANEL_BORDER, 0);
    if (title && w > 6) {
        int tw = tt_grid_text_fit(g, x + 2, y, w - 4, title, TT_R_PANEL_TITLE, 0, gl->ellipsis);
        if (hint && w - 4 - tw > tt_grid_text_width(hint) + 2) {
            int hw = tt_grid_text_width(hint);
            tt_grid_text(g, x + w - 2 - hw, y, hw, hint, TT_R_PANEL_BORDER, 0);
        }
    }
}

void tt_details_draw(tt_details *d, tt_grid *g, int x, int y, int w, int h,
                     const tt_glyphs *gl, const char *title)
{
    int inner_h = h - 2, inner_w = w - 4;
    tt_panel_box(g, x, y, w, h, gl, title, "Enter follow  Esc close");
    if (inner_h <= 0 || inner_w <= 0)
        return;
    tt_details_scroll(d, inner_h);
    for (int r = 0; r < inner_h && d->top + (size_t)r < d->n; r++) {
        const tt_dline *l = &d->v[d->top + (size_t)r];
        int yy = y + 1 + r, xx = x + 2, kw = l->keyw;
        bool cur = d->top + (size_t)r == d->cur;
        uint8_t vrole = cur ? TT_R_PANEL_CUR : l->role;
        if (cur)
            tt_grid_fill(g, x + 1, yy, w - 2, ' ', TT_R_PANEL_CUR, 0);
        if (kw > 0 && kw < inner_w) {
            tt_grid_text_fit(g, xx, yy, kw, l->key, cur ? TT_R_PANEL_CUR : TT_R_PANEL_KEY, 0,
                             gl->ellipsis);
            xx += kw + 1;
        }
        tt_grid_text_fit(g, xx, yy, x + w - 2 - xx, l->val, vrole, 0, gl->ellipsis);
    }
    /* a scroll hint when there is more below or above */
    if (d->n > (size_t)inner_h && w > 12) {
        char pos[32];
        snprintf(pos, sizeof pos, " %zu/%zu ", d->cur + 1, d->n);
        tt_grid_text(g, x + w - 2 - (int)strlen(pos), y + h - 1, (int)strlen(pos), pos,
                     TT_R_PANEL_BORDER, 0);
    }
}
