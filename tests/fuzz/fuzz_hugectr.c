/* fuzz_hugectr.c - libFuzzer target for the hugectr-json decoder (see
 * fuzz_formats.h for what is checked; tests/formats.mk builds it as a
 * fuzzer with --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/hugectr/). */
#include "config.h"

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_decoder(data, size, "hugectr-json", NULL);
    (void)fuzz_load(data, size, false, NULL, NULL);
    return 0;
}
