# report tests (see tests/local.mk for the driver setup): selection
# statistics against brute force, the writers and atomic output, the GPU
# breakdown of the shared Kineto traces, and `tracetty report` goldens.
REPORT_UNIT_TESTS = \
	tests/unit/test_stats \
	tests/unit/test_argvals \
	tests/unit/test_stats_output \
	tests/unit/test_stats_kineto \
	tests/unit/test_stats_fast
check_PROGRAMS += $(REPORT_UNIT_TESTS)
TESTS += $(REPORT_UNIT_TESTS)
tests_unit_test_stats_LDADD = $(TT_TEST_LDADD)
tests_unit_test_argvals_LDADD = $(TT_TEST_LDADD)
tests_unit_test_stats_output_LDADD = $(TT_TEST_LDADD)
tests_unit_test_stats_kineto_LDADD = $(TT_TEST_LDADD)
tests_unit_test_stats_fast_LDADD = $(TT_TEST_LDADD)

REPORT_SHELL_TESTS = \
	tests/cli/report.sh \
	tests/cli/report_errors.sh \
	tests/cli/report_notes.sh \
	tests/cli/output_files.sh \
	tests/cli/merge_reports.sh \
	tests/cli/report_shared.sh \
	tests/cli/report_steps.sh \
	tests/cli/report_launch.sh \
	tests/cli/overview.sh \
	tests/cli/report_names_guard.sh \
	tests/cli/comm.sh \
	tests/cli/mindspore_legacy.sh
TESTS += $(REPORT_SHELL_TESTS)
EXTRA_DIST += $(REPORT_SHELL_TESTS) tests/data/report tests/golden/report \
	tests/cli/steps_oracle.py tests/cli/overview_oracle.py tests/cli/comm_oracle.py \
	tests/cli/hccl_oracle.py
