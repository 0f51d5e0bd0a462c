# Tests: C unit tests and shell tests, all speaking TAP through automake's
# tap-driver.sh. Shell tests get TRACETTY, srcdir and builddir.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
# No test may hang the suite (or CI): each gets 20 minutes, then it is killed
# and reported as an error. Sanitizer builds are slow, hence the margin.
TEST_TIMEOUT = timeout --signal=KILL 1200
LOG_COMPILER = $(TEST_TIMEOUT)
SH_LOG_COMPILER = $(TEST_TIMEOUT) $(SHELL)
AM_TESTS_ENVIRONMENT = \
	TRACETTY='$(abs_top_builddir)/tracetty'; srcdir='$(abs_top_srcdir)'; \
	builddir='$(abs_top_builddir)'; LC_ALL=C; TZ=UTC; \
	export TRACETTY srcdir builddir LC_ALL TZ;

TT_TEST_LDADD = libtracetty.a $(TT_DEPLIBS)
EXTRA_DIST += tests/tap.h tests/xorshift.h tests/lib.sh

UNIT_TESTS = \
	tests/unit/test_num \
	tests/unit/test_relin \
	tests/unit/test_parallel \
	tests/unit/test_memkeep \
	tests/unit/test_bigalloc \
	tests/unit/test_scratch \
	tests/unit/test_sort \
	tests/unit/test_index \
	tests/unit/test_chrome \
	tests/unit/test_json_scan \
	tests/unit/test_strmemo
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
tests_unit_test_num_LDADD = $(TT_TEST_LDADD)
tests_unit_test_relin_LDADD = $(TT_TEST_LDADD)
tests_unit_test_parallel_LDADD = $(TT_TEST_LDADD)
tests_unit_test_memkeep_LDADD = $(TT_TEST_LDADD)
tests_unit_test_bigalloc_LDADD = $(TT_TEST_LDADD)
tests_unit_test_scratch_LDADD = $(TT_TEST_LDADD)
tests_unit_test_sort_LDADD = $(TT_TEST_LDADD)
tests_unit_test_index_LDADD = $(TT_TEST_LDADD)
tests_unit_test_chrome_LDADD = $(TT_TEST_LDADD)
tests_unit_test_json_scan_LDADD = $(TT_TEST_LDADD)
tests_unit_test_strmemo_LDADD = $(TT_TEST_LDADD)
