# attribution tests (see tests/local.mk for the driver setup): parents,
# self times and launch links against brute force on random traces, and
# `report --kind operators|kernels` against a python3 computation over the
# shared real traces.
ATTRIB_UNIT_TESTS = tests/unit/test_attrib
check_PROGRAMS += $(ATTRIB_UNIT_TESTS)
TESTS += $(ATTRIB_UNIT_TESTS)
tests_unit_test_attrib_LDADD = $(TT_TEST_LDADD)

ATTRIB_SHELL_TESTS = tests/cli/report_operators.sh
TESTS += $(ATTRIB_SHELL_TESTS)
EXTRA_DIST += $(ATTRIB_SHELL_TESTS) tests/cli/attrib_oracle.py
