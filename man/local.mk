dist_man_MANS += man/tracetty.1
