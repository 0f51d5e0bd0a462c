libtracetty_a_SOURCES += \
	src/markers/markers.c src/markers/markers.h
