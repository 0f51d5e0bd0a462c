/* natcmp.h - natural ("version") order of labels: "GPU 2" < "GPU 10". */
#ifndef TT_UTIL_NATCMP_H
#define TT_UTIL_NATCMP_H

/* <0, 0, >0 like strcmp, comparing runs of digits by numeric value
 * (a leading '-' before digits at the start makes the number negative). */
int tt_natcmp(const char *a, const char *b);

#endif
