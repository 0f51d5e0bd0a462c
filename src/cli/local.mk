libtracetty_a_SOURCES += \
	src/cli/cli.c src/cli/cli.h
libtracetty_a_SOURCES += \
	src/cli/progress.c src/cli/progress.h \
	src/cli/cmd_summary.c
