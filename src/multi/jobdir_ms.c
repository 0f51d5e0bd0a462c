/* jobdir_ms.c - an older MindSpore cluster directory as a job (see
 * jobdir.h, tt_jobdir_mindspore).
 *
 * MindInsight's cluster input is one flat directory of per-rank files:
 * step_trace_raw_N_detail_time.csv (the rank's timing, read by the
 * mindspore-step-trace decoder), and beside it hccl_raw_N.csv (its
 * communication, read by the comm reports: decode/mindspore_hccl.h),
 * flops_summary_N.json, ascend_cluster_analyse_*.csv and more. Those
 * others are tables about the rank, not timelines: listed as every trace
 * file a decoder recognises, flops_summary_N.json ({"FLOPs": ...}) was
 * taken for a Chrome trace and the whole job failed on it. So when the
 * directory holds step traces, as in an Ascend rank tree, its ranks are
 * the step traces and nothing else.
 *
 * A step trace is recognised by its name (the rank is only written there)
 * and by its content (the decoder's probe on its first bytes), so a file
 * merely named so is not taken.
 */
#include "config.h"

#include "multi/jobdir.h"

#include "decode/decode.h"
#include "decode/mindspore_hccl.h"
#include "io/input.h"
#include "util/natcmp.h"
#include "util/sort.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_step_trace(const char *path)
{
    const tt_decoder *d = tt_decoder_find("mindspore-step-trace");
    tt_input *in;
    tt_error err;
    const unsigned char *head;
    size_t n;
    bool yes = false;
    struct stat st;
    if (!d || tt_mindspore_steps_rank(path) < 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (tt_input_open(path, &in, &err))
        return false;
    if (tt_input_peek(in, TT_PROBE_BYTES, &head, &n, &err) == 0 && n > 0)
        yes = d->probe(head, n) > TT_PROBE_FALLBACK;
    tt_input_close(in);
    return yes;
}

static int cmp_path(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return tt_natcmp(*(char *const *)a, *(char *const *)b);
}

int tt_jobdir_mindspore(const char *dir, char ***files, size_t *n_files, tt_error *err)
{
    DIR *dh = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t n = 0, cap = 0;
    *files = NULL;
    *n_files = 0;
    if (!dh)
        return 0;   /* tt_rankset_expand says why */
    while ((de = readdir(dh)) != NULL) {
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *p;
        if (de->d_name[0] == '.' || strncmp(de->d_name, "step_trace_raw_", 15) != 0)
            continue;
        if (!(p = malloc(len)))
            goto oom;
        snprintf(p, len, "%s/%s", dir, de->d_name);
        if (!is_step_trace(p)) {
            free(p);
            continue;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 8;
            char **nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                free(p);
                goto oom;
            }
            v = nv;
            cap = nc;
        }
        v[n++] = p;
    }
    closedir(dh);
    if (n == 0) {
        free(v);
        return 0;
    }
    tt_sort(v, n, sizeof *v, cmp_path, NULL);
    *files = v;
    *n_files = n;
    return 1;
oom:
    closedir(dh);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}
