/* progress.c - load progress meter (see progress.h). */
#include "config.h"

#include "cli/progress.h"

#include "util/text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double tt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void tt_progress_init(tt_progress *p, const char *label, bool quiet)
{
    memset(p, 0, sizeof *p);
    p->active = !quiet && isatty(STDERR_FILENO);
    p->t_start = p->t_last = tt_now();
    tt_text_sanitize(label, strlen(label), p->label, sizeof p->label);
}

void tt_progress_update(void *ctx, int64_t file_pos, int64_t file_size, int64_t data_pos,
                        uint64_t events)
{
    tt_progress *p = ctx;
    double now, el;
    char pct[16] = "";
    if (!p->active)
        return;
    now = tt_now();
    /* nothing for quick loads, then at most 10 redraws a second */
    if (now - p->t_start < 0.3 || now - p->t_last < 0.1)
        return;
    p->t_last = now;
    el = now - p->t_start;
    if (file_size > 0)
        snprintf(pct, sizeof pct, " (%d%%)", (int)(100.0 * (double)file_pos / (double)file_size));
    fprintf(stderr, "\r\033[Kloading %s: %.1f of %.1f MB%s, %llu events, %.0f MB/s, %.1f s",
            p->label, (double)file_pos / 1e6, file_size > 0 ? (double)file_size / 1e6 : 0.0,
            pct, (unsigned long long)events, el > 0 ? (double)data_pos / 1e6 / el : 0.0, el);
    fflush(stderr);
    p->drawn = true;
}

void tt_progress_files(void *ctx, size_t done, size_t total, int64_t bytes, uint64_t events)
{
    tt_progress *p = ctx;
    double now, el;
    if (!p->active)
        return;
    now = tt_now();
    if (now - p->t_start < 0.3 || now - p->t_last < 0.1)
        return;
    p->t_last = now;
    el = now - p->t_start;
    fprintf(stderr, "\r\033[Kloading %zu of %zu traces done, %.1f MB, %llu events, %.0f MB/s, %.1f s",
            done, total, (double)bytes / 1e6, (unsigned long long)events,
            el > 0 ? (double)bytes / 1e6 / el : 0.0, el);
    fflush(stderr);
    p->drawn = true;
}

void tt_progress_done(tt_progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = false;
}
