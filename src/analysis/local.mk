# analysis: see the files in this directory
