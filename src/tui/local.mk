# tui: the terminal timeline (`tracetty view`) and its headless twin
# (`tracetty render`). Everything but term.c is curses-free library code.
libtracetty_a_SOURCES += \
	src/tui/viewport.c src/tui/viewport.h \
	src/tui/levels.c src/tui/levels.h \
	src/tui/input.c src/tui/input.h \
	src/tui/theme.c src/tui/theme.h \
	src/tui/grid.c src/tui/grid.h \
	src/tui/layout.c src/tui/layout.h \
	src/tui/timefmt.c src/tui/timefmt.h \
	src/tui/ruler.c src/tui/ruler.h \
	src/tui/timeline.c src/tui/timeline.h \
	src/tui/spark.c src/tui/spark.h \
	src/tui/search.c src/tui/search.h \
	src/tui/details.c src/tui/details.h \
	src/tui/infopanel.c src/tui/infopanel.h \
	src/tui/infoact.c \
	src/tui/plist.c src/tui/plist.h \
	src/tui/hilite.c src/tui/hilite.h \
	src/tui/statpanel.c src/tui/statpanel.h \
	src/tui/ctview.c src/tui/ctview.h \
	src/tui/boxexport.c src/tui/boxexport.h \
	src/tui/marks.c src/tui/marks.h \
	src/tui/annot.c src/tui/annot.h \
	src/tui/finding.c src/tui/finding.h \
	src/tui/table.c src/tui/table.h \
	src/tui/selfcols.c src/tui/selfcols.h \
	src/tui/busy.c src/tui/busy.h \
	src/tui/ranks.c src/tui/ranks.h \
	src/tui/collview.c src/tui/collview.h \
	src/tui/mstats.c src/tui/mstats.h \
	src/tui/app.c src/tui/app.h src/tui/app_impl.h \
	src/tui/actions.c \
	src/tui/panels.c \
	src/tui/ctpanel.c \
	src/tui/sqlpanel.c \
	src/tui/jobstop.c src/tui/jobstop.h \
	src/tui/boxact.c \
	src/tui/markact.c \
	src/tui/annotact.c \
	src/tui/rankact.c \
	src/tui/modes.c \
	src/tui/mode_rank.c \
	src/tui/mode_job.c \
	src/tui/mode_colls.c \
	src/tui/mode_matrix.c \
	src/tui/overlay.c \
	src/tui/bars.c \
	src/tui/help.c \
	src/tui/cmpview.c src/tui/cmpview.h \
	src/tui/term.c src/tui/term.h
