/* sort.c - stable bottom-up merge sort (see sort.h). */
#include "config.h"

#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

#define RUN 16

static void insertion(char *a, size_t n, size_t size, tt_cmp_fn cmp, void *ctx, char *tmp)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        if (cmp(a + (i - 1) * size, a + i * size, ctx) <= 0)
            continue;
        memcpy(tmp, a + i * size, size);
        while (j > 0 && cmp(a + (j - 1) * size, tmp, ctx) > 0) {
            memcpy(a + j * size, a + (j - 1) * size, size);
            j--;
        }
        memcpy(a + j * size, tmp, size);
    }
}

int tt_sort(void *base, size_t n, size_t size, tt_cmp_fn cmp, void *ctx)
{
    char *a = base, *buf, *src, *dst;
    size_t width;
    int sorted = 1;
    if (n < 2)
        return 0;
    for (size_t i = 1; i < n && sorted; i++)
        if (cmp(a + (i - 1) * size, a + i * size, ctx) > 0)
            sorted = 0;
    if (sorted)
        return 0;
    buf = malloc(n * size + size);
    if (!buf)
        return -1;
    for (size_t i = 0; i < n; i += RUN)
        insertion(a + i * size, n - i < RUN ? n - i : RUN, size, cmp, ctx, buf + n * size);
    src = a;
    dst = buf;
    for (width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            if (mid == hi || cmp(src + (mid - 1) * size, src + mid * size, ctx) <= 0) {
                memcpy(dst + lo * size, src + lo * size, (hi - lo) * size);
                continue;
            }
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0) {
                    memcpy(dst + k * size, src + j * size, size);
                    j++;
                } else {
                    memcpy(dst + k * size, src + i * size, size);
                    i++;
                }
                k++;
            }
            memcpy(dst + k * size, src + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        {
            char *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != a)
        memcpy(a, src, n * size);
    free(buf);
    return 0;
}
