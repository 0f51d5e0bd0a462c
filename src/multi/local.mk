libtracetty_a_SOURCES += \
	src/multi/rankset.c src/multi/rankset.h
libtracetty_a_SOURCES += src/multi/collectives.c src/multi/collectives.h
libtracetty_a_SOURCES += src/multi/jobdir.c src/multi/jobdir.h src/multi/jobdir_ms.c
