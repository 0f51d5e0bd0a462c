#!/bin/sh
# tmux_signals.sh - the terminal is restored whatever ends the session:
# SIGTERM, SIGHUP (an SSH drop), Ctrl-C, Ctrl-\ (SIGQUIT), a crash
# (SIGSEGV, SIGABRT) and the other signals that kill by default (SIGTRAP,
# SIGSYS, SIGXCPU, SIGXFSZ), and Ctrl-Z suspends and resumes cleanly. The program dies of the signal that
# ended it, after the terminal is back to normal (in a sanitizer build,
# AddressSanitizer reports the SIGSEGV and exits 1). A stop from outside
# (SIGSTOP) and fg pick up a resize made meanwhile.
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/tui/tmux_lib.sh"

trace="$srcdir/tests/data/tui/basic.json"

# Start the TUI under a shell that records the terminal modes, the
# program's pid and its exit status.
start_tui() {
    rm -f "$TMPD/pid" "$TMPD/stty.after"
    # the shell outlives a Ctrl-C (a handler, not an ignore: the program
    # must get the default disposition)
    tm_start 80 24 "trap : INT QUIT; ulimit -c 0; stty -g > '$TMPD/stty.before'; \
        sh -c 'echo \$\$ > \"$TMPD/pid\"; exec \"$TRACETTY\" view \"$trace\"'; \
        echo \"status=\$?\"; stty -g > '$TMPD/stty.after'; echo FINISHED; sleep 600"
    tm_wait '\? help' && tm_wait_file "$TMPD/pid"
}

# sig_num NAME: the signal's number here (SIGSYS, SIGXCPU... differ
# between systems; `kill -l NAME` gives no number in every shell).
sig_num() {
    sn=1
    while [ "$sn" -lt 128 ]; do
        [ "$(kill -l "$sn" 2>/dev/null)" = "$1" ] && { echo "$sn"; return; }
        sn=$((sn + 1))
    done
    echo 0
}

check_restored() {   # what expected-status
    tm_wait FINISHED
    ok $? "$1: the session ends"
    tm_wait "status=$2" 1
    ok $? "$1: exit status $2"
    tm_wait_file "$TMPD/stty.after" 5
    ok "$(cmp -s "$TMPD/stty.before" "$TMPD/stty.after"; echo $?)" "$1: terminal modes restored"
    is "$(tm_flag alternate_on)" 0 "$1: alternate screen left"
    is "$(tm_flag mouse_any_flag)$(tm_flag mouse_sgr_flag)" 00 "$1: mouse reporting off"
    is "$(tm_flag cursor_flag)" 1 "$1: cursor visible"
}

for sig in TERM HUP; do
    if start_tui; then
        kill -$sig "$(cat "$TMPD/pid")"
        case $sig in TERM) st=143 ;; HUP) st=129 ;; esac
        check_restored "SIG$sig" $st
    else
        ok 1 "SIG$sig: the TUI starts"
    fi
done

if start_tui; then
    tm_keys C-c
    check_restored "Ctrl-C" 130
else
    ok 1 "Ctrl-C: the TUI starts"
fi

# Ctrl-\: SIGQUIT from the terminal; the program dies of it (128 + 3)
if start_tui; then
    tm_keys 'C-\'
    check_restored "Ctrl-\\" 131
else
    ok 1 "Ctrl-\\: the TUI starts"
fi

# A sanitizer build: AddressSanitizer handles SIGSEGV itself, and the
# view's handler must restore the terminal and then let it report.
asan=no
grep -qa __asan_init "$TRACETTY" && asan=yes

