# tui tests (see tests/local.mk for the driver setup): unit tests of the
# timeline's math and building blocks, golden `render` screens, terminal
# safety, and end-to-end tests that run the real TUI in tmux (each skips,
# or skips its tmux half, when tmux is absent; CI installs tmux).

TUI_UNIT_TESTS = \
	tests/tui/test_viewport \
	tests/tui/test_levels \
	tests/tui/test_keys \
	tests/tui/test_box \
	tests/tui/test_boxexport \
	tests/tui/test_marks \
	tests/tui/test_ranks \
	tests/tui/test_screen \
	tests/tui/test_modes \
	tests/unit/test_report_sel \
	tests/unit/test_calltree
check_PROGRAMS += $(TUI_UNIT_TESTS)
TESTS += $(TUI_UNIT_TESTS)
tests_tui_test_viewport_LDADD = $(TT_TEST_LDADD)
tests_tui_test_levels_LDADD = $(TT_TEST_LDADD)
tests_tui_test_keys_LDADD = $(TT_TEST_LDADD)
tests_tui_test_box_LDADD = $(TT_TEST_LDADD)
tests_tui_test_boxexport_LDADD = $(TT_TEST_LDADD)
tests_tui_test_marks_LDADD = $(TT_TEST_LDADD)
tests_tui_test_ranks_LDADD = $(TT_TEST_LDADD)
tests_tui_test_screen_LDADD = $(TT_TEST_LDADD)
# the view's modes table (modes.c)
tests_tui_test_modes_LDADD = $(TT_TEST_LDADD)
# report.c's tt_report_add_sel, added for the box export
tests_unit_test_report_sel_LDADD = $(TT_TEST_LDADD)
# analysis/calltree.h, the call tree panel's engine
tests_unit_test_calltree_LDADD = $(TT_TEST_LDADD)

TUI_SH_TESTS = \
	tests/tui/render.sh \
	tests/tui/render_cli.sh \
	tests/tui/annot_panel.sh \
	tests/tui/unsafe.sh \
	tests/tui/donewhen.sh \
	tests/tui/tmux_basic.sh \
	tests/tui/tmux_signals.sh \
	tests/tui/search_linear.sh \
	tests/tui/infopanel.sh \
	tests/tui/tmux_clipboard.sh \
	tests/tui/tmux_box.sh \
	tests/tui/tmux_marks.sh \
	tests/tui/tmux_annot.sh \
	tests/tui/marks_panel.sh \
	tests/tui/box_typed.sh \
	tests/tui/view_texts.sh \
	tests/tui/tmux_ranks.sh \
	tests/tui/ranks_numbers.sh \
	tests/tui/panel_texts.sh \
	tests/tui/calltree_real.sh \
	tests/tui/tmux_calltree.sh \
	tests/tui/tmux_boxself.sh \
	tests/tui/details_launch.sh \
	tests/tui/compare_render.sh \
	tests/tui/tmux_compare.sh \
	tests/tui/tmux_matrix.sh \
	tests/tui/tmux_sql.sh
TESTS += $(TUI_SH_TESTS)
EXTRA_DIST += $(TUI_SH_TESTS) tests/tui/tmux_lib.sh tests/tui/ttfmt.py tests/tui/calltree_oracle.py \
	tests/data/tui/basic.json \
	tests/data/tui/evil.json \
	tests/data/tui/ranks/rank-0.json \
	tests/data/tui/ranks/rank-1.json \
	tests/data/tui/ranks/rank-2.json \
	tests/golden/render
