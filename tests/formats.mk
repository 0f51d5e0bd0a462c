# formats tests (see tests/local.mk for the driver setup): the device
# profile decoders (neuron-profile JSON, CSV tables, HugeCTR prof.json,
# Nsight Systems SQLite), the .ttz snapshot and its cache, the samples they
# come with, and one fuzz target per decoder.

FORMATS_UNIT_TESTS = \
	tests/unit/test_snapshot \
	tests/unit/test_argcols_form \
	tests/unit/test_secpipe \
	tests/unit/test_argslazy \
	tests/unit/test_formats \
	tests/unit/test_hugectr_plain \
	tests/unit/test_argjson \
	tests/unit/test_csv_scan \
	tests/unit/test_ncu_join
check_PROGRAMS += $(FORMATS_UNIT_TESTS)
TESTS += $(FORMATS_UNIT_TESTS)
tests_unit_test_snapshot_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argcols_form_LDADD = $(TT_TEST_LDADD)
tests_unit_test_secpipe_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argslazy_LDADD = $(TT_TEST_LDADD)
tests_unit_test_formats_LDADD = $(TT_TEST_LDADD)
tests_unit_test_hugectr_plain_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argjson_LDADD = $(TT_TEST_LDADD)
tests_unit_test_csv_scan_LDADD = $(TT_TEST_LDADD)
tests_unit_test_ncu_join_LDADD = $(TT_TEST_LDADD)

# CLI tests: samples and their golden outputs, the real traces of these
# kinds (skipped when ../shared/traces is absent), snapshots and the cache,
# error messages.
FORMATS_CLI_TESTS = \
	tests/cli/formats_samples.sh \
	tests/cli/formats_shared.sh \
	tests/cli/formats_snapshot.sh \
	tests/cli/snapshot_window.sh \
	tests/cli/formats_errors.sh \
	tests/cli/flows.sh \
	tests/cli/nsys_flows.sh \
	tests/cli/nsys_args.sh \
	tests/cli/nsys_scan.sh \
	tests/cli/lanes_many.sh \
	tests/cli/chrome_unterminated.sh \
	tests/cli/chrome_parallel.sh \
	tests/cli/chrome_lenient_count.sh \
	tests/cli/chrome_empty_strings.sh \
	tests/cli/chrome_mapped.sh \
	tests/cli/input_limits.sh \
	tests/cli/ncu.sh \
	tests/cli/ncujoin.sh
TESTS += $(FORMATS_CLI_TESTS)
EXTRA_DIST += $(FORMATS_CLI_TESTS) tests/golden/formats \
	tests/cli/ncu_oracle.py tests/data/ncu \
	tests/cli/ncujoin_oracle.py tests/data/ncujoin tests/cli/nsys_flows_oracle.py tests/cli/nsys_args_oracle.py \
	tests/cli/nsys_scan_gen.py

# Fuzz targets, one per decoder, following the pattern in tests/qa.mk
# (fuzz_formats.h holds the loading and invariant checks they share).
EXTRA_DIST += tests/fuzz/fuzz_formats.h

check_PROGRAMS += tests/fuzz/fuzz_neuron_regress tests/fuzz/fuzz_csv_regress \
	tests/fuzz/fuzz_hugectr_regress tests/fuzz/fuzz_ttz_regress \
	tests/fuzz/fuzz_nsys_regress
TESTS += tests/fuzz/fuzz_neuron_regress tests/fuzz/fuzz_csv_regress \
	tests/fuzz/fuzz_hugectr_regress tests/fuzz/fuzz_ttz_regress \
	tests/fuzz/fuzz_nsys_regress
tests_fuzz_fuzz_neuron_regress_SOURCES = tests/fuzz/fuzz_neuron.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_neuron_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"neuron"'
tests_fuzz_fuzz_neuron_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_csv_regress_SOURCES = tests/fuzz/fuzz_csv.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_csv_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"csv"'
tests_fuzz_fuzz_csv_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_hugectr_regress_SOURCES = tests/fuzz/fuzz_hugectr.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_hugectr_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"hugectr"'
tests_fuzz_fuzz_hugectr_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_ttz_regress_SOURCES = tests/fuzz/fuzz_ttz.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_ttz_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"ttz"'
tests_fuzz_fuzz_ttz_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_nsys_regress_SOURCES = tests/fuzz/fuzz_nsys.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_nsys_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"nsys"'
tests_fuzz_fuzz_nsys_regress_LDADD = $(TT_TEST_LDADD)
EXTRA_DIST += tests/fuzz/corpus/neuron tests/fuzz/corpus/csv tests/fuzz/corpus/hugectr \
	tests/fuzz/corpus/ttz tests/fuzz/corpus/nsys tests/fuzz/make-nsys-corpus.py \
	tests/fuzz/make-ttz-corpus.py

if ENABLE_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz_neuron tests/fuzz/fuzz_csv tests/fuzz/fuzz_hugectr \
	tests/fuzz/fuzz_ttz tests/fuzz/fuzz_nsys
tests_fuzz_fuzz_neuron_SOURCES = tests/fuzz/fuzz_neuron.c
tests_fuzz_fuzz_neuron_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_neuron_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_csv_SOURCES = tests/fuzz/fuzz_csv.c
tests_fuzz_fuzz_csv_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_csv_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_hugectr_SOURCES = tests/fuzz/fuzz_hugectr.c
tests_fuzz_fuzz_hugectr_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_hugectr_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_ttz_SOURCES = tests/fuzz/fuzz_ttz.c
tests_fuzz_fuzz_ttz_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_ttz_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_nsys_SOURCES = tests/fuzz/fuzz_nsys.c
tests_fuzz_fuzz_nsys_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_nsys_LDADD = libtracetty.a $(TT_DEPLIBS)
fuzz-neuron: tests/fuzz/fuzz_neuron
	$(TT_FUZZ_RUN) neuron
fuzz-csv: tests/fuzz/fuzz_csv
	$(TT_FUZZ_RUN) csv
fuzz-hugectr: tests/fuzz/fuzz_hugectr
	$(TT_FUZZ_RUN) hugectr
fuzz-ttz: tests/fuzz/fuzz_ttz
	$(TT_FUZZ_RUN) ttz
fuzz-nsys: tests/fuzz/fuzz_nsys
	$(TT_FUZZ_RUN) nsys
else
fuzz-neuron fuzz-csv fuzz-hugectr fuzz-ttz fuzz-nsys:
	@echo "fuzzing needs clang and libFuzzer: CC=clang ./configure --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz-neuron fuzz-csv fuzz-hugectr fuzz-ttz fuzz-nsys
