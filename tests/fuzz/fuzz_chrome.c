/* fuzz_chrome.c - libFuzzer target for the Chrome trace-event JSON decoder.
 *
 * Each input is loaded from memory through the whole pipeline
 * (tt_input_open_mem -> decoder -> tt_trace_finalize), strictly and with
 * --lenient with the decoder forced (so any bytes reach it), and once more
 * through format detection. Beyond "no crash, no leak, no
 * undefined behaviour" (ASan/UBSan), the model's invariants are checked
 * (fuzz_formats.h) and a violation aborts, so the fuzzer reports it as a
 * crash:
 *   - a load either succeeds or fails with a message (and a sane
 *     position when it has one), never half;
 *   - events are sorted by (start, longer first) with dur >= 0, their
 *     strings and argument records are readable, flows point at events;
 *   - whatever loads strictly loads leniently with the same events.
 *
 * Built as a fuzzer with --enable-fuzzing (see tests/qa.mk), and always as
 * a regression program (with tests/fuzz/fuzz_main.c) that replays the seed
 * corpus tests/fuzz/corpus/chrome/ under `make check`.
 */
#include "config.h"

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *detected_as = NULL;
    int64_t strict = fuzz_decoder(data, size, "chrome-json", NULL);
    int64_t detected = fuzz_load_as(data, size, false, NULL, NULL, &detected_as);
    /* what detection hands to this decoder decodes as when forced */
    if (detected >= 0 && strcmp(detected_as, "chrome-json") == 0)
        FCHECK(detected == strict);
    return 0;
}
