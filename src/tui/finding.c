/* finding.c - the detail of one finding (see finding.h). */
#include "config.h"

#include "tui/finding.h"

#include "tui/annot.h"
#include "tui/timefmt.h"
#include "util/num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Width of the key column ("Severity  "). */
#define KEYW 10
/* Lanes named before "and N more". */
#define MAX_LANES_NAMED 6

/* "Key       value", the value wrapped under itself. */
static int add_kv(tt_plist *pl, const char *key, const char *val, int width)
{
    size_t n = strlen(val) + KEYW + 2;
    char *line = malloc(n);
    tt_pline *l;
    if (!line)
        return -1;
    snprintf(line, n, "%-*s%s", KEYW, key, val);
    l = tt_plist_wrap_item(pl, TT_R_PANEL, false, 0, 0, line, width, KEYW);
    free(line);
    if (!l)
        return -1;
    l->lead_w = KEYW;
    l->lead_role = TT_R_PANEL_KEY;
    return 0;
}

/* The lanes' names, comma-separated (at most MAX_LANES_NAMED). */
static void lane_names(const tt_trace *tr, const tt_annotation *an, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    if (an->n_lanes == 0) {
        snprintf(out, cap, "every lane");
        return;
    }
    for (size_t i = 0; i < an->n_lanes && i < MAX_LANES_NAMED; i++) {
        char name[256];
        if (tr && an->lanes[i] < tr->n_lanes)
            tt_lane_fullname(tr, an->lanes[i], name, sizeof name);
        else
            snprintf(name, sizeof name, "lane %u", an->lanes[i]);
        used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "", name);
        if (used >= cap)
            return;
    }
    if (an->n_lanes > MAX_LANES_NAMED)
        snprintf(out + used, cap - used, " and %zu more", an->n_lanes - MAX_LANES_NAMED);
}

/* One event involved: "name · duration · lane · at time". */
static int add_event(tt_plist *pl, const tt_annview *v, const tt_annotation *an, size_t j,
                     int width, bool utf8)
{
    const char *sep = utf8 ? " \xc2\xb7 " : " - ";
    tt_ns off;
    const tt_trace *tr = tt_annview_trace(v, an, &off);
    tt_evref r = an->events[j];
    char line[1024], lane[256], t[48], d[48];
    tt_pline *l;
    if (tr && r.lane < tr->n_lanes && r.idx < tr->lanes[r.lane].n) {
        const tt_event *e = tt_trace_event(tr, r);
        tt_lane_fullname(tr, r.lane, lane, sizeof lane);
        /* to the microsecond, as the details panel says it */
        tt_tfmt_time(t, sizeof t, e->start + off - v->origin, 1000);
        tt_fmt_dur(d, sizeof d, e->dur, 3);
        snprintf(line, sizeof line, "  %s%s%s%s%s%sat %s", tt_str(tr, e->name), sep, d, sep, lane,
                 sep, t);
    } else {
        snprintf(line, sizeof line, "  event %u of lane %u", r.idx, r.lane);
    }
    l = tt_plist_wrap_item(pl, TT_R_PANEL_LINK, true, TT_AN_EVENT, (int64_t)j, line, width, 4);
    return l ? 0 : -1;
}

int tt_finding_build(tt_plist *pl, const tt_annview *v, size_t k, int width, bool utf8)
{
    const tt_annotation *an = &v->a.v[k];
    const tt_rule *rule = tt_rule_find(an->rule);
    tt_ns off;
    const tt_trace *tr = tt_annview_trace(v, an, &off);
    char buf[2048], t0[48], t1[48], dur[48], msg[1100];
    const char *dash = utf8 ? " \xe2\x80\x93 " : " .. ";
    /* the message first: it is what the list could not show whole */
    if (add_kv(pl, "Message", tt_annview_msg(v, an, msg, sizeof msg), width))
        return -1;
    if (rule)
        snprintf(buf, sizeof buf, "%s: %s", an->rule, rule->summary);
    else
        snprintf(buf, sizeof buf, "%s", an->rule);
    if (add_kv(pl, "Rule", buf, width) || add_kv(pl, "Severity", tt_severity_name(an->sev), width))
        return -1;
    if (v->ranks) {
        snprintf(buf, sizeof buf, "%lld", (long long)v->ranks[an->trace]);
        if (add_kv(pl, "Rank", buf, width))
            return -1;
    }
    tt_fmt_dur(t0, sizeof t0, an->start - v->origin, 3);
    tt_fmt_dur(t1, sizeof t1, an->end - v->origin, 3);
    tt_fmt_dur(dur, sizeof dur, an->end - an->start, 3);
    snprintf(buf, sizeof buf, "%s%s%s (%s)%s", t0, dash, t1, dur,
             v->ranks ? ", from the job's start" : "");
    if (add_kv(pl, "Time", buf, width))
        return -1;
    lane_names(tr, an, buf, sizeof buf);
    if (add_kv(pl, an->n_lanes == 1 ? "Lane" : "Lanes", buf, width))
        return -1;
    if (an->n_events == 0)
        snprintf(buf, sizeof buf, "none listed (Enter goes to the span)");
    else if (an->n_events_total > an->n_events)
        snprintf(buf, sizeof buf, "%zu of %llu listed (Enter on one selects it)", an->n_events,
                 (unsigned long long)an->n_events_total);
    else
        snprintf(buf, sizeof buf, "%zu (Enter on one selects it)", an->n_events);
    if (add_kv(pl, "Events", buf, width))
        return -1;
    for (size_t j = 0; j < an->n_events; j++)
        if (add_event(pl, v, an, j, width, utf8))
            return -1;
    return 0;
}
