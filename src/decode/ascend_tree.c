/* ascend_tree.c - an Ascend rank tree's rank and side tables (see
 * ascend_tree.h). */
#include "config.h"

#include "decode/ascend_tree.h"

#include "decode/ascend_join.h"
#include "util/natcmp.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* profiler_info files are a few KB of run settings; anything far bigger
 * is not one */
#define INFO_MAX ((long)16 << 20)

static const char *base_of(const char *path, size_t end)
{
    size_t i = end;
    while (i > 0 && path[i - 1] != '/')
        i--;
    return path + i;
}

bool tt_ascend_tree_of(const char *path, char *tree, size_t cap)
{
    size_t n = strlen(path), tl = strlen(TT_ASCEND_TIMELINE), ol = strlen(TT_ASCEND_OUTPUT);
    const char *out;
    size_t out_end;
    if (n < tl + ol + 1 || strcmp(path + n - tl, TT_ASCEND_TIMELINE) != 0 ||
        path[n - tl - 1] != '/')
        return false;
    out_end = n - tl - 1;
    out = base_of(path, out_end);
    if ((size_t)(path + out_end - out) != ol || strncmp(out, TT_ASCEND_OUTPUT, ol) != 0)
        return false;
    if (out == path)
        snprintf(tree, cap, ".");
    else if (out == path + 1)
        snprintf(tree, cap, "/");
    else
        snprintf(tree, cap, "%.*s", (int)(out - path - 1), path);
    return true;
}

/* profiler_info.json or profiler_info_*.json */
static bool is_info_name(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "profiler_info", 13) == 0 && n >= 18 &&
           strcmp(name + n - 5, ".json") == 0 && (n == 18 || name[13] == '_');
}

int tt_ascend_tree_info(const char *tree, char *info, size_t cap, tt_error *err)
{
    DIR *d = opendir(tree);
    struct dirent *de;
    char best[256] = "";
    if (!d)
        return tt_error_set(err, TT_ERR_IO, "%s: cannot open directory: %s", tree,
                            strerror(errno)), -1;
    while ((de = readdir(d)) != NULL)
        if (is_info_name(de->d_name) && strlen(de->d_name) < sizeof best &&
            (!best[0] || tt_natcmp(de->d_name, best) < 0))
            snprintf(best, sizeof best, "%s", de->d_name);
    closedir(d);
    if (!best[0])
        return 1;
    snprintf(info, cap, "%s/%s", tree, best);
    return 0;
}

/* Line and column of p in buf, 1-based. */
static void line_col(const char *buf, const char *p, int64_t *line, int64_t *col)
{
    *line = 1;
    *col = 1;
    for (const char *q = buf; q < p; q++) {
        if (*q == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

int tt_ascend_info_rank(const char *info, int64_t *rank, tt_error *err)
{
    FILE *f = fopen(info, "rb");
    char *buf = NULL;
    long size;
    cJSON *doc = NULL;
    const cJSON *id;
    const char *end = NULL;
    int rc = -1;
    *rank = -1;
    if (!f)
        return tt_error_set(err, TT_ERR_IO, "%s: cannot open: %s", info, strerror(errno)), -1;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        tt_error_set(err, TT_ERR_IO, "%s: cannot read: %s", info, strerror(errno));
        goto out;
    }
    if (size > INFO_MAX) {
        tt_error_set(err, TT_ERR_FORMAT, "%s: %ld bytes, too big for a profiler_info file",
                     info, size);
        goto out;
    }
    if (!(buf = malloc((size_t)size + 1))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        tt_error_set(err, TT_ERR_IO, "%s: cannot read: %s", info, strerror(errno));
        goto out;
    }
    buf[size] = '\0';
    doc = cJSON_ParseWithOpts(buf, &end, true);
    if (!doc || !cJSON_IsObject(doc)) {
        int64_t line, col;
        if (!doc && end && end >= buf && end <= buf + size) {
            line_col(buf, end, &line, &col);
            tt_error_set(err, TT_ERR_FORMAT, "%s: line %lld, column %lld: not valid JSON "
                         "(a profiler_info file is a JSON object with \"rank_id\")", info,
                         (long long)line, (long long)col);
        } else {
            tt_error_set(err, TT_ERR_FORMAT, "%s: not a JSON object (a profiler_info file "
                         "is one, with \"rank_id\")", info);
        }
        goto out;
    }
    /* torch_npu and MindSpore write "rank_id", -1 on a single device */
    id = cJSON_GetObjectItemCaseSensitive(doc, "rank_id");
    if (cJSON_IsNumber(id) && id->valuedouble >= 0 && id->valuedouble < 1e9)
        *rank = (int64_t)id->valuedouble;
    else {
        /* the file name's number: profiler_info_{rank}.json */
        const char *b = strrchr(info, '/'), *p;
        b = b ? b + 1 : info;
        p = b + 13;
        if (*p == '_' && isdigit((unsigned char)p[1])) {
            int64_t v = 0;
            for (p++; isdigit((unsigned char)*p) && v < 1000000000; p++)
                v = v * 10 + (*p - '0');
            if (strcmp(p, ".json") == 0)
                *rank = v;
        }
    }
    rc = 0;
out:
    cJSON_Delete(doc);
    free(buf);
    fclose(f);
    return rc;
}

int tt_ascend_tree_finish(const char *path, tt_trace *tr, tt_error *err)
{
    char tree[4096], info[4400], csv[4200];
    size_t n = strlen(path), tl = strlen(TT_ASCEND_TIMELINE);
    struct stat st;
    if (!tr->format || strcmp(tr->format, "chrome-json") != 0 || n < tl ||
        strcmp(path + n - tl, TT_ASCEND_TIMELINE) != 0 || (n > tl && path[n - tl - 1] != '/'))
        return 0;
    if (tr->rank < 0 && tt_ascend_tree_of(path, tree, sizeof tree)) {
        int r = tt_ascend_tree_info(tree, info, sizeof info, err);
        if (r < 0 || (r == 0 && tt_ascend_info_rank(info, &tr->rank, err)))
            return -1;
    }
    /* the kernel table the profiler wrote beside the timeline */
    snprintf(csv, sizeof csv, "%.*skernel_details.csv", (int)(n - tl), path);
    if (stat(csv, &st) == 0 && S_ISREG(st.st_mode))
        return tt_ascend_join(tr, csv, NULL, err);
    return 0;
}
