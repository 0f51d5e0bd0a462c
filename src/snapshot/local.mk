# snapshot: the .ttz format (`tracetty convert`) and the --cache of snapshots.
libtracetty_a_SOURCES += \
	src/snapshot/snapshot.c src/snapshot/snapshot.h \
	src/snapshot/argcols.c src/snapshot/argcols.h src/snapshot/wire.h \
	src/snapshot/argslazy.c src/snapshot/argslazy.h \
	src/snapshot/evblocks.c src/snapshot/evblocks.h \
	src/snapshot/secpipe.c src/snapshot/secpipe.h \
	src/snapshot/attribsec.c src/snapshot/attribsec.h \
	src/snapshot/argtmplsec.c src/snapshot/argtmplsec.h \
	src/snapshot/cache.c src/snapshot/cache.h
