#!/bin/sh
# donewhen.sh - the issue's "done when", as a new user would do it, on the
# demo and on the Kineto traces in ../shared/traces, at 80x24 and 200x50,
# in tmux and through render (every tmux screen must equal render's):
# find the longest kernel (/cat:kernel, T), open its details and read its
# arguments, follow its incoming flow to the cudaLaunchKernel, then that
# call's parent CPU op, and quit with the terminal intact.
#
# The longest kernel is checked against python3 reading the JSON directly
# (that check is skipped when python3 is absent). Without tmux only the
# render half runs.
. "$srcdir/tests/lib.sh"

have_tmux=0
if command -v tmux > /dev/null 2>&1; then
    have_tmux=1
    . "$srcdir/tests/tui/tmux_lib.sh"
fi
have_py=0
command -v python3 > /dev/null 2>&1 && have_py=1

shared=$(shared_traces)
traces="$srcdir/samples/demo.json"
for t in pytorch/resnet50_workers0.pt.trace.json.gz pytorch/nccl_data.json.gz; do
    [ -f "$shared/$t" ] && traces="$traces $shared/$t"
done
[ -f "$srcdir/samples/demo.json" ] || skip_all "no samples/demo.json"

# The longest event whose category is "kernel" (any case): "NAME\tDUR"
# with the duration formatted as tracetty prints it.
longest_kernel() {
    python3 - "$1" <<'EOF'
import gzip, json, sys
f = sys.argv[1]
d = json.load((gzip.open if f.endswith('.gz') else open)(f, 'rt'))
ev = d['traceEvents'] if isinstance(d, dict) else d
ks = [e for e in ev if e.get('ph') == 'X' and str(e.get('cat', '')).lower() == 'kernel']
m = max(ks, key=lambda e: float(e['dur']))
ns = round(float(m['dur']) * 1000)
# as tracetty's status line: the unit of the magnitude, 3 decimals at
# most (rounded half up), trailing zeros dropped
unit, name = next((u, n) for u, n in ((10**9, 's'), (10**6, 'ms'), (10**3, 'us'), (1, 'ns'))
                  if ns >= u or u == 1)
d = min(3, len(str(unit)) - 1)
step = unit // 10**d
q = (ns + step // 2) // step if step > 1 else ns
ip, fp = divmod(q, 10**d)
txt = str(ip) + (('.' + ('%0*d' % (d, fp)).rstrip('0')) if d and fp else '')
print(m['name'][:40] + '\t' + txt + ' ' + name)
EOF
}

render() {   # size keys trace
    LC_ALL=C "$TRACETTY" render --size "$1" --keys "$2" "$3"
}

for trace in $traces; do
    tn=$(basename "$trace")
    for size in 80x24 200x50; do
        t="$tn $size"
        k0='/cat:kernel<Enter>T'
        k1="$k0<Enter>"
        render "$size" "$k0" "$trace" > "$TMPD/s0"
        render "$size" "$k1" "$trace" > "$TMPD/s1"
        matches "$TMPD/s1" 'Category +[Kk]ernel' "$t: /cat:kernel then T selects a kernel"
        matches "$TMPD/s1" 'Flow in +<- from cudaLaunchKernel' "$t: its details show the incoming flow from cudaLaunchKernel"
        if [ $have_py = 1 ]; then
            want=$(longest_kernel "$trace")
            name=$(printf '%s' "$want" | cut -f1)
            dur=$(printf '%s' "$want" | cut -f2)
            matches "$TMPD/s0" "longest #1 of [0-9]+ among matches of 'cat:kernel': $dur" \
                "$t: it is the longest kernel ($dur, as python3 finds)"
            grep -F -q -- "$name" "$TMPD/s1"
            ok $? "$t: named ${name}..."
        fi
        # the arguments: paging down through the panel
        : > "$TMPD/args"
        pg=
        for n in 1 2 3 4 5 6; do
            pg="$pg<PgDn>"
            render "$size" "$k1$pg" "$trace" >> "$TMPD/args"
        done
        matches "$TMPD/args" '\| Arguments' "$t: paging down the panel reaches its Arguments"
        matches "$TMPD/args" '\| correlation +[0-9]+ ' "$t: with the kernel's correlation id"
        matches "$TMPD/args" '\| grid +\[[0-9]+, *[0-9]+, *[0-9]+\]' "$t: and its grid"
        k2="$k1<Enter>"
        render "$size" "$k2" "$trace" > "$TMPD/s2"
        matches "$TMPD/s2" 'Name +cudaLaunchKernel' "$t: Enter on the flow goes to cudaLaunchKernel"
        # the parent: the user moves down to the Parent line (after the
        # outgoing flow, one or two lines) and presses Enter
        k3=
        for j in j jj jjj jjjj; do
            render "$size" "$k2$j<Enter>" "$trace" > "$TMPD/s3"
            if ! grep -Eq 'Name +cudaLaunchKernel|not a link|Category +(cuda_runtime|Runtime)' \
                   "$TMPD/s3" && grep -Eq 'Lane +.*\(CPU\)' "$TMPD/s3"; then
                k3="$k2$j<Enter>"
                break
            fi
        done
        ok "$([ -n "$k3" ]; echo $?)" "$t: its Parent line leads to the CPU op that launched it"
        [ -n "$k3" ] || continue
        if [ $have_tmux = 0 ]; then
            continue
        fi
        cols=${size%x*}
        rows=${size#*x}
        tm_start "$cols" "$rows" "stty -g > '$TMPD/stty.before'; LC_ALL=C '$TRACETTY' '$trace'; \
            echo \"status=\$?\"; stty -g > '$TMPD/stty.after'; echo FINISHED; sleep 600"
        if ! tm_wait '\? help' 60; then
            ok 1 "$t: tmux: the TUI opens"
            continue
        fi
        tm_text /cat:kernel; tm_keys Enter; tm_text T; tm_keys Enter
        tk=$k1
        render_to "$TMPD/want" "$size" "$tk" "$trace"
        tm_same "$TMPD/want" "$t: tmux: the longest kernel's details = render"
        tm_keys End; tk="$tk<End>"
        render_to "$TMPD/want" "$size" "$tk" "$trace"
        tm_same "$TMPD/want" "$t: tmux: its arguments = render"
        # close and reopen the panel: its cursor is on the first link again
        tm_keys Escape Enter Enter; tk="$tk<Esc><Enter><Enter>"
        render_to "$TMPD/want" "$size" "$tk" "$trace"
        tm_same "$TMPD/want" "$t: tmux: reopened, the flow followed to cudaLaunchKernel = render"
        tm_wait 'Name +cudaLaunchKernel' 2
        ok $? "$t: tmux: at cudaLaunchKernel"
        jj=${k3#"$k2"}
        jj=${jj%<Enter>}
        tm_text "$jj"; tm_keys Enter; tk="$tk$jj<Enter>"
        render_to "$TMPD/want" "$size" "$tk" "$trace"
        tm_same "$TMPD/want" "$t: tmux: the parent CPU op = render"
        tm_wait 'Lane +.*\(CPU\)' 2
        ok $? "$t: tmux: the parent is on the CPU"
        tm_text q
        tm_text q
        tm_wait FINISHED
        ok $? "$t: tmux: q closes the panel, q quits"
        tm_wait 'status=0' 1
        ok $? "$t: tmux: exit status 0"
        ok "$(cmp -s "$TMPD/stty.before" "$TMPD/stty.after"; echo $?)" "$t: tmux: terminal intact"
        is "$(tm_flag alternate_on)$(tm_flag mouse_any_flag)$(tm_flag cursor_flag)" 001 \
            "$t: tmux: normal screen, no mouse reporting, cursor visible"
    done
done
tap_done
