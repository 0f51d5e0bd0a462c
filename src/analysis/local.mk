# analysis: selection statistics (library, no I/O) shared by the TUI box
# select and `tracetty report`.
libtracetty_a_SOURCES += \
	src/analysis/argvals.c src/analysis/argvals.h \
	src/analysis/calltree.c src/analysis/calltree.h \
	src/analysis/attrib.c src/analysis/attrib.h src/analysis/attrib_store.h \
	src/analysis/classify.c src/analysis/classify.h \
	src/analysis/diff.c src/analysis/diff.h \
	src/analysis/diffgate.c src/analysis/diffgate.h \
	src/analysis/dist.c src/analysis/dist.h \
	src/analysis/gpu.c src/analysis/gpu.h \
	src/analysis/gpusum.c src/analysis/gpusum.h \
	src/analysis/intervals.c src/analysis/intervals.h \
	src/analysis/kernels.c src/analysis/kernels.h \
	src/analysis/key.c src/analysis/key.h \
	src/analysis/modules.c src/analysis/modules.h \
	src/analysis/scaling.c src/analysis/scaling.h \
	src/analysis/normname.c src/analysis/normname.h \
	src/analysis/operators.c src/analysis/operators.h \
	src/analysis/overview.c src/analysis/overview.h \
	src/analysis/ncu_kernels.c src/analysis/ncu_kernels.h \
	src/analysis/ncu_join.c src/analysis/ncu_join.h \
	src/analysis/select.c src/analysis/select.h \
	src/analysis/selfsum.c src/analysis/selfsum.h \
	src/analysis/selsum.c src/analysis/selsum.h \
	src/analysis/setsum.c src/analysis/setsum.h \
	src/analysis/sidetab.c src/analysis/sidetab.h \
	src/analysis/stats_fast.c src/analysis/stats_fast.h \
	src/analysis/stats.c src/analysis/stats.h \
	src/analysis/steps.c src/analysis/steps.h \
	src/analysis/transfers.c src/analysis/transfers.h
