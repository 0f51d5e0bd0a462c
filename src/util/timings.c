/* timings.c - wall and CPU time per phase (see timings.h). */
#include "config.h"

#include "util/timings.h"

#include <pthread.h>
#include <time.h>

static bool enabled;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    double   wall, cpu;
    unsigned count;   /* how many times the phase ran (one per load) */
} totals[TT_PHASE__N];

static const char *const phase_names[TT_PHASE__N] = {
    [TT_PHASE_DECODE] = "decode (read, decompress, parse)",
    [TT_PHASE_FINALIZE] = "finalize (sort, nest, index)",
};

static double seconds(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void tt_timings_enable(void)
{
    enabled = true;
}

bool tt_timings_enabled(void)
{
    return enabled;
}

void tt_timings_run_start(tt_phase_mark *m)
{
    m->wall = seconds(CLOCK_MONOTONIC);
    m->cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
}

void tt_phase_start(tt_phase_mark *m)
{
    if (!enabled)
        return;
    m->wall = seconds(CLOCK_MONOTONIC);
    m->cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
}

void tt_phase_stop(tt_phase p, const tt_phase_mark *m)
{
    double wall, cpu;
    if (!enabled)
        return;
    wall = seconds(CLOCK_MONOTONIC) - m->wall;
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - m->cpu;
    pthread_mutex_lock(&lock);
    totals[p].wall += wall;
    totals[p].cpu += cpu;
    totals[p].count++;
    pthread_mutex_unlock(&lock);
}

static void print_line(FILE *f, const char *what, double wall, double cpu, unsigned count)
{
    fprintf(f, "tracetty: timings: %-34s wall %8.3f s  CPU %8.3f s", what, wall, cpu);
    if (count > 1)
        fprintf(f, "  (%u loads, summed)", count);
    fputc('\n', f);
}

void tt_timings_print(FILE *f, const tt_phase_mark *run_start)
{
    double wall, cpu, rest_wall, rest_cpu;
    if (!enabled)
        return;
    wall = seconds(CLOCK_MONOTONIC) - run_start->wall;
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - run_start->cpu;
    rest_wall = wall;
    rest_cpu = cpu;
    pthread_mutex_lock(&lock);
    for (int p = 0; p < TT_PHASE__N; p++) {
        print_line(f, phase_names[p], totals[p].wall, totals[p].cpu, totals[p].count);
        rest_wall -= totals[p].wall;
        rest_cpu -= totals[p].cpu;
    }
    pthread_mutex_unlock(&lock);
    /* loads side by side can sum to more than the run: nothing is left */
    print_line(f, "command (rules, report, output)", rest_wall > 0 ? rest_wall : 0,
               rest_cpu > 0 ? rest_cpu : 0, 0);
    print_line(f, "total", wall, cpu, 0);
}
