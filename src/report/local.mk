# report: see the files in this directory
