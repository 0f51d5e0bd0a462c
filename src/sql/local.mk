# sql: the tables of `tracetty query` (sqltab.h: the contract), one file
# per table plus a row in tables.c.
libtracetty_a_SOURCES += \
	src/sql/sqltab.h \
	src/sql/src.c \
	src/sql/tables.c \
	src/sql/dump.c \
	src/sql/tab_process.c \
	src/sql/argflat.h \
	src/sql/argflat.c \
	src/sql/argfind.h \
	src/sql/argfind.c \
	src/sql/fn_extract_arg.c \
	src/sql/tab_counter_track.c \
	src/sql/tab_counter.c \
	src/sql/tab_flow.c \
	src/sql/tab_args.c \
	src/sql/tab_finding.c \
	src/sql/tab_marker.c
