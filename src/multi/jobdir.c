/* jobdir.c - profiler output directories as jobs (see jobdir.h). */
#include "config.h"

#include "multi/jobdir.h"

#include "decode/ascend_tree.h"
#include "decode/captures.h"
#include "util/natcmp.h"
#include "util/sort.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n > k && strcmp(s + n - k, suf) == 0;
}

static int cmp_str(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return tt_natcmp(*(char *const *)a, *(char *const *)b);
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int push(char ***v, size_t *n, size_t *cap, char *s)
{
    if (!s)
        return -1;
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        char **nv = realloc(*v, nc * sizeof *nv);
        if (!nv) {
            free(s);
            return -1;
        }
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = s;
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, name);
    return s;
}

/* The rank trees dir stands for, in natural order. */
static int find_trees(const char *dir, char ***trees, size_t *n, tt_error *err)
{
    char d[4096], info[4400];
    size_t len, cap = 0;
    DIR *dh;
    struct dirent *de;
    snprintf(d, sizeof d, "%s", dir);
    len = strlen(d);
    while (len > 1 && d[len - 1] == '/')
        d[--len] = '\0';
    *trees = NULL;
    *n = 0;
    /* the output directory of a tree: the tree is its parent */
    {
        const char *b = strrchr(d, '/');
        b = b ? b + 1 : d;
        if (strcmp(b, TT_ASCEND_OUTPUT) == 0) {
            char parent[4096];
            if (b == d)   /* "ASCEND_PROFILER_OUTPUT" from inside its tree */
                snprintf(parent, sizeof parent, ".");
            else if (b == d + 1)
                snprintf(parent, sizeof parent, "/");
            else
                snprintf(parent, sizeof parent, "%.*s", (int)(b - d - 1), d);
            if (tt_ascend_tree_info(parent, info, sizeof info, err) == 0)
                return push(trees, n, &cap, strdup(parent)) ? -1 : 0;
        }
    }
    /* a tree itself */
    {
        char *out = join(d, TT_ASCEND_OUTPUT);
        bool tree = out && is_dir(out);
        free(out);
        if (!out)
            return -1;
        if (tree && tt_ascend_tree_info(d, info, sizeof info, err) == 0)
            return push(trees, n, &cap, strdup(d)) ? -1 : 0;
    }
    /* a job: one tree per rank */
    if (!(dh = opendir(d)))
        return 0;   /* tt_rankset_expand says why */
    while ((de = readdir(dh)) != NULL) {
        char *p;
        if (de->d_name[0] == '.' ||
            !(has_suffix(de->d_name, "_ascend_pt") || has_suffix(de->d_name, "_ascend_ms")))
            continue;
        if (!(p = join(d, de->d_name))) {
            closedir(dh);
            return -1;
        }
        if (!is_dir(p)) {
            free(p);
            continue;
        }
        if (push(trees, n, &cap, p)) {
            closedir(dh);
            return -1;
        }
    }
    closedir(dh);
    tt_sort(*trees, *n, sizeof **trees, cmp_str, NULL);
    return 0;
}

