# report: report kinds and their CSV/JSON/text writer (`tracetty report`).
libtracetty_a_SOURCES += \
	src/report/annotations.c src/report/annotations.h \
	src/report/collrows.c src/report/collrows.h \
	src/report/diffout.c src/report/diffout.h \
	src/report/job.c src/report/job.h \
	src/report/kind.h src/report/kinds.c \
	src/report/kind_comm.c \
	src/report/kind_events.c \
	src/report/kind_gpu.c \
	src/report/kind_kernels.c src/report/kind_kernels.h \
	src/report/kind_lanes.c \
	src/report/kind_launch.c src/report/kind_launch.h \
	src/report/kind_operators.c src/report/kind_operators.h \
	src/report/kind_overview.c \
	src/report/kind_ops.c \
	src/report/kind_statistic.c src/report/kind_statistic.h \
	src/report/kind_steps.c src/report/kind_steps.h \
	src/report/kind_transfers.c \
	src/report/merge.c src/report/merge.h \
	src/report/ncu_report.c src/report/ncu_report.h \
	src/report/report.c src/report/report.h \
	src/report/writer.c src/report/writer.h
