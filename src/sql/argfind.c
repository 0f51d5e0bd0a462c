/* argfind.c - one argument of one record by its Perfetto key (see
 * argfind.h): the record is read, its leaves walked in order until the
 * key is met. */
#include "config.h"

#include "sql/argfind.h"

#include <string.h>

typedef struct find_ctx {
    const char *key;
    size_t      n;
    tt_sql_val *out;
} find_ctx;

void tt_sql_argleaf_val(const tt_argleaf *l, tt_sql_val *out)
{
    switch (l->type) {
    case TT_ARGT_INT:
    case TT_ARGT_BOOL: tt_sql_set_int(out, l->i); break;
    case TT_ARGT_REAL: tt_sql_set_real(out, l->d); break;
    case TT_ARGT_STRING: tt_sql_set_textn(out, l->s, l->n); break;
    }
}

static int find_leaf(void *vctx, const tt_argleaf *l, tt_error *err)
{
    (void)err;
    find_ctx *c = vctx;
    if (l->key_n != c->n || memcmp(l->key, c->key, c->n) != 0)
        return 0;
    tt_sql_argleaf_val(l, c->out);
    return 1;   /* the first such key, as a lookup of a duplicate key gives */
}

int tt_sql_args_text(tt_args_reader *r, uint32_t handle, const char **text, size_t *n,
                     tt_error *err)
{
    const char *extra;
    size_t elen;
    if (tt_args_read(r, handle, text, n, &extra, &elen) == 0)
        return 0;
    /* a snapshot's section found corrupt says where; else the store */
    if (!tt_args_error(r->store, err))
        tt_error_set(err, TT_ERR_FORMAT, "arguments of record %u cannot be decoded",
                     (unsigned)handle);
    return -1;
}

int tt_sql_argfind(tt_args_reader *r, tt_argflat *f, uint32_t handle, const char *key,
                   tt_sql_val *out, tt_error *err)
{
    const char *text;
    size_t n;
    tt_sql_set_null(out);
    if (handle == 0)
        return 0;
    if (tt_sql_args_text(r, handle, &text, &n, err))
        return -1;
    find_ctx c = {key, strlen(key), out};
    int rc = tt_argflat_walk(f, text, n, find_leaf, &c, err);
    return rc < 0 ? -1 : 0;
}
