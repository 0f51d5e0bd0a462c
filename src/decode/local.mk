# decode: format detection and one decoder per input format.
libtracetty_a_SOURCES += \
	src/decode/decode.c src/decode/decode.h \
	src/decode/ascend_comm.c src/decode/ascend_comm.h \
	src/decode/json_scan.c src/decode/json_scan.h \
	src/decode/json_window.c src/decode/json_window.h \
	src/decode/chrome.c src/decode/chrome_chunks.c src/decode/chrome_chunks.h \
	src/decode/strmemo.h \
	src/decode/argjson.c src/decode/argjson.h \
	src/decode/csv_common.c src/decode/csv_common.h \
	src/decode/csv_ascend.c src/decode/csv_nsys.c src/decode/csv_generic.c \
	src/decode/ncu.c src/decode/mindspore_steps.c \
	src/decode/mindspore_hccl.c src/decode/mindspore_hccl.h \
	src/decode/neuron.c src/decode/hugectr.c src/decode/nsys_sqlite.c \
	src/decode/nsys_flows.c src/decode/nsys_flows.h \
	src/decode/sqlite_scan.c src/decode/sqlite_scan.h \
	src/decode/captures.c src/decode/captures.h \
	src/decode/ascend_tree.c src/decode/ascend_tree.h \
	src/decode/ascend_join.c src/decode/ascend_join.h
