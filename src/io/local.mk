libtracetty_a_SOURCES += \
	src/io/input.c src/io/input.h \
	src/io/inflater.c src/io/inflater.h \
	src/io/readahead.c src/io/readahead.h
libtracetty_a_SOURCES += src/io/atomic.c src/io/atomic.h
