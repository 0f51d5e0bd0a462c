"""ttfmt.py - tracetty's duration text (tt_fmt_dur(ns, 3), src/tui/timefmt.c)
rebuilt in Python, for the tmux tests that compare screens with oracles.
The tests run python3 with PYTHONPATH=$srcdir/tests/tui and `from ttfmt
import fmt`."""


def fmt(ns):
    """ns as the view prints a duration: 3 significant decimals at most,
    trailing zeros dropped, halves rounded up ("1.5 ms", "21.336 ms")."""
    unit, name = next((u, n) for u, n in ((10**9, 's'), (10**6, 'ms'), (10**3, 'us'), (1, 'ns'))
                      if ns >= u or u == 1)
    d = 3
    while d > 0 and 10**d > unit:
        d -= 1
    scale = unit // 10**d
    q, rem = divmod(ns, scale)
    if scale > 1 and rem * 2 >= scale:
        q += 1
    ip, fp = divmod(q, 10**d)
    k = d
    while k > 0 and fp % 10 == 0:
        fp //= 10
        k -= 1
    return str(ip) + ('.%0*d' % (k, fp) if k else '') + ' ' + name
