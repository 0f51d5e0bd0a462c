libtracetty_a_SOURCES += \
	src/util/arena.c src/util/arena.h \
	src/util/bigalloc.c src/util/bigalloc.h \
	src/util/memkeep.c src/util/memkeep.h \
	src/util/error.c src/util/error.h \
	src/util/grow.h \
	src/util/hash.c src/util/hash.h \
	src/util/json.c src/util/json.h \
	src/util/natcmp.c src/util/natcmp.h \
	src/util/num.c src/util/num.h \
	src/util/parallel.c src/util/parallel.h \
	src/util/scratch.c src/util/scratch.h \
	src/util/sort.c src/util/sort.h \
	src/util/strtab.c src/util/strtab.h \
	src/util/suggest.c src/util/suggest.h \
	src/util/u64map.c src/util/u64map.h
libtracetty_a_SOURCES += src/util/text.c src/util/text.h
libtracetty_a_SOURCES += src/util/relin.c src/util/relin.h
libtracetty_a_SOURCES += src/util/timings.c src/util/timings.h
