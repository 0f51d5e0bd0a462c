libtracetty_a_SOURCES += \
	src/io/input.c src/io/input.h
