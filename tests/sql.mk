# SQL tables and `tracetty query` (src/sql/)
# sqltab_dump: one table walked without SQLite, for the table tests
check_PROGRAMS += tests/unit/sqltab_dump
tests_unit_sqltab_dump_LDADD = $(TT_TEST_LDADD)
TESTS += tests/cli/sql_tables.sh
EXTRA_DIST += tests/cli/sql_tables.sh
# tracetty query: the adapter, the database and the command
TESTS += tests/cli/query.sh
EXTRA_DIST += tests/cli/query.sh
