# markers tests
check_PROGRAMS += tests/unit/test_markers
TESTS += tests/unit/test_markers tests/cli/markers.sh
tests_unit_test_markers_LDADD = $(TT_TEST_LDADD)
EXTRA_DIST += tests/cli/markers.sh
