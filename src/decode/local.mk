libtracetty_a_SOURCES += \
	src/decode/decode.c src/decode/decode.h \
	src/decode/json_scan.c src/decode/json_scan.h \
	src/decode/chrome.c
