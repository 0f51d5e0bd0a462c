# qa tests (see tests/local.mk for the driver setup): unit tests of util/,
# the argument store, input and the model; CLI golden and error tests;
# the real-trace test; the Chrome decoder fuzz target and its corpus.

QA_UNIT_TESTS = \
	tests/unit/test_util \
	tests/unit/test_suggest \
	tests/unit/test_args \
	tests/unit/test_argsfilter \
	tests/unit/test_argsnote \
	tests/unit/test_argsraw \
	tests/unit/test_input \
	tests/unit/test_model
check_PROGRAMS += $(QA_UNIT_TESTS)
TESTS += $(QA_UNIT_TESTS)
tests_unit_test_util_LDADD = $(TT_TEST_LDADD)
tests_unit_test_suggest_LDADD = $(TT_TEST_LDADD)
tests_unit_test_args_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argsfilter_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argsnote_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argsraw_LDADD = $(TT_TEST_LDADD)
tests_unit_test_input_LDADD = $(TT_TEST_LDADD)
tests_unit_test_model_LDADD = $(TT_TEST_LDADD)

# CLI tests: golden summaries, input forms, terminal safety, errors, and
# the real third-party traces (skipped when ../shared/traces is absent).
QA_CLI_TESTS = \
	tests/cli/summary.sh \
	tests/cli/summary_inputs.sh \
	tests/cli/summary_unsafe.sh \
	tests/cli/errors.sh \
	tests/cli/options.sh \
	tests/cli/shared_traces.sh
TESTS += $(QA_CLI_TESTS)
EXTRA_DIST += $(QA_CLI_TESTS) tests/golden/summary \
	tests/data/README \
	tests/data/nested.json \
	tests/data/counters_flows.json \
	tests/data/problems.json \
	tests/data/unsafe_names.json \
	tests/data/cut.json

# ------------------------------------------------------------------ fuzzing
#
# Each decoder has a libFuzzer target tests/fuzz/fuzz_NAME.c defining
# LLVMFuzzerTestOneInput (load the bytes with tt_input_open_mem and
# tt_load_input, strictly and with --lenient, check invariants, free
# everything; see fuzz_chrome.c), a seed corpus of small handwritten
# inputs in tests/fuzz/corpus/NAME/ and optionally a libFuzzer dictionary
# tests/fuzz/NAME.dict of the format's keywords. The same target is always
# built as a regression program (with tests/fuzz/fuzz_main.c) that
# `make check` runs over the corpus, so CI exercises it without clang; with
# `CC=clang ./configure --enable-fuzzing` the real fuzzer is built too,
# and `make fuzz-NAME [FUZZ_TIME=seconds]` runs it. A crash found by
# fuzzing is minimized (fuzz_NAME -minimize_crash=1 CRASH) and added to
# the corpus directory, so it stays a regression test.
#
# Copy this block into your own fragment for a new decoder, with chrome
# replaced by its name:
#
#   check_PROGRAMS += tests/fuzz/fuzz_chrome_regress
#   TESTS += tests/fuzz/fuzz_chrome_regress
#   tests_fuzz_fuzz_chrome_regress_SOURCES = tests/fuzz/fuzz_chrome.c tests/fuzz/fuzz_main.c
#   tests_fuzz_fuzz_chrome_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"chrome"'
#   tests_fuzz_fuzz_chrome_regress_LDADD = $(TT_TEST_LDADD)
#   EXTRA_DIST += tests/fuzz/corpus/chrome tests/fuzz/chrome.dict
#   if ENABLE_FUZZING
#   noinst_PROGRAMS += tests/fuzz/fuzz_chrome
#   tests_fuzz_fuzz_chrome_SOURCES = tests/fuzz/fuzz_chrome.c
#   tests_fuzz_fuzz_chrome_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
#   tests_fuzz_fuzz_chrome_LDADD = libtracetty.a $(TT_DEPLIBS)
#   fuzz-chrome: tests/fuzz/fuzz_chrome
#   	$(TT_FUZZ_RUN) chrome
#   else
#   fuzz-chrome:
#   	@echo "fuzzing needs clang and libFuzzer: ..." >&2; exit 1
#   endif
#   .PHONY: fuzz-chrome

check_PROGRAMS += tests/fuzz/fuzz_chrome_regress
TESTS += tests/fuzz/fuzz_chrome_regress
tests_fuzz_fuzz_chrome_regress_SOURCES = tests/fuzz/fuzz_chrome.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_chrome_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"chrome"'
tests_fuzz_fuzz_chrome_regress_LDADD = $(TT_TEST_LDADD)
EXTRA_DIST += tests/fuzz/corpus/chrome tests/fuzz/chrome.dict

if ENABLE_FUZZING
# `make fuzz-NAME` fuzzes for FUZZ_TIME seconds with inputs up to
# FUZZ_MAX_LEN bytes in one process; undefined behaviour stops the run like
# a crash. New inputs go to fuzz-corpus/NAME in the build directory (the
# seed corpus in the source tree is only read), crashes to fuzz-NAME-crash-*.
FUZZ_TIME = 600
FUZZ_MAX_LEN = 4096
TT_FUZZ_RUN = run() { \
	mkdir -p fuzz-corpus/$$1 && \
	dict=$(srcdir)/tests/fuzz/$$1.dict; \
	if test -f $$dict; then dict=-dict=$$dict; else dict=; fi; \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ./tests/fuzz/fuzz_$$1 $$dict \
		-max_len=$(FUZZ_MAX_LEN) -len_control=0 -max_total_time=$(FUZZ_TIME) \
		-print_final_stats=1 -artifact_prefix=fuzz-$$1-crash- \
		fuzz-corpus/$$1 $(srcdir)/tests/fuzz/corpus/$$1; }; run

noinst_PROGRAMS += tests/fuzz/fuzz_chrome
tests_fuzz_fuzz_chrome_SOURCES = tests/fuzz/fuzz_chrome.c
tests_fuzz_fuzz_chrome_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_chrome_LDADD = libtracetty.a $(TT_DEPLIBS)
fuzz-chrome: tests/fuzz/fuzz_chrome
	$(TT_FUZZ_RUN) chrome
else
fuzz-chrome:
	@echo "fuzzing needs clang and libFuzzer: CC=clang ./configure --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz-chrome

# the load progress line on a terminal
TESTS += tests/cli/progress.sh
EXTRA_DIST += tests/cli/progress.sh

# --timings: phase lines on stderr, stdout unchanged
TESTS += tests/cli/timings.sh
EXTRA_DIST += tests/cli/timings.sh
