# warning rules tests
check_PROGRAMS += tests/unit/test_rules
TESTS += tests/unit/test_rules tests/cli/check.sh tests/cli/check_impact.sh tests/cli/check_rules_real.sh \
	tests/cli/check_tensor_reload.sh
tests_unit_test_rules_LDADD = $(TT_TEST_LDADD)
EXTRA_DIST += tests/cli/check.sh tests/cli/check_impact.sh tests/cli/check_rules_real.sh \
	tests/cli/check_tensor_reload.sh
