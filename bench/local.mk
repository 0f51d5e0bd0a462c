# bench: `make bench` (not part of `make check`): performance figures against
# the budgets in DESIGN.md, measured on a generated 1M-event Kineto trace.
#
# Convention for benchmark programs (one file each):
#   bench/bench_<name>.c is built as bench/bench-<name> and listed here with
#     BENCH_PROGS += bench/bench-<name>
#     bench_bench_<name>_SOURCES = bench/bench_<name>.c
#     bench_bench_<name>_LDADD = libtracetty.a $(TT_DEPLIBS)
#   bench/run.sh runs every program in BENCH_PROGS after its own
#   measurements with the path of the generated 1M-event trace
#   (bench/out/kineto-1m-shuffled.json: events out of time order) as $1 and,
#   when the 10M-event run is on (not BENCH_QUICK=1), the 10M-event trace
#   (bench/out/kineto-10m-shuffled.json) as $2; a program that only knows
#   $1 ignores $2. It prints what the program prints. A program
#   reports on stdout in its own words (say what each figure is) and exits 0;
#   a non-zero exit is reported as a failure of that program.
# The programs are EXTRA_PROGRAMS: built by `make bench` only.

BENCH_PROGS =

BENCH_PROGS += bench/bench-load
bench_bench_load_SOURCES = bench/bench_load.c
bench_bench_load_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-stats
bench_bench_stats_SOURCES = bench/bench_stats.c
bench_bench_stats_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-render
bench_bench_render_SOURCES = bench/bench_render.c bench/frames.h
bench_bench_render_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-compare
bench_bench_compare_SOURCES = bench/bench_compare.c bench/frames.h
bench_bench_compare_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-snapshot
bench_bench_snapshot_SOURCES = bench/bench_snapshot.c
bench_bench_snapshot_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-calltree
bench_bench_calltree_SOURCES = bench/bench_calltree.c
bench_bench_calltree_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-attrib
bench_bench_attrib_SOURCES = bench/bench_attrib.c
bench_bench_attrib_LDADD = libtracetty.a $(TT_DEPLIBS)

BENCH_PROGS += bench/bench-sql
bench_bench_sql_SOURCES = bench/bench_sql.c
bench_bench_sql_LDADD = libtracetty.a $(TT_DEPLIBS)

# fork/exec/wait4 timer: wall time, CPU time and peak RSS of a command
bench_measure_SOURCES = bench/measure.c

# the reference parse the goals are ratios to (C++17 + simdjson; optional:
# configure's HAVE_SIMDJSON, else run.sh says "skipped")
bench_ref_simdjson_SOURCES = bench/ref_simdjson.cpp
bench_ref_simdjson_CXXFLAGS = -std=c++17 -O2
bench_ref_simdjson_LDADD = $(SIMDJSON_LIBS)
if HAVE_SIMDJSON
BENCH_REF = bench/ref-simdjson$(EXEEXT)
else
BENCH_REF =
endif

EXTRA_PROGRAMS = bench/measure bench/ref-simdjson $(BENCH_PROGS)
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += bench/run.sh bench/decoders.sh

bench: tracetty$(EXEEXT) samples/gen-trace$(EXEEXT) bench/measure$(EXEEXT) $(BENCH_REF) $(BENCH_PROGS)
	@TRACETTY='$(abs_top_builddir)/tracetty$(EXEEXT)' \
	REF_SIMDJSON='$(BENCH_REF:%=$(abs_top_builddir)/%)' \
	GEN_TRACE='$(abs_top_builddir)/samples/gen-trace$(EXEEXT)' \
	MEASURE='$(abs_top_builddir)/bench/measure$(EXEEXT)' \
	BENCH_PROGS='$(BENCH_PROGS)' PYTHON3='$(PYTHON3)' JQ='$(JQ)' \
	builddir='$(abs_top_builddir)' srcdir='$(abs_top_srcdir)' \
	$(SHELL) $(top_srcdir)/bench/run.sh

clean-local: clean-bench
clean-bench:
	-rm -rf bench/out

.PHONY: bench clean-bench
