# samples: gen-trace, the synthetic trace generator (build and test tool,
# not installed), and the bundled demo trace it wrote.
#
# samples/demo.json is `gen-trace kineto -o samples/demo.json` with the
# defaults, committed so that a plain `./tracetty` has something to open;
# tests/samples.mk checks that the generator still writes exactly it. After
# changing the generator, regenerate it with `make samples-demo` in a build
# directory and commit the result.
#
# A new format is samples/gen/<format>.c exporting a gen_format, listed in
# samples/gen/main.c and added to samples_gen_trace_SOURCES below.

noinst_PROGRAMS += samples/gen-trace
samples_gen_trace_SOURCES = \
	samples/gen/main.c \
	samples/gen/formats.h \
	samples/gen/common.c \
	samples/gen/common.h \
	samples/gen/kineto.c
# device profile formats (issue 7)
samples_gen_trace_SOURCES += \
	samples/gen/neuron.c samples/gen/ascend_csv.c samples/gen/nsys_csv.c \
	samples/gen/hugectr.c
samples_gen_trace_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/samples

dist_pkgdata_DATA += samples/demo.json

# Rewrite the demo in the source tree from this build's generator.
samples-demo: samples/gen-trace$(EXEEXT)
	$(AM_V_GEN)samples/gen-trace$(EXEEXT) kineto -o $(srcdir)/samples/demo.json
.PHONY: samples-demo

# Device profile samples (issue 7), written by gen-trace with its defaults and
# committed like the demo; tests/cli/formats_samples.sh checks that the
# generator still writes exactly them. Regenerate with `make samples-formats`.
FORMAT_SAMPLES = samples/neuron.json samples/kernel_details.csv \
	samples/cuda_gpu_trace.csv samples/hugectr_prof.json
EXTRA_DIST += $(FORMAT_SAMPLES)

samples-formats: samples/gen-trace$(EXEEXT)
	$(AM_V_GEN)samples/gen-trace$(EXEEXT) neuron -o $(srcdir)/samples/neuron.json && \
	samples/gen-trace$(EXEEXT) ascend-csv -o $(srcdir)/samples/kernel_details.csv && \
	samples/gen-trace$(EXEEXT) nsys-csv -o $(srcdir)/samples/cuda_gpu_trace.csv && \
	samples/gen-trace$(EXEEXT) hugectr -o $(srcdir)/samples/hugectr_prof.json
.PHONY: samples-formats
