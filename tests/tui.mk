# tui tests (see tests/local.mk for the driver setup)
