/* fuzz_csv.c - libFuzzer target for the CSV decoders: the Ascend, nsys
 * and Nsight Compute (ncu --csv) dialects, and the generic reader through a fixed column map (see
 * fuzz_formats.h for what is checked; tests/formats.mk builds it as a
 * fuzzer with --enable-fuzzing and always as a regression program over
 * tests/fuzz/corpus/csv/). */
#include "config.h"

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_decoder(data, size, "ascend-csv", NULL);
    fuzz_decoder(data, size, "nsys-csv", NULL);
    fuzz_decoder(data, size, "ncu-csv", NULL);
    fuzz_decoder(data, size, "csv", "start=1,dur=2,name=3,lane=4,bytes=5,unit=us");
    fuzz_decoder(data, size, "csv", "start=a,end=b,name=c");
    (void)fuzz_load(data, size, false, NULL, NULL);
    return 0;
}
