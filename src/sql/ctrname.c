/* ctrname.c - the SQL name of a counter series: see sql/ctrname.h. */
#include "config.h"

#include "sql/ctrname.h"

#include <stdlib.h>
#include <string.h>

/* Make room for n bytes in *buf. */
static int reserve(char **buf, size_t *cap, size_t n, tt_error *err)
{
    char *p;
    if (n <= *cap)
        return 0;
    if (!(p = realloc(*buf, n)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    *buf = p;
    *cap = n;
    return 0;
}

int tt_sql_counter_name(const tt_trace *tr, const tt_counter *k, bool key_value, char **buf,
                        size_t *cap, tt_sql_val *v, tt_error *err)
{
    const char *name = tt_str(tr, k->name), *key = tt_str(tr, k->key), *open = NULL;
    size_t nn = tt_strtab_len(tr->strings, k->name), kn = tt_strtab_len(tr->strings, k->key);
    size_t n;

    /* "NAME[ID]" with a non-empty NAME and ID: the decoder's name of a
     * series with an id (the last '[' opens it) */
    if (!k->derived && nn >= 4 && name[nn - 1] == ']') {
        open = memrchr(name, '[', nn - 1);
        if (open && (open == name || open + 1 == name + nn - 1))
            open = NULL;
    }
    if (open) {
        size_t base = (size_t)(open - name), idn = nn - base - 2;
        n = base + 5 + idn + (kn ? 1 + kn : 0);
        if (reserve(buf, cap, n + 1, err))
            return -1;
        memcpy(*buf, name, base);
        memcpy(*buf + base, " id: ", 5);
        memcpy(*buf + base + 5, open + 1, idn);
        if (kn) {
            (*buf)[base + 5 + idn] = ' ';
            memcpy(*buf + base + 6 + idn, key, kn);
        }
        tt_sql_set_textn(v, *buf, n);
        return 0;
    }
    if (!kn || (!key_value && strcmp(key, "value") == 0)) {
        tt_sql_set_textn(v, name, nn);
        return 0;
    }
    n = nn + 1 + kn;
    if (reserve(buf, cap, n + 1, err))
        return -1;
    memcpy(*buf, name, nn);
    (*buf)[nn] = ' ';
    memcpy(*buf + nn + 1, key, kn);
    tt_sql_set_textn(v, *buf, n);
    return 0;
}
