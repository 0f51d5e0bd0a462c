# `tracetty diff` tests (see tests/local.mk for the driver setup): the
# engine on hand-made sides (analysis/diff.h), and the command against a
# python3 computation over a real trace and a changed copy of it.
DIFF_UNIT_TESTS = tests/unit/test_diff
check_PROGRAMS += $(DIFF_UNIT_TESTS)
TESTS += $(DIFF_UNIT_TESTS)
tests_unit_test_diff_LDADD = $(TT_TEST_LDADD)

DIFF_SHELL_TESTS = tests/cli/diff_ops.sh tests/cli/diff_inputs.sh
TESTS += $(DIFF_SHELL_TESTS)
EXTRA_DIST += $(DIFF_SHELL_TESTS) tests/cli/diff_oracle.py
