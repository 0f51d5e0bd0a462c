/* timefmt.c - time and value formatting for the timeline (see timefmt.h). */
#include "config.h"

#include "tui/timefmt.h"

#include "util/num.h"

#include <math.h>
#include <stdio.h>

int tt_tfmt_decimals(int64_t unit_ns, int64_t res_ns)
{
    int d = 0;
    int64_t step = unit_ns;
    if (res_ns < 1)
        res_ns = 1;
    while (d < 9 && step > res_ns) {
        step /= 10;
        d++;
    }
    return d;
}

char *tt_tfmt_time(char *buf, size_t n, int64_t rel_ns, int64_t res_ns)
{
    int64_t mag = rel_ns < 0 ? -rel_ns : rel_ns;
    int64_t unit = tt_unit_for(mag > res_ns ? mag : res_ns);
    return tt_fmt_dur_unit(buf, n, rel_ns, unit, tt_tfmt_decimals(unit, res_ns));
}

char *tt_tfmt_dur(char *buf, size_t n, int64_t ns, int decimals)
{
    return tt_fmt_dur(buf, n, ns, decimals);
}

char *tt_tfmt_value(char *buf, size_t n, double v)
{
    static const struct { double scale; const char *suffix; } si[] = {
        {1e15, " P"}, {1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"},
    };
    double a = fabs(v);
    if (!isfinite(v)) {
        snprintf(buf, n, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return buf;
    }
    for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
        if (a >= si[i].scale) {
            double x = v / si[i].scale;
            snprintf(buf, n, "%.*f%s", fabs(x) >= 100 ? 0 : fabs(x) >= 10 ? 1 : 2, x, si[i].suffix);
            return buf;
        }
    if (a == 0)
        snprintf(buf, n, "0");
    else if (a >= 100)
        snprintf(buf, n, "%.0f", v);
    else if (a >= 1)
        snprintf(buf, n, "%.3g", v);
    else
        snprintf(buf, n, "%.2g", v);
    return buf;
}
