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
	src/sql/lanewalk.h \
	src/sql/tab_slice.c \
	src/sql/tab_instant.c \
	src/sql/tab_track.c \
	src/sql/tab_thread_track.c \
	src/sql/tab_thread.c
