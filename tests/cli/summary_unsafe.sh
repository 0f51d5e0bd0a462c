#!/bin/sh
# summary_unsafe.sh - trace strings holding ESC, BEL, CR, DEL, C1 controls,
# bidi overrides and invalid UTF-8 (tests/data/unsafe_names.json, in
# names, lane/process names, counter names, metadata and a phase) never
# reach the terminal raw: the bytes of the output are checked one by one
# in the C locale (ASCII only) and in a UTF-8 locale (valid UTF-8 without
# C1 or bidi/zero-width format characters). File names with control
# characters are checked the same way, in output and in error messages.
. "$srcdir/tests/lib.sh"

data="$srcdir/tests/data"
cd "$TMPD" || exit 1
cp "$data/unsafe_names.json" unsafe.json

# bad_bytes FILE MODE(ascii|utf8): print a description of the first unsafe
# byte sequence, or nothing. Newline is the only control allowed.
bad_bytes() {
    od -An -v -tu1 "$1" | awk -v mode="$2" '
    { for (i = 1; i <= NF; i++) b[n++] = $i + 0 }
    END {
        for (i = 0; i < n; i++) {
            c = b[i]
            if ((c < 32 && c != 10) || c == 127) { printf "control byte %d at %d\n", c, i; exit }
            if (c < 128) continue
            if (mode == "ascii") { printf "non-ASCII byte %d at %d\n", c, i; exit }
            if (c >= 194 && c <= 223) { len = 2; cp = c - 192 }
            else if (c >= 224 && c <= 239) { len = 3; cp = c - 224 }
            else if (c >= 240 && c <= 244) { len = 4; cp = c - 240 }
            else { printf "invalid UTF-8 lead %d at %d\n", c, i; exit }
            for (k = 1; k < len; k++) {
                d = b[i + k]
                if (i + k >= n || d < 128 || d > 191) { printf "invalid UTF-8 at %d\n", i; exit }
                cp = cp * 64 + (d - 128)
            }
            if ((len == 3 && cp < 2048) || (len == 4 && (cp < 65536 || cp > 1114111)) ||
                (cp >= 55296 && cp <= 57343)) { printf "overlong/surrogate at %d\n", i; exit }
            if (cp < 160) { printf "C1 control U+%04X at %d\n", cp, i; exit }
            if ((cp >= 8203 && cp <= 8207) || (cp >= 8234 && cp <= 8238) ||
                (cp >= 8294 && cp <= 8297) || cp == 65279) {
                printf "format character U+%04X at %d\n", cp, i; exit
            }
            i += len - 1
        }
    }'
}

# The checker itself must catch what it is meant to catch.
printf 'a\033b\n' >probe1; printf 'caf\303\251\n' >probe2
printf '\302\233\n' >probe3; printf '\342\200\256\n' >probe4; printf '\377\n' >probe5
is "$(bad_bytes probe1 utf8)" "control byte 27 at 1" "checker: finds ESC"
is "$(bad_bytes probe2 ascii)" "non-ASCII byte 195 at 3" "checker: finds non-ASCII in ASCII mode"
is "$(bad_bytes probe2 utf8)" "" "checker: accepts valid UTF-8"
is "$(bad_bytes probe3 utf8)" "C1 control U+009B at 0" "checker: finds C1 CSI"
is "$(bad_bytes probe4 utf8)" "format character U+202E at 0" "checker: finds RLO"
is "$(bad_bytes probe5 utf8)" "invalid UTF-8 lead 255 at 0" "checker: finds invalid UTF-8"

utf8_locale=
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if [ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ]; then
        utf8_locale=$l
        break
    fi
done

LC_ALL=C "$TRACETTY" summary unsafe.json >out.c 2>err.c
ok $? "C locale: summary exits 0"
is "$(bad_bytes out.c ascii)" "" "C locale: output is plain ASCII without controls"
is "$(cat err.c)" "" "C locale: nothing on stderr"
# what was escaped stays visible
matches out.c 'esc \\e\[31mred\\e\[0m' "ESC shown as \\e"
matches out.c 'bell\\x07 and raw \\e\[5m blink' "BEL shown as \\x07, a raw ESC byte as \\e"
matches out.c 'proc \\e\[2J clear / thread\\rover' "process and thread names escaped (\\e, \\r)"
matches out.c 'bad utf8 \\xff\\xfe \\xc3\( cut \\xe2\\x82' "invalid UTF-8 shown as \\xNN"
matches out.c 'raw c1 \\xc2\\x9b and del \\x7f' "C1 and DEL escaped"
matches out.c 'ctr\\e\.k\\x07' "counter name and key escaped"
matches out.c 'note=meta \\e\]0;pwned\\x07 value' "metadata value escaped"
matches out.c 'by phase: .*\\e 1' "an unknown phase byte escaped in the tally"
matches out.c 'unknown phase "\\e"' "and in the problem example"

if [ -n "$utf8_locale" ]; then
    LC_ALL=$utf8_locale "$TRACETTY" summary unsafe.json >out.u 2>err.u
    ok $? "UTF-8 locale: summary exits 0"
    is "$(bad_bytes out.u utf8)" "" "UTF-8 locale: valid UTF-8, no controls, no C1, no bidi"
    matches out.u 'ok caf.. ' "UTF-8 locale: valid UTF-8 names are kept"
    matches out.u 'c1 \\u009b31m csi' "UTF-8 locale: C1 CSI shown as \\u009b"
    matches out.u 'bidi \\u202egnp\.exe' "UTF-8 locale: RLO shown as \\u202e"
    matches out.u 'bad utf8 \\xff\\xfe \\xc3\( cut \\xe2\\x82' "UTF-8 locale: invalid bytes as \\xNN"
else
    for i in 1 2 3 4 5 6; do
        tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no UTF-8 locale installed"
    done
fi

# JSON escapes control characters itself (\u001b); no raw control bytes.
LC_ALL=C "$TRACETTY" summary --format json unsafe.json >out.json 2>/dev/null
ok $? "JSON summary exits 0"
is "$(tr -d '\t' <out.json | bad_bytes /dev/stdin utf8 | grep control)" "" \
    "JSON output holds no raw control bytes (tabs are its indentation)"
matches out.json 'esc \\u001b\[31mred' "JSON escapes ESC as \\u001b"

# File names with control characters: in the File line and in errors.
esc_name=$(printf 'x\033[31m\007.json')
cp unsafe.json "$esc_name"
LC_ALL=C "$TRACETTY" summary "$esc_name" >out.f 2>err.f
ok $? "a file name with ESC/BEL loads"
is "$(head -n 1 out.f)" 'File      x\e[31m\x07.json' "the File line shows the name escaped"
is "$(bad_bytes out.f ascii)" "" "no raw bytes from the file name"
LC_ALL=C "$TRACETTY" summary "missing$esc_name" >out.f 2>err.f
is "$?" 2 "a missing file with ESC in its name: exit status 2"
is "$(cat err.f)" 'tracetty: missingx\e[31m\x07.json: cannot open: No such file or directory' \
    "the error message shows the name escaped"
is "$(bad_bytes err.f ascii)" "" "no raw bytes in the error message"

tap_done
