/* fuzz_nsys.c - libFuzzer target for the nsys-sqlite decoder (see
 * fuzz_formats.h for what is checked; tests/formats.mk builds it as a
 * fuzzer with --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/nsys/, made by tests/fuzz/make-nsys-corpus.py).
 *
 * SQLite reads a database by path, so each input is written to a
 * temporary file first (in $TMPDIR, else /tmp) and loaded from there,
 * strictly, leniently and through format detection.
 */
#include "config.h"

#include "fuzz_formats.h"

#include <unistd.h>

static int64_t load_file(const char *path, const uint8_t *data, size_t size, bool lenient,
                         const char *format)
{
    tt_input *in;
    tt_error err;
    tt_error_clear(&err);
    if (tt_input_open(path, &in, &err)) {
        FCHECK(err.code != TT_OK);
        return -1;
    }
    return fuzz_load_input(in, data, size, lenient, format, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    int fd;
    int64_t strict, lenient;
    snprintf(path, sizeof path, "%s/tracetty-fuzz-nsys-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemp(path);
    FCHECK(fd >= 0);
    FCHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
    close(fd);
    strict = load_file(path, data, size, false, "nsys-sqlite");
    lenient = load_file(path, data, size, true, "nsys-sqlite");
    if (strict >= 0)
        FCHECK(lenient == strict);
    (void)load_file(path, data, size, false, NULL);
    unlink(path);
    return 0;
}
