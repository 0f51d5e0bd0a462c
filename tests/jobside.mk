# The side files and options of whole profiler outputs (issue 16):
# tests/cli/jobside.sh (malformed side files in check/summary/report,
# overview's text units, --window and --lanes, diff --metrics refused),
# and the fuzz targets of their readers: the
# older MindSpore step trace decoder, the Ascend side files (communication
# JSON, profiler_info JSON, step_trace_time/op_statistic/api_statistic
# CSV), the older MindSpore hccl_raw CSV and the --metrics ncu input
# joined to a timeline. The pattern is
# tests/qa.mk's: each target tests/fuzz/fuzz_NAME.c is always built as a
# regression program over its seed corpus tests/fuzz/corpus/NAME/ (cut
# from the real files in ../shared/traces-next, see its README), and with
# `CC=clang ./configure --enable-fuzzing` as a libFuzzer program run by
# `make fuzz-NAME [FUZZ_TIME=seconds]`. fuzz_files.h holds what the
# side-file targets share (the input written under the file's own name
# beside a tiny trace).

EXTRA_DIST += tests/fuzz/fuzz_files.h \
	tests/fuzz/corpus/mindspore tests/fuzz/corpus/ascend_comm \
	tests/fuzz/corpus/profinfo tests/fuzz/corpus/sidetab tests/fuzz/corpus/ncujoin \
	tests/fuzz/corpus/hccl

FUZZJOB_REGRESS = tests/fuzz/fuzz_mindspore_regress tests/fuzz/fuzz_ascend_comm_regress \
	tests/fuzz/fuzz_profinfo_regress tests/fuzz/fuzz_sidetab_regress \
	tests/fuzz/fuzz_ncujoin_regress tests/fuzz/fuzz_hccl_regress
check_PROGRAMS += $(FUZZJOB_REGRESS)
TESTS += $(FUZZJOB_REGRESS)
tests_fuzz_fuzz_mindspore_regress_SOURCES = tests/fuzz/fuzz_mindspore.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_mindspore_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"mindspore"'
tests_fuzz_fuzz_mindspore_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_ascend_comm_regress_SOURCES = tests/fuzz/fuzz_ascend_comm.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_ascend_comm_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"ascend_comm"'
tests_fuzz_fuzz_ascend_comm_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_profinfo_regress_SOURCES = tests/fuzz/fuzz_profinfo.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_profinfo_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"profinfo"'
tests_fuzz_fuzz_profinfo_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_sidetab_regress_SOURCES = tests/fuzz/fuzz_sidetab.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_sidetab_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"sidetab"'
tests_fuzz_fuzz_sidetab_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_ncujoin_regress_SOURCES = tests/fuzz/fuzz_ncujoin.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_ncujoin_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"ncujoin"'
tests_fuzz_fuzz_ncujoin_regress_LDADD = $(TT_TEST_LDADD)
tests_fuzz_fuzz_hccl_regress_SOURCES = tests/fuzz/fuzz_hccl.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_hccl_regress_CPPFLAGS = $(AM_CPPFLAGS) -DTT_FUZZ_CORPUS='"hccl"'
tests_fuzz_fuzz_hccl_regress_LDADD = $(TT_TEST_LDADD)

if ENABLE_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz_mindspore tests/fuzz/fuzz_ascend_comm \
	tests/fuzz/fuzz_profinfo tests/fuzz/fuzz_sidetab tests/fuzz/fuzz_ncujoin tests/fuzz/fuzz_hccl
tests_fuzz_fuzz_mindspore_SOURCES = tests/fuzz/fuzz_mindspore.c
tests_fuzz_fuzz_mindspore_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_mindspore_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_ascend_comm_SOURCES = tests/fuzz/fuzz_ascend_comm.c
tests_fuzz_fuzz_ascend_comm_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_ascend_comm_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_profinfo_SOURCES = tests/fuzz/fuzz_profinfo.c
tests_fuzz_fuzz_profinfo_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_profinfo_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_sidetab_SOURCES = tests/fuzz/fuzz_sidetab.c
tests_fuzz_fuzz_sidetab_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_sidetab_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_ncujoin_SOURCES = tests/fuzz/fuzz_ncujoin.c
tests_fuzz_fuzz_ncujoin_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_ncujoin_LDADD = libtracetty.a $(TT_DEPLIBS)
tests_fuzz_fuzz_hccl_SOURCES = tests/fuzz/fuzz_hccl.c
tests_fuzz_fuzz_hccl_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_hccl_LDADD = libtracetty.a $(TT_DEPLIBS)
fuzz-mindspore: tests/fuzz/fuzz_mindspore
	$(TT_FUZZ_RUN) mindspore
fuzz-ascend_comm: tests/fuzz/fuzz_ascend_comm
	$(TT_FUZZ_RUN) ascend_comm
fuzz-profinfo: tests/fuzz/fuzz_profinfo
	$(TT_FUZZ_RUN) profinfo
fuzz-sidetab: tests/fuzz/fuzz_sidetab
	$(TT_FUZZ_RUN) sidetab
fuzz-ncujoin: tests/fuzz/fuzz_ncujoin
	$(TT_FUZZ_RUN) ncujoin
fuzz-hccl: tests/fuzz/fuzz_hccl
	$(TT_FUZZ_RUN) hccl
else
fuzz-mindspore fuzz-ascend_comm fuzz-profinfo fuzz-sidetab fuzz-ncujoin fuzz-hccl:
	@echo "fuzzing needs clang and libFuzzer: CC=clang ./configure --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz-mindspore fuzz-ascend_comm fuzz-profinfo fuzz-sidetab fuzz-ncujoin fuzz-hccl

TESTS += tests/cli/jobside.sh
EXTRA_DIST += tests/cli/jobside.sh tests/fuzz/make-job-corpus.py
