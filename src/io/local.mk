libtracetty_a_SOURCES += \
	src/io/input.c src/io/input.h
libtracetty_a_SOURCES += src/io/atomic.c src/io/atomic.h
