# cli: the command-line front end; one file per command.
libtracetty_a_SOURCES += \
	src/cli/cli.c src/cli/cli.h \
	src/cli/diff_gate.c src/cli/diff_gate.h \
	src/cli/diff_scaling.c src/cli/diff_scaling.h \
	src/cli/diffinput.c src/cli/diffinput.h \
	src/cli/loadpart.c src/cli/loadpart.h \
	src/cli/metrics.c src/cli/metrics.h \
	src/cli/ncu_summary.c src/cli/ncu_summary.h \
	src/cli/stat_summary.c src/cli/stat_summary.h \
	src/cli/opts.c src/cli/opts.h \
	src/cli/progress.c src/cli/progress.h \
	src/cli/show.c src/cli/show.h \
	src/cli/compare.c src/cli/compare.h src/cli/diffview.h \
	src/cli/cmd_check.c \
	src/cli/cmd_convert.c \
	src/cli/cmd_diff.c \
	src/cli/cmd_markers.c \
	src/cli/cmd_merge_reports.c \
	src/cli/cmd_render.c \
	src/cli/cmd_report.c \
	src/cli/cmd_query.c \
	src/cli/cmd_summary.c \
	src/cli/cmd_view.c
