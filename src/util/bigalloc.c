/* bigalloc.c - large arrays on transparent huge pages (see bigalloc.h). */
#include "config.h"

#include "util/bigalloc.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *tt_bigalloc(size_t n)
{
    void *p = NULL;
    if (n < TT_BIGALLOC_FROM)
        return malloc(n ? n : 1);
    /* whole huge pages: the kernel backs only aligned 2 MiB ranges */
    if (posix_memalign(&p, HUGE_PAGE, n))
        return NULL;
#ifdef MADV_HUGEPAGE
    /* advice only: where it is refused the pages are ordinary ones (the
     * range stays inside the block: its last partial huge page is not
     * huge anyway) */
    (void)madvise(p, (n + 4095) & ~(size_t)4095, MADV_HUGEPAGE);
#endif
    return p;
}
