# diff gate tests (see tests/local.mk for the driver setup): --normalize's
# name rules, the --fail-if grammar and evaluation, --scaling tables.
GATE_UNIT_TESTS = \
	tests/unit/test_normname \
	tests/unit/test_diffgate
check_PROGRAMS += $(GATE_UNIT_TESTS)
TESTS += $(GATE_UNIT_TESTS)
tests_unit_test_normname_LDADD = $(TT_TEST_LDADD)
tests_unit_test_diffgate_LDADD = $(TT_TEST_LDADD)
GATE_SHELL_TESTS = tests/cli/diff_scaling.sh tests/cli/diff_gate.sh
TESTS += $(GATE_SHELL_TESTS)
EXTRA_DIST += $(GATE_SHELL_TESTS) tests/cli/scaling_oracle.py \
	tests/cli/gate_oracle.py tests/data/scaling tests/data/gate
