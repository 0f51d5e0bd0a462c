# tui: see the files in this directory
