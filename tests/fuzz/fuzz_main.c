/* fuzz_main.c - replay a fuzz target's corpus without libFuzzer.
 *
 * Linked with one fuzz_*.c target into a plain program that `make check`
 * runs: it feeds every file of $srcdir/tests/fuzz/corpus/TT_FUZZ_CORPUS
 * (TT_FUZZ_CORPUS is set per program in the .mk fragment) to
 * LLVMFuzzerTestOneInput and prints one TAP line per file. A crash or an
 * invariant failure aborts the program, which fails the test; under the
 * sanitizer build leaks and undefined behaviour fail it too.
 *
 * With arguments (files or directories) it replays those instead, which
 * is how a crash found by the fuzzer is reproduced in a debugger.
 */
#include "config.h"

#include "../tap.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path, const char *label)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f) {
        ok(0, "%s: cannot open", label);
        return;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    ok(1, "%s (%zu bytes)", label, n);
}

/* Run every regular file of a directory, in name order. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                abort();
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            run_file(path, names[i]);
        free(names[i]);
    }
    free(names);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            struct stat st;
            if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
                run_dir(argv[i]);
            else
                run_file(argv[i], argv[i]);
        }
    } else {
        const char *src = getenv("srcdir");
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src && *src ? src : TT_SRCDIR,
                 TT_FUZZ_CORPUS);
        if (run_dir(dir) != 0)
            ok(0, "corpus directory %s is readable", dir);
    }
    return tap_done();
}
