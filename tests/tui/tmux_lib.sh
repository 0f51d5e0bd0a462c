# tmux_lib.sh - drive the real TUI in a private tmux server (sourced by the
# tests/tui/tmux_*.sh tests after tests/lib.sh).
#
# Every test gets its own server (-L tt-test-PID) with a config of its own
# (no status bar, so a WxH session gives the program a WxH terminal), and
# waits for what it expects on the screen by polling capture-pane, never
# by sleeping a fixed time.

command -v tmux > /dev/null 2>&1 || skip_all "tmux is not installed"
# a test run inside tmux must not talk to the user's server
unset TMUX TMUX_PANE

TT_SOCK="tt-test-$$"
TT_TMUX="tmux -L $TT_SOCK -f $TMPD/tmux.conf"
cat > "$TMPD/tmux.conf" <<'EOF'
set -g status off
set -g default-terminal screen
set -g history-limit 0
set -g exit-empty off
EOF
trap '$TT_TMUX kill-server > /dev/null 2>&1; rm -rf "$TMPD"' EXIT

UTF8_LOCALE=
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-\?8'; then UTF8_LOCALE=$l; break; fi
done

# tm_start COLS ROWS COMMAND: a new session running COMMAND (through sh).
tm_start() {
    $TT_TMUX kill-session -t tt > /dev/null 2>&1
    $TT_TMUX new-session -d -x "$1" -y "$2" -s tt "$3"
}

tm_capture() { $TT_TMUX capture-pane -p -t tt 2>/dev/null; }

# tm_keys KEY...: tmux key names (Enter, Escape, C-c, BSpace, ...).
tm_keys() { $TT_TMUX send-keys -t tt "$@"; }

# tm_text TEXT: literal text.
tm_text() { $TT_TMUX send-keys -t tt -l "$1"; }

# tm_flag NAME: a tmux format of the pane (alternate_on, mouse_sgr_flag, ...).
tm_flag() { $TT_TMUX display-message -p -t tt "#{$1}" 2>/dev/null; }

# tm_wait REGEX [SECONDS]: until the screen matches (grep -E).
tm_wait() {
    tm_n=$(( ${2:-15} * 10 ))
    while [ "$tm_n" -gt 0 ]; do
        if tm_capture | grep -Eq -- "$1"; then return 0; fi
        sleep 0.1
        tm_n=$((tm_n - 1))
    done
    return 1
}

# tm_wait_file FILE [SECONDS]: until a file exists.
tm_wait_file() {
    tm_n=$(( ${2:-15} * 10 ))
    while [ "$tm_n" -gt 0 ]; do
        [ -e "$1" ] && return 0
        sleep 0.1
        tm_n=$((tm_n - 1))
    done
    return 1
}

# tm_same WANT_FILE DESCRIPTION: the screen becomes exactly WANT_FILE
# (polled); on a timeout the difference is shown.
tm_same() {
    tm_n=150
    while [ "$tm_n" -gt 0 ]; do
        tm_capture | sed 's/ *$//' > "$TMPD/screen"
        if cmp -s "$TMPD/screen" "$1"; then ok 0 "$2"; return 0; fi
        sleep 0.1
        tm_n=$((tm_n - 1))
    done
    ok 1 "$2"
    diff -u "$1" "$TMPD/screen" | head -40 | sed 's/^/#   /'
    return 1
}

# render_to FILE SIZE KEYS TRACE [LOCALE]: what the TUI must show.
render_to() {
    LC_ALL=${5:-C} "$TRACETTY" render --size "$2" --keys "$3" "$4" | sed 's/ *$//' > "$1"
}
