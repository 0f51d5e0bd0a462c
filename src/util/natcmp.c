/* natcmp.c - natural order comparison (see natcmp.h). */
#include "config.h"

#include "util/natcmp.h"

#include <string.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Compare two digit runs by value: skip leading zeros, longer is bigger,
 * then lexicographic. Both pointers advance past their runs. */
static int cmp_digits(const char **pa, const char **pb)
{
    const char *a = *pa, *b = *pb, *ea, *eb;
    size_t la, lb;
    int c;
    while (*a == '0' && is_digit(a[1]))
        a++;
    while (*b == '0' && is_digit(b[1]))
        b++;
    for (ea = a; is_digit(*ea); ea++)
        ;
    for (eb = b; is_digit(*eb); eb++)
        ;
    la = (size_t)(ea - a);
    lb = (size_t)(eb - b);
    *pa = ea;
    *pb = eb;
    if (la != lb)
        return la < lb ? -1 : 1;
    c = memcmp(a, b, la);
    return c < 0 ? -1 : c > 0;
}

int tt_natcmp(const char *a, const char *b)
{
    /* whole-string negative numbers (pids like "-1") sort before positives */
    int na = a[0] == '-' && is_digit(a[1]), nb = b[0] == '-' && is_digit(b[1]);
    if (na != nb)
        return na ? -1 : 1;
    if (na) {
        const char *x = a + 1, *y = b + 1;
        int c = cmp_digits(&x, &y);
        if (c)
            return -c;
        return tt_natcmp(x, y);
    }
    while (*a && *b) {
        if (is_digit(*a) && is_digit(*b)) {
            int c = cmp_digits(&a, &b);
            if (c)
                return c;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}
