# attribution tests (see tests/local.mk for the driver setup): parents,
# self times and launch links against brute force on random traces, and
# `report --kind operators|kernels` against a python3 computation over the
# shared real traces; the attribution kept in a .ttz (restored, rebuilt,
# refused when damaged).
ATTRIB_UNIT_TESTS = tests/unit/test_attrib tests/unit/test_attribsec
check_PROGRAMS += $(ATTRIB_UNIT_TESTS)
TESTS += $(ATTRIB_UNIT_TESTS)
tests_unit_test_attrib_LDADD = $(TT_TEST_LDADD)
tests_unit_test_attribsec_LDADD = $(TT_TEST_LDADD)

ATTRIB_SHELL_TESTS = tests/cli/report_operators.sh tests/cli/snapshot_attrib.sh \
	tests/cli/torch_capture.sh
TESTS += $(ATTRIB_SHELL_TESTS)
EXTRA_DIST += $(ATTRIB_SHELL_TESTS) tests/cli/attrib_oracle.py \
	tests/cli/torch_capture_oracle.py tests/data/torch/README \
	tests/data/torch/capture.py tests/data/torch/capture.sh \
	tests/data/torch/env.json tests/data/torch/key_averages.json \
	tests/data/torch/key_averages.txt tests/data/torch/ncu_raw.csv \
	tests/data/torch/train.pt.trace.json.gz \
	tests/data/torch/amp/env.json tests/data/torch/amp/key_averages.json \
	tests/data/torch/amp/key_averages.txt \
	tests/data/torch/amp/train.pt.trace.json.gz \
	tests/data/torch/stack/env.json tests/data/torch/stack/key_averages.json \
	tests/data/torch/stack/key_averages.txt \
	tests/data/torch/stack/train.pt.trace.json.gz
