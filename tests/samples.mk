# samples tests (see tests/local.mk for the driver setup): the generator
# gen-trace and the bundled demo trace it wrote.
#
#   test_gen_common   PRNG, JSON writer, number formatting, atomic output and
#                     option parsing of samples/gen/common.c
#   gen_demo.sh       samples/demo.json is byte-for-byte what gen-trace
#                     writes now; determinism; rank/seed/version options
#   gen_counts.sh     `tracetty summary --format json` of the demo agrees
#                     with gen-trace --stats and with python3's own count
#   gen_large.sh      --events N writes exactly N events of valid JSON;
#                     usage errors exit 2 and leave no file
#   gen_shuffle.sh    --shuffle writes the same events out of time order:
#                     same counts, summary and report; deterministic

check_PROGRAMS += tests/samples/test_gen_common
TESTS += tests/samples/test_gen_common
tests_samples_test_gen_common_SOURCES = tests/samples/test_gen_common.c \
	samples/gen/common.c samples/gen/common.h
tests_samples_test_gen_common_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/samples \
	-I$(top_srcdir)/tests

SAMPLES_SH_TESTS = \
	tests/samples/gen_demo.sh \
	tests/samples/gen_counts.sh \
	tests/samples/gen_large.sh \
	tests/samples/gen_shuffle.sh
TESTS += $(SAMPLES_SH_TESTS)
EXTRA_DIST += $(SAMPLES_SH_TESTS)
