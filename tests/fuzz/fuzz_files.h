/* fuzz_files.h - what the issue-16 fuzz targets share: the readers of
 * an Ascend job's side files (communication*.json, profiler_info_*.json,
 * step_trace_time.csv and the statistic tables) take a path, or find the
 * file beside a trace's own path, as tracetty meets them; so the fuzz
 * input is written to a file of the right name in a private temporary
 * directory (made once per process, removed with its files at exit), and
 * a tiny fixed trace can be put beside it; loading a trace from memory
 * to work on it, and running one rule over traces. Included by one
 * fuzz_*.c each (static inline functions; no separate object).
 */
#ifndef TT_TESTS_FUZZ_FILES_H
#define TT_TESTS_FUZZ_FILES_H

#include "fuzz_formats.h"

#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_MAX_FILES 8

static char fuzz_dir[512];
static char fuzz_files[FUZZ_MAX_FILES][600];
static size_t fuzz_n_files;

static inline void fuzz_dir_cleanup(void)
{
    for (size_t i = 0; i < fuzz_n_files; i++)
        unlink(fuzz_files[i]);
    if (fuzz_dir[0])
        rmdir(fuzz_dir);
}

/* The private directory, made on first use. */
static inline const char *fuzz_dir_get(void)
{
    if (!fuzz_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/tracetty-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(fuzz_dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_dir_cleanup);
    }
    return fuzz_dir;
}

/* Write data to the file `name` in the directory (replacing it); its path
 * into path (cap bytes). */
static inline void fuzz_put_file(const char *name, const void *data, size_t size, char *path,
                                 size_t cap)
{
    FILE *f;
    bool known = false;
    snprintf(path, cap, "%s/%s", fuzz_dir_get(), name);
    for (size_t i = 0; i < fuzz_n_files; i++)
        known |= strcmp(fuzz_files[i], path) == 0;
    if (!known) {
        FCHECK(fuzz_n_files < FUZZ_MAX_FILES);
        snprintf(fuzz_files[fuzz_n_files++], sizeof fuzz_files[0], "%s", path);
    }
    if (!(f = fopen(path, "wb")) || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
        perror(path);
        abort();
    }
}

/* Remove the file `name` of the directory, if there. */
static inline void fuzz_drop_file(const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir_get(), name);
    unlink(path);
}

/* A failed side-file read: one error with a message, never a crash. */
static inline void fuzz_check_error(const tt_error *err)
{
    char msg[900];
    FCHECK(err->code != TT_OK && err->what[0] != '\0');
    tt_error_format(err, "<fuzz>", msg, sizeof msg);
}

/* Load the trace at path (it must load: the targets write a fixed one). */
static inline tt_trace *fuzz_load_path(const char *path)
{
    tt_trace *tr = NULL;
    tt_error err;
    tt_load_opts opts;
    tt_load_info info;
    memset(&opts, 0, sizeof opts);
    tt_error_clear(&err);
    if (tt_load(path, &opts, &tr, &info, &err)) {
        fprintf(stderr, "fuzz: %s: %s\n", path, err.what);
        abort();
    }
    return tr;
}

/* The trace decoded from data by format (NULL: detect), or NULL when it
 * does not load; the caller frees it. */
static inline tt_trace *fuzz_load_mem(const void *data, size_t size, const char *format,
                                      bool lenient)
{
    tt_input *in;
    tt_trace *tr = NULL;
    tt_error err;
    tt_load_opts opts;
    tt_load_info info;
    tt_error_clear(&err);
    if (tt_input_open_mem(data, size, &in, &err))
        return NULL;
    memset(&opts, 0, sizeof opts);
    opts.format = format;
    opts.lenient = lenient;
    if (tt_load_input(in, &opts, &tr, &info, &err))
        tr = NULL;
    tt_input_close(in);
    return tr;
}

/* Run the rule id alone over traces: a failure is one error with a
 * message; every finding spans forwards and has its line. */
static inline void fuzz_run_rule(const char *id, const tt_trace *const *traces, size_t n)
{
    tt_rules_config cfg;
    tt_annotations out;
    tt_error err;
    tt_rules_config_defaults(&cfg);
    tt_error_clear(&err);
    FCHECK(tt_rules_config_enable(&cfg, "all", false, &err) == 0);
    FCHECK(tt_rules_config_enable(&cfg, id, true, &err) == 0);
    tt_annotations_init(&out);
    if (tt_rules_run(&cfg, traces, n, &out, &err))
        fuzz_check_error(&err);
    for (size_t i = 0; i < out.n; i++)
        FCHECK(out.v[i].start <= out.v[i].end && out.v[i].msg != NULL);
    tt_annotations_fini(&out);
}

#endif
