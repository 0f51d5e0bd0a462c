libtracetty_a_SOURCES += \
	src/model/args.c src/model/args.h \
	src/model/attrs.c src/model/attrs.h \
	src/model/laneix.c src/model/laneix.h \
	src/model/merge.c src/model/merge.h \
	src/model/nest.c src/model/nest.h \
	src/model/trace.c src/model/trace.h
