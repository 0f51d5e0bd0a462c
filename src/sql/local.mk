# sql: the tables of `tracetty query` (sqltab.h: the contract), one file
# per table plus a row in tables.c.
libtracetty_a_SOURCES += \
	src/sql/sqltab.h \
	src/sql/src.c \
	src/sql/tables.c \
	src/sql/dump.c \
	src/sql/tab_process.c \
	src/sql/evwalk.h \
	src/sql/evwalk.c \
	src/sql/evgroup.h \
	src/sql/evgroup.c \
	src/sql/lanewalk.h \
	src/sql/tab_slice.c \
	src/sql/tab_instant.c \
	src/sql/tab_track.c \
	src/sql/tab_thread_track.c \
	src/sql/tab_thread.c \
	src/sql/argflat.h \
	src/sql/argflat.c \
	src/sql/argfind.h \
	src/sql/argfind.c \
	src/sql/fn_extract_arg.c \
	src/sql/ctrname.h \
	src/sql/ctrname.c \
	src/sql/tab_counter_track.c \
	src/sql/tab_counter.c \
	src/sql/tab_flow.c \
	src/sql/tab_args.c \
	src/sql/tab_finding.c \
	src/sql/tab_marker.c \
	src/sql/tab_launch.c
# the SQLite side: sources, virtual tables, the database (only these
# include sqlite3.h), and tracetty's own `rank` table
libtracetty_a_SOURCES += \
	src/sql/srcset.h \
	src/sql/srcset.c \
	src/sql/vtab.h \
	src/sql/vtab.c \
	src/sql/db.h \
	src/sql/db.c \
	src/sql/result.h \
	src/sql/result.c \
	src/sql/tab_rank.c
