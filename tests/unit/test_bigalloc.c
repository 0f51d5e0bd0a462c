/* test_bigalloc.c - tt_bigrealloc() and tt_bigcalloc(): an array grown
 * from a few bytes to 64 MB keeps every element it held, whether it was
 * copied (from small) or its pages were moved (from big); a cleared block
 * is all zeros even where the memory was used before; and, where the
 * kernel gives huge pages to advised memory, the growth faults far fewer
 * times than it has 4 KiB pages (the point of it: a fault is ~20 us on
 * the VMs this runs on). Faults are counted with getrusage(). */
#include "config.h"

#include "../tap.h"
#include "util/bigalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TT_OTHER_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TT_OTHER_ALLOCATOR 1
#endif

#define FINAL ((size_t)64 << 20)

static long minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
}

#if defined(__GLIBC__) && !defined(TT_OTHER_ALLOCATOR)
/* Whether advised memory gets huge pages: THP "always" or "madvise".
 * (Only the fault count needs it: not built under a sanitizer's own
 * allocator, where the count is not checked.) */
static int thp_advised(void)
{
    char buf[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return 0;
    if (!fgets(buf, sizeof buf, f))
        buf[0] = '\0';
    fclose(f);
    return strstr(buf, "[always]") || strstr(buf, "[madvise]");
}
#endif

/* Grow an array of uint64_t one element at a time by doubling, as the
 * trace's lanes do, to FINAL bytes, element i holding i * 2654435761.
 * The number of elements that came back wrong after the last growth;
 * -1 when out of memory. *faults: the faults taken meanwhile. */
static long grow_and_check(long *faults)
{
    uint64_t *a = NULL;
    size_t n = 0, cap = 0, want = FINAL / sizeof *a;
    long before = minor_faults(), bad = 0;
    for (; n < want; n++) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 8;
            uint64_t *na = tt_bigrealloc(a, n * sizeof *a, nc * sizeof *a);
            if (!na) {
                free(a);
                return -1;
            }
            a = na;
            cap = nc;
        }
        a[n] = (uint64_t)n * 2654435761u;
    }
    *faults = minor_faults() - before;
    for (size_t i = 0; i < n; i++)
        bad += a[i] != (uint64_t)i * 2654435761u;
    free(a);
    return bad;
}

int main(void)
{
    long faults = 0, bad, pages = (long)(FINAL / 4096);
    unsigned char *p;
    size_t nonzero = 0;

    bad = grow_and_check(&faults);
    ok(bad == 0, "growing to 64 MB (copied from small, moved when big) keeps every element "
                 "(%ld wrong)", bad);
    diag("growth to 64 MB: %ld faults for %ld pages of 4 KiB", faults, pages);

    /* used memory taken again, cleared */
    p = tt_bigalloc((size_t)8 << 20);
    if (p) {
        memset(p, 0xa5, (size_t)8 << 20);
        free(p);
    }
    p = tt_bigcalloc((size_t)8 << 20);
    ok(p != NULL, "tt_bigcalloc() of 8 MB");
    for (size_t i = 0; p && i < ((size_t)8 << 20); i++)
        nonzero += p[i] != 0;
    ok(nonzero == 0, "tt_bigcalloc() clears the block (%zu bytes were not zero)", nonzero);
    free(p);
    p = tt_bigcalloc(100);
    ok(p && p[0] == 0 && p[99] == 0, "tt_bigcalloc() of a small block is calloc()");
    free(p);

#if defined(__GLIBC__) && !defined(TT_OTHER_ALLOCATOR)
    if (sysconf(_SC_PAGESIZE) != 4096 || !thp_advised()) {
        diag("no huge pages for advised memory here: fault count not checked");
    } else {
        /* a second run, so that what the first one set up (glibc's
         * thresholds, the arrays below TT_BIGALLOC_FROM) is not counted;
         * below it every page of the 2 MiB before the switch faults */
        bad = grow_and_check(&faults);
        ok(bad == 0 && faults >= 0 && faults < pages / 8,
           "growing to 64 MB faults on huge pages: %ld faults for %ld pages", faults, pages);
    }
#endif
    return tap_done();
}
