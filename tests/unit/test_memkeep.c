/* test_memkeep.c - tt_mem_keep_freed(): after it, memory the process frees
 * is reused without being faulted in again (the point of it: a fault is
 * ~20 us on the VMs this runs on), and tt_mem_trim() no longer hands it
 * back; before it, tt_mem_trim() does. Page faults are counted with
 * getrusage() around the second touch of a block of the same size.
 * Skipped where the allocator is not glibc's own (other C libraries, or
 * a sanitizer's allocator, which ignores mallopt()). */
#include "config.h"

#include "../tap.h"
#include "util/memkeep.h"

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

/* 16 MB: past glibc's default mmap threshold (128 KiB), below the 32 MB
 * that tt_mem_keep_freed() sets. */
#define BLOCK ((size_t)16 << 20)

static long minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
}

/* Faults taken while touching every page of a fresh BLOCK; -1 when out of
 * memory. The block is freed again. */
static long touch_block(void)
{
    long before = minor_faults(), after;
    volatile unsigned char *p = malloc(BLOCK);
    if (!p)
        return -1;
    for (size_t i = 0; i < BLOCK; i += 4096)
        p[i] = (unsigned char)i;
    after = minor_faults();
    free((void *)p);
    return after - before;
}

int main(void)
{
    long pages = (long)(BLOCK / 4096), first, again;
#if !defined(__GLIBC__) || defined(TT_OTHER_ALLOCATOR)
    (void)pages;
    (void)first;
    (void)again;
    (void)touch_block;
    return tap_skip_all("the allocator is not glibc's malloc");
#else
    if (sysconf(_SC_PAGESIZE) != 4096)
        return tap_skip_all("pages are not 4 KiB");
    /* not keeping: freed and trimmed, the block's pages are new again */
    first = touch_block();
    tt_mem_trim();
    again = touch_block();
    diag("not keeping: %ld faults, then %ld after tt_mem_trim()", first, again);
    if (first < pages / 2)   /* transparent huge pages for every block */
        return tap_skip_all("pages are not faulted in one by one here");
    ok(again >= pages / 2, "not kept: after tt_mem_trim() the pages fault in again (%ld of %ld)",
       again, pages);

    /* keeping: the same block size reuses the pages, trim or not */
    tt_mem_keep_freed();
    first = touch_block();
    again = touch_block();
    diag("keeping: %ld faults, then %ld", first, again);
    ok(again >= 0 && again < pages / 8, "kept: a block freed and taken again faults little (%ld)",
       again);
    tt_mem_trim();
    again = touch_block();
    ok(again >= 0 && again < pages / 8, "kept: tt_mem_trim() gives nothing back (%ld)", again);
    return tap_done();
#endif
}