# fatal signals: the handler writes the reset sequences itself
for sig in SEGV ABRT QUIT TRAP SYS XCPU XFSZ; do
    if [ "$sig" = SEGV ] && [ "$asan" = yes ]; then
        if start_tui; then
            kill -SEGV "$(cat "$TMPD/pid")"
            check_restored "SIGSEGV (sanitizer build)" 1
            tm_wait 'ERROR: AddressSanitizer: SEGV' 1
            ok $? "SIGSEGV (sanitizer build): AddressSanitizer's report is on the screen"
        else
            ok 1 "SIGSEGV: the TUI starts"
        fi
        continue
    fi
    if start_tui; then
        kill -$sig "$(cat "$TMPD/pid")"
        check_restored "SIG$sig" $((128 + $(sig_num $sig)))
    else
        ok 1 "SIG$sig: the TUI starts"
    fi
done

# Ctrl-Z in a shell with job control: suspended, the terminal is the
# shell's; fg brings the timeline back; q then quits cleanly.
if command -v bash > /dev/null 2>&1; then
    tm_start 80 24 "stty -g > '$TMPD/stty.before'; exec bash --norc --noprofile -i"
    tm_wait '\$|#' 10
    tm_text "PS1='READY> '"
    tm_keys Enter
    tm_wait '^READY>$' 10
    tm_text "'$TRACETTY' view '$trace'"
    tm_keys Enter
    if tm_wait '\? help'; then
        tm_keys C-z
        tm_wait 'Stopped' 10
        ok $? "Ctrl-Z: the job stops"
        is "$(tm_flag alternate_on)" 0 "Ctrl-Z: the shell has the normal screen"
        is "$(tm_flag mouse_any_flag)" 0 "Ctrl-Z: no mouse reporting while stopped"
        tm_text fg
        tm_keys Enter
        tm_wait '\? help' 10
        ok $? "fg: the timeline is back"
        is "$(tm_flag mouse_sgr_flag)" 1 "fg: mouse reporting again"
        tm_text q
        tm_wait '^READY>$' 10
        ok $? "q after fg: back at the prompt"
        # written under another name, then renamed: complete once it exists
        tm_text "stty -g > '$TMPD/stty.tmp' && mv '$TMPD/stty.tmp' '$TMPD/stty.after'"
        tm_keys Enter
        # bash changes the modes of its own line editor while it reads; it
        # restores them to what it found before running a command
        tm_wait_file "$TMPD/stty.after" 5
        same_file "$TMPD/stty.after" "$TMPD/stty.before" "Ctrl-Z and fg: terminal modes restored"
    else
        ok 1 "Ctrl-Z: the TUI starts from bash"
    fi
fi

# Stopped from outside (SIGSTOP), the terminal resized meanwhile, then fg:
# the SIGWINCH went to the shell that had the terminal, so the view must
# ask for the size itself when it is continued. Under LC_ALL=C the status
# line is ASCII, and "? help" ends it at the last column.
if command -v bash > /dev/null 2>&1; then
    tm_start 80 24 "exec bash --norc --noprofile -i"
    tm_wait '\$|#' 10
    tm_text "PS1='READY> '"
    tm_keys Enter
    tm_wait '^READY>$' 10
    rm -f "$TMPD/pid"
    tm_text "'$TRACETTY' view '$trace' & echo \$! > '$TMPD/pid'; fg"
    tm_keys Enter
    if tm_wait '\? help$' && tm_wait_file "$TMPD/pid"; then
        kill -STOP "$(cat "$TMPD/pid")"
        tm_wait 'Stopped' 10
        ok $? "SIGSTOP: the job stops"
        $TT_TMUX resize-window -t tt -x 100 -y 30
        tm_text fg
        tm_keys Enter
        tm_wait '^.{88,}\? help$' 10
        ok $? "SIGSTOP, resize, fg: the view is redrawn at the new size"
        tm_text q
        n=100
        while [ $n -gt 0 ] && kill -0 "$(cat "$TMPD/pid")" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
        ok "$(kill -0 "$(cat "$TMPD/pid")" 2>/dev/null && echo 1 || echo 0)" "q after SIGSTOP and fg: the view quits"
    else
        ok 1 "SIGSTOP: the TUI starts from bash"
    fi
fi

tap_done
