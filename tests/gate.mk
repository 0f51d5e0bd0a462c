# diff gate tests (see tests/local.mk for the driver setup): --normalize's
# name rules, the --fail-if grammar and evaluation, --scaling tables.
GATE_UNIT_TESTS = \
	tests/unit/test_normname
check_PROGRAMS += $(GATE_UNIT_TESTS)
TESTS += $(GATE_UNIT_TESTS)
tests_unit_test_normname_LDADD = $(TT_TEST_LDADD)
