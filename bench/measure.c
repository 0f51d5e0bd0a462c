/* measure.c - run a command and report its wall time, CPU time and peak
 * memory.
 *
 *   measure [-o FILE] -- PROGRAM [ARG...]
 *
 * Runs PROGRAM (found through PATH) with its stdout sent to FILE
 * (default /dev/null), waits with wait4() and prints one line on stdout:
 *
 *   wall_s=1.234567 cpu_s=1.200000 user_s=1.100000 sys_s=0.100000 maxrss_kb=123456
 *   minflt=31000 majflt=0 status=0
 *
 * (one line). minflt counts the minor page faults: first touches of fresh
 * memory, which on a VM cost far more than on bare metal (~21 us per
 * 4 KiB page on the Firecracker guest the bench was written on), so the
 * bench shows where they dominate a program's time. majflt counts faults
 * that waited for I/O.
 *
 * cpu_s is user + system time of the program and every child it waited
 * for, all threads (wait4's rusage), so it counts the work of every core
 * the program used. status is the exit code, or "signal=N" replaces it when the program was
 * killed. The exit status of measure is the program's (128+N after a
 * signal), 2 when the program cannot be started. A benchmark helper for
 * bench/run.sh: GNU time is not installed everywhere; libc only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    const char *out = "/dev/null";
    struct rusage ru;
    double t0, t1, user, sys;
    int status, argi = 1, fd;
    pid_t pid;

    while (argi < argc && strcmp(argv[argi], "--") != 0) {
        if (strcmp(argv[argi], "-o") == 0 && argi + 1 < argc) {
            out = argv[argi + 1];
            argi += 2;
        } else {
            fprintf(stderr, "usage: measure [-o FILE] -- PROGRAM [ARG...]\n");
            return 2;
        }
    }
    if (argi + 1 >= argc) {
        fprintf(stderr, "usage: measure [-o FILE] -- PROGRAM [ARG...]\n");
        return 2;
    }
    argi++;
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        fprintf(stderr, "measure: %s: %s\n", out, strerror(errno));
        return 2;
    }
    fflush(stdout);
    t0 = now();
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "measure: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
        execvp(argv[argi], argv + argi);
        fprintf(stderr, "measure: %s: %s\n", argv[argi], strerror(errno));
        _exit(127);
    }
    close(fd);
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "measure: wait4: %s\n", strerror(errno));
            return 2;
        }
    }
    t1 = now();
    user = tv_seconds(ru.ru_utime);
    sys = tv_seconds(ru.ru_stime);
    /* ru_maxrss is in kilobytes on Linux */
    printf("wall_s=%.6f cpu_s=%.6f user_s=%.6f sys_s=%.6f maxrss_kb=%ld minflt=%ld majflt=%ld ",
           t1 - t0, user + sys, user, sys, ru.ru_maxrss, ru.ru_minflt, ru.ru_majflt);
    if (WIFSIGNALED(status)) {
        printf("signal=%d\n", WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    printf("status=%d\n", WEXITSTATUS(status));
    return WEXITSTATUS(status);
}
