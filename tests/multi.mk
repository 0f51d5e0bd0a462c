# multi-rank tests
check_PROGRAMS += tests/unit/test_multi
TESTS += tests/unit/test_multi tests/cli/ranks.sh tests/cli/collectives_clocks.sh
# serial vs parallel finalize, rules and streamed rank loads
TESTS += tests/cli/finalize_parallel.sh
tests_unit_test_multi_LDADD = $(TT_TEST_LDADD)
EXTRA_DIST += tests/cli/ranks.sh tests/cli/collectives_clocks.sh tests/cli/finalize_parallel.sh
# profiler output directories as jobs (src/multi/jobdir.h)
TESTS += tests/cli/jobdir.sh
EXTRA_DIST += tests/cli/jobdir.sh tests/data/jobdir
