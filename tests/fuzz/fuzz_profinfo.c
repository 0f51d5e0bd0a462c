/* fuzz_profinfo.c - libFuzzer target for the reader of an Ascend rank
 * tree's profiler_info_{rank}.json (decode/ascend_tree.h,
 * tt_ascend_info_rank): the rank from "rank_id", else from the file name,
 * else none (-1); a malformed file is one error with a message. The
 * input is read under two names, one whose number gives a fallback rank
 * and one without. tests/formats.mk builds it as a fuzzer with
 * --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/profinfo/.
 */
#include "config.h"

#include "fuzz_files.h"

#include "decode/ascend_tree.h"

static void read_info(const char *name, const uint8_t *data, size_t size, int64_t fallback)
{
    char path[600];
    int64_t rank = -2;
    tt_error err;
    fuzz_put_file(name, data, size, path, sizeof path);
    tt_error_clear(&err);
    if (tt_ascend_info_rank(path, &rank, &err)) {
        fuzz_check_error(&err);
        FCHECK(rank == -1);
        return;
    }
    /* a rank_id in range wins; otherwise the name's number, or none */
    FCHECK(rank >= -1 && rank < 1000000000);
    if (fallback >= 0)
        FCHECK(rank >= 0);
    else
        FCHECK(rank >= -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_info("profiler_info_7.json", data, size, 7);
    read_info("profiler_info.json", data, size, -1);
    return 0;
}