int tt_jobdir_ascend(const char *dir, char ***files, size_t *n_files, tt_error *err)
{
    char **trees = NULL, **v = NULL, **infos = NULL;
    size_t nt = 0, nv = 0, cap = 0;
    int64_t *ranks = NULL;
    int rc = -1;
    *files = NULL;
    *n_files = 0;
    tt_error_clear(err);
    if (find_trees(dir, &trees, &nt, err)) {
        if (err->code == TT_OK)
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    tt_error_clear(err);
    if (nt == 0) {
        rc = 0;
        goto out;
    }
    ranks = calloc(nt, sizeof *ranks);
    infos = calloc(nt, sizeof *infos);
    if (!ranks || !infos) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nt; i++) {
        char info[4400], *tv;
        struct stat st;
        int r = tt_ascend_tree_info(trees[i], info, sizeof info, err);
        if (r < 0)
            goto out;
        if (r > 0) {
            tt_error_set(err, TT_ERR_FORMAT, "%s: no profiler_info_*.json: not a whole Ascend "
                         "profiler rank tree", trees[i]);
            goto out;
        }
        if (tt_ascend_info_rank(info, &ranks[i], err) || !(infos[i] = strdup(info)))
            goto fail_oom;
        /* two trees of one job claiming one rank: a copied tree, or two
         * runs mixed; which is meant cannot be told */
        for (size_t k = 0; k < i; k++)
            if (ranks[i] >= 0 && ranks[k] == ranks[i]) {
                tt_error_set(err, TT_ERR_FORMAT, "%s and %s both claim rank %lld", infos[k],
                             infos[i], (long long)ranks[i]);
                goto out;
            }
        if (!(tv = malloc(strlen(trees[i]) + sizeof "/" TT_ASCEND_OUTPUT "/" TT_ASCEND_TIMELINE)))
            goto fail_oom;
        sprintf(tv, "%s/%s/%s", trees[i], TT_ASCEND_OUTPUT, TT_ASCEND_TIMELINE);
        if (stat(tv, &st) != 0 || !S_ISREG(st.st_mode)) {
            tt_error_set(err, TT_ERR_FORMAT, "%s: missing: the timeline of an Ascend rank tree "
                         "(profiled without the timeline export?)", tv);
            free(tv);
            goto out;
        }
        if (push(&v, &nv, &cap, tv))
            goto fail_oom;
    }
    *files = v;
    *n_files = nv;
    v = NULL;
    nv = 0;
    rc = 1;
    goto out;
fail_oom:
    if (err->code == TT_OK)
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    free_list(trees, nt);
    free_list(v, nv);
    if (infos)
        free_list(infos, nt);
    free(ranks);
    return rc;
}

int tt_jobdir_captures(char **files, size_t *n, tt_error *err)
{
    size_t k = 0, n0 = *n;
    bool *gone = calloc(*n + 1, sizeof *gone);
    char **pat = calloc(*n + 1, sizeof *pat);
    int rc = -1;
    if (!gone || !pat)
        goto out;
    /* the patterns first, so that running out of memory changes nothing */
    for (size_t i = 0; i < *n; i++) {
        const char *b = strrchr(files[i], '/');
        size_t wl, bl;
        uint64_t ts;
        b = b ? b + 1 : files[i];
        if (gone[i] || !tt_captures_parse(b, &wl, &ts))
            continue;
        bl = (size_t)(b - files[i]);
        for (size_t j = i + 1; j < *n; j++) {
            const char *c = strrchr(files[j], '/');
            size_t cwl;
            uint64_t cts;
            c = c ? c + 1 : files[j];
            if (gone[j] || (size_t)(c - files[j]) != bl || strncmp(files[j], files[i], bl) != 0 ||
                strncmp(b, c, wl) != 0 || !tt_captures_parse(c, &cwl, &cts) || cwl != wl)
                continue;
            gone[j] = true;
            if (!pat[i]) {
                if (!(pat[i] = malloc(bl + wl + sizeof TT_CAPTURES_GLOB)))
                    goto out;
                sprintf(pat[i], "%.*s%s", (int)(bl + wl), files[i], TT_CAPTURES_GLOB);
            }
        }
    }
    for (size_t i = 0; i < *n; i++) {
        if (gone[i]) {
            free(files[i]);
            continue;
        }
        if (pat[i]) {
            free(files[i]);
            files[i] = pat[i];
            pat[i] = NULL;
        }
        files[k++] = files[i];
    }
    *n = k;
    rc = 0;
out:
    if (rc)
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (pat)
        for (size_t i = 0; i < n0; i++)
            free(pat[i]);
    free(pat);
    free(gone);
    return rc;
}

int64_t tt_jobdir_tree_rank(const char *path)
{
    char tree[4096], info[4400];
    int64_t r = -1;
    tt_error err;
    tt_error_clear(&err);
    if (!tt_ascend_tree_of(path, tree, sizeof tree) ||
        tt_ascend_tree_info(tree, info, sizeof info, &err) != 0 ||
        tt_ascend_info_rank(info, &r, &err))
        return -1;
    return r;
}

int64_t tt_jobdir_sqlite_rank(const char *base)
{
    size_t n = strlen(base), d;
    int64_t v = 0;
    if (n <= 7 || strcmp(base + n - 7, ".sqlite") != 0)
        return -1;
    n -= 7;
    d = n;
    while (d > 0 && isdigit((unsigned char)base[d - 1]))
        d--;
    if (d == n || n - d > 9 || d < 2 || (base[d - 1] != '_' && base[d - 1] != '-'))
        return -1;
    for (size_t i = d; i < n; i++)
        v = v * 10 + (base[i] - '0');
    return v;
}
