# SQL tables and `tracetty query` (src/sql/)
# sqltab_dump: one table walked without SQLite, for the table tests
check_PROGRAMS += tests/unit/sqltab_dump
tests_unit_sqltab_dump_LDADD = $(TT_TEST_LDADD)
TESTS += tests/cli/sql_tables.sh
EXTRA_DIST += tests/cli/sql_tables.sh tests/cli/sql_process_oracle.py
# tracetty query: the adapter, the database and the command
TESTS += tests/cli/query.sh
EXTRA_DIST += tests/cli/query.sh
# Ctrl-C during the load, a statement and -o output: status 130, no files
TESTS += tests/cli/query_sigint.sh
EXTRA_DIST += tests/cli/query_sigint.sh
# GROUP BY name without SQLite's sort, against python over the plain scan
TESTS += tests/cli/sql_group.sh
EXTRA_DIST += tests/cli/sql_group.sh
# the event tables (slice, instant) and the track tables: the ranged walk
# against brute force, and each table against a python3 oracle over the
# shared traces
check_PROGRAMS += tests/unit/test_sql_slice
TESTS += tests/unit/test_sql_slice
tests_unit_test_sql_slice_LDADD = $(TT_TEST_LDADD)
# sql/result.h over traces already loaded (the view's :sql)
check_PROGRAMS += tests/unit/test_sql_result
TESTS += tests/unit/test_sql_result
tests_unit_test_sql_result_LDADD = $(TT_TEST_LDADD)
TESTS += tests/cli/sql_slice.sh
EXTRA_DIST += tests/cli/sql_slice.sh tests/cli/sql_slice_oracle.py
TESTS += tests/cli/sql_more.sh
EXTRA_DIST += tests/cli/sql_more.sh tests/cli/sql_more_oracle.py
TESTS += tests/cli/sql_finding_job.sh
EXTRA_DIST += tests/cli/sql_finding_job.sh tests/cli/sql_finding_job_cmp.py
# argflat/argfind and EXTRACT_ARG (with SQLite) on records built in memory
check_PROGRAMS += tests/unit/test_argflat
TESTS += tests/unit/test_argflat
tests_unit_test_argflat_LDADD = $(TT_TEST_LDADD)
# Perfetto-style queries run unchanged, against a python model of the trace
TESTS += tests/cli/sql_perfetto.sh
EXTRA_DIST += tests/cli/sql_perfetto.sh tests/cli/sql_perfetto.sql tests/cli/sql_perfetto_oracle.py
# tracetty's launch table: every kernel's launching call and operator chain
# against attrib_oracle.py's links
TESTS += tests/cli/sql_launch.sh
EXTRA_DIST += tests/cli/sql_launch.sh tests/cli/sql_launch_oracle.py
