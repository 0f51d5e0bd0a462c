libtracetty_a_SOURCES += \
	src/index/index.c src/index/index.h
