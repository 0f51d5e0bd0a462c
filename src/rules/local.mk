# rules: warning annotations (`tracetty check`, report --kind annotations, the view).
libtracetty_a_SOURCES += \
	src/rules/rules.c src/rules/rules.h \
	src/rules/rules_util.c src/rules/rules_util.h \
	src/rules/devwork.c src/rules/devwork.h \
	src/rules/rank.c src/rules/rank.h \
	src/rules/jobfacts.c src/rules/jobfacts.h \
	src/rules/jobrules.c src/rules/jobrules.h \
	src/rules/rule_host_calls.c src/rules/rule_host_calls.h \
	src/rules/rule_device_idle.c \
	src/rules/rule_host_sync.c \
	src/rules/rule_low_utilization.c \
	src/rules/rule_ncu_underused.c \
	src/rules/rule_pageable_memcpy.c \
	src/rules/rule_slow_card.c \
	src/rules/rule_slow_link.c \
	src/rules/rule_straggler.c \
	src/rules/rule_sync_memcpy.c \
	src/rules/rule_tensor_reload.c \
	src/rules/rule_throttle.c \
	src/rules/rule_tiny_kernels.c
